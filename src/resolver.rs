//! Finds imported modules on disk and caches their summaries, so a lowering
//! in one file sees the kernels and callbacks of the modules it imports.

use crate::semantic::contract::{scope_for, SiteMatcher};
use crate::semantic::flow::{rename_refs, whole_words, Const, ConstAlt};
use crate::semantic::summary::{
    candidate_files, CallLowerings, CallReach, ForeignCall, ModuleSummary, Registration, StateSet,
};
use crate::semantic::{Module, Resolver};
use crate::syntax;
use dashmap::DashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Entries kept per call cache before it is emptied (keys hold the
/// callers' values, which typing keeps changing).
const CALL_CACHE_CAP: usize = 4096;

/// Where module text comes from: the disk, or (in the server) open buffers first.
/// Names read from a module's text (its helpers, its setters).
type Names = Arc<Vec<String>>;

pub trait SourceProvider: Sync {
    fn read(&self, path: &Path) -> Option<Arc<str>>;
}

pub struct Disk;

impl SourceProvider for Disk {
    fn read(&self, path: &Path) -> Option<Arc<str>> {
        let bytes = std::fs::read(path).ok()?;
        String::from_utf8(bytes).ok().map(Arc::from)
    }
}

/// Module summaries by file, computed once each, shared by all threads.
pub struct FsResolver<S: SourceProvider = Disk> {
    source: S,
    summaries: DashMap<PathBuf, Option<Arc<ModuleSummary>>>,
    /// What calls of other modules' functions returned, by (file, name,
    /// the call's values): `Resolver::call_returns`.
    call_returns: DashMap<String, (Option<Vec<ConstAlt>>, bool)>,
    /// What calls of other modules' functions reach, by (file, name, the
    /// call's values): `Resolver::call_reach`.
    call_reach: DashMap<String, CallReach>,
    /// What calls of other modules' registering functions store, by (file,
    /// name, the call's values, the def decorated): `Resolver::call_stores`.
    call_stores: DashMap<String, Arc<Vec<Registration>>>,
    /// What calls of other modules' state writers set, by (file, name,
    /// the call's values, entering): `Resolver::call_state`.
    call_state: DashMap<String, Arc<Vec<StateSet>>>,
    /// What calls of other modules' lowering helpers lower, by (file,
    /// name, the call's values): `Resolver::call_lowerings`.
    call_lowerings: DashMap<String, CallLowerings>,
    /// What a function another module made and handed out reaches (a
    /// closure its factory returns, named by `Module::local_ref`), by
    /// (file, that name): a summary holding that one function.
    local_refs: DashMap<String, Option<Arc<ModuleSummary>>>,
    /// The calls `call_returns` evaluated, by (file, tag): what a token
    /// made for one (`Module::call_tag`) binds.
    call_tags: DashMap<String, (String, ForeignCall, Option<Vec<String>>)>,
    /// What entering what calls of other modules' context managers make
    /// sets, by (file, name, the call's values, as a decorator):
    /// `Resolver::call_context_mesh`.
    call_context_mesh: DashMap<String, Option<crate::semantic::lowering::ContextMesh>>,
    /// `Resolver::call_set_mesh_abstract`, by (file, name, the call's values).
    call_set_mesh: DashMap<String, Option<Option<String>>>,
    /// The names of each module file's module-level functions, read from
    /// its text (`called_by`).
    top_level_defs: DashMap<PathBuf, Arc<Vec<String>>>,
    /// `called_by`, by (importer, module) file.
    called: DashMap<(PathBuf, PathBuf), Option<Vec<String>>>,
    /// The lowering helpers each module file defines
    /// (`analysis::lowering_helper_names`, read from its text).
    /// (`None`: no such file, also remembered.)
    helper_defs: DashMap<PathBuf, Option<Arc<Vec<String>>>>,
    /// The lowering helpers and `jax.set_mesh` callers of each module file,
    /// with its defs that call those of the modules it imports (one import
    /// deep: `helpers_of`, `chained_mesh_setters`), and the files each
    /// answer read besides its own (a change there forgets it).
    chained_helpers: DashMap<PathBuf, (Option<Names>, Vec<PathBuf>)>,
    chained_setters: DashMap<PathBuf, (Names, Vec<PathBuf>)>,
    /// `chained_state_managers` of each module file, with the module files
    /// it imports (a change there forgets it).
    chained_managers: DashMap<PathBuf, (Names, Vec<PathBuf>)>,
    /// The contracts whose sites summaries record (`set_contracts`).
    contracts: std::sync::RwLock<Option<Arc<SiteMatcher>>>,
    /// Parsed module files, with the text each was parsed from: one module
    /// answers many calls of its importers (each with a fresh model, but
    /// the same tree). Bounded by `MAX_TREE_BYTES` of source.
    trees: DashMap<PathBuf, (Arc<str>, tree_sitter::Tree)>,
    tree_bytes: std::sync::atomic::AtomicUsize,
    /// For a file, the files whose cached answers were computed asking
    /// about it (`Reading::FollowingImports`): stale when it changes.
    deep_dependents: DashMap<PathBuf, std::collections::HashSet<PathBuf>>,
    /// `resolve`'s file and name, by (importing file, dotted path): an
    /// import is asked about many times per module, and each time up to
    /// two dozen candidate files were joined and looked up. Cleared on any
    /// change (a new file may become the first candidate).
    resolved_files: DashMap<std::ffi::OsString, Option<(PathBuf, String)>>,
    /// What importing a module registers into other modules' dicts, by
    /// (file, depth): `module_registrations`.
    module_registrations: DashMap<String, Option<Arc<Vec<Registration>>>>,
    /// What the modules a file imports registered into another module's
    /// dicts, by (importer, registry module): `imported_registrations_into`.
    #[allow(clippy::type_complexity)]
    imported_registrations:
        DashMap<(PathBuf, PathBuf), (Arc<Vec<Registration>>, Arc<Vec<PathBuf>>)>,
}

thread_local! {
    /// The files whose answers about other modules' calls are being computed
    /// on this thread, one inside another (`FsResolver::with_module`).
    static ANSWERING: std::cell::RefCell<Vec<PathBuf>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Modules an answer may pass through: the model answering a call may ask
/// about calls into the modules it imports itself, once (a helper module's
/// context manager wrapping a library's), not further.
const MAX_ANSWER_DEPTH: usize = 2;

/// How a module's model is read to answer a call.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// Its own code only (one module deep).
    Plain,
    /// With the project's contracts, as summaries are built.
    WithContracts,
    /// Also asking the modules it imports (`MAX_ANSWER_DEPTH`): what a
    /// context manager of a helper module enters may be another module's.
    FollowingImports,
}

/// One more answer being computed on this thread, until dropped.
struct AnswerDepth {
    /// The depth with this answer.
    depth: usize,
    /// The file whose model asked for it, when that was an answer too.
    asking: Option<PathBuf>,
}

impl AnswerDepth {
    fn enter(file: &Path) -> AnswerDepth {
        ANSWERING.with_borrow_mut(|files| {
            let asking = files.last().cloned();
            files.push(file.to_path_buf());
            AnswerDepth {
                depth: files.len(),
                asking,
            }
        })
    }

    /// The depth of the answers being computed now: part of the key of an
    /// answer whose model follows imports (`answer_call`).
    fn current() -> usize {
        ANSWERING.with_borrow(|files| files.len())
    }
}

impl Drop for AnswerDepth {
    fn drop(&mut self) {
        ANSWERING.with_borrow_mut(|files| {
            files.pop();
        });
    }
}

/// Source bytes whose trees `FsResolver::trees` keeps (a tree takes some
/// ten times its text); past it the cache starts again.
const MAX_TREE_BYTES: usize = 8 << 20;

impl Default for FsResolver<Disk> {
    fn default() -> Self {
        FsResolver::new(Disk)
    }
}

impl<S: SourceProvider> FsResolver<S> {
    pub fn new(source: S) -> Self {
        FsResolver {
            source,
            summaries: DashMap::new(),
            call_returns: DashMap::new(),
            call_reach: DashMap::new(),
            call_stores: DashMap::new(),
            call_state: DashMap::new(),
            call_lowerings: DashMap::new(),
            local_refs: DashMap::new(),
            call_tags: DashMap::new(),
            call_context_mesh: DashMap::new(),
            call_set_mesh: DashMap::new(),
            top_level_defs: DashMap::new(),
            called: DashMap::new(),
            helper_defs: DashMap::new(),
            chained_helpers: DashMap::new(),
            chained_setters: DashMap::new(),
            chained_managers: DashMap::new(),
            contracts: Default::default(),
            trees: DashMap::new(),
            tree_bytes: Default::default(),
            deep_dependents: DashMap::new(),
            resolved_files: DashMap::new(),
            module_registrations: DashMap::new(),
            imported_registrations: DashMap::new(),
        }
    }

    /// The tree of `text`, the current text of `file`: parsed once while
    /// the text stays the same.
    fn tree_of(&self, file: &Path, text: &Arc<str>) -> Option<tree_sitter::Tree> {
        use std::sync::atomic::Ordering;
        if let Some(entry) = self.trees.get(file) {
            if Arc::ptr_eq(&entry.0, text) || *entry.0 == **text {
                return Some(entry.1.clone());
            }
        }
        let tree = syntax::parse(text, None)?;
        if self.tree_bytes.fetch_add(text.len(), Ordering::Relaxed) + text.len() > MAX_TREE_BYTES {
            self.trees.clear();
            self.tree_bytes.store(text.len(), Ordering::Relaxed);
        }
        self.trees
            .insert(file.to_path_buf(), (text.clone(), tree.clone()));
        Some(tree)
    }

    /// The project's contracts, for the summaries of the modules it
    /// imports: when they change, every summary is built again.
    pub fn set_contracts(&self, matcher: Option<Arc<SiteMatcher>>) {
        let mut current = self.contracts.write().unwrap_or_else(|e| e.into_inner());
        let same = match (&*current, &matcher) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a.key == b.key,
            _ => false,
        };
        if !same {
            *current = matcher;
            self.summaries.clear();
            self.call_returns.clear();
            self.call_reach.clear();
            self.call_stores.clear();
            self.call_state.clear();
            self.call_lowerings.clear();
            self.local_refs.clear();
            self.call_tags.clear();
            self.call_context_mesh.clear();
            self.call_set_mesh.clear();
            self.resolved_files.clear();
            self.chained_setters.clear();
            self.chained_managers.clear();
        }
    }

    /// Forgets a file's summary (it changed).
    pub fn invalidate(&self, path: &Path) {
        self.summaries.remove(path);
        self.resolved_files.clear();
        self.trees.remove(path);
        self.helper_defs.remove(path);
        self.chained_helpers
            .retain(|file, (_, read)| file != path && !read.iter().any(|r| r == path));
        self.chained_setters
            .retain(|file, (_, read)| file != path && !read.iter().any(|r| r == path));
        self.chained_managers
            .retain(|file, (_, read)| file != path && !read.iter().any(|r| r == path));
        self.top_level_defs.remove(path);
        self.imported_registrations
            .retain(|(from, into), (_, read)| {
                from != path && into != path && !read.iter().any(|r| r == path)
            });
        self.called
            .retain(|(importer, module), _| importer != path && module != path);
        // A call's answer depends on the called module's text (the
        // caller's values are part of the key), so calls into this file are
        // stale, and so are those into the files whose answers asked about
        // it (`Reading::FollowingImports`, recorded in `deep_dependents`).
        // The server calls this on every keystroke: clearing all made each
        // one parse every called module again. Keys of old values are
        // bounded by a size cap instead.
        let dependents = self
            .deep_dependents
            .remove(path)
            .map(|(_, files)| files)
            .unwrap_or_default();
        for file in dependents.iter().filter(|f| f.as_path() != path) {
            self.forget_answers_into(file);
        }
        self.forget_answers_into(path);
    }

    /// Forgets every cached answer about calls into `path`.
    fn forget_answers_into(&self, path: &Path) {
        let stale = format!("{}\0", path.display());
        forget_calls_into(&self.call_returns, &stale);
        forget_calls_into(&self.call_reach, &stale);
        forget_calls_into(&self.call_stores, &stale);
        forget_calls_into(&self.call_state, &stale);
        forget_calls_into(&self.call_lowerings, &stale);
        forget_calls_into(&self.local_refs, &stale);
        forget_calls_into(&self.call_tags, &stale);
        forget_calls_into(&self.call_context_mesh, &stale);
        forget_calls_into(&self.call_set_mesh, &stale);
        forget_calls_into(&self.module_registrations, &stale);
    }

    /// The lowering helpers module file `file` defines itself (its text
    /// scanned once until it changes).
    fn direct_helpers_of(&self, file: &Path) -> Option<Arc<Vec<String>>> {
        if let Some(found) = self.helper_defs.get(file) {
            return found.clone();
        }
        let found = self.source.read(file).map(|text| {
            let mut names = crate::analysis::lowering_helper_names(&text);
            names.extend(crate::analysis::lowering_method_names(&text));
            Arc::new(names)
        });
        self.helper_defs.insert(file.to_path_buf(), found.clone());
        found
    }

    /// The lowering helpers of module file `file`: its own, and its
    /// context managers calling one that a module it imports defines
    /// (`entered(mesh)` wrapping `runtime.activated(mesh)`): one import
    /// deep (`analysis::managers_calling`).
    fn helpers_of(&self, file: &Path) -> Option<Arc<Vec<String>>> {
        if let Some(found) = self.chained_helpers.get(file) {
            return found.0.clone();
        }
        let direct = self.direct_helpers_of(file);
        let mut read = Vec::new();
        let found = match (direct, self.source.read(file)) {
            (Some(direct), Some(text)) => {
                let imported =
                    self.imported_names(file, &text, &mut read, &|f| self.direct_helpers_of(f));
                let mut all = direct.as_ref().clone();
                for name in crate::analysis::managers_calling(&text, &imported) {
                    if !all.contains(&name) {
                        all.push(name);
                    }
                }
                Some(Arc::new(all))
            }
            (direct, _) => direct,
        };
        self.chained_helpers
            .insert(file.to_path_buf(), (found.clone(), read));
        found
    }

    /// The module-level functions of `file` that call `jax.set_mesh`, or a
    /// function of a module it imports that does (one import deep): JP009
    /// asks a call of one whether it hands over an AbstractMesh.
    fn chained_mesh_setters(&self, file: &Path, summary: &ModuleSummary) -> Arc<Vec<String>> {
        if let Some(found) = self.chained_setters.get(file) {
            return found.0.clone();
        }
        let mut all: Vec<String> = summary.mesh_setters.iter().cloned().collect();
        let mut read = Vec::new();
        if let Some(text) = self.source.read(file) {
            // The imported modules' setters read from their text (a def
            // naming `set_mesh(`), as the prefilter reads: summarising every
            // module a callee's module imports cost more than the answers.
            let set_mesh = ["set_mesh".to_owned()];
            let imported = self.imported_names(file, &text, &mut read, &|f| {
                let text = self.source.read(f)?;
                Some(Arc::new(crate::analysis::defs_calling(&text, &set_mesh)))
            });
            for name in crate::analysis::defs_calling(&text, &imported) {
                if !all.contains(&name) {
                    all.push(name);
                }
            }
        }
        let all = Arc::new(all);
        self.chained_setters
            .insert(file.to_path_buf(), (all.clone(), read));
        all
    }

    /// The lowering helpers of other modules `text` (the module in
    /// `from_file`) imports, as it calls them: `name` for `from m import
    /// name` (or its alias), `alias.name` for `import m as alias`. Read
    /// from the text's import lines as the prefilter reads text; the
    /// modules are scanned, not parsed.
    pub fn imported_helpers(&self, from_file: &Path, text: &str) -> Vec<String> {
        self.imported_names(from_file, text, &mut Vec::new(), &|f| self.helpers_of(f))
    }

    /// The names of other modules that `names_of` gives for each module
    /// file `text` imports, as the text calls them (`imported_helpers`);
    /// the files read are added to `read`.
    fn imported_names(
        &self,
        from_file: &Path,
        text: &str,
        read: &mut Vec<PathBuf>,
        names_of: &dyn Fn(&Path) -> Option<Arc<Vec<String>>>,
    ) -> Vec<String> {
        let mut out = Vec::new();
        let ident = |t: &str| {
            !t.is_empty()
                && t.chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
        };
        // A name being typed may have a stray character after it (`import
        // helper:`); recovery still reads the import, so the name counts.
        fn leading_name(t: &str) -> &str {
            let end = t
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(t.len());
            &t[..end]
        }
        let module_file = |module: &str, read: &mut Vec<PathBuf>| {
            let file = candidate_files(from_file, &format!("{module}.__name__"))
                .into_iter()
                .map(|(file, _)| file)
                .find(|file| file != from_file && self.direct_helpers_of(file).is_some());
            if let Some(file) = &file {
                read.push(file.clone());
            }
            file
        };
        // Only the lines holding `import ` are read (found with memchr:
        // this runs on every keystroke of a large module).
        let finder = memchr::memmem::Finder::new(b"import ");
        let mut lines: Vec<&str> = Vec::new();
        for at in finder.find_iter(text.as_bytes()) {
            let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
            if lines
                .last()
                .is_none_or(|l| !std::ptr::eq(l.as_ptr(), text[start..].as_ptr()))
            {
                lines.push(&text[start..end]);
            }
        }
        for line in lines {
            let line = line.trim_start();
            if let Some(rest) = line.strip_prefix("from ") {
                let Some((module, names)) = rest.split_once(" import ") else {
                    continue;
                };
                let module = module.trim();
                let helpers = module_file(module, read)
                    .and_then(|file| names_of(&file))
                    .unwrap_or_default();
                for item in names.split(',') {
                    let item = item
                        .trim()
                        .trim_matches(|c| c == '(' || c == ')' || c == '\\')
                        .trim();
                    let (name, local) = match item.split_once(" as ") {
                        Some((n, a)) => (leading_name(n.trim()), leading_name(a.trim())),
                        None => (leading_name(item), leading_name(item)),
                    };
                    if !ident(local) || name.is_empty() {
                        continue;
                    }
                    if helpers.iter().any(|h| h == name) {
                        out.push(local.to_owned());
                        continue;
                    }
                    // A class whose methods lower: called on its objects.
                    let methods = helpers
                        .iter()
                        .filter_map(|h| h.strip_prefix(name)?.strip_prefix('.'))
                        .map(|m| format!(".{m}"))
                        .collect::<Vec<_>>();
                    if !methods.is_empty() {
                        out.extend(methods);
                        continue;
                    }
                    // `from package import module`: that module's helpers,
                    // called as `module.helper(...)`.
                    let submodule = module_file(&format!("{module}.{name}"), read)
                        .and_then(|file| names_of(&file));
                    if let Some(helpers) = submodule {
                        out.extend(helpers.iter().map(|h| called_as(local, h)));
                    }
                }
            } else if let Some(rest) = line.strip_prefix("import ") {
                for item in rest.split(',') {
                    let item = item.trim();
                    let (module, local) = match item.split_once(" as ") {
                        Some((m, a)) => (leading_name(m.trim()), leading_name(a.trim())),
                        None => (leading_name(item), leading_name(item)),
                    };
                    if !ident(module) || !ident(local) {
                        continue;
                    }
                    let Some(file) = module_file(module, read) else {
                        continue;
                    };
                    if let Some(helpers) = names_of(&file) {
                        out.extend(helpers.iter().map(|h| called_as(local, h)));
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Whether `text` calls a lowering helper it imports (`imported_helpers`).
    pub fn calls_imported_helper(&self, from_file: &Path, text: &str) -> bool {
        let helpers = self.imported_helpers(from_file, text);
        !helpers.is_empty() && crate::analysis::calls_any(text, &helpers)
    }

    pub fn source(&self) -> &S {
        &self.source
    }

    pub fn summary(&self, path: &Path) -> Option<Arc<ModuleSummary>> {
        if let Some(cached) = self.summaries.get(path) {
            return cached.clone();
        }
        // Computed outside the map's lock: building a summary never resolves
        // other modules, so two threads at worst compute the same one twice.
        let computed = self.source.read(path).and_then(|text| {
            let tree = self.tree_of(path, &text)?;
            let module = Module::new(&text, &tree);
            let matcher = self
                .contracts
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .clone();
            module.set_contracts(scope_for(path, matcher));
            Some(Arc::new(ModuleSummary::build(&module, path)))
        });
        self.summaries.insert(path.to_path_buf(), computed.clone());
        computed
    }

    /// The file holding module `path` imported from `from_file`, with the
    /// name inside it: the first candidate with a summary.
    fn resolve_file(&self, from_file: &Path, path: &str) -> Option<(PathBuf, String)> {
        let mut own = None;
        for (file, name) in candidate_files(from_file, path) {
            if file == from_file {
                own = own.or((name != path).then_some(name));
                continue;
            }
            // Unreadable or missing candidates are cached as `None`.
            if self.summary(&file).is_some() {
                return Some((file, name));
            }
        }
        // Nothing else by that name: the module's own def named by its
        // module's path (the class of an object another module handed back,
        // `_w.Baz` read in `_w.py`; a def of it a registry returned).
        own.and_then(|name| {
            self.summary(from_file)?;
            Some((from_file.to_path_buf(), name))
        })
    }
}

/// `call` as the module in `to_file` reads it: the caller's own functions
/// and classes it passes (`Const::Ref` by their bare name in `from_file`)
/// named by a path that resolves from `to_file` (`train.loss_fn`), so that
/// what the callee calls with them is found.
///
/// Defs of the callee's own module that the caller imported and passes
/// back (`clipped_grad(loss, hook=record)`, both from `clip.py`) become the
/// bare names the callee knows them by.
fn named_for(call: &ForeignCall, from_file: &Path, to_file: &Path) -> ForeignCall {
    let mut call = call.clone();
    let rename = renamer(from_file, to_file);
    call.receiver.iter_mut().for_each(&rename);
    call.positional.iter_mut().for_each(&rename);
    call.keywords.iter_mut().for_each(|(_, alts)| rename(alts));
    call
}

/// Renames the defs named in values going from `from_file` to `to_file`
/// (see `named_for`).
fn renamer<'a>(from_file: &'a Path, to_file: &'a Path) -> impl Fn(&mut Vec<ConstAlt>) + 'a {
    let own = move |path: &str| def_of_file(from_file, to_file, path);
    let module = module_path_between(from_file, to_file);
    move |alts: &mut Vec<ConstAlt>| {
        rename_refs(alts, &|name| match name.contains('.') {
            true => own(name),
            false => module.as_ref().map(|module| format!("{module}.{name}")),
        })
    }
}

/// The def of `to_file` that `path`, read from `from_file`, names (`train.f`
/// seen from a helper of `train.py`: `f`).
fn def_of_file(from_file: &Path, to_file: &Path, path: &str) -> Option<String> {
    candidate_files(from_file, path)
        .into_iter()
        .find(|(file, _)| file == to_file)
        .map(|(_, name)| name)
        .filter(|name| !name.contains('.'))
}

/// The dotted path of the module in `from_file` relative to the nearest
/// directory above both files (`candidate_files` searches the directories
/// above `to_file`): `pkg/train.py` seen from `pkg/ops/util.py` is
/// `train`; a package's `__init__.py` is the package.
fn module_path_between(from_file: &Path, to_file: &Path) -> Option<String> {
    let from_dir = from_file.parent()?;
    let common = to_file
        .parent()?
        .ancestors()
        .take(12)
        .find(|a| from_dir.starts_with(a))?;
    let relative = from_file.strip_prefix(common).ok()?.with_extension("");
    let mut parts: Vec<&str> = relative
        .components()
        .map(|c| c.as_os_str().to_str())
        .collect::<Option<_>>()?;
    if parts.last() == Some(&"__init__") {
        parts.pop();
    }
    let valid = |p: &&str| {
        !p.is_empty()
            && !p.starts_with(|c: char| c.is_ascii_digit())
            && p.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    (!parts.is_empty() && parts.iter().all(valid)).then(|| parts.join("."))
}

/// Drops the cached answers for calls into the file whose keys start with
/// `stale`; empties a cache grown past `CALL_CACHE_CAP`.
fn forget_calls_into<V>(cache: &DashMap<String, V>, stale: &str) {
    if cache.len() > CALL_CACHE_CAP {
        cache.clear();
    } else {
        cache.retain(|key, _| !key.starts_with(stale));
    }
}

impl<S: SourceProvider> FsResolver<S> {
    /// `f` of module file `file` read for an importer, one module deep:
    /// parsed, given its file (for its tokens), told which of its functions
    /// the importer may call (`Module::set_imported`), and, with
    /// `contracts`, the project's contracts (as summaries are built).
    fn with_module<T>(
        &self,
        file: &Path,
        called: Option<Vec<String>>,
        reading: Reading,
        f: impl FnOnce(&Module<'_>) -> Option<T>,
    ) -> Option<T> {
        let text = self.source.read(file)?;
        let tree = self.tree_of(file, &text)?;
        let module = Module::new(&text, &tree);
        module.set_imported(called);
        let depth = AnswerDepth::enter(file);
        if let Some(asking) = depth.asking.as_ref() {
            // What `asking`'s answer said depends on this file too.
            self.deep_dependents
                .entry(file.to_path_buf())
                .or_default()
                .insert(asking.clone());
        }
        // (`depth` counts this answer.)
        if reading == Reading::FollowingImports && depth.depth < MAX_ANSWER_DEPTH {
            module.use_resolver(file, self);
        } else {
            module.set_file(file);
        }
        if reading == Reading::WithContracts {
            let matcher = self
                .contracts
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .clone();
            module.set_contracts(scope_for(file, matcher));
        }
        f(&module)
    }

    /// The module-level functions of `file` that the text of `from_file`
    /// names (a setter the importer may call), `None` if that text cannot
    /// be read. A function it never names, nor its own module, never runs
    /// for it (`Module::set_imported`).
    fn called_by(&self, from_file: &Path, file: &Path) -> Option<Vec<String>> {
        let key = (from_file.to_path_buf(), file.to_path_buf());
        if let Some(known) = self.called.get(&key) {
            return known.clone();
        }
        let found = self.read_called_by(from_file, file);
        self.called.insert(key, found.clone());
        found
    }

    fn read_called_by(&self, from_file: &Path, file: &Path) -> Option<Vec<String>> {
        let importer = self.source.read(from_file)?;
        let defs = match self.top_level_defs.get(file) {
            Some(defs) => defs.clone(),
            None => {
                let defs = Arc::new(
                    self.source
                        .read(file)
                        .map(|text| top_level_def_names(&text))
                        .unwrap_or_default(),
                );
                self.top_level_defs.insert(file.to_path_buf(), defs.clone());
                defs
            }
        };
        Some(
            defs.iter()
                .filter(|name| whole_words(&importer, name).next().is_some())
                .cloned()
                .collect(),
        )
    }

    /// What module file `file` answers for the importer `from_file`'s `call`
    /// of its `name` (`answer`, run on a fresh model of it, one module deep:
    /// its own imports are not followed), cached in `cache` by (file, name,
    /// the call's values renamed for that module, `extra`, what the importer
    /// calls there).
    #[allow(clippy::too_many_arguments)]
    fn answer_call<T: Clone>(
        &self,
        cache: &DashMap<String, Option<T>>,
        file: &Path,
        name: &str,
        from_file: &Path,
        call: &ForeignCall,
        extra: &str,
        reading: Reading,
        answer: impl FnOnce(&Module<'_>, &str, &ForeignCall) -> Option<T>,
    ) -> Option<T> {
        let call = named_for(call, from_file, file);
        let call = &match self.summary(file) {
            Some(summary) => self.with_imported_registrations(from_file, &summary, call),
            None => call,
        };
        let called = self.called_by(from_file, file);
        // A model following imports stops at `MAX_ANSWER_DEPTH`: its answer
        // depends on how deep it is asked.
        let follows =
            reading == Reading::FollowingImports && AnswerDepth::current() + 1 < MAX_ANSWER_DEPTH;
        let key = format!(
            "{}\0{name}\0{call:?}\0{extra}\0{called:?}\0{follows}",
            file.display()
        );
        if let Some(cached) = cache.get(&key) {
            return cached.clone();
        }
        let computed = self.with_module(file, called, reading, |module| answer(module, name, call));
        cache.insert(key, computed.clone());
        computed
    }

    /// The file of module `module` as `from_file` imports it (`pkg.ops`,
    /// `.ops`): the first candidate with a summary, not `from_file` itself.
    pub fn module_file(&self, from_file: &Path, module: &str) -> Option<PathBuf> {
        candidate_files(from_file, &format!("{module}.__name__"))
            .into_iter()
            .map(|(file, _)| file)
            .find(|file| file != from_file && self.summary(file).is_some())
    }

    /// The modules named by the import lines of `text` (of module file
    /// `file`): `import a.b` gives `a.b`; `from pkg import x` gives `pkg`
    /// and `pkg.x` (which may be a module). Only those lines are read.
    fn imported_module_names(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        // A dotted name, less what follows it (`import a  # noqa`).
        let leading = |t: &str| -> String {
            let t = t.trim();
            let end = t
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(t.len());
            t[..end].to_owned()
        };
        for line in text.lines().map(str::trim_start) {
            let line = line.split('#').next().unwrap_or(line);
            if let Some(rest) = line.strip_prefix("from ") {
                let Some((module, names)) = rest.split_once(" import ") else {
                    continue;
                };
                let module = module.trim();
                for name in names.split(',') {
                    let name = name.trim().trim_matches(|c| c == '(' || c == ')').trim();
                    let name = leading(name.split(" as ").next().unwrap_or(name));
                    if !name.is_empty() {
                        let sep = if module.ends_with('.') { "" } else { "." };
                        out.push(format!("{module}{sep}{name}"));
                    }
                }
                out.push(module.to_owned());
            } else if let Some(rest) = line.strip_prefix("import ") {
                for item in rest.split(',') {
                    let module = leading(item.split(" as ").next().unwrap_or(""));
                    if !module.is_empty() {
                        out.push(module);
                    }
                }
            }
        }
        out
    }

    /// Whether module file `file`'s import lines name one of `files` (by
    /// the paths they could come from: no module is read for it).
    fn imports_one_of(&self, file: &Path, files: &[PathBuf]) -> bool {
        let Some(text) = self.source.read(file) else {
            return false;
        };
        Self::imported_module_names(&text).iter().any(|module| {
            candidate_files(file, &format!("{module}.__name__"))
                .iter()
                .any(|(candidate, _)| files.iter().any(|f| f == candidate))
        })
    }

    /// What running module file `file` registers into other modules'
    /// dicts (`Module::registrations` of its model, its imports followed to
    /// `MAX_ANSWER_DEPTH`), cached per file and depth.
    fn registrations_of_module(&self, file: &Path) -> Arc<Vec<Registration>> {
        let follows = AnswerDepth::current() + 1 < MAX_ANSWER_DEPTH;
        let key = format!("{}\0registrations\0{follows}", file.display());
        if let Some(cached) = self.module_registrations.get(&key) {
            return cached.clone().unwrap_or_default();
        }
        let computed = follows
            .then(|| {
                self.with_module(file, None, Reading::FollowingImports, |module| {
                    Some(module.registrations())
                })
            })
            .flatten();
        self.module_registrations.insert(key, computed.clone());
        computed.unwrap_or_default()
    }

    /// `Resolver::imported_registrations_into`, with the files of the
    /// modules whose import lines were read for it (what the answer depends
    /// on, besides the two files).
    #[allow(clippy::type_complexity)]
    pub fn registrations_into(
        &self,
        from_file: &Path,
        into: &Path,
    ) -> (Arc<Vec<Registration>>, Arc<Vec<PathBuf>>) {
        let key = (from_file.to_path_buf(), into.to_path_buf());
        if let Some(found) = self.imported_registrations.get(&key) {
            return found.clone();
        }
        let mut found = Vec::new();
        let mut read = Vec::new();
        if let Some(text) = self.source.read(from_file) {
            let mut modules: Vec<PathBuf> = Self::imported_module_names(&text)
                .iter()
                .filter_map(|module| self.module_file(from_file, module))
                .filter(|file| file != into)
                .collect();
            modules.sort();
            modules.dedup();
            for file in modules {
                read.push(file.clone());
                // Only a module naming `into` in its imports can register
                // into it (its import lines are read to tell).
                if !self.imports_one_of(&file, std::slice::from_ref(&key.1)) {
                    continue;
                }
                let rename = renamer(&file, from_file);
                for registration in self.registrations_of_module(&file).iter() {
                    if *registration.file != *into {
                        continue;
                    }
                    let mut registration = registration.clone();
                    rename(&mut registration.values);
                    found.push(registration);
                }
            }
        }
        let found = (Arc::new(found), Arc::new(read));
        self.imported_registrations.insert(key, found.clone());
        found
    }

    /// `call` into module file `into` (its summary `summary`) with what the
    /// modules the caller imports registered into `into`'s dicts added to
    /// what the caller did (`import experiments` for its `@register`
    /// decorators, then `get_experiment(name)`): only for a module with
    /// registrars.
    fn with_imported_registrations(
        &self,
        from_file: &Path,
        summary: &ModuleSummary,
        call: ForeignCall,
    ) -> ForeignCall {
        if summary.registrars.is_empty() {
            return call;
        }
        let (imported, _) = self.registrations_into(from_file, &summary.file);
        if imported.is_empty() {
            return call;
        }
        let mut call = call;
        let mut registered = call.registered.as_ref().clone();
        registered.extend(imported.iter().cloned());
        call.registered = Arc::new(registered);
        call
    }

    /// A summary of the one function `path` names, when it is a
    /// `Module::local_ref` of a module whose summary was read (a closure
    /// an imported factory returned, passed around by the importer): what
    /// it reaches, keyed by `path`.
    fn local_ref_summary(&self, path: &str) -> Option<Arc<ModuleSummary>> {
        let tag = path
            .strip_prefix(crate::semantic::reach::LOCAL_REF)?
            .strip_prefix('.')?
            .split('.')
            .next()?;
        let file = self
            .summaries
            .iter()
            .find(|entry| {
                entry.value().is_some() && crate::semantic::reach::file_tag(entry.key()) == tag
            })
            .map(|entry| entry.key().clone())?;
        let key = format!("{}\0{path}", file.display());
        if let Some(cached) = self.local_refs.get(&key) {
            return cached.clone();
        }
        let call = Module::local_ref_call_tag(path)
            .and_then(|tag| self.call_tags.get(&format!("{}\0{tag}", file.display())))
            .map(|entry| entry.value().clone());
        let called = call.as_ref().and_then(|(_, _, called)| called.clone());
        let computed = self.with_module(&file, called, Reading::WithContracts, |module| {
            let function = match &call {
                Some((name, call, _)) => {
                    module.local_ref_function_for_call(path, &file, name, call)?
                }
                None => module.local_ref_function(path, &file)?,
            };
            let mut summary = ModuleSummary::empty(Arc::from(file.as_path()));
            summary.functions.insert(path.to_owned(), function);
            Some(Arc::new(summary))
        });
        self.local_refs.insert(key, computed.clone());
        computed
    }
}

impl<S: SourceProvider> Resolver for FsResolver<S> {
    fn resolve(&self, from_file: &Path, path: &str) -> Option<(Arc<ModuleSummary>, String)> {
        if path.starts_with(crate::semantic::reach::LOCAL_REF) {
            return self
                .local_ref_summary(path)
                .map(|summary| (summary, path.to_owned()));
        }
        let mut key = from_file.as_os_str().to_owned();
        key.push("\0");
        key.push(path);
        let found = match self.resolved_files.get(&key) {
            Some(found) => found.clone(),
            None => {
                let found = self.resolve_file(from_file, path);
                self.resolved_files.insert(key, found.clone());
                found
            }
        };
        let (file, name) = found?;
        Some((self.summary(&file)?, name))
    }

    fn call_returns(
        &self,
        from_file: &Path,
        path: &str,
        call: &ForeignCall,
    ) -> Option<Vec<ConstAlt>> {
        let (summary, name) = self.resolve_function(from_file, path)?;
        let call = &self.with_imported_registrations(
            from_file,
            &summary,
            named_for(call, from_file, &summary.file),
        );
        let called = self.called_by(from_file, &summary.file);
        let answer = |reading: Reading| {
            let key = format!(
                "{}\0{name}\0{call:?}\0{called:?}\0{}",
                summary.file.display(),
                reading == Reading::FollowingImports
            );
            if let Some(cached) = self.call_returns.get(&key) {
                return cached.clone();
            }
            // Closures the call returns are tokens tagged with it.
            let tag = {
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                key.hash(&mut h);
                format!("K{:x}", h.finish())
            };
            self.call_tags.insert(
                format!("{}\0{tag}", summary.file.display()),
                (name.clone(), call.clone(), called.clone()),
            );
            let computed = self.with_module(&summary.file, called.clone(), reading, |module| {
                module.call_tag.replace(Some(tag));
                let returned = module.returns_for_call(&name, call);
                // Worth reading again following its imports only when it
                // asked about another module's names.
                Some((returned, module.wanted_imports.get()))
            });
            let computed = computed.unwrap_or((None, false));
            self.call_returns.insert(key, computed.clone());
            computed
        };
        // The called module alone first; what it leaves unknown, its model
        // asks the modules it imports in turn (a helper returning another
        // helper's value), to `MAX_ANSWER_DEPTH`. (Following every answer's
        // imports cost a third of a whole check.)
        let (mut computed, wanted) = answer(Reading::Plain);
        // Unknown, or an object of another module's class whose fields the
        // read alone could not make (`CLASSES[name](value)`).
        let unknown = computed.as_ref().is_none_or(|alts| {
            alts.iter().all(|a| match &a.val {
                Const::Unknown => true,
                Const::Object(fields) => fields.iter().all(|(name, _)| name == "__class__"),
                _ => false,
            })
        });
        if wanted && unknown && AnswerDepth::current() + 1 < MAX_ANSWER_DEPTH {
            if let (Some(deeper), _) = answer(Reading::FollowingImports) {
                computed = Some(deeper);
            }
        }
        // A def of the caller jitted and handed back (`variant_jit(f)`
        // returning `jax.jit(f)`): by the caller's own name again.
        computed.map(|mut alts| {
            for alt in &mut alts {
                let Const::Jitted(jit) = &mut alt.val else {
                    continue;
                };
                let Const::Ref(path) = &jit.function else {
                    continue;
                };
                let own = path
                    .contains('.')
                    .then(|| def_of_file(&summary.file, from_file, path))
                    .flatten();
                if let Some(name) = own {
                    let mut renamed = jit.as_ref().clone();
                    renamed.function =
                        Const::Ref(format!("{}.{name}", crate::semantic::reach::OWN_REF));
                    *jit = std::sync::Arc::new(renamed);
                }
            }
            alts
        })
    }

    fn call_reach(&self, from_file: &Path, path: &str, call: &ForeignCall) -> CallReach {
        let (summary, name) = self.resolve_function(from_file, path)?;
        // Built as the summary is (contracts included).
        self.answer_call(
            &self.call_reach,
            &summary.file,
            &name,
            from_file,
            call,
            "",
            Reading::WithContracts,
            |module, name, call| {
                let mut reach = module.reach_for_call(name, call)?;
                for req in &mut reach.reqs {
                    req.file = Some(summary.file.clone());
                }
                Some(Arc::new(reach))
            },
        )
    }
    fn imported_lowering_helpers(&self, from_file: &Path, text: &str) -> Vec<String> {
        self.imported_helpers(from_file, text)
    }

    fn is_lowering_helper(&self, from_file: &Path, path: &str) -> bool {
        let helper_named = |path: &str, method: Option<&str>| {
            candidate_files(from_file, path)
                .into_iter()
                .filter(|(file, _)| file != from_file)
                .find_map(|(file, name)| Some((self.helpers_of(&file)?, name)))
                .is_some_and(|(helpers, name)| match method {
                    Some(method) => helpers.contains(&format!("{name}.{method}")),
                    None => helpers.contains(&name),
                })
        };
        // A function, or a method of a class (`pkg.mod.Class.method`, only
        // ever asked for an object's method: `foreign_method_call`).
        helper_named(path, None)
            || path
                .rsplit_once('.')
                .filter(|(class, _)| class.contains('.'))
                .is_some_and(|(class, method)| helper_named(class, Some(method)))
    }

    fn call_stores(
        &self,
        from_file: &Path,
        path: &str,
        call: &ForeignCall,
        applied_to: Option<&[ConstAlt]>,
    ) -> Vec<Registration> {
        let Some((summary, name)) = self.resolve_function(from_file, path) else {
            return Vec::new();
        };
        if !summary.registrars.contains(&name) {
            return Vec::new();
        }
        let call = &named_for(call, from_file, &summary.file);
        let applied_to = applied_to.map(|alts| {
            let mut alts = alts.to_vec();
            renamer(from_file, &summary.file)(&mut alts);
            alts
        });
        let called = self.called_by(from_file, &summary.file);
        let key = format!(
            "{}\0{name}\0{call:?}\0{applied_to:?}\0{called:?}",
            summary.file.display()
        );
        if let Some(cached) = self.call_stores.get(&key) {
            return cached.as_ref().clone();
        }
        // One module deep, as `call_returns`.
        let computed = self
            .with_module(&summary.file, called, Reading::Plain, |module| {
                let stores = module.stores_for_call(&name, call, applied_to.as_deref());
                Some(
                    stores
                        .into_iter()
                        .map(|(dict, key, values)| Registration {
                            file: summary.file.clone(),
                            dict,
                            key,
                            values,
                        })
                        .collect::<Vec<_>>(),
                )
            })
            .unwrap_or_default();
        self.call_stores.insert(key, Arc::new(computed.clone()));
        computed
    }

    fn imported_registrations_into(&self, from_file: &Path, into: &Path) -> Vec<Registration> {
        self.registrations_into(from_file, into).0.as_ref().clone()
    }

    fn call_context_mesh(
        &self,
        from_file: &Path,
        path: &str,
        call: &ForeignCall,
        as_decorator: bool,
    ) -> Option<crate::semantic::lowering::ContextMesh> {
        let (summary, name) = self.resolve_function(from_file, path)?;
        let extra = if as_decorator { "decorator" } else { "" };
        self.answer_call(
            &self.call_context_mesh,
            &summary.file,
            &name,
            from_file,
            call,
            extra,
            Reading::FollowingImports,
            |module, name, call| module.context_mesh_for_call(name, call, as_decorator),
        )
    }

    fn call_set_mesh_abstract(
        &self,
        from_file: &Path,
        path: &str,
        call: &ForeignCall,
    ) -> Option<Option<String>> {
        let (summary, name) = self.resolve_function(from_file, path)?;
        if *summary.file == *from_file {
            return None;
        }
        // A def calling `set_mesh` itself is answered by its module alone;
        // one calling another module's setter asks that module in turn.
        let reading = if summary.mesh_setters.contains(&name) {
            Reading::Plain
        } else if self
            .chained_mesh_setters(&summary.file, &summary)
            .contains(&name)
        {
            Reading::FollowingImports
        } else {
            return None;
        };
        self.answer_call(
            &self.call_set_mesh,
            &summary.file,
            &name,
            from_file,
            call,
            "",
            reading,
            |module, name, call| module.set_mesh_abstract_for_call(name, call),
        )
    }

    // Asked of a model of `file` that follows its imports, for a module that
    // imports another module of the workspace.
    fn summary_of(&self, file: &Path) -> Option<Arc<ModuleSummary>> {
        self.summary(file)
    }

    fn chained_state_managers(&self, file: &Path) -> Arc<Vec<String>> {
        if let Some(found) = self.chained_managers.get(file) {
            return found.0.clone();
        }
        // Too deep for its model to ask the modules it imports: not known
        // here, and not remembered.
        if AnswerDepth::current() + 1 >= MAX_ANSWER_DEPTH {
            return Names::default();
        }
        let Some(text) = self.source.read(file) else {
            return Names::default();
        };
        let mut read = Vec::new();
        self.imported_names(file, &text, &mut read, &|_| None);
        let found = if read.is_empty() {
            Names::default()
        } else {
            Arc::new(
                self.with_module(file, None, Reading::FollowingImports, |module| {
                    Some(module.foreign_state_managers())
                })
                .unwrap_or_default(),
            )
        };
        self.chained_managers
            .insert(file.to_path_buf(), (found.clone(), read));
        found
    }

    fn call_state(
        &self,
        from_file: &Path,
        path: &str,
        call: &ForeignCall,
        entering: bool,
    ) -> Arc<Vec<StateSet>> {
        let Some((summary, name)) = self.resolve_function(from_file, path) else {
            return Arc::default();
        };
        // A manager wrapping a third module's is answered by a model that
        // asks that module (`Reading::FollowingImports`).
        let reading = if summary.state_writers.contains_key(&name) {
            Reading::Plain
        } else if self.chained_state_managers(&summary.file).contains(&name) {
            Reading::FollowingImports
        } else {
            return Arc::default();
        };
        let call = &named_for(call, from_file, &summary.file);
        let called = self.called_by(from_file, &summary.file);
        let key = format!(
            "{}\0{name}\0{call:?}\0{entering}\0{called:?}\0{}",
            summary.file.display(),
            match reading {
                Reading::FollowingImports => AnswerDepth::current(),
                _ => 0,
            }
        );
        if let Some(cached) = self.call_state.get(&key) {
            return cached.clone();
        }
        // One module deep, as `call_returns`.
        let computed = Arc::new(
            self.with_module(&summary.file, called, reading, |module| {
                Some(module.state_for_call(&name, call, entering))
            })
            .unwrap_or_default(),
        );
        self.call_state.insert(key, computed.clone());
        computed
    }

    fn call_lowerings(&self, from_file: &Path, path: &str, call: &ForeignCall) -> CallLowerings {
        let (summary, name) = self.resolve_function(from_file, path)?;
        self.answer_call(
            &self.call_lowerings,
            &summary.file,
            &name,
            from_file,
            call,
            "",
            Reading::Plain,
            |module, name, call| module.lowerings_for_call(name, call).map(Arc::new),
        )
    }
}

/// How a module imported as `local` has its helper `name` called:
/// `local.name`, or `.method` for a method (`Class.method`: called on an
/// object of the class, whatever its name).
fn called_as(local: &str, name: &str) -> String {
    match name.split_once('.') {
        Some((_, method)) => format!(".{method}"),
        None => format!("{local}.{name}"),
    }
}

/// The names of the module-level functions a module's text defines
/// (`def name(` or `async def name(` at the start of a line).
fn top_level_def_names(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let rest = line
                .strip_prefix("def ")
                .or_else(|| line.strip_prefix("async def "))?;
            let name = rest.split('(').next()?.trim();
            (!name.is_empty()).then(|| name.to_owned())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const IMPORTER: &str = "import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType
import wrapping


def init(shape):
    mesh = AbstractMesh((2, 4), (\"data\", \"model\"), axis_types=(AxisType.Explicit,) * 2)
    with wrapping.entered(mesh):
        return jnp.zeros(shape)
";

    const WRAPPING: &str = "import contextlib
import contexts


@contextlib.contextmanager
def entered(mesh):
    with contexts.mesh_context(mesh):
        yield
";

    const ENTERING: &str = "import contextlib
import jax


@contextlib.contextmanager
def mesh_context(mesh):
    with jax.sharding.use_abstract_mesh(mesh):
        yield mesh
";

    const NOT_ENTERING: &str = "import contextlib


@contextlib.contextmanager
def mesh_context(mesh):
    yield mesh
";

    const PLANNER: &str = "import jax.numpy as jnp
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P
import wrapping


def plan(shape):
    mesh = AbstractMesh((2, 4), (\"data\", \"model\"))
    with wrapping.entered(mesh):
        return NamedSharding(mesh, P(\"data\"))
";

    const SETTING: &str = "import contextlib
import jax


@contextlib.contextmanager
def mesh_context(mesh):
    with jax.set_mesh(mesh):
        yield mesh
";

    fn codes(resolver: &FsResolver, file: &Path) -> Vec<&'static str> {
        let text = std::fs::read_to_string(file).expect("read the importer");
        let settings = crate::config::Settings::default();
        crate::analysis::analyze(&text, file, &settings, Some(resolver))
            .iter()
            .map(|f| f.code)
            .collect()
    }

    /// An answer that asked a third module (`Reading::FollowingImports`) is
    /// forgotten when that module changes, not only when the called one does.
    #[test]
    fn a_change_two_modules_away_forgets_the_answers_made_through_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let importer = dir.path().join("train.py");
        let contexts = dir.path().join("contexts.py");
        std::fs::write(&importer, IMPORTER).expect("write");
        std::fs::write(dir.path().join("wrapping.py"), WRAPPING).expect("write");
        std::fs::write(&contexts, ENTERING).expect("write");
        let resolver = FsResolver::new(Disk);
        assert_eq!(codes(&resolver, &importer), vec!["JP003"]);

        std::fs::write(&contexts, NOT_ENTERING).expect("write");
        resolver.invalidate(&contexts);
        assert_eq!(codes(&resolver, &importer), Vec::<&str>::new());

        std::fs::write(&contexts, ENTERING).expect("write");
        resolver.invalidate(&contexts);
        assert_eq!(codes(&resolver, &importer), vec!["JP003"]);
    }

    /// A def of one module calling another module's `jax.set_mesh` caller
    /// is a JP009 setter through it (`chained_mesh_setters`, `helpers_of`);
    /// a change of that other module forgets what was read from it.
    #[test]
    fn a_wrapper_of_another_modules_setter_follows_its_changes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let importer = dir.path().join("plan.py");
        let contexts = dir.path().join("contexts.py");
        std::fs::write(&importer, PLANNER).expect("write");
        std::fs::write(dir.path().join("wrapping.py"), WRAPPING).expect("write");
        std::fs::write(&contexts, NOT_ENTERING).expect("write");
        let resolver = FsResolver::new(Disk);
        assert_eq!(codes(&resolver, &importer), Vec::<&str>::new());

        std::fs::write(&contexts, SETTING).expect("write");
        resolver.invalidate(&contexts);
        assert_eq!(codes(&resolver, &importer), vec!["JP009"]);

        std::fs::write(&contexts, NOT_ENTERING).expect("write");
        resolver.invalidate(&contexts);
        assert_eq!(codes(&resolver, &importer), Vec::<&str>::new());
    }
}

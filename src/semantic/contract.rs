//! Platform contracts: functions a project declares to lower only for some
//! platforms. Two sources, both turned into `ReqKind::Restricted`
//! requirements so that they reach lowerings through the same call graph,
//! summaries and guards as a `pallas_call`'s params:
//! - a `# jax-lsp: platforms=tpu` comment on a `def` line (entering the
//!   function is the requirement);
//! - `[[tool.jax-lsp.contract]]` in pyproject.toml (`crate::contracts`):
//!   a `calls` glob matching a function's dotted name (its module's name plus
//!   its own: entering it) or a call's callee resolved through imports, and
//!   the `@site` captures of a contract's query.
//!
//! The model only learns which contracts exist through `set_contracts`
//! (before any facts are built); without it only comments count.

use super::reach::{Guard, ReqKind, Requirement};
use super::{Module, ScopeId, ScopeKind, MODULE_SCOPE};
use crate::syntax::Field;
use crate::syntax::KindName;
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use std::path::Path;
use std::sync::Arc;
use tree_sitter::{Node, Query, QueryCursor, StreamingIterator};

/// The marker of an in-code declaration.
pub const DECLARE: &str = "jax-lsp:";

/// The contracts' call patterns and queries, compiled.
#[derive(Debug, Default)]
pub struct SiteMatcher {
    /// (contract code, its `calls` globs over dotted names written as paths).
    globs: Vec<(String, GlobSet)>,
    /// (contract code, its query, the index of its `site` capture).
    queries: Vec<(String, Arc<Query>, u32)>,
    /// What it was built from, to tell a changed configuration from the
    /// same one read again.
    pub key: String,
}

impl SiteMatcher {
    /// `contracts`: (code, `calls` patterns). A pattern is a dotted name
    /// where `*` stands for one name and `**` for any number
    /// (`mylib.kernels.tpu.*`).
    pub fn new(contracts: &[(String, Vec<String>)]) -> Result<SiteMatcher, String> {
        let mut globs = Vec::new();
        for (code, patterns) in contracts {
            let mut set = GlobSetBuilder::new();
            for pattern in patterns {
                set.add(dotted_glob(pattern)?);
            }
            let set = set.build().map_err(|e| e.to_string())?;
            globs.push((code.clone(), set));
        }
        Ok(SiteMatcher {
            globs,
            queries: Vec::new(),
            key: format!("{contracts:?}"),
        })
    }

    /// Adds a contract's query; `None` if it has no `site` capture.
    pub fn add_query(&mut self, code: &str, source: &str, query: Arc<Query>) -> Option<()> {
        let index = query.capture_index_for_name("site")?;
        self.key.push_str(source);
        self.queries.push((code.to_owned(), query, index));
        Some(())
    }

    /// The codes of the contracts whose `calls` match a dotted name.
    pub fn codes_for(&self, dotted: &str) -> Vec<&str> {
        let path = dotted.replace('.', "/");
        self.globs
            .iter()
            .filter(|(_, set)| set.is_match(&path))
            .map(|(code, _)| code.as_str())
            .collect()
    }

    /// One matcher for the contracts of several configurations.
    pub fn union(parts: &[Arc<SiteMatcher>]) -> SiteMatcher {
        SiteMatcher {
            globs: parts.iter().flat_map(|p| p.globs.iter().cloned()).collect(),
            queries: parts
                .iter()
                .flat_map(|p| p.queries.iter().cloned())
                .collect(),
            key: parts.iter().map(|p| p.key.as_str()).collect(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.globs.is_empty() && self.queries.is_empty()
    }
}

/// A dotted pattern as a glob over `/`-separated names, `*` within one name.
pub fn dotted_glob(pattern: &str) -> Result<globset::Glob, String> {
    if pattern.is_empty() || pattern.contains('/') {
        return Err(format!("`{pattern}` is not a dotted name pattern"));
    }
    GlobBuilder::new(&pattern.replace('.', "/"))
        .literal_separator(true)
        .build()
        .map_err(|e| format!("bad pattern `{pattern}`: {e}"))
}

/// What the model needs to know to find contract sites in one module.
#[derive(Clone, Debug, Default)]
pub struct ContractScope {
    /// The module's dotted name (`mylib.kernels.tpu`), when known.
    pub module: Option<String>,
    /// Its package, against which relative imports resolve (the module
    /// itself for an `__init__.py`).
    pub package: Option<String>,
    pub matcher: Option<Arc<SiteMatcher>>,
}

/// The dotted name of the module in `file`: its stem under the packages
/// (directories with an `__init__.py`) above it. `pkg/__init__.py` is `pkg`.
pub fn module_name(file: &Path) -> Option<String> {
    let stem = file.file_stem()?.to_str()?;
    let mut parts = Vec::new();
    if stem != "__init__" {
        parts.push(stem.to_owned());
    }
    let mut dir = file.parent();
    while let Some(d) = dir {
        if !d.join("__init__.py").is_file() {
            break;
        }
        parts.push(d.file_name()?.to_str()?.to_owned());
        dir = d.parent();
    }
    if parts.is_empty() {
        return None;
    }
    parts.reverse();
    Some(parts.join("."))
}

/// The package of the module in `file` (relative imports resolve against it).
pub fn package_name(file: &Path) -> Option<String> {
    let module = module_name(file)?;
    if file.file_stem().is_some_and(|s| s == "__init__") {
        return Some(module);
    }
    module
        .rsplit_once('.')
        .map(|(package, _)| package.to_owned())
}

/// Both names for `file`, as the model wants them.
pub fn scope_for(file: &Path, matcher: Option<Arc<SiteMatcher>>) -> ContractScope {
    ContractScope {
        module: module_name(file),
        package: package_name(file),
        matcher,
    }
}

/// The platforms a `# jax-lsp: platforms=tpu,cuda` comment in `line`
/// declares (known platform names only; `gpu` means cuda, rocm and oneapi).
pub fn declared_platforms(line: &str) -> Option<Vec<String>> {
    let comment = &line[line.find('#')?..];
    let rest = comment[comment.find(DECLARE)? + DECLARE.len()..].trim_start();
    let list = rest
        .strip_prefix("platforms")?
        .trim_start()
        .strip_prefix('=')?;
    let list = list.trim_start();
    // `tpu, cuda  (why)`: names separated by commas; the first word after
    // the last comma ends the list.
    let end = list
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == ',' || c == '_' || c == ' '))
        .unwrap_or(list.len());
    let mut out: Vec<String> = Vec::new();
    for name in list[..end]
        .split(',')
        .filter_map(|n| n.split_whitespace().next())
    {
        let names: &[&str] = match name {
            "gpu" => &["cuda", "rocm", "oneapi"],
            other => match super::names::KNOWN_PLATFORMS.iter().find(|p| **p == other) {
                Some(p) => std::slice::from_ref(p),
                // An unknown name: the declaration means something else.
                None => return None,
            },
        };
        for n in names {
            if !out.iter().any(|o| o == n) {
                out.push((*n).to_owned());
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

impl<'t> Module<'t> {
    /// Tells the model its module name and the project's contracts. Call
    /// before anything asks for requirements (a second call is ignored).
    pub fn set_contracts(&self, scope: ContractScope) {
        let _ = self.contracts.set(scope);
    }

    fn contract_scope(&self) -> Option<&ContractScope> {
        self.contracts.get()
    }

    /// Whether the code this model covers can declare platforms in a comment
    /// (cached). A model of some statements looks at their lines only: the
    /// server builds one per unit of a module, and a scan of the whole text
    /// for each cost a pass over 10,000 lines per unit on open. The lines a
    /// declaration is read from (`def_line_declaration`: a def's first line
    /// and the line of its colon) lie within its statement's lines.
    fn may_declare(&self) -> bool {
        *self.declares.get_or_init(|| {
            let holds = |text: &str| memchr::memmem::find(text.as_bytes(), DECLARE.as_bytes());
            match &self.statements {
                Some(statements) => statements.iter().any(|s| {
                    let bytes = self.src.as_bytes();
                    let start = s.start_byte().min(bytes.len());
                    let end = s.end_byte().clamp(start, bytes.len());
                    // Out to the line ends: a trailing comment on the last
                    // line may lie after the statement's node.
                    let from = memchr::memrchr(b'\n', &bytes[..start]).map_or(0, |i| i + 1);
                    let to = memchr::memchr(b'\n', &bytes[end..]).map_or(bytes.len(), |i| end + i);
                    holds(self.src.get(from..to).unwrap_or(self.src)).is_some()
                }),
                None => holds(self.src).is_some(),
            }
        })
    }

    /// The dotted name of a module-level function, or a method of a
    /// module-level class, inside its module (`attention`, `Op.__call__`).
    fn local_dotted_name(&self, id: ScopeId) -> Option<String> {
        let scope = &self.scopes[id];
        match (scope.parent, scope.class) {
            (Some(MODULE_SCOPE), _) => Some(scope.name.clone()),
            (_, Some(class)) if self.scopes[class].parent == Some(MODULE_SCOPE) => {
                Some(format!("{}.{}", self.scopes[class].name, scope.name))
            }
            _ => None,
        }
    }

    /// What entering function `id` requires: its own declaration, and the
    /// contracts matching its dotted name. At the def's name.
    pub(crate) fn entry_requirements(&self, id: ScopeId) -> Vec<Requirement> {
        let scope = &self.scopes[id];
        let mut out = Vec::new();
        if scope.kind != ScopeKind::Function {
            return out;
        }
        let Some(name) = scope.node.field("name") else {
            return out;
        };
        let dotted = self.local_dotted_name(id);
        let site = dotted.clone().unwrap_or_else(|| scope.name.clone());
        if self.may_declare() {
            if let Some(platforms) = self.def_line_declaration(scope.node) {
                out.push(Requirement::at(
                    name,
                    ReqKind::Restricted {
                        contract: None,
                        platforms,
                        site: site.clone(),
                    },
                    &[],
                ));
            }
        }
        let Some(ContractScope {
            module: Some(module),
            matcher: Some(matcher),
            ..
        }) = self.contract_scope()
        else {
            return out;
        };
        let Some(dotted) = dotted else {
            return out;
        };
        let full = format!("{module}.{dotted}");
        for code in matcher.codes_for(&full) {
            out.push(Requirement::at(
                name,
                ReqKind::Restricted {
                    contract: Some(code.to_owned()),
                    platforms: Vec::new(),
                    site: full.clone(),
                },
                &[],
            ));
        }
        out
    }

    /// The platforms declared on a def's line (the line `def` is on, or the
    /// line its signature ends on).
    fn def_line_declaration(&self, def: Node<'t>) -> Option<Vec<String>> {
        let line_of = |at: usize| {
            let start = self.src[..at].rfind('\n').map_or(0, |i| i + 1);
            let end = self.src[at..].find('\n').map_or(self.src.len(), |i| at + i);
            &self.src[start..end]
        };
        let first = line_of(def.start_byte());
        if let Some(found) = declared_platforms(first) {
            return Some(found);
        }
        // `def f(\n    x,\n):  # jax-lsp: platforms=tpu`
        let signature_end = def
            .field("return_type")
            .or_else(|| def.field("parameters"))?
            .end_byte();
        // The colon of this def (a broken one may have none: a colon of
        // later code is not its own).
        let colon = signature_end + self.src.get(signature_end..def.end_byte())?.find(':')?;
        if colon > def.start_byte() + first.len() {
            return declared_platforms(line_of(colon));
        }
        None
    }

    /// A call whose callee, resolved through imports, matches a contract's
    /// `calls`: one requirement per contract, at the call.
    pub(crate) fn contract_call_requirements(
        &self,
        call: Node<'t>,
        callee: Option<&str>,
        guards: &[Guard],
    ) -> Vec<Requirement> {
        let (Some(callee), Some(scope)) = (callee, self.contract_scope()) else {
            return Vec::new();
        };
        let Some(matcher) = &scope.matcher else {
            return Vec::new();
        };
        let Some(absolute) = absolute_path(callee, scope.package.as_deref()) else {
            return Vec::new();
        };
        matcher
            .codes_for(&absolute)
            .into_iter()
            .map(|code| {
                Requirement::at(
                    call,
                    ReqKind::Restricted {
                        contract: Some(code.to_owned()),
                        platforms: Vec::new(),
                        site: absolute.clone(),
                    },
                    guards,
                )
            })
            .collect()
    }

    /// The `@site` captures of the contracts' queries inside scope `id`
    /// (not in nested scopes), as requirements at the enclosing call (or
    /// the captured node itself), with that call's guards.
    pub(crate) fn query_site_requirements(
        &self,
        id: ScopeId,
        guards_of: &dyn Fn(Node<'t>) -> Option<Vec<Guard>>,
    ) -> Vec<Requirement> {
        let Some(matcher) = self.contract_scope().and_then(|s| s.matcher.as_ref()) else {
            return Vec::new();
        };
        if matcher.queries.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::new();
        let node = self.scopes[id].node;
        for (code, query, capture) in &matcher.queries {
            let roots = if id == MODULE_SCOPE {
                self.top_level_statements()
            } else {
                vec![node]
            };
            for root in roots {
                let mut cursor = QueryCursor::new();
                let mut matches = cursor.matches(query, root, self.src.as_bytes());
                while let Some(m) = matches.next() {
                    for c in m.captures.iter().filter(|c| c.index == *capture) {
                        let site = enclosing_call(c.node);
                        if self.innermost_scope_at(site.start_byte()) != id {
                            continue;
                        }
                        // `None`: in a branch that never runs.
                        let Some(guards) = guards_of(site) else {
                            continue;
                        };
                        let name = site
                            .field("function")
                            .unwrap_or(site)
                            .utf8_text(self.src.as_bytes())
                            .unwrap_or("")
                            .to_owned();
                        out.push(Requirement::at(
                            site,
                            ReqKind::Restricted {
                                contract: Some(code.clone()),
                                platforms: Vec::new(),
                                site: name,
                            },
                            &guards,
                        ));
                    }
                }
            }
        }
        out
    }
}

/// The call a captured node is part of (itself when it is one).
fn enclosing_call(node: Node<'_>) -> Node<'_> {
    let mut current = Some(node);
    let mut depth = 0;
    while let Some(n) = current {
        if n.kind_name() == "call" {
            return n;
        }
        if depth > 4 || matches!(n.kind_name(), "block" | "module" | "expression_statement") {
            break;
        }
        current = n.parent();
        depth += 1;
    }
    node
}

/// `callee` as an absolute dotted name: a relative import (`.kernels.f`,
/// `..ops.g`) resolved against the importing module's package.
pub fn absolute_path(callee: &str, package: Option<&str>) -> Option<String> {
    let dots = callee.chars().take_while(|c| *c == '.').count();
    if dots == 0 {
        return Some(callee.to_owned());
    }
    let mut base: Vec<&str> = package?.split('.').collect();
    for _ in 1..dots {
        base.pop()?;
    }
    let rest = &callee[dots..];
    if base.is_empty() {
        return Some(rest.to_owned());
    }
    Some(format!("{}.{rest}", base.join(".")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_declarations_in_comments() {
        assert_eq!(
            declared_platforms("def f(x):  # jax-lsp: platforms=tpu"),
            Some(vec!["tpu".to_owned()])
        );
        assert_eq!(
            declared_platforms("def f(x):  # jax-lsp: platforms = tpu, cuda  (fast path)"),
            Some(vec!["tpu".to_owned(), "cuda".to_owned()])
        );
        assert_eq!(
            declared_platforms("def f(x):  # jax-lsp: platforms=gpu").map(|v| v.len()),
            Some(3)
        );
        assert_eq!(
            declared_platforms("def f(x):  # jax-lsp: platforms=tpuv5"),
            None
        );
        assert_eq!(declared_platforms("def f(x):  # platforms=tpu"), None);
        assert_eq!(declared_platforms("def f(x):"), None);
    }

    #[test]
    fn globs_take_one_name_per_star() {
        let m = SiteMatcher::new(&[(
            "TPU001".to_owned(),
            vec![
                "mylib.kernels.tpu.*".to_owned(),
                "mylib.ops.flash".to_owned(),
            ],
        )])
        .unwrap();
        assert_eq!(m.codes_for("mylib.kernels.tpu.rotate"), vec!["TPU001"]);
        assert!(m.codes_for("mylib.kernels.tpu.sub.rotate").is_empty());
        assert_eq!(m.codes_for("mylib.ops.flash"), vec!["TPU001"]);
        assert!(m.codes_for("mylib.ops.flash_v2").is_empty());
    }

    #[test]
    fn relative_paths_resolve_against_the_module() {
        assert_eq!(
            absolute_path(".kernels.f", Some("pkg")).as_deref(),
            Some("pkg.kernels.f")
        );
        assert_eq!(
            absolute_path("..ops.g", Some("pkg.sub")).as_deref(),
            Some("pkg.ops.g")
        );
        assert_eq!(absolute_path("a.b", None).as_deref(), Some("a.b"));
        assert_eq!(absolute_path(".a", None), None);
    }
}

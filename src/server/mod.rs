//! The language server (`jax-lsp server`): tower-lsp over stdio.
//!
//! The only module that knows LSP types. Documents live in a `DashMap`; each
//! `didChange` is applied completely before any `.await` (tower-lsp may run
//! handlers concurrently). Analysis runs debounced, on an immutable snapshot
//! (text + tree + version), in `spawn_blocking`, with panics caught; results
//! for a superseded generation of a document are dropped.
//!
//! - `document`: text, line index, tree, version; the edit path.
//! - `convert`: byte ranges <-> LSP positions, findings -> diagnostics.
//! - `settings`: client settings over `[tool.jax-lsp]`.
//! - `hover`, `actions`: hover text and code actions.

mod actions;
pub mod convert;
pub mod document;
mod hover;
mod log;
mod settings;
mod transport;

use self::actions::{EditStyle, FIX_ALL_KIND};
use self::convert::{Lines, ReadText};
use self::document::Document;
use self::log::Logger;
use self::settings::{ClientSettings, SettingsStore};
use crate::analysis;
use crate::diagnostic::Finding;
use crate::incremental::Incremental;
use crate::resolver::{Disk, FsResolver, SourceProvider};
use crate::semantic::flow::ConstAlt;
use crate::semantic::lowering::ContextMesh;
use crate::semantic::summary::{
    candidate_files, CallLowerings, CallReach, ForeignCall, ModuleSummary, StateSet,
};
use crate::semantic::Resolver;
use crate::syntax::sections::{self, Section};
use crate::syntax::{Encoding, LineIndex};
use dashmap::DashMap;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};
use tower_lsp::jsonrpc::Result as RpcResult;
use tower_lsp::lsp_types::*;
use tower_lsp::{Client, LanguageServer, LspService};

/// Quiet time after an edit before a document is analyzed.
const DEBOUNCE: Duration = Duration::from_millis(50);

/// Runs the server on stdin/stdout until the client exits. Returns the exit
/// code: 0 after `shutdown` + `exit`, 1 if the input ended without `shutdown`.
pub fn run() -> i32 {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(crate::ANALYSIS_STACK_BYTES)
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return 2;
        }
    };
    let clean = runtime.block_on(transport::serve(
        tokio::io::stdin(),
        tokio::io::stdout(),
        || LspService::new(Backend::new),
    ));
    // The stdin reader may still be blocked in a read: don't wait for it.
    runtime.shutdown_background();
    if clean {
        0
    } else {
        1
    }
}

/// `workspace.diagnostics.refreshSupport` as the client sent it (the
/// transport sets it; lsp-types 0.94 misspells the field).
static RAW_DIAGNOSTICS_REFRESH: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// What was agreed with the client in `initialize`.
#[derive(Clone, Copy, Debug)]
struct Negotiated {
    enc: Encoding,
    /// The client pulls diagnostics (`textDocument/diagnostic`).
    pull: bool,
    refresh: bool,
    document_changes: bool,
    watch_files: bool,
    configuration: bool,
    /// Hover in Markdown (else plain text): the client's first choice in
    /// `hover.contentFormat`, Markdown if it says nothing.
    hover_markdown: bool,
}

impl Default for Negotiated {
    fn default() -> Self {
        Negotiated {
            enc: Encoding::Utf16,
            pull: false,
            refresh: false,
            document_changes: false,
            watch_files: false,
            configuration: false,
            hover_markdown: true,
        }
    }
}

/// The result of analyzing one snapshot of a document.
pub struct Analysis {
    /// The document generation analyzed (changes with every edit of it, of a
    /// module it imports, or of the configuration).
    gen: u64,
    version: i32,
    findings: Vec<Finding>,
    diagnostics: Vec<Diagnostic>,
    /// Files whose contents may change the findings (import candidates).
    deps: HashSet<PathBuf>,
}

/// One analysis that several requests can wait for.
type SharedAnalysis = Arc<tokio::sync::OnceCell<Option<Arc<Analysis>>>>;

struct DocEntry {
    doc: Document,
    path: PathBuf,
    gen: u64,
    analysis: Option<Arc<Analysis>>,
    /// The analysis of generation `.0` under way: a request that needs the
    /// same generation (a pull, hover or code action during the debounce)
    /// waits for it instead of starting another.
    in_flight: Option<(u64, SharedAnalysis)>,
    large_reported: bool,
    /// Bumped when something outside the text changes the findings (a module
    /// it imports, the configuration): what `reuse` holds is then stale.
    env_gen: u64,
    reuse: Arc<Mutex<Reuse>>,
    /// Held by the analysis of this document under way, until the sections
    /// it parsed are the document's: an analysis that starts meanwhile waits
    /// for them instead of parsing the whole text again.
    parse_gate: Arc<tokio::sync::Mutex<()>>,
    /// Dropped with the entry when the document is closed: background work
    /// for it holds a `Weak` and stops when that dies.
    open: Arc<()>,
}

/// What the analyses of one document keep for the next version.
#[derive(Default)]
struct Reuse {
    units: Incremental,
    /// The files the imports analysed since the last invalidation could come
    /// from (a superset of the current ones: an extra re-check at worst).
    deps: HashSet<PathBuf>,
    env_gen: u64,
}

/// An immutable view of a document for analysis.
struct Snapshot {
    uri: Url,
    path: PathBuf,
    version: i32,
    gen: u64,
    /// The document's text revision (`Document::rev`).
    rev: u64,
    text: Arc<str>,
    index: Arc<LineIndex>,
    /// `None`: not parsed yet; the analysis parses it.
    sections: Option<Arc<Vec<Section>>>,
    too_large: bool,
    env_gen: u64,
    reuse: Arc<Mutex<Reuse>>,
    /// The entry this snapshot is of (`DocEntry::open`): sections parsed
    /// from it are only ever given to that entry, not to a reopened document.
    open: Weak<()>,
}

type Docs = Arc<DashMap<Url, DocEntry>>;

/// Whether `entry` is the one `of` was taken from (not a reopened document
/// at the same URI).
fn is_entry(entry: &DocEntry, of: &Weak<()>) -> bool {
    std::ptr::eq(Arc::as_ptr(&entry.open), of.as_ptr())
}

type Paths = Arc<DashMap<PathBuf, Url>>;

/// Module text for the resolver: open documents first, then the disk.
struct OpenDocs {
    docs: Docs,
    paths: Paths,
}

impl OpenDocs {
    fn open_text(&self, path: &Path) -> Option<Arc<str>> {
        let uri = self.paths.get(path)?.clone();
        let entry = self.docs.get(&uri)?;
        Some(Arc::from(entry.doc.text.as_str()))
    }
}

impl SourceProvider for OpenDocs {
    fn read(&self, path: &Path) -> Option<Arc<str>> {
        self.open_text(path).or_else(|| Disk.read(path))
    }
}

/// Records the files a module's imports could come from.
struct Recording<'a> {
    inner: &'a FsResolver<OpenDocs>,
    deps: Mutex<HashSet<PathBuf>>,
}

impl Resolver for Recording<'_> {
    fn resolve(&self, from_file: &Path, path: &str) -> Option<(Arc<ModuleSummary>, String)> {
        let found = self.inner.resolve(from_file, path);
        let mut deps = self.deps.lock().unwrap_or_else(|e| e.into_inner());
        deps.extend(
            candidate_files(from_file, path)
                .into_iter()
                .map(|(file, _)| file),
        );
        if let Some((summary, _)) = &found {
            deps.insert(summary.file.to_path_buf());
        }
        found
    }

    // Calls evaluated in another module depend on that module's text: its
    // file is recorded. Only a module found is (recording every candidate
    // file of every call made each keystroke cost more than the analysis;
    // the candidates of the imports are recorded when they are resolved).
    fn call_returns(
        &self,
        from_file: &Path,
        path: &str,
        call: &ForeignCall,
    ) -> Option<Vec<ConstAlt>> {
        self.record_module_of(from_file, path)?;
        self.inner.call_returns(from_file, path, call)
    }

    fn call_reach(&self, from_file: &Path, path: &str, call: &ForeignCall) -> CallReach {
        self.record_module_of(from_file, path)?;
        self.inner.call_reach(from_file, path, call)
    }

    fn imported_lowering_helpers(&self, from_file: &Path, text: &str) -> Vec<String> {
        self.inner.imported_lowering_helpers(from_file, text)
    }

    fn is_lowering_helper(&self, from_file: &Path, path: &str) -> bool {
        self.inner.is_lowering_helper(from_file, path)
    }

    fn call_lowerings(&self, from_file: &Path, path: &str, call: &ForeignCall) -> CallLowerings {
        self.record_module_of(from_file, path)?;
        self.inner.call_lowerings(from_file, path, call)
    }

    fn call_state(
        &self,
        from_file: &Path,
        path: &str,
        call: &ForeignCall,
        entering: bool,
    ) -> Arc<Vec<StateSet>> {
        if self.record_module_of(from_file, path).is_none() {
            return Arc::default();
        }
        self.inner.call_state(from_file, path, call, entering)
    }

    fn chained_state_managers(&self, file: &Path) -> Arc<Vec<String>> {
        self.inner.chained_state_managers(file)
    }

    fn summary_of(&self, file: &Path) -> Option<Arc<ModuleSummary>> {
        self.deps
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(file.to_path_buf());
        self.inner.summary(file)
    }

    fn call_set_mesh_abstract(
        &self,
        from_file: &Path,
        path: &str,
        call: &ForeignCall,
    ) -> Option<Option<String>> {
        self.record_module_of(from_file, path)?;
        self.inner.call_set_mesh_abstract(from_file, path, call)
    }

    fn call_context_mesh(
        &self,
        from_file: &Path,
        path: &str,
        call: &ForeignCall,
        as_decorator: bool,
    ) -> Option<ContextMesh> {
        self.record_module_of(from_file, path)?;
        self.inner
            .call_context_mesh(from_file, path, call, as_decorator)
    }

    fn call_stores(
        &self,
        from_file: &Path,
        path: &str,
        call: &ForeignCall,
        applied_to: Option<&[ConstAlt]>,
    ) -> Vec<crate::semantic::summary::Registration> {
        if self.record_module_of(from_file, path).is_none() {
            return Vec::new();
        }
        self.inner.call_stores(from_file, path, call, applied_to)
    }

    fn imported_registrations_into(
        &self,
        from_file: &Path,
        into: &Path,
    ) -> Vec<crate::semantic::summary::Registration> {
        let (found, read) = self.inner.registrations_into(from_file, into);
        // The modules whose imports were read: a change may make one
        // register (or stop).
        let mut deps = self.deps.lock().unwrap_or_else(|e| e.into_inner());
        deps.insert(into.to_path_buf());
        deps.extend(read.iter().cloned());
        found.as_ref().clone()
    }
}

impl Recording<'_> {
    fn record_module_of(&self, from_file: &Path, path: &str) -> Option<()> {
        let (summary, _) = self.inner.resolve_function(from_file, path)?;
        let mut deps = self.deps.lock().unwrap_or_else(|e| e.into_inner());
        deps.insert(summary.file.to_path_buf());
        Some(())
    }
}

struct State {
    client: Client,
    log: Logger,
    docs: Docs,
    paths: Paths,
    resolver: FsResolver<OpenDocs>,
    settings: SettingsStore,
    negotiated: OnceLock<Negotiated>,
    next_gen: AtomicU64,
    /// Settings pushed by `workspace/didChangeConfiguration` so far: a
    /// `workspace/configuration` answer asked for before the latest push is
    /// older than it and is dropped (`fetch_configuration`).
    settings_pushes: AtomicU64,
    /// Panic injection for tests: analysis of a text containing this panics.
    panic_marker: Option<String>,
    /// Per configuration directory: the contracts last seen and the files
    /// (pyproject.toml, query files) that got diagnostics for their mistakes.
    #[allow(clippy::type_complexity)]
    contract_reports: Mutex<HashMap<PathBuf, (Arc<crate::contracts::Contracts>, Vec<PathBuf>)>>,
}

pub struct Backend {
    state: Arc<State>,
}

impl Backend {
    pub fn new(client: Client) -> Backend {
        let docs: Docs = Arc::default();
        let paths: Paths = Arc::default();
        let resolver = FsResolver::new(OpenDocs {
            docs: docs.clone(),
            paths: paths.clone(),
        });
        Backend {
            state: Arc::new(State {
                log: Logger::new(Some(client.clone())),
                client,
                docs,
                paths,
                resolver,
                settings: SettingsStore::default(),
                negotiated: OnceLock::new(),
                next_gen: AtomicU64::new(1),
                settings_pushes: AtomicU64::new(0),
                panic_marker: std::env::var("JAX_LSP_TEST_PANIC_MARKER")
                    .ok()
                    .filter(|m| !m.is_empty()),
                contract_reports: Mutex::default(),
            }),
        }
    }
}

fn uri_path(uri: &Url) -> PathBuf {
    uri.to_file_path()
        .unwrap_or_else(|_| PathBuf::from(uri.path()))
}

/// Drops `value` on a thread of its own, at the lowest priority. Handlers
/// run on the thread that reads and dispatches every message: freeing a
/// 10,000-line document's trees there (about 5 ms) held up the next
/// message, a `didOpen` after a `didClose`; and on a blocking thread at the
/// usual priority it took a core from that `didOpen`'s parse and analysis
/// (the bench's opens each follow a close). The memory is freed when a
/// core has nothing else to do.
fn drop_later<T: Send + 'static>(value: T) {
    type Garbage = Box<dyn std::any::Any + Send>;
    static DROPPER: std::sync::OnceLock<Option<std::sync::mpsc::Sender<Garbage>>> =
        std::sync::OnceLock::new();
    let dropper = DROPPER.get_or_init(|| {
        let (send, receive) = std::sync::mpsc::channel::<Garbage>();
        std::thread::Builder::new()
            .name("jax-lsp-free".to_owned())
            .spawn(move || {
                lowest_priority();
                for garbage in receive {
                    drop(garbage);
                }
            })
            .ok()
            .map(|_| send)
    });
    let value: Garbage = Box::new(value);
    let value = match dropper {
        Some(send) => match send.send(value) {
            Ok(()) => return,
            Err(std::sync::mpsc::SendError(value)) => value,
        },
        None => value,
    };
    match tokio::runtime::Handle::try_current() {
        Ok(handle) => {
            handle.spawn_blocking(move || drop(value));
        }
        Err(_) => drop(value),
    }
}

/// Gives the calling thread the lowest scheduling priority (Linux: nice 19,
/// a per-thread value there; elsewhere nothing).
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    {
        use std::ffi::{c_int, c_uint};
        extern "C" {
            fn setpriority(which: c_int, who: c_uint, prio: c_int) -> c_int;
        }
        // From <sys/resource.h>; `who` 0 is the calling thread on Linux.
        const PRIO_PROCESS: c_int = 0;
        // SAFETY: setpriority takes plain integers and touches no memory of
        // ours; a refusal (-1) leaves the priority as it was.
        unsafe {
            setpriority(PRIO_PROCESS, 0, 19);
        }
    }
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned())
}

impl ReadText for State {
    fn read_text(&self, path: &Path) -> Option<(Arc<str>, Arc<LineIndex>)> {
        let text = self.resolver.source().read(path)?;
        let index = Arc::new(LineIndex::new(&text));
        Some((text, index))
    }
}

impl State {
    fn negotiated(&self) -> Negotiated {
        self.negotiated.get().copied().unwrap_or_default()
    }

    fn enc(&self) -> Encoding {
        self.negotiated().enc
    }

    fn style(&self) -> EditStyle {
        EditStyle {
            document_changes: self.negotiated().document_changes,
        }
    }

    fn new_gen(&self) -> u64 {
        self.next_gen.fetch_add(1, Ordering::Relaxed)
    }

    fn current_gen(&self, uri: &Url) -> Option<u64> {
        self.docs.get(uri).map(|e| e.gen)
    }

    fn show(&self, typ: MessageType, message: String) {
        let client = self.client.clone();
        if let Ok(handle) = tokio::runtime::Handle::try_current() {
            handle.spawn(async move { client.show_message(typ, message).await });
        }
    }

    /// The mistakes in a configuration's contracts, once per change of
    /// them: `window/showMessage` for each, and diagnostics on the files
    /// they are in (cleared when fixed). The broken contracts are left out;
    /// everything else keeps running.
    fn report_contracts(&self, settings: &crate::config::Settings) {
        let Some(root) = &settings.root else {
            return;
        };
        let contracts = &settings.contracts;
        let mut reports = self
            .contract_reports
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if reports
            .get(root)
            .is_some_and(|(seen, _)| Arc::ptr_eq(seen, contracts) || **seen == **contracts)
        {
            return;
        }
        let pyproject = root.join("pyproject.toml");
        let mut errors = contracts.errors.clone();
        if !contracts.list.is_empty() {
            if let Some((text, _)) = self.read_text(&pyproject) {
                errors.extend(crate::contracts::unmatched_globs(contracts, &text));
            }
        }
        let mut by_file: HashMap<PathBuf, Vec<Diagnostic>> = HashMap::new();
        for error in &errors {
            self.log.error(format_args!("configuration error: {error}"));
            self.show(
                MessageType::ERROR,
                format!("jax-lsp: {error} (this contract is not checked)"),
            );
            let line = error.line.saturating_sub(1) as u32;
            let col = error.col.saturating_sub(1) as u32;
            let width = error.span.len().max(1) as u32;
            by_file
                .entry(error.file.clone())
                .or_default()
                .push(Diagnostic {
                    range: Range::new(Position::new(line, col), Position::new(line, col + width)),
                    severity: Some(DiagnosticSeverity::ERROR),
                    source: Some("jax-lsp".to_owned()),
                    message: error.message.clone(),
                    ..Default::default()
                });
        }
        let previous = reports
            .insert(
                root.clone(),
                (contracts.clone(), by_file.keys().cloned().collect()),
            )
            .map(|(_, files)| files)
            .unwrap_or_default();
        drop(reports);
        for file in previous {
            by_file.entry(file).or_default();
        }
        let Ok(handle) = tokio::runtime::Handle::try_current() else {
            return;
        };
        for (file, diagnostics) in by_file {
            let Ok(uri) = Url::from_file_path(&file) else {
                continue;
            };
            let client = self.client.clone();
            handle.spawn(async move { client.publish_diagnostics(uri, diagnostics, None).await });
        }
    }

    fn snapshot(&self, uri: &Url) -> Option<Snapshot> {
        let entry = self.docs.get(uri)?;
        Some(Snapshot {
            uri: uri.clone(),
            path: entry.path.clone(),
            version: entry.doc.version,
            gen: entry.gen,
            rev: entry.doc.rev,
            text: Arc::from(entry.doc.text.as_str()),
            index: entry.doc.index.clone(),
            sections: entry.doc.sections.clone(),
            too_large: entry.doc.too_large(),
            env_gen: entry.env_gen,
            reuse: entry.reuse.clone(),
            open: Arc::downgrade(&entry.open),
        })
    }

    /// Analyzes a snapshot (on a blocking thread). Never panics.
    /// Returns the analysis and, for a text with no sections yet, the
    /// sections it parsed (in parallel).
    fn run_analysis(&self, snap: &Snapshot) -> (Analysis, Option<Arc<Vec<Section>>>) {
        let started = Instant::now();
        let mut deps = HashSet::new();
        let mut parsed = None;
        let mut findings = Vec::new();
        if !snap.too_large {
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                if let Some(marker) = &self.panic_marker {
                    if snap.text.contains(marker.as_str()) {
                        panic!("test panic ({marker})");
                    }
                }
                // Settings first: a broken config is reported even for files
                // the prefilter skips.
                let settings = self.settings.for_file(&snap.path, &|message| {
                    self.log
                        .error(format_args!("configuration error: {message}"));
                    self.show(
                        MessageType::ERROR,
                        format!("jax-lsp: {message} (using the default settings)"),
                    );
                });
                // Imported modules' summaries record this project's contract sites.
                self.resolver
                    .set_contracts(settings.contracts.matcher.clone());
                self.report_contracts(&settings);
                let mut found = Vec::new();
                let mut deps = HashSet::new();
                let mut new_sections = None;
                // A text that cannot have findings is not even parsed (its
                // sections are parsed when an edit makes it pass).
                // A text calling another module's lowering helper is
                // analysed though it holds no needle.
                if analysis::may_have_findings(&snap.text)
                    || self.resolver.calls_imported_helper(&snap.path, &snap.text)
                {
                    let parsed = match &snap.sections {
                        Some(sections) => sections.clone(),
                        None => {
                            let parse_started = Instant::now();
                            let parsed = Arc::new(sections::parse_parallel(&snap.text)?);
                            self.log.debug(format_args!(
                                "{} version {}: parsed in {} sections in {:?}",
                                snap.path.display(),
                                snap.version,
                                parsed.len(),
                                parse_started.elapsed()
                            ));
                            new_sections = Some(parsed.clone());
                            parsed
                        }
                    };
                    let recording = Recording {
                        inner: &self.resolver,
                        deps: Mutex::default(),
                    };
                    let mut reuse = snap.reuse.lock().unwrap_or_else(|e| e.into_inner());
                    if reuse.env_gen != snap.env_gen {
                        reuse.units.invalidate();
                        reuse.deps.clear();
                        reuse.env_gen = snap.env_gen;
                    }
                    found = reuse.units.analyze_sections(
                        &snap.text,
                        &parsed,
                        &snap.path,
                        &settings,
                        Some(&recording),
                    );
                    let stats = reuse.units.stats;
                    self.log.debug(format_args!(
                        "{} version {}: {} of {} statements read, {} unit(s), {} analysed, {} reused, {} ruled out; scan {:?}, partition {:?}, reuse {:?}, analysis {:?}, merge {:?}",
                        snap.path.display(),
                        snap.version,
                        stats.new_statements,
                        stats.statements,
                        stats.units,
                        stats.analyzed,
                        stats.reused,
                        stats.skipped,
                        stats.scan,
                        stats.partition,
                        stats.reuse,
                        stats.analysis,
                        stats.merge
                    ));
                    reuse.deps.extend(
                        recording
                            .deps
                            .into_inner()
                            .unwrap_or_else(|e| e.into_inner()),
                    );
                    deps = reuse.deps.clone();
                }
                Some((new_sections, found, deps))
            }));
            match outcome {
                Ok(Some((new, found, d))) => {
                    parsed = new;
                    findings = found;
                    deps = d;
                }
                Ok(None) => {}
                Err(payload) => {
                    self.log.error(format_args!(
                        "analysis panicked for {} (version {}): {}; no diagnostics for this version",
                        snap.path.display(),
                        snap.version,
                        panic_text(payload.as_ref())
                    ));
                    // Nothing half-built is reused.
                    let mut reuse = snap.reuse.lock().unwrap_or_else(|e| e.into_inner());
                    reuse.units.invalidate();
                    reuse.deps.clear();
                }
            }
        }
        let lines = Lines {
            text: &snap.text,
            index: &snap.index,
            enc: self.enc(),
        };
        let diagnostics = catch_unwind(AssertUnwindSafe(|| {
            findings
                .iter()
                .map(|f| convert::to_diagnostic(f, &snap.uri, snap.version, lines, self))
                .collect()
        }))
        .unwrap_or_else(|payload| {
            self.log.error(format_args!(
                "converting diagnostics panicked for {}: {}",
                snap.path.display(),
                panic_text(payload.as_ref())
            ));
            Vec::new()
        });
        self.log.debug(format_args!(
            "analyzed {} version {} in {:?}: {} finding(s)",
            snap.path.display(),
            snap.version,
            started.elapsed(),
            findings.len()
        ));
        (
            Analysis {
                gen: snap.gen,
                version: snap.version,
                findings,
                diagnostics,
                deps,
            },
            parsed,
        )
    }

    /// Analyzes the document's current snapshot (or returns the stored result
    /// if it is current). The result may be stale by the time it returns.
    async fn analyze(self: &Arc<Self>, uri: &Url) -> Option<Arc<Analysis>> {
        let cell = {
            let mut entry = self.docs.get_mut(uri)?;
            if let Some(a) = entry.analysis.as_ref().filter(|a| a.gen == entry.gen) {
                return Some(a.clone());
            }
            let gen = entry.gen;
            match &entry.in_flight {
                Some((g, cell)) if *g == gen => cell.clone(),
                _ => {
                    let cell = Arc::new(tokio::sync::OnceCell::new());
                    entry.in_flight = Some((gen, cell.clone()));
                    cell
                }
            }
        };
        cell.get_or_init(|| self.analyze_now(uri)).await.clone()
    }

    /// Runs one analysis of the current snapshot and stores it if current.
    async fn analyze_now(self: &Arc<Self>, uri: &Url) -> Option<Arc<Analysis>> {
        // The gate of the entry the snapshot is of: if the document was
        // closed and reopened while waiting, wait on the new entry's gate.
        let (held, snap) = loop {
            let gate = self.docs.get(uri)?.parse_gate.clone();
            let held = gate.clone().lock_owned().await;
            let snap = self.snapshot(uri)?;
            let same = self
                .docs
                .get(uri)
                .is_some_and(|entry| Arc::ptr_eq(&entry.parse_gate, &gate));
            if same {
                break (held, snap);
            }
        };
        let state = self.clone();
        let key = uri.clone();
        let (send, receive) = tokio::sync::oneshot::channel();
        let task = tokio::task::spawn_blocking(move || {
            let (analysis, parsed) = state.run_analysis(&snap);
            let analysis = Arc::new(analysis);
            state.store(&key, &snap.open, &analysis, parsed.map(|p| (p, snap.rev)));
            drop(held);
            let _ = send.send(analysis);
        });
        match receive.await {
            Ok(analysis) => Some(analysis),
            Err(_) => {
                let why = match task.await {
                    Err(e) => e.to_string(),
                    Ok(()) => "no result".to_owned(),
                };
                self.log
                    .error(format_args!("analysis task failed for {uri}: {why}"));
                None
            }
        }
    }

    /// Keeps `analysis` if it is of the document's current generation, and
    /// the sections it parsed (with the text revision they were parsed from).
    fn store(
        &self,
        uri: &Url,
        of: &Weak<()>,
        analysis: &Arc<Analysis>,
        parsed: Option<(Arc<Vec<Section>>, u64)>,
    ) {
        let Some(mut entry) = self.docs.get_mut(uri) else {
            return;
        };
        if let Some((sections, rev)) = parsed {
            // Revisions start again at 0 when a document is reopened.
            if is_entry(&entry, of) {
                entry.doc.adopt(sections, rev);
            }
        }
        if entry.gen == analysis.gen {
            entry.analysis = Some(analysis.clone());
        }
        if entry
            .in_flight
            .as_ref()
            .is_some_and(|(g, _)| *g <= analysis.gen)
        {
            entry.in_flight = None;
        }
    }

    /// An analysis of the document's current generation (retrying a few
    /// times if the document keeps changing under it).
    async fn current_analysis(self: &Arc<Self>, uri: &Url) -> Option<Arc<Analysis>> {
        let mut last = None;
        for _ in 0..3 {
            let analysis = self.analyze(uri).await?;
            let current = self.current_gen(uri) == Some(analysis.gen);
            last = Some(analysis);
            if current {
                break;
            }
        }
        last
    }

    /// Analyzes after `delay` unless the document changed meanwhile;
    /// publishes in push mode; with `edited`, re-checks the documents that
    /// import this one.
    fn schedule(self: &Arc<Self>, uri: Url, gen: u64, delay: Duration, edited: bool) {
        let state = self.clone();
        tokio::spawn(async move {
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            if state.current_gen(&uri) != Some(gen) {
                return; // superseded by a newer change
            }
            if edited {
                let path = uri_path(&uri);
                state.recheck_dependents(&path, Some(&uri));
            }
            if state.negotiated().pull {
                return;
            }
            let Some(analysis) = state.analyze(&uri).await else {
                return;
            };
            if state.current_gen(&uri) != Some(analysis.gen) {
                return; // stale: a newer generation will publish
            }
            state
                .client
                .publish_diagnostics(uri, analysis.diagnostics.clone(), Some(analysis.version))
                .await;
        });
    }

    /// `path` changed: documents whose imports may read it get a new
    /// generation and are re-checked (push) or re-pulled (pull).
    fn recheck_dependents(self: &Arc<Self>, path: &Path, except: Option<&Url>) {
        self.resolver.invalidate(path);
        let dependents: Vec<Url> = self
            .docs
            .iter()
            .filter(|e| {
                Some(e.key()) != except
                    && e.analysis.as_ref().is_some_and(|a| a.deps.contains(path))
            })
            .map(|e| e.key().clone())
            .collect();
        if dependents.is_empty() {
            return;
        }
        self.log.debug(format_args!(
            "{} changed: re-checking {} document(s)",
            path.display(),
            dependents.len()
        ));
        self.bump_and_recheck(dependents);
    }

    /// Gives documents a new generation and re-checks them.
    fn bump_and_recheck(self: &Arc<Self>, uris: Vec<Url>) {
        let mut bumped = Vec::new();
        for uri in uris {
            let gen = self.new_gen();
            if let Some(mut entry) = self.docs.get_mut(&uri) {
                entry.gen = gen;
                entry.env_gen = gen;
                bumped.push((uri, gen));
            }
        }
        if self.negotiated().pull {
            if self.negotiated().refresh && !bumped.is_empty() {
                let client = self.client.clone();
                tokio::spawn(async move {
                    let _ = client.workspace_diagnostic_refresh().await;
                });
            }
        } else {
            for (uri, gen) in bumped {
                self.schedule(uri, gen, Duration::ZERO, false);
            }
        }
    }

    fn recheck_all(self: &Arc<Self>) {
        let all: Vec<Url> = self.docs.iter().map(|e| e.key().clone()).collect();
        self.bump_and_recheck(all);
    }

    fn set_client_settings(self: &Arc<Self>, value: &Value) -> bool {
        match ClientSettings::from_json(value) {
            Ok(Some(settings)) => {
                if let Some(level) = settings.log_level {
                    self.log.set_level_from_settings(level);
                }
                self.settings.set_client(settings);
                true
            }
            Ok(None) => false,
            Err(message) => {
                self.log.error(format_args!("{message}"));
                self.show(
                    MessageType::ERROR,
                    format!("jax-lsp: {message} (ignoring the client settings)"),
                );
                self.settings.set_client(ClientSettings::default());
                true
            }
        }
    }

    /// Asks the client for the `jax-lsp` section: workspace-wide, then
    /// scoped to each workspace folder (a folder may override it).
    async fn fetch_configuration(self: &Arc<Self>) {
        // Only folders with a URI are asked about; answers come in order.
        let folders: Vec<(PathBuf, Url)> = self
            .settings
            .folders()
            .into_iter()
            .filter_map(|f| Url::from_directory_path(&f).ok().map(|u| (f, u)))
            .collect();
        let item = |scope_uri: Option<Url>| ConfigurationItem {
            scope_uri,
            section: Some("jax-lsp".to_owned()),
        };
        let mut items = vec![item(None)];
        items.extend(folders.iter().map(|(_, u)| item(Some(u.clone()))));
        let pushes = self.settings_pushes.load(Ordering::SeqCst);
        match self.client.configuration(items).await {
            // Settings pushed while the client answered are newer than the
            // answer (the startup pull answered, then a change pushed and
            // applied before this task ran): the answer would undo them.
            Ok(_) if self.settings_pushes.load(Ordering::SeqCst) != pushes => self.log.info(
                format_args!("workspace/configuration answer dropped: settings pushed since"),
            ),
            Ok(values) => {
                let mut values = values.into_iter();
                let global = values.next().unwrap_or(Value::Null);
                let mut changed = false;
                if !global.is_null() {
                    self.set_client_settings(&serde_json::json!({ "jax-lsp": global }));
                    changed = true;
                }
                for ((folder, _), value) in folders.iter().zip(values) {
                    // A folder whose value equals the workspace-wide one has
                    // nothing of its own (clients answer every scope).
                    let value = serde_json::json!({ "jax-lsp": value });
                    let scoped = match ClientSettings::from_json(&value) {
                        Ok(scoped) => scoped.filter(|s| *s != self.settings.client()),
                        Err(message) => {
                            let message = format!("{message} (folder {})", folder.display());
                            self.log.error(format_args!("{message}"));
                            self.show(
                                MessageType::ERROR,
                                format!("jax-lsp: {message}; its client settings are ignored"),
                            );
                            None
                        }
                    };
                    changed |= scoped.is_some();
                    self.settings.set_folder_client(folder, scoped);
                }
                if changed {
                    self.recheck_all();
                }
            }
            Err(e) => self
                .log
                .warn(format_args!("workspace/configuration failed: {e}")),
        }
    }

    fn lines_of<'a>(&self, doc: &'a Document) -> Lines<'a> {
        Lines {
            text: &doc.text,
            index: &doc.index,
            enc: self.enc(),
        }
    }
}

#[tower_lsp::async_trait]
impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> RpcResult<InitializeResult> {
        let state = &self.state;
        let caps = &params.capabilities;
        let enc = convert::negotiate_encoding(caps);
        let text_doc = caps.text_document.as_ref();
        let workspace = caps.workspace.as_ref();
        let refresh = workspace
            .and_then(|w| w.diagnostic.as_ref())
            .and_then(|d| d.refresh_support)
            .unwrap_or(false)
            || RAW_DIAGNOSTICS_REFRESH.load(Ordering::Relaxed);
        let negotiated = Negotiated {
            enc,
            // Pull only when we can also ask the client to pull again (after a
            // settings or dependency change); otherwise push. Neovim 0.11 pulls
            // but has no refresh support, and would show stale results.
            pull: refresh && text_doc.and_then(|t| t.diagnostic.as_ref()).is_some(),
            refresh,
            document_changes: workspace
                .and_then(|w| w.workspace_edit.as_ref())
                .and_then(|e| e.document_changes)
                .unwrap_or(false),
            watch_files: workspace
                .and_then(|w| w.did_change_watched_files.as_ref())
                .and_then(|d| d.dynamic_registration)
                .unwrap_or(false),
            configuration: workspace.and_then(|w| w.configuration).unwrap_or(false),
            hover_markdown: text_doc
                .and_then(|t| t.hover.as_ref())
                .and_then(|h| h.content_format.as_ref())
                .and_then(|formats| formats.first())
                .is_none_or(|first| *first == MarkupKind::Markdown),
        };
        let _ = state.negotiated.set(negotiated);
        #[allow(deprecated)] // `root_uri`: the fallback for clients without folders.
        let folders: Vec<PathBuf> = match &params.workspace_folders {
            Some(folders) => folders.iter().map(|f| uri_path(&f.uri)).collect(),
            None => params.root_uri.iter().map(uri_path).collect(),
        };
        state.settings.set_folders(folders);
        if let Some(options) = &params.initialization_options {
            state.set_client_settings(options);
        }
        state.log.info(format_args!(
            "initialize: client {}, position encoding {:?}, {} diagnostics",
            params
                .client_info
                .as_ref()
                .map(|c| c.name.as_str())
                .unwrap_or("unknown"),
            enc,
            if negotiated.pull { "pull" } else { "push" }
        ));
        let capabilities = ServerCapabilities {
            position_encoding: Some(convert::encoding_kind(enc)),
            text_document_sync: Some(TextDocumentSyncCapability::Options(
                TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                    ..Default::default()
                },
            )),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                code_action_kinds: Some(vec![
                    CodeActionKind::QUICKFIX,
                    CodeActionKind::new(FIX_ALL_KIND),
                ]),
                resolve_provider: Some(false),
                ..Default::default()
            })),
            diagnostic_provider: negotiated.pull.then(|| {
                DiagnosticServerCapabilities::Options(DiagnosticOptions {
                    identifier: Some("jax-lsp".to_owned()),
                    inter_file_dependencies: true,
                    workspace_diagnostics: false,
                    ..Default::default()
                })
            }),
            workspace: Some(WorkspaceServerCapabilities {
                workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                    supported: Some(true),
                    change_notifications: Some(OneOf::Left(true)),
                }),
                file_operations: None,
            }),
            ..Default::default()
        };
        Ok(InitializeResult {
            capabilities,
            server_info: Some(ServerInfo {
                name: "jax-lsp".to_owned(),
                version: Some(env!("CARGO_PKG_VERSION").to_owned()),
            }),
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        let state = self.state.clone();
        state.log.enable_client();
        let negotiated = state.negotiated();
        tokio::spawn(async move {
            if negotiated.watch_files {
                let options = DidChangeWatchedFilesRegistrationOptions {
                    // `*.scm`: contracts' query files.
                    watchers: ["**/pyproject.toml", "**/*.py", "**/*.scm"]
                        .into_iter()
                        .map(|glob| FileSystemWatcher {
                            glob_pattern: GlobPattern::String(glob.to_owned()),
                            kind: None,
                        })
                        .collect(),
                };
                let registration = Registration {
                    id: "jax-lsp-watch".to_owned(),
                    method: "workspace/didChangeWatchedFiles".to_owned(),
                    register_options: serde_json::to_value(options).ok(),
                };
                if let Err(e) = state.client.register_capability(vec![registration]).await {
                    state
                        .log
                        .warn(format_args!("could not register file watchers: {e}"));
                }
            }
            if negotiated.configuration {
                state.fetch_configuration().await;
            }
        });
    }

    async fn shutdown(&self) -> RpcResult<()> {
        self.state.log.info(format_args!("shutdown"));
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let state = &self.state;
        let item = params.text_document;
        let path = uri_path(&item.uri);
        let gen = state.new_gen();
        let doc = Document::new(item.text, item.version);
        let too_large = doc.too_large();
        state.docs.insert(
            item.uri.clone(),
            DocEntry {
                doc,
                path: path.clone(),
                gen,
                analysis: None,
                in_flight: None,
                large_reported: too_large,
                env_gen: 0,
                reuse: Arc::default(),
                parse_gate: Arc::default(),
                // Its own allocation: its address identifies this entry (`is_entry`).
                open: Arc::new(()),
            },
        );
        state.paths.insert(path.clone(), item.uri.clone());
        if too_large {
            state.show(
                MessageType::WARNING,
                format!(
                    "jax-lsp: {} is larger than 5 MB; it is not analyzed.",
                    path.display()
                ),
            );
        }
        state.log.debug(format_args!(
            "opened {} (version {})",
            item.uri, item.version
        ));
        state.schedule(item.uri, gen, Duration::ZERO, true);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let state = &self.state;
        let uri = params.text_document.uri;
        let version = params.text_document.version;
        let enc = state.enc();
        // Everything up to the end of this block runs without an `.await`.
        let applied = {
            let Some(mut entry) = state.docs.get_mut(&uri) else {
                state.log.warn(format_args!(
                    "didChange for a document that is not open: {uri}; ignored"
                ));
                return;
            };
            if version <= entry.doc.version {
                let current = entry.doc.version;
                drop(entry);
                state.log.warn(format_args!(
                    "didChange for {uri} version {version}, but the document is at version {current}; ignored"
                ));
                return;
            }
            let mut notes = Vec::new();
            for change in params.content_changes {
                match change.range {
                    Some(range) => {
                        if let Some(note) =
                            entry
                                .doc
                                .apply_change(range.start, range.end, &change.text, enc)
                        {
                            notes.push(note.0);
                        }
                    }
                    None => {
                        drop_later(entry.doc.sections.take());
                        entry.doc.replace_all(&change.text);
                    }
                }
            }
            entry.doc.version = version;
            entry.gen = state.new_gen();
            let newly_large = entry.doc.too_large() && !entry.large_reported;
            if newly_large {
                entry.large_reported = true;
            }
            (entry.gen, entry.path.clone(), notes, newly_large)
        };
        let (gen, path, notes, newly_large) = applied;
        for note in notes {
            state
                .log
                .warn(format_args!("didChange {uri} version {version}: {note}"));
        }
        if newly_large {
            state.show(
                MessageType::WARNING,
                format!(
                    "jax-lsp: {} is larger than 5 MB; it is not analyzed.",
                    path.display()
                ),
            );
        }
        // The module's summary is stale for the files importing it.
        state.resolver.invalidate(&path);
        state.schedule(uri, gen, DEBOUNCE, true);
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        let path = uri_path(&params.text_document.uri);
        if path.file_name().is_some_and(|n| n == "pyproject.toml")
            || path.extension().is_some_and(|e| e == "scm")
        {
            self.state.settings.invalidate();
            self.state.recheck_all();
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let state = &self.state;
        let uri = params.text_document.uri;
        let Some((_, entry)) = state.docs.remove(&uri) else {
            return;
        };
        state.paths.remove_if(&entry.path, |_, u| *u == uri);
        state.log.debug(format_args!("closed {uri}"));
        // Importers now read the file from disk.
        state.recheck_dependents(&entry.path, None);
        drop_later(entry);
        if !state.negotiated().pull {
            state
                .client
                .publish_diagnostics(uri, Vec::new(), None)
                .await;
        }
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        let state = self.state.clone();
        let changed = state.set_client_settings(&params.settings);
        if changed {
            state.settings_pushes.fetch_add(1, Ordering::SeqCst);
            state.recheck_all();
        } else if state.negotiated().configuration {
            // The client sent no settings (the pull model): ask for them.
            tokio::spawn(async move { state.fetch_configuration().await });
        }
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        let state = &self.state;
        let mut config_changed = false;
        for change in params.changes {
            let path = uri_path(&change.uri);
            // A contract's query file is configuration too.
            if path.file_name().is_some_and(|n| n == "pyproject.toml")
                || path.extension().is_some_and(|e| e == "scm")
            {
                config_changed = true;
            } else if path.extension().is_some_and(|e| e == "py")
                && !state.paths.contains_key(&path)
            {
                state.recheck_dependents(&path, None);
            }
        }
        if config_changed {
            state.log.info(format_args!(
                "pyproject.toml or a contract query changed: reloading the configuration"
            ));
            state.settings.invalidate();
            state.recheck_all();
        }
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        let state = self.state.clone();
        let removed: Vec<PathBuf> = params
            .event
            .removed
            .iter()
            .map(|f| uri_path(&f.uri))
            .collect();
        let mut folders = state.settings.folders();
        folders.retain(|f| !removed.contains(f));
        for added in &params.event.added {
            let path = uri_path(&added.uri);
            if !folders.contains(&path) {
                folders.push(path);
            }
        }
        state.log.info(format_args!(
            "workspace folders: {}",
            folders
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        // Folder-scoped client settings are asked for again; settings from
        // files are discovered from each file's directory, and a new folder
        // may hold a pyproject.toml that applies to open files.
        state.settings.set_folders(folders);
        state.recheck_all();
        if state.negotiated().configuration {
            tokio::spawn(async move { state.fetch_configuration().await });
        }
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> RpcResult<DocumentDiagnosticReportResult> {
        let state = &self.state;
        let uri = params.text_document.uri;
        let report = match state.current_analysis(&uri).await {
            None => DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport::default()),
            Some(analysis) => {
                let id = analysis.gen.to_string();
                if params.previous_result_id.as_deref() == Some(id.as_str()) {
                    DocumentDiagnosticReport::Unchanged(RelatedUnchangedDocumentDiagnosticReport {
                        related_documents: None,
                        unchanged_document_diagnostic_report: UnchangedDocumentDiagnosticReport {
                            result_id: id,
                        },
                    })
                } else {
                    DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
                        related_documents: None,
                        full_document_diagnostic_report: FullDocumentDiagnosticReport {
                            result_id: Some(id),
                            items: analysis.diagnostics.clone(),
                        },
                    })
                }
            }
        };
        Ok(DocumentDiagnosticReportResult::Report(report))
    }

    async fn hover(&self, params: HoverParams) -> RpcResult<Option<Hover>> {
        let state = &self.state;
        let uri = params.text_document_position_params.text_document.uri;
        let pos = params.text_document_position_params.position;
        let analysis = state.current_analysis(&uri).await;
        let Some(entry) = state.docs.get(&uri) else {
            return Ok(None);
        };
        let doc = &entry.doc;
        let lines = state.lines_of(doc);
        let offset = lines.offset(pos);
        let findings = analysis
            .as_ref()
            .filter(|a| a.version == doc.version)
            .map(|a| a.findings.as_slice());
        let tree = doc.tree_at(offset);
        let Some((mut markdown, span)) =
            hover::hover_at(&doc.text, &doc.index, tree.as_deref(), findings, offset)
        else {
            return Ok(None);
        };
        // A contract's code: the contract says what it means.
        if let Some(findings) = findings {
            let settings = state.settings.for_file(&entry.path, &|_| {});
            for f in findings
                .iter()
                .filter(|f| f.span.start <= offset && offset <= f.span.end)
            {
                if let Some(contract) = settings.contracts.by_code(f.code) {
                    markdown.push_str("\n\n---\n\n");
                    markdown.push_str(&contract.explanation());
                }
            }
        }
        let contents = if state.negotiated().hover_markdown {
            MarkupContent {
                kind: MarkupKind::Markdown,
                value: markdown,
            }
        } else {
            MarkupContent {
                kind: MarkupKind::PlainText,
                value: hover::plain_text(&markdown),
            }
        };
        Ok(Some(Hover {
            contents: HoverContents::Markup(contents),
            range: Some(lines.range(&span)),
        }))
    }

    async fn code_action(&self, params: CodeActionParams) -> RpcResult<Option<CodeActionResponse>> {
        let state = &self.state;
        let uri = params.text_document.uri;
        let only = params.context.only.as_deref();
        let want_quickfix = actions::wanted(only, CodeActionKind::QUICKFIX.as_str());
        let want_fix_all = actions::wanted(only, FIX_ALL_KIND);
        let ours: Vec<Diagnostic> = params
            .context
            .diagnostics
            .iter()
            .filter(|d| convert::diagnostic_code(d).is_some())
            .cloned()
            .collect();
        // Without diagnostics from the client, use ours under the range.
        let analysis = if want_fix_all || ours.is_empty() {
            state.current_analysis(&uri).await
        } else {
            None
        };
        let Some(entry) = state.docs.get(&uri) else {
            return Ok(None);
        };
        let doc = &entry.doc;
        let lines = state.lines_of(doc);
        let current = analysis.as_ref().filter(|a| a.version == doc.version);
        let mut out = Vec::new();
        if want_quickfix {
            let diagnostics = if !ours.is_empty() {
                ours
            } else {
                let range = lines.span(params.range);
                current
                    .map(|a| {
                        a.findings
                            .iter()
                            .zip(&a.diagnostics)
                            .filter(|(f, _)| f.span.start <= range.end && range.start <= f.span.end)
                            .map(|(_, d)| d.clone())
                            .collect()
                    })
                    .unwrap_or_default()
            };
            out.extend(actions::quick_fixes(
                &diagnostics,
                &uri,
                doc.version,
                lines,
                state.style(),
            ));
        }
        if want_fix_all {
            if let Some(a) = current {
                out.extend(actions::fix_all(
                    &a.findings,
                    &uri,
                    doc.version,
                    lines,
                    state.style(),
                ));
            }
        }
        Ok(Some(out))
    }
}

//! Language-server latency and memory, all measured in one run (interleaved
//! where possible, medians reported) so the ratios are comparable on a noisy
//! machine.
//!
//!     cargo bench --bench server [-- --keys N --budget-s S --write FILE --no-memory --open-only]
//!     JAX_WHEEL_DIR=sweep/src/jax-0.12.0.1-py3-none-any cargo bench --bench server
//!
//! The edit loop stops at `--budget-s` seconds (default 420) if the N edits
//! (default 1000) take longer; the open phase gets a quarter of that.
//!
//! 1. Keystroke: a generated 10,000-line JAX module is opened in the real
//!    server (`Backend` through its `LanguageServer` methods, pull
//!    diagnostics); N single-character edits (insert, then delete, alternating,
//!    inside identifiers of function bodies near the middle) each go through
//!    `didChange` (text splice, line index, `Tree::edit`) and then
//!    `textDocument/diagnostic` (snapshot, analysis,
//!    conversion to LSP diagnostics). Every 50 edits, a from-scratch
//!    `didOpen` -> diagnostics of the same text (another URI) is timed, and
//!    so is a bare `analysis::analyze`. The same edits are also replayed on a
//!    bench-owned `Document` and `Incremental` with each phase timed
//!    separately (the breakdown, with the incremental analysis's own phases).
//! 2. Open: `didOpen` -> diagnostics of a 12,000-line file vs a bare
//!    one-thread tree-sitter parse of the same text, interleaved; then the
//!    first edit -> diagnostics (it waits for the pieces to be joined into the
//!    document's tree if they are not yet). By phase: the parse in pieces
//!    (one per rayon thread), the join after publishing, the first
//!    `Incremental::analyze` of the text; for reference, a bare `TreeCursor`
//!    walk over every node and `Module::new` (the fact query pass).
//!
//! The bench uses the binary's allocator (mimalloc, also for tree-sitter).
//! 3. Memory (in a child process, so earlier phases do not pollute it): RSS
//!    before/after opening 200 documents of 1,000 lines (after `didOpen`
//!    alone, then after a diagnostics pull of each, then after `mi_collect`
//!    to show live memory; for reference, 200 bare trees of the same texts),
//!    and after building `FsResolver` summaries for every .py file under
//!    `$JAX_WHEEL_DIR` (if set).
//!
//! The client is set up like VS Code: pull diagnostics with refresh support
//! (the server pushes otherwise, and a debounced push analysis would then
//! run next to the bench's pull) and utf-16 positions.

use jax_lsp::analysis;
use jax_lsp::config::Settings;
use jax_lsp::incremental::Incremental;
use jax_lsp::resolver::FsResolver;
use jax_lsp::semantic::Module;
use jax_lsp::server::convert::{self, Lines, ReadText};
use jax_lsp::server::document::Document;
use jax_lsp::server::Backend;
use jax_lsp::syntax::{self, Encoding, LineIndex};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower_lsp::lsp_types::*;
use tower_lsp::{LanguageServer, LspService};

// ---------------------------------------------------------------- generator

const HEADER: &str = r#""""A generated model library: Pallas kernels, jitted layers and AOT lowerings."""

import functools

import jax
import jax.numpy as jnp
import jax.experimental.pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as pltriton

BLOCK_ROWS = 128

"#;

/// One block of realistic code (about 75 lines). Every `bad_every`-th block
/// lowers its TPU kernel for cuda (a JP002 finding).
fn block(i: usize, bad: bool) -> String {
    let bad_line = if bad {
        format!(
            "    bad = jax.jit(matmul_tpu_{i}).trace(x, w).lower(lowering_platforms=(\"cuda\",))\n"
        )
    } else {
        "    bad = None\n".to_owned()
    };
    format!(
        r#"
# --- block {i} ---------------------------------------------------------------


def _kernel_{i}(x_ref, w_ref, o_ref):
    acc_{i} = jnp.dot(x_ref[...], w_ref[...], preferred_element_type=jnp.float32)
    scaled_{i} = acc_{i} * 0.5 + 1.0
    o_ref[...] = scaled_{i}.astype(o_ref.dtype)


def matmul_tpu_{i}(x, w):
    """Mosaic TPU matmul {i}, tiled over rows."""
    m, k = x.shape
    _, n = w.shape
    rows_{i} = BLOCK_ROWS
    return pl.pallas_call(
        _kernel_{i},
        grid=(m // rows_{i},),
        in_specs=[
            pl.BlockSpec((rows_{i}, k), lambda r: (r, 0)),
            pl.BlockSpec((k, n), lambda r: (0, 0)),
        ],
        out_specs=pl.BlockSpec((rows_{i}, n), lambda r: (r, 0)),
        out_shape=jax.ShapeDtypeStruct((m, n), jnp.float32),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
    )(x, w)


def _act_kernel_{i}(x_ref, o_ref):
    value_{i} = x_ref[...]
    cubic_{i} = value_{i} + 0.044715 * value_{i}**3
    o_ref[...] = 0.5 * value_{i} * (1.0 + jnp.tanh(0.79788456 * cubic_{i}))


@functools.partial(jax.jit, static_argnames=("num_warps",))
def act_triton_{i}(x, num_warps=4):
    """Triton activation {i} for NVIDIA GPUs."""
    return pl.pallas_call(
        _act_kernel_{i},
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params=pltriton.CompilerParams(num_warps=num_warps, num_stages=2),
    )(x)


class Layer{i}:
    def __init__(self, features, scale=1.0):
        self.features = features
        self.scale = scale
        self.step = jax.jit(self.apply)

    def apply(self, params, x):
        hidden = jnp.einsum("bf,fh->bh", x, params["w"])
        hidden = jax.nn.gelu(hidden) * self.scale
        out = hidden + params["b"]
        return out

    def loss(self, params, x, y):
        pred = self.apply(params, x)
        err = pred - y
        return jnp.mean(err**2)


@jax.jit
def update_{i}(params, grads, lr=1e-3):
    scaled = jax.tree.map(lambda g: g * lr, grads)
    updated = jax.tree.map(lambda p, s: p - s, params, scaled)
    return updated


def export_block_{i}():
    x = jax.ShapeDtypeStruct((512, 256), jnp.bfloat16)
    w = jax.ShapeDtypeStruct((256, 128), jnp.bfloat16)
    ok = jax.jit(matmul_tpu_{i}).trace(x, w).lower(lowering_platforms=("tpu",))
    gpu = jax.jit(act_triton_{i}).trace(x).lower(lowering_platforms=("cuda",))
{bad_line}    return ok, gpu, bad
"#
    )
}

/// A module of exactly `lines` lines (blocks numbered from `first`).
fn generate(lines: usize, first: usize, bad_every: usize) -> String {
    let mut text = HEADER.to_owned();
    let mut i = first;
    loop {
        let b = block(i, i % bad_every == bad_every / 2);
        if text.lines().count() + b.lines().count() > lines {
            break;
        }
        text.push_str(&b);
        i += 1;
    }
    while text.lines().count() < lines {
        text.push_str("# padding\n");
    }
    text
}

// ------------------------------------------------------------------ helpers

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn pct(mut v: Vec<Duration>, p: f64) -> Duration {
    v.sort();
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v[i]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// RSS after the allocator returns what it can to the system (mimalloc, as
/// in the binary: `mi_collect(force)`), so what remains is live memory.
fn trim_rss() -> f64 {
    // SAFETY: mi_collect has no preconditions.
    unsafe {
        libmimalloc_sys::mi_collect(true);
    }
    rss_mb()
}

fn rss_mb() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: f64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0.0);
    pages * 4096.0 / (1024.0 * 1024.0)
}

/// Small deterministic PRNG (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A server with pull diagnostics (with refresh support, which the server
/// requires for pull) and utf-16 positions: VS Code's setup. In push mode the
/// debounced publish would run a second analysis next to the pull.
async fn start_server() -> (LspService<Backend>, tower_lsp::ClientSocket) {
    let (service, socket) = LspService::new(Backend::new);
    let params = InitializeParams {
        capabilities: ClientCapabilities {
            text_document: Some(TextDocumentClientCapabilities {
                diagnostic: Some(DiagnosticClientCapabilities::default()),
                ..Default::default()
            }),
            workspace: Some(WorkspaceClientCapabilities {
                diagnostic: Some(DiagnosticWorkspaceClientCapabilities {
                    refresh_support: Some(true),
                }),
                ..Default::default()
            }),
            ..Default::default()
        },
        ..Default::default()
    };
    let result = service
        .inner()
        .initialize(params)
        .await
        .expect("initialize");
    assert!(
        result.capabilities.diagnostic_provider.is_some(),
        "the server did not agree to pull diagnostics"
    );
    (service, socket)
}

async fn open(server: &Backend, uri: &Url, text: &str) {
    server
        .did_open(DidOpenTextDocumentParams {
            text_document: TextDocumentItem {
                uri: uri.clone(),
                language_id: "python".to_owned(),
                version: 0,
                text: text.to_owned(),
            },
        })
        .await;
}

async fn close(server: &Backend, uri: &Url) {
    server
        .did_close(DidCloseTextDocumentParams {
            text_document: TextDocumentIdentifier { uri: uri.clone() },
        })
        .await;
}

/// `textDocument/diagnostic`: the number of diagnostics.
async fn pull(server: &Backend, uri: &Url) -> usize {
    let report = server
        .diagnostic(DocumentDiagnosticParams {
            text_document: TextDocumentIdentifier { uri: uri.clone() },
            identifier: None,
            previous_result_id: None,
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        })
        .await
        .expect("diagnostic");
    match report {
        DocumentDiagnosticReportResult::Report(DocumentDiagnosticReport::Full(r)) => {
            r.full_document_diagnostic_report.items.len()
        }
        _ => usize::MAX,
    }
}

struct NoOther;
impl ReadText for NoOther {
    fn read_text(&self, _: &Path) -> Option<(Arc<str>, Arc<LineIndex>)> {
        None
    }
}

/// A utf-16 position of a byte offset (ASCII text: bytes).
fn position(text: &str, offset: usize) -> Position {
    let before = &text[..offset];
    let line = before.matches('\n').count() as u32;
    let col = offset - before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    Position {
        line,
        character: col as u32,
    }
}

/// Offsets inside identifiers being assigned in function bodies, within
/// `span` lines of the middle: `    acc_7 = ...` -> just after `a`.
fn edit_sites(text: &str, span: usize) -> Vec<usize> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mid = lines.len() / 2;
    let mut offsets = Vec::new();
    let mut at = 0;
    for (n, line) in lines.iter().enumerate() {
        let indent = line.len() - line.trim_start().len();
        let rest = line.trim_start();
        let ident: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if n + span >= mid
            && n <= mid + span
            && indent >= 4
            && ident.len() >= 2
            && !matches!(ident.as_str(), "return" | "def" | "class" | "self")
            && rest[ident.len()..].starts_with(" = ")
        {
            offsets.push(at + indent + 1);
        }
        at += line.len() + 1;
    }
    offsets
}

#[derive(Default)]
struct Phases {
    edit: Vec<Duration>,
    snapshot: Vec<Duration>,
    units: Vec<Duration>,
    analyzed_units: Vec<usize>,
    unit_phases: [Vec<Duration>; 5],
    reused_units: Vec<usize>,
    convert: Vec<Duration>,
    total: Vec<Duration>,
}

/// The same work as the server's edit + analysis, one phase at a time.
#[allow(clippy::too_many_arguments)]
fn phased(
    doc: &mut Document,
    start: Position,
    end: Position,
    insert: &str,
    path: &Path,
    settings: &Settings,
    resolver: &FsResolver,
    p: &mut Phases,
    units: &mut Incremental,
) -> usize {
    let t0 = Instant::now();
    doc.apply_change(start, end, insert, Encoding::Utf16);
    let t1 = Instant::now();
    // What `State::snapshot` copies for the blocking thread.
    let text: Arc<str> = Arc::from(doc.text.as_str());
    let index = Arc::new(doc.index.clone());
    let sections = doc.sections.clone().expect("sections");
    let t2 = Instant::now();
    p.edit.push(t1 - t0);
    p.snapshot.push(t2 - t1);
    let t3_edit = t2;
    let t3 = Instant::now();
    let findings = if analysis::may_have_findings(&text) {
        units.analyze_sections(&text, &sections, path, settings, Some(resolver))
    } else {
        Vec::new()
    };
    let t6 = Instant::now();
    let uri = Url::from_file_path(path).expect("uri");
    let lines = Lines {
        text: &text,
        index: &index,
        enc: Encoding::Utf16,
    };
    let diags: Vec<Diagnostic> = findings
        .iter()
        .map(|f| convert::to_diagnostic(f, &uri, doc.version, lines, &NoOther))
        .collect();
    let t7 = Instant::now();
    p.units.push(t6 - t3);
    p.analyzed_units.push(units.stats.analyzed);
    let st = units.stats;
    for (v, d) in
        p.unit_phases
            .iter_mut()
            .zip([st.scan, st.partition, st.reuse, st.analysis, st.merge])
    {
        v.push(d);
    }
    p.reused_units.push(units.stats.reused);
    p.convert.push(t7 - t6);
    // The analysis phases plus this edit's apply/snapshot/reparse.
    p.total.push(t7 - t3 + (t3_edit - t0));
    diags.len()
}

// ----------------------------------------------------------------- phases

/// The bench-owned document's first analysis (every unit), untimed.
fn phased_open(
    doc: &mut Document,
    path: &Path,
    settings: &Settings,
    resolver: &FsResolver,
    units: &mut Incremental,
) {
    let text: Arc<str> = Arc::from(doc.text.as_str());
    let sections = doc.sections.clone().expect("sections");
    units.analyze_sections(&text, &sections, path, settings, Some(resolver));
}

fn keystrokes(
    rt: &tokio::runtime::Runtime,
    dir: &Path,
    keys: usize,
    budget: Duration,
    write: Option<&Path>,
) {
    let text = generate(10_000, 0, 10);
    if let Some(out) = write {
        std::fs::write(out, &text).expect("write the generated file");
        println!("wrote the 10,000-line module to {}", out.display());
    }
    let path = dir.join("model_10k.py");
    let uri = Url::from_file_path(&path).expect("uri");
    let settings = Settings::default();
    let resolver = FsResolver::default();
    let sites = edit_sites(&text, 150);
    assert!(!sites.is_empty());
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);

    let (mut key_lat, mut scratch_server, mut scratch_lib) = (Vec::new(), Vec::new(), Vec::new());
    let mut phases = Phases::default();
    let mut doc = Document::new(text.clone(), 0);
    doc.parse_now();
    let (mut n_diag, mut n_phased, mut n_scratch) = (0, 0, 0);
    let mut done = 0;
    let mut units = Incremental::new();
    phased_open(&mut doc, &path, &settings, &resolver, &mut units);
    rt.block_on(async {
        let (service, _socket) = start_server().await;
        let server = service.inner();
        open(server, &uri, &text).await;
        let baseline = pull(server, &uri).await;
        let mut current = text.clone();
        let mut pending: Option<usize> = None;
        let began = Instant::now();
        let mut last_scratch = began;
        let scratch_every = budget / 12;
        for k in 0..keys {
            // Stop at the time budget, but always after a delete (the text
            // back to the original) and with at least 3 from-scratch samples.
            if pending.is_none() && began.elapsed() > budget && scratch_server.len() >= 3 {
                done = k;
                break;
            }
            done = k + 1;
            // Insert a letter, then delete it: the text alternates between
            // the original and one character longer.
            let (start, end, insert, at) = match pending.take() {
                None => {
                    let at = sites[rng.below(sites.len())];
                    pending = Some(at);
                    let p = position(&current, at);
                    (p, p, "q", at)
                }
                Some(at) => (position(&current, at), position(&current, at + 1), "", at),
            };
            let version = k as i32 + 1;
            let t = Instant::now();
            server
                .did_change(DidChangeTextDocumentParams {
                    text_document: VersionedTextDocumentIdentifier {
                        uri: uri.clone(),
                        version,
                    },
                    content_changes: vec![TextDocumentContentChangeEvent {
                        range: Some(Range { start, end }),
                        range_length: None,
                        text: insert.to_owned(),
                    }],
                })
                .await;
            n_diag = pull(server, &uri).await;
            key_lat.push(t.elapsed());
            current.replace_range(at..at + (1 - insert.len()), insert);

            doc.version = version;
            // The phase breakdown: the same edit, applied, reparsed and
            // analyzed phase by phase.
            n_phased = phased(
                &mut doc,
                start,
                end,
                insert,
                &path,
                &settings,
                &resolver,
                &mut phases,
                &mut units,
            );

            if k % 50 == 25 || last_scratch.elapsed() > scratch_every {
                last_scratch = Instant::now();
                let other = Url::from_file_path(dir.join(format!("scratch_{k}.py"))).unwrap();
                let t = Instant::now();
                open(server, &other, &current).await;
                n_scratch = pull(server, &other).await;
                scratch_server.push(t.elapsed());
                close(server, &other).await;
                let t = Instant::now();
                let f = analysis::analyze(&current, &path, &settings, Some(&resolver));
                scratch_lib.push(t.elapsed());
                drop(std::hint::black_box(f));
            }
        }
        assert_eq!(doc.text, current, "bench document diverged");
        println!(
            "10k module: {} lines, {} KB, {} diagnostics at open ({} after the edits; phased {}; scratch {}); {} edit sites",
            text.lines().count(),
            text.len() / 1024,
            baseline,
            n_diag,
            n_phased,
            n_scratch,
            sites.len()
        );
    });

    let mut slowest: Vec<(Duration, usize)> = key_lat.iter().copied().zip(0..).collect();
    slowest.sort();
    slowest.reverse();
    println!(
        "   slowest edits (latency, index): {:?}",
        &slowest[..5.min(slowest.len())]
    );
    let key_med = median(key_lat.clone());
    let key_p99 = pct(key_lat.clone(), 0.99);
    let sc_med = median(scratch_server.clone());
    let lib_med = median(scratch_lib.clone());
    println!();
    println!(
        "1. keystroke, 10,000-line module ({done} of {keys} edits{}; {} from-scratch samples)",
        if done < keys {
            ", time budget reached"
        } else {
            ""
        },
        scratch_server.len()
    );
    println!("   {:<52} {:>9} {:>9}", "", "median", "p99");
    println!(
        "   {:<52} {:>7.2}ms {:>7.2}ms",
        "edit -> diagnostics (didChange + diagnostic pull)",
        ms(key_med),
        ms(key_p99)
    );
    println!(
        "   {:<52} {:>7.2}ms {:>7.2}ms",
        "from scratch (didOpen + diagnostic pull)",
        ms(sc_med),
        ms(pct(scratch_server.clone(), 0.99))
    );
    println!(
        "   {:<52} {:>7.2}ms {:>7.2}ms",
        "from scratch (analysis::analyze, parse + analysis)",
        ms(lib_med),
        ms(pct(scratch_lib.clone(), 0.99))
    );
    println!(
        "   ratio from-scratch(server) / keystroke median = {:.2}x   (target >= 20x; median <= 2 ms, p99 <= 10 ms)",
        sc_med.as_secs_f64() / key_med.as_secs_f64()
    );
    println!(
        "   breakdown (the same edits on a bench-owned Document, same functions, one phase at a time;"
    );
    println!("   {} edits):", phases.edit.len());
    let rows: [(&str, &Vec<Duration>); 5] = [
        (
            "apply_change (splice, LineIndex::new, sections reparsed)",
            &phases.edit,
        ),
        (
            "snapshot copies (text Arc, LineIndex, sections Arc)",
            &phases.snapshot,
        ),
        (
            "incremental analysis (units, Incremental::analyze)",
            &phases.units,
        ),
        ("to_diagnostic (LSP conversion)", &phases.convert),
        ("sum of phases", &phases.total),
    ];
    for (name, v) in rows {
        println!(
            "     {:<54} {:>7.3}ms {:>7.3}ms",
            name,
            ms(median(v.clone())),
            ms(pct(v.clone(), 0.99))
        );
    }
    let names = [
        "list and match statements",
        "partition (or keep) units",
        "reuse unchanged units",
        "analyse changed units",
        "merge, noqa, sort",
    ];
    for (name, v) in names.iter().zip(&phases.unit_phases) {
        println!(
            "       {:<52} {:>7.3}ms {:>7.3}ms",
            name,
            ms(median(v.clone())),
            ms(pct(v.clone(), 0.99))
        );
    }
    let mut analyzed = phases.analyzed_units.clone();
    analyzed.sort();
    let mut reused = phases.reused_units.clone();
    reused.sort();
    println!(
        "   units per edit: {} in all; analysed median {} (max {}), reused median {}",
        units.stats.units,
        analyzed[analyzed.len() / 2],
        analyzed[analyzed.len() - 1],
        reused[reused.len() / 2],
    );
    println!(
        "   sections: {}",
        doc.sections.as_ref().map_or(0, |s| s.len())
    );
}

fn open_latency(rt: &tokio::runtime::Runtime, dir: &Path, max_runs: usize, budget: Duration) {
    let text = generate(12_000, 1000, 10);
    let (mut open_lat, mut parse_lat) = (Vec::new(), Vec::new());
    let (mut pieces_lat, mut edit_lat) = (Vec::new(), Vec::new());
    let (mut walk_lat, mut facts_lat) = (Vec::new(), Vec::new());
    let threads = rayon::current_num_threads();
    let mut piece_count = 0;
    // An edit inside a function body near the middle, as the keystroke
    // bench makes them.
    let site = edit_sites(&text, 50)[0];
    let mut unit_phases: [Vec<Duration>; 4] = Default::default();
    let path = dir.join("open_units.py");
    let settings = Settings::default();
    let resolver = FsResolver::default();
    let shared: Arc<str> = Arc::from(text.as_str());
    let mut n = 0;
    rt.block_on(async {
        let (service, _socket) = start_server().await;
        let server = service.inner();
        let began = Instant::now();
        for r in 0..max_runs {
            if r >= 3 && began.elapsed() > budget {
                break;
            }
            let t = Instant::now();
            let tree = syntax::parse(&text, None).expect("parse");
            parse_lat.push(t.elapsed());
            // The server's first parse: sections, in parallel.
            let t = Instant::now();
            let first = syntax::sections::parse_parallel(&text).expect("parse");
            pieces_lat.push(t.elapsed());
            piece_count = first.len();
            drop(first);
            let t = Instant::now();
            let mut cursor = tree.walk();
            let mut nodes = 0usize;
            'walk: loop {
                nodes += 1;
                if cursor.goto_first_child() {
                    continue;
                }
                while !cursor.goto_next_sibling() {
                    if !cursor.goto_parent() {
                        break 'walk;
                    }
                }
            }
            walk_lat.push(t.elapsed());
            std::hint::black_box(nodes);
            drop(cursor);
            let t = Instant::now();
            let module = Module::new(&text, &tree);
            facts_lat.push(t.elapsed());
            std::hint::black_box(module.calls.len());
            drop(module);
            // What the server's analysis of a new document does after the
            // parse, phase by phase.
            let t = Instant::now();
            let mut units = Incremental::new();
            units.analyze(&shared, &tree, &path, &settings, Some(&resolver));
            let total = t.elapsed();
            let st = units.stats;
            for (v, d) in unit_phases
                .iter_mut()
                .zip([total, st.scan, st.partition, st.analysis])
            {
                v.push(d);
            }
            drop(tree);
            let uri = Url::from_file_path(dir.join(format!("open_{r}.py"))).unwrap();
            let t = Instant::now();
            open(server, &uri, &text).await;
            n = pull(server, &uri).await;
            open_lat.push(t.elapsed());
            // The first keystroke after the diagnostics: it waits for the
            // pieces to be joined into the document's tree, if they are not yet.
            let at = position(&text, site);
            let t = Instant::now();
            server
                .did_change(DidChangeTextDocumentParams {
                    text_document: VersionedTextDocumentIdentifier {
                        uri: uri.clone(),
                        version: 1,
                    },
                    content_changes: vec![TextDocumentContentChangeEvent {
                        range: Some(Range { start: at, end: at }),
                        range_length: None,
                        text: "q".to_owned(),
                    }],
                })
                .await;
            pull(server, &uri).await;
            edit_lat.push(t.elapsed());
            close(server, &uri).await;
        }
    });
    let runs = open_lat.len();
    let (o, p) = (median(open_lat), median(parse_lat));
    println!();
    println!(
        "2. open, 12,000-line module ({} KB, {n} diagnostics; median of {runs})",
        text.len() / 1024
    );
    println!("   {:<52} {:>7.2}ms", "didOpen -> diagnostics", ms(o));
    println!(
        "   {:<52} {:>7.2}ms",
        "bare tree-sitter parse (syntax::parse)",
        ms(p)
    );
    println!(
        "   ratio open / parse = {:.2}x   (target <= 1.3x)",
        o.as_secs_f64() / p.as_secs_f64()
    );
    println!(
        "   {:<52} {:>7.2}ms",
        "first edit after the diagnostics -> diagnostics",
        ms(median(edit_lat))
    );
    println!(
        "   {:<52} {:>7.2}ms",
        format!("  of which: parse in {piece_count} sections ({threads} thread(s))"),
        ms(median(pieces_lat))
    );
    let names = [
        "  of which: Incremental::analyze, first version",
        "    list statements, tokens, needles",
        "    partition into units",
        "    analyse the units (rayon)",
    ];
    for (name, v) in names.iter().zip(unit_phases) {
        println!("   {:<52} {:>7.2}ms", name, ms(median(v)));
    }
    println!(
        "   {:<52} {:>7.2}ms",
        "  reference: TreeCursor walk over every node",
        ms(median(walk_lat))
    );
    println!(
        "   {:<52} {:>7.2}ms",
        "  reference: Module::new (fact query pass)",
        ms(median(facts_lat))
    );
}

fn memory(dir: &Path) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let texts: Vec<String> = (0..200).map(|d| generate(1_000, d * 100, 10)).collect();
    let bytes: usize = texts.iter().map(|t| t.len()).sum();
    let (service, _socket) = rt.block_on(start_server());
    let before = rss_mb();
    let uris: Vec<Url> = (0..texts.len())
        .map(|d| Url::from_file_path(dir.join(format!("mem_{d}.py"))).unwrap())
        .collect();
    let mut diags = 0;
    let after_open = rt.block_on(async {
        let server = service.inner();
        for (uri, text) in uris.iter().zip(&texts) {
            open(server, uri, text).await;
        }
        // Let the zero-delay tasks `didOpen` scheduled run.
        tokio::time::sleep(Duration::from_millis(100)).await;
        let after_open = rss_mb();
        for uri in &uris {
            diags += pull(server, uri).await;
        }
        after_open
    });
    let after_docs = rss_mb();
    let trimmed = trim_rss();
    // For reference: the same texts parsed and the trees held, nothing else.
    let trees: Vec<_> = texts
        .iter()
        .map(|t| syntax::parse(t, None).expect("parse"))
        .collect();
    let with_trees = rss_mb();
    drop(trees);
    let after_drop = trim_rss();
    println!();
    println!("3. memory (RSS, separate process)");
    println!(
        "   {:<52} {:>8.1} MB",
        "before (server started, texts generated)", before
    );
    println!(
        "   {:<52} {:>8.1} MB  (+{:.1} MB for {:.1} MB of text)",
        "after didOpen x 200 (1,000 lines each), no analysis",
        after_open,
        after_open - before,
        bytes as f64 / 1e6
    );
    println!(
        "   {:<52} {:>8.1} MB  (+{:.1} MB; {diags} diagnostics)",
        "after analysis of each (tree + results kept)",
        after_docs,
        after_docs - after_open,
    );
    println!(
        "   {:<52} {:>8.1} MB  (total +{:.1} MB over before)",
        "  the same after mi_collect (live memory)",
        trimmed,
        trimmed - before
    );
    println!(
        "   {:<52} {:>8.1} MB  (+{:.1} MB: the trees alone)",
        "  reference: + 200 bare trees of the same texts",
        with_trees,
        with_trees - trimmed
    );
    let after_docs = after_drop;
    match std::env::var_os("JAX_WHEEL_DIR") {
        Some(wheel) => {
            let files: Vec<PathBuf> =
                jax_lsp::check::collect_files(&[PathBuf::from(&wheel)], &mut Vec::new())
                    .into_iter()
                    .filter(|p| p.extension().is_some_and(|x| x == "py"))
                    .collect();
            let resolver = FsResolver::default();
            let t = Instant::now();
            let built = files
                .iter()
                .filter(|f| resolver.summary(f).is_some())
                .count();
            let took = t.elapsed();
            let after_index = rss_mb();
            let live = trim_rss();
            println!(
                "   {:<52} {:>8.1} MB  (+{:.1} MB, live +{:.1} MB; {built}/{} summaries in {:.0} ms)",
                "after FsResolver summaries of the jax wheel",
                after_index,
                after_index - after_docs,
                live - after_docs,
                files.len(),
                ms(took)
            );
            std::hint::black_box(&resolver);
        }
        None => println!("   (set JAX_WHEEL_DIR to measure the cross-file index)"),
    }
    drop(service);
}

/// The allocator the binary uses (see `jax_lsp::alloc`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    jax_lsp::alloc::install_for_tree_sitter();
    let mut keys = 1000;
    let mut budget_s = 420u64;
    let mut write = None;
    let mut memory_only = false;
    let mut skip_memory = false;
    let mut open_only = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--keys" => keys = args.next().and_then(|n| n.parse().ok()).unwrap_or(keys),
            "--budget-s" => budget_s = args.next().and_then(|n| n.parse().ok()).unwrap_or(budget_s),
            "--write" => write = args.next().map(PathBuf::from),
            "--memory-only" => memory_only = true,
            "--no-memory" => skip_memory = true,
            "--open-only" => open_only = true,
            _ => {} // `--bench` and friends from cargo
        }
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    if memory_only {
        memory(tmp.path());
        return;
    }
    println!(
        "jax-lsp server bench: {} threads available",
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    );
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let budget = Duration::from_secs(budget_s);
    if !open_only {
        keystrokes(&rt, tmp.path(), keys, budget, write.as_deref());
    }
    open_latency(&rt, tmp.path(), 20, budget / 4);
    drop(rt);
    if !skip_memory && !open_only {
        // A fresh process: the allocator keeps what earlier phases freed.
        let exe = std::env::current_exe().expect("exe");
        let out = std::process::Command::new(exe)
            .arg("--memory-only")
            .output()
            .expect("memory child");
        print!("{}", String::from_utf8_lossy(&out.stdout));
        if !out.status.success() {
            eprint!("{}", String::from_utf8_lossy(&out.stderr));
        }
    }
}

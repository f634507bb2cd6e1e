//! Check throughput over a directory, next to a bare single-threaded
//! tree-sitter parse of the same files, measured in the same run.
//!
//!     cargo bench --bench throughput -- [DIR] [--runs N]
//!
//!     cargo bench --bench throughput -- --generated 20000
//!
//! DIR defaults to `examples/`. For the real-code number, unpack the
//! `jax==0.12.0.1` wheel (`pip download --no-deps jax==0.12.0.1`) and pass
//! its directory. Reported: the median of N runs (default 5) of
//! - parse: every .py file parsed once, one thread, texts already in memory;
//! - check: `jax-lsp check` end to end (walk, read, prefilter, parallel
//!   analysis, cross-file summaries), as the CLI runs it;
//! - full: parse + analysis of every file, one thread, no prefilter.

use jax_lsp::analysis;
use jax_lsp::check::{collect_files, run_check, CheckOptions, OutputFormat};
use jax_lsp::config::Settings;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// The allocator the binary uses (see `jax_lsp::alloc`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A module of `lines` lines: jitted layers with a host callback, each
/// lowered by a helper (one in a hundred for tpu), as benches/typing_vs_ruff.py
/// makes it.
fn generated_module(lines: usize) -> String {
    let mut text = String::from(
        "import jax\nimport jax.numpy as jnp\nfrom jax.sharding import AbstractMesh\n\nmesh = AbstractMesh((8,), (\"data\",))\n\n",
    );
    let (mut i, mut written) = (0, 6);
    while written < lines {
        written += 8;
        let platforms = if i % 100 == 0 {
            "(\"tpu\",)"
        } else {
            "(\"cpu\",)"
        };
        text.push_str(&format!(
            "\ndef layer_{i}(x):\n    y = jnp.tanh(x) * {i}\n    jax.debug.print(\"layer {i}: {{}}\", y.sum())\n    return y\n\n\ndef lower_{i}(spec):\n    return jax.jit(layer_{i}).trace(spec).lower(lowering_platforms={platforms})\n"
        ));
        i += 1;
    }
    text
}

fn main() {
    jax_lsp::alloc::install_for_tree_sitter();
    let mut dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/examples"));
    let mut runs = 5;
    // Kept until the end: the generated module's directory.
    let mut temp_dirs: Vec<tempfile::TempDir> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => runs = args.next().and_then(|n| n.parse().ok()).unwrap_or(runs),
            // One generated module of N lines (the issue's "a 20,000-line
            // generated module": a cost per question that grows with the
            // module shows up here, not on real files).
            "--generated" => {
                let lines = args.next().and_then(|n| n.parse().ok()).unwrap_or(20_000);
                let tmp = tempfile::tempdir().expect("tempdir");
                std::fs::write(tmp.path().join("generated.py"), generated_module(lines))
                    .expect("write the generated module");
                dir = tmp.path().to_path_buf();
                temp_dirs.push(tmp);
            }
            flag if flag.starts_with("--") => {}
            path => dir = PathBuf::from(path),
        }
    }
    let mut errors = Vec::new();
    let files = collect_files(std::slice::from_ref(&dir), &mut errors);
    let texts: Vec<(PathBuf, String)> = files
        .iter()
        .filter_map(|p| {
            std::fs::read(p)
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
                .map(|t| (p.clone(), t))
        })
        .collect();
    let bytes: usize = texts.iter().map(|(_, t)| t.len()).sum();
    println!(
        "{}: {} files, {:.1} MB, {} threads available",
        dir.display(),
        texts.len(),
        bytes as f64 / 1e6,
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    );

    let options = CheckOptions {
        paths: vec![dir.clone()],
        format: OutputFormat::Json,
        select: None,
        ignore: Vec::new(),
        target_platforms: None,
        fix: false,
        unsafe_fixes: false,
        diff: false,
        statistics: false,
        exit_zero: true,
        isolated: true,
    };
    let settings = Settings::default();
    let (mut parse, mut check, mut full) = (Vec::new(), Vec::new(), Vec::new());
    let mut findings = 0;
    // Interleaved, so machine noise hits all three alike.
    for _ in 0..runs {
        let start = Instant::now();
        let mut nodes = 0usize;
        for (_, text) in &texts {
            if let Some(tree) = jax_lsp::syntax::parse(text, None) {
                nodes += tree.root_node().child_count();
            }
        }
        parse.push(start.elapsed());
        std::hint::black_box(nodes);

        let start = Instant::now();
        let run = run_check(&options);
        check.push(start.elapsed());
        findings = run.reports.iter().map(|r| r.findings.len()).sum::<usize>();

        let start = Instant::now();
        let mut all = 0;
        for (path, text) in &texts {
            all += analysis::analyze(text, path, &settings, None).len();
        }
        full.push(start.elapsed());
        std::hint::black_box(all);
    }
    let (parse, check, full) = (median(parse), median(check), median(full));
    let mbps = |d: Duration| bytes as f64 / 1e6 / d.as_secs_f64();
    println!(
        "parse (1 thread, bare tree-sitter): {:>9.1} ms  {:>7.1} MB/s",
        parse.as_secs_f64() * 1e3,
        mbps(parse)
    );
    println!(
        "check (jax-lsp check, end to end):  {:>9.1} ms  {:>7.1} MB/s  {findings} findings",
        check.as_secs_f64() * 1e3,
        mbps(check)
    );
    println!(
        "full  (1 thread, no prefilter):     {:>9.1} ms  {:>7.1} MB/s",
        full.as_secs_f64() * 1e3,
        mbps(full)
    );
    println!(
        "check / parse = {:.3}",
        check.as_secs_f64() / parse.as_secs_f64()
    );
    println!(
        "full  / parse = {:.3}",
        full.as_secs_f64() / parse.as_secs_f64()
    );
}

//! Incremental analysis must find exactly what a whole-module analysis finds:
//! on every fixture and example as a first analysis, and after sequences of
//! random edits that reuse the previous version's units.
//!
//! `JAX_LSP_EQUIVALENCE_DIR=DIR cargo test --release --test incremental -- --ignored`
//! runs the first check over every `.py` file under DIR (the sweep corpus).

use jax_lsp::analysis;
use jax_lsp::config::Settings;
use jax_lsp::diagnostic::Finding;
use jax_lsp::incremental::Incremental;
use jax_lsp::resolver::FsResolver;
use jax_lsp::syntax;
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The `.py` files under `dir`, as `jax-lsp check` finds them.
fn python_files(dir: &Path) -> Vec<PathBuf> {
    let files = jax_lsp::check::collect_files(&[dir.to_path_buf()], &mut Vec::new());
    files
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect()
}

fn corpus() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = python_files(&root.join("tests/fixtures"));
    files.extend(python_files(&root.join("examples")));
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("utf-8 fixture");
            (p, text)
        })
        .collect()
}

/// What the CLI and the server found before incremental analysis: the
/// file-level prefilter, then the whole module.
fn whole(text: &str, path: &Path, resolver: &FsResolver) -> Vec<Finding> {
    if !analysis::may_have_findings(text) {
        return Vec::new();
    }
    let tree = syntax::parse(text, None).expect("parse");
    analysis::analyze_tree(text, &tree, path, &Settings::default(), Some(resolver))
}

fn by_units(
    state: &mut Incremental,
    text: &str,
    path: &Path,
    resolver: &FsResolver,
) -> Vec<Finding> {
    if !analysis::may_have_findings(text) {
        return Vec::new();
    }
    let tree = syntax::parse(text, None).expect("parse");
    let text: Arc<str> = Arc::from(text);
    state.analyze(&text, &tree, path, &Settings::default(), Some(resolver))
}

/// The findings of `text` parsed in pieces cut at `cuts` (`syntax::pieces`),
/// as the server's first analysis of a large module finds them; `None` when
/// a piece has a syntax error (the server then parses the text whole). The
/// pieces' top-level statements must be the whole parse's.
fn by_pieces(
    text: &str,
    cuts: &[usize],
    path: &Path,
    resolver: &FsResolver,
) -> Option<Vec<Finding>> {
    let pieces = syntax::pieces::parse_pieces(text, cuts).expect("parse");
    if pieces.iter().any(|p| p.root_node().has_error()) {
        return None;
    }
    let whole = syntax::parse(text, None).expect("parse");
    let shape = |trees: &[syntax::Tree]| -> Vec<(std::ops::Range<usize>, String)> {
        trees
            .iter()
            .flat_map(syntax::top_level_statements)
            .map(|n| (n.byte_range(), n.to_sexp()))
            .collect()
    };
    assert_eq!(
        shape(&pieces),
        shape(std::slice::from_ref(&whole)),
        "{}: pieces cut at {cuts:?} differ from the whole parse",
        path.display()
    );
    if !analysis::may_have_findings(text) {
        return Some(Vec::new());
    }
    let text: Arc<str> = Arc::from(text);
    Some(Incremental::new().analyze_trees(
        &text,
        &pieces,
        path,
        &Settings::default(),
        Some(resolver),
    ))
}

/// Compares pieces with the whole module for one cut at each candidate line
/// and for a cut at every candidate line at once; returns (clean parses
/// compared, pieces refused).
fn check_pieces(
    text: &str,
    path: &Path,
    resolver: &FsResolver,
    expected: &[Finding],
) -> (usize, usize) {
    let candidates = syntax::pieces::candidates(text);
    let mut cut_sets: Vec<Vec<usize>> = candidates.iter().map(|&c| vec![c]).collect();
    if candidates.len() > 1 {
        cut_sets.push(candidates.clone());
    }
    let (mut compared, mut refused) = (0, 0);
    for cuts in &cut_sets {
        match by_pieces(text, cuts, path, resolver) {
            Some(got) => {
                compared += 1;
                assert_eq!(
                    got,
                    expected,
                    "{}: pieces cut at {cuts:?} {:?} vs whole {:?}",
                    path.display(),
                    describe(&got),
                    describe(expected)
                );
            }
            None => refused += 1,
        }
    }
    (compared, refused)
}

fn describe(findings: &[Finding]) -> Vec<String> {
    findings
        .iter()
        .map(|f| format!("{} {:?} {}", f.code, f.span, f.message))
        .collect()
}

#[test]
fn units_find_what_the_whole_module_finds() {
    let resolver = FsResolver::default();
    let files = corpus();
    assert!(files.len() > 300, "the fixtures are missing");
    let mut with_findings = 0;
    let mut multi_unit = 0;
    for (path, text) in &files {
        let expected = whole(text, path, &resolver);
        let mut state = Incremental::new();
        let got = by_units(&mut state, text, path, &resolver);
        assert_eq!(
            got,
            expected,
            "{}: units {:?} vs whole {:?}",
            path.display(),
            describe(&got),
            describe(&expected)
        );
        with_findings += usize::from(!expected.is_empty());
        multi_unit += usize::from(state.stats.units > 1);
    }
    // The check means something only if findings and splits both occur.
    assert!(with_findings > 150, "{with_findings} files with findings");
    assert!(multi_unit > 150, "{multi_unit} files split into units");
}

#[test]
fn pieces_find_what_the_whole_module_finds() {
    let resolver = FsResolver::default();
    let (mut compared, mut refused, mut with_findings) = (0, 0, 0);
    for (path, text) in &corpus() {
        let expected = whole(text, path, &resolver);
        let (c, r) = check_pieces(text, path, &resolver, &expected);
        compared += c;
        refused += r;
        with_findings += usize::from(c > 0 && !expected.is_empty());
    }
    eprintln!(
        "{compared} cut sets compared, {refused} refused, {with_findings} files with findings"
    );
    assert!(compared > 600, "{compared} cut sets compared");
    assert!(with_findings > 150, "{with_findings} files with findings");
}

#[test]
fn an_edit_reanalyzes_only_its_unit() {
    let resolver = FsResolver::default();
    let path = Path::new("/virtual/model.py");
    let block = |i: usize, platform: &str| {
        format!(
            "\ndef _kernel_{i}(x_ref, o_ref):\n    o_ref[...] = x_ref[...] * SCALE\n\n\
             def matmul_{i}(x):\n    return pl.pallas_call(_kernel_{i}, out_shape=x,\n        \
             compiler_params=pltpu.CompilerParams())(x)\n\n\
             def export_{i}(x):\n    return jax.jit(matmul_{i}).trace(x).lower(lowering_platforms=(\"{platform}\",))\n"
        )
    };
    let header = "import jax\nimport jax.experimental.pallas as pl\nfrom jax.experimental.pallas import tpu as pltpu\nSCALE = 2\n";
    let mut text = header.to_owned();
    for i in 0..20 {
        text.push_str(&block(i, if i == 7 { "cuda" } else { "tpu" }));
    }
    let mut state = Incremental::new();
    let first = by_units(&mut state, &text, path, &resolver);
    assert_eq!(first, whole(&text, path, &resolver));
    assert_eq!(first.len(), 1, "{:?}", describe(&first));
    assert_eq!(state.stats.units, 21, "{:?}", state.stats);
    // Break block 3 by renaming the platform: only its unit is analysed.
    let edited = text.replacen(
        "export_3(x):\n    return jax.jit(matmul_3).trace(x).lower(lowering_platforms=(\"tpu\"",
        "export_3(x):\n    return jax.jit(matmul_3).trace(x).lower(lowering_platforms=(\"cuda\"",
        1,
    );
    assert_ne!(edited, text);
    let second = by_units(&mut state, &edited, path, &resolver);
    assert_eq!(second, whole(&edited, path, &resolver));
    assert_eq!(second.len(), 2);
    assert_eq!(state.stats.analyzed, 1, "{:?}", state.stats);
    assert_eq!(state.stats.reused, 19, "{:?}", state.stats);
    // Editing the constant every block names re-analyses every block.
    let third_text = edited.replacen("SCALE = 2", "SCALE = 3", 1);
    let third = by_units(&mut state, &third_text, path, &resolver);
    assert_eq!(third, whole(&third_text, path, &resolver));
    assert_eq!(state.stats.analyzed, 20, "{:?}", state.stats);
}

#[test]
#[ignore = "needs JAX_LSP_EQUIVALENCE_DIR (a large corpus)"]
fn units_find_what_the_whole_module_finds_on_a_corpus() {
    let dir = std::env::var("JAX_LSP_EQUIVALENCE_DIR").expect("JAX_LSP_EQUIVALENCE_DIR");
    let resolver = FsResolver::default();
    let files = python_files(Path::new(&dir));
    let mut mismatched = Vec::new();
    let (mut findings, mut cut_sets) = (0, 0);
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        if !analysis::may_have_findings(&text) {
            continue;
        }
        let expected = whole(&text, path, &resolver);
        let got = by_units(&mut Incremental::new(), &text, path, &resolver);
        let (c, _) = check_pieces(&text, path, &resolver, &expected);
        cut_sets += c;
        findings += expected.len();
        if got != expected {
            mismatched.push(format!(
                "{}: units {:?} vs whole {:?}",
                path.display(),
                describe(&got),
                describe(&expected)
            ));
        }
    }
    eprintln!(
        "{} files, {} findings, {} mismatched; {} clean cut sets compared",
        files.len(),
        findings,
        mismatched.len(),
        cut_sets
    );
    assert!(mismatched.is_empty(), "{}", mismatched.join("\n"));
}

/// An edit: replace `len` bytes at a fraction `at` of the text by `insert`
/// (snapped to character boundaries).
#[derive(Clone, Debug)]
struct Edit {
    at: f64,
    len: usize,
    insert: &'static str,
}

fn apply(text: &str, edit: &Edit) -> String {
    let mut start = ((text.len() as f64) * edit.at) as usize;
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (start + edit.len).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    format!("{}{}{}", &text[..start], edit.insert, &text[end..])
}

fn edit_strategy() -> impl Strategy<Value = Edit> {
    (
        0.0..1.0f64,
        0usize..4,
        prop::sample::select(vec![
            "",
            "a",
            "x",
            "_",
            "(",
            ")",
            "\n",
            "    ",
            "\"",
            "#",
            "é",
            "界",
            "😀",
            ",",
            "=",
            "cuda",
            "tpu",
            "import jax\n",
            "def f():\n    pass\n",
            "\nclass C:\n",
            "\n@d\n",
            "\\\n",
            "\"\"\"",
        ]),
    )
        .prop_map(|(at, len, insert)| Edit { at, len, insert })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// After every edit of a random sequence, the incremental state (which
    /// reuses units from the version before) finds what a fresh whole-module
    /// analysis of the new text finds.
    #[test]
    fn edits_keep_units_equal_to_the_whole(
        file in 0usize..10_000,
        edits in prop::collection::vec(edit_strategy(), 1..12),
    ) {
        let resolver = FsResolver::default();
        let files = corpus();
        let with_findings: Vec<&(PathBuf, String)> = files
            .iter()
            .filter(|(_, t)| t.contains("# ruleid:"))
            .collect();
        let (path, text) = with_findings[file % with_findings.len()];
        let mut state = Incremental::new();
        let mut text = text.clone();
        by_units(&mut state, &text, path, &resolver);
        for edit in &edits {
            text = apply(&text, edit);
            let got = by_units(&mut state, &text, path, &resolver);
            let expected = whole(&text, path, &resolver);
            prop_assert_eq!(got, expected, "after {:?} in {}:\n{}", edit, path.display(), text);
        }
    }

    /// Texts mid-edit (often with syntax errors) cut at each candidate line
    /// and at all of them: when every piece parses clean, the statements and
    /// findings are the whole parse's.
    #[test]
    fn pieces_of_edited_texts_match_the_whole(
        file in 0usize..10_000,
        edits in prop::collection::vec(edit_strategy(), 1..12),
    ) {
        let resolver = FsResolver::default();
        let files = corpus();
        let (path, text) = &files[file % files.len()];
        // The unedited file first: with candidate lines and no syntax error,
        // at least its single cuts are clean and compared.
        let (compared, _) = check_pieces(text, path, &resolver, &whole(text, path, &resolver));
        let clean = !syntax::parse(text, None).expect("parse").root_node().has_error();
        prop_assert!(compared > 0 || !clean || syntax::pieces::candidates(text).is_empty());
        let mut text = text.clone();
        for edit in &edits {
            text = apply(&text, edit);
            let expected = whole(&text, path, &resolver);
            check_pieces(&text, path, &resolver, &expected);
        }
    }
}

/// Edits that move, duplicate or delete whole statements, and texts with
/// nothing in them: each version compared with a whole-module analysis.
#[test]
fn statement_moves_duplicates_and_empty_texts() {
    let resolver = FsResolver::default();
    let path = Path::new("/virtual/moves.py");
    let header = "import jax\nimport jax.experimental.pallas as pl\nfrom jax.experimental.pallas import tpu as pltpu\n";
    let kernel = "\ndef k(x_ref, o_ref):\n    o_ref[...] = x_ref[...]\n";
    let call = "\ndef run(x):\n    return pl.pallas_call(k, out_shape=x, compiler_params=pltpu.CompilerParams())(x)\n";
    let lower = |p: &str| {
        format!("\ndef export(x):\n    return jax.jit(run).trace(x).lower(lowering_platforms=(\"{p}\",))\n")
    };
    let versions = [
        String::new(),
        format!("{header}{kernel}{call}{}", lower("cuda")),
        // The same block twice, then once: alignment must not mix them up.
        format!(
            "{header}{kernel}{call}{}{kernel}{call}{}",
            lower("cuda"),
            lower("tpu")
        ),
        format!("{header}{kernel}{call}{}", lower("tpu")),
        // Everything shifted by a blank line and a comment.
        format!("\n# moved\n{header}{kernel}{call}{}", lower("tpu")),
        // The lowering moved above the functions it names.
        format!("{header}{}{kernel}{call}", lower("cuda")),
        // Only comments, then nothing.
        "# nothing here\n# .lower( export( compiler_params\n".to_owned(),
        String::new(),
        format!("{header}{kernel}{call}{}", lower("cuda")),
    ];
    let mut state = Incremental::new();
    let mut seen_findings = 0;
    for (i, text) in versions.iter().enumerate() {
        let got = by_units(&mut state, text, path, &resolver);
        let expected = whole(text, path, &resolver);
        assert_eq!(got, expected, "version {i}:\n{text}");
        seen_findings += expected.len();
    }
    // Not vacuous: the cuda versions (1, 5 and 8) each find JP002.
    assert!(seen_findings >= 3, "{seen_findings}");
}

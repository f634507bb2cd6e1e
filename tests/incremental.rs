//! Incremental analysis must find exactly what a whole-module analysis finds:
//! on every fixture and example as a first analysis, after sequences of
//! random edits that reuse the previous version's units, and on texts with
//! syntax errors. The sections (`syntax::sections`) of a clean text hold the
//! whole parse's statements, and edits keep them equal to a fresh parse.
//!
//! `JAX_LSP_EQUIVALENCE_DIR=DIR cargo test --release --test incremental -- --ignored`
//! runs the first check over every `.py` file under DIR (the sweep corpus).

use jax_lsp::analysis;
use jax_lsp::config::Settings;
use jax_lsp::diagnostic::Finding;
use jax_lsp::incremental::Incremental;
use jax_lsp::resolver::FsResolver;
use jax_lsp::server::document::Document;
use jax_lsp::syntax;
use jax_lsp::syntax::sections;
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

/// What the CLI finds: the file-level prefilter, then the whole module
/// (parsed in sections, `syntax::sections`).
fn whole(text: &str, path: &Path, resolver: &FsResolver) -> Vec<Finding> {
    if !analysis::may_have_findings(text) {
        return Vec::new();
    }
    analysis::analyze(text, path, &Settings::default(), Some(resolver))
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
    let sections = sections::parse(text).expect("parse");
    let text: Arc<str> = Arc::from(text);
    state.analyze_sections(&text, &sections, path, &Settings::default(), Some(resolver))
}

fn shape(trees: &[std::borrow::Cow<'_, syntax::Tree>]) -> Vec<(std::ops::Range<usize>, String)> {
    trees
        .iter()
        .flat_map(|t| syntax::top_level_statements(t))
        .map(|n| (n.byte_range(), n.to_sexp()))
        .collect()
}

/// For a text that parses without error: the sections hold the whole
/// parse's statements, and findings from them are those of one tree.
/// Returns whether the text was clean (and so compared).
fn check_clean_sections(text: &str, path: &Path, resolver: &FsResolver) -> bool {
    let one = syntax::parse(text, None).expect("parse");
    if one.root_node().has_error() {
        return false;
    }
    let sections = sections::parse(text).expect("parse");
    assert_eq!(
        shape(&sections::trees(&sections)),
        shape(&[std::borrow::Cow::Borrowed(&one)]),
        "{}: sections differ from the whole parse",
        path.display()
    );
    if analysis::may_have_findings(text) {
        let from_one =
            analysis::analyze_tree(text, &one, path, &Settings::default(), Some(resolver));
        assert_eq!(
            whole(text, path, resolver),
            from_one,
            "{}: findings from sections differ from one tree's",
            path.display()
        );
    }
    true
}

/// Applies `edit` to a document's text and sections as the server does, and
/// checks the sections against a fresh parse of the new text.
fn check_edited_sections(doc: &mut Document, edit: &Edit) {
    let (start, end) = edit_range(&doc.text, edit);
    doc.splice(start, end, edit.insert);
    let fresh = sections::parse(&doc.text).expect("parse");
    assert_eq!(
        shape(&doc.trees()),
        shape(&sections::trees(&fresh)),
        "after {edit:?}:\n{}",
        doc.text
    );
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
fn sections_of_clean_texts_are_the_whole_parse() {
    let resolver = FsResolver::default();
    let clean = corpus()
        .iter()
        .filter(|(path, text)| check_clean_sections(text, path, &resolver))
        .count();
    assert!(clean > 300, "{clean} clean files compared");
}

/// The server's way: one document edited in place (sections reparsed around
/// each edit, the others kept and moved lazily) and one `Incremental` kept
/// across versions, reading the document's sections. Stray tokens typed one
/// character at a time into every file with findings, then deleted: after
/// each keystroke the units find what a fresh analysis of the text finds.
#[test]
fn typing_into_a_document_keeps_units_equal_to_the_whole() {
    let resolver = FsResolver::default();
    let strays = ["(x", "1+1+", "def f(", "\"\"\"a", "]:", "@d\n"];
    let mut compared = 0;
    let analysed = std::cell::Cell::new(0usize);
    for (n, (path, text)) in corpus()
        .iter()
        .filter(|(_, t)| t.contains("# ruleid:"))
        .enumerate()
        .filter(|(n, _)| n % 3 == 0)
    {
        let mut doc = Document::new(text.clone(), 0);
        doc.parse_now();
        let mut state = Incremental::new();
        let check = |doc: &mut Document, state: &mut Incremental| {
            if doc.sections.is_none() {
                doc.parse_now();
            }
            let Some(sections) = doc.sections.clone() else {
                return;
            };
            let text: Arc<str> = Arc::from(doc.text.as_str());
            let got = if analysis::may_have_findings(&text) {
                analysed.set(analysed.get() + 1);
                state.analyze_sections(
                    &text,
                    &sections,
                    path,
                    &Settings::default(),
                    Some(&resolver),
                )
            } else {
                Vec::new()
            };
            assert_eq!(
                got,
                whole(&text, path, &resolver),
                "{} after typing:\n{}",
                path.display(),
                text
            );
        };
        check(&mut doc, &mut state);
        for k in 0..3 {
            // A line start a third, half and two thirds of the way down.
            let lines: Vec<usize> = std::iter::once(0)
                .chain(doc.text.match_indices('\n').map(|(i, _)| i + 1))
                .filter(|&i| i < doc.text.len())
                .collect();
            let mut at = lines[(k + 1) * lines.len() / 4];
            let stray = strays[(n + k) % strays.len()];
            for ch in stray.chars() {
                let mut buf = [0; 4];
                doc.splice(at, at, ch.encode_utf8(&mut buf));
                at += ch.len_utf8();
                check(&mut doc, &mut state);
            }
            while at > lines[(k + 1) * lines.len() / 4] {
                doc.splice(at - 1, at, "");
                at -= 1;
                check(&mut doc, &mut state);
            }
            compared += 1;
        }
        assert_eq!(&doc.text, text);
    }
    assert!(compared > 40, "{compared} files typed into");
    // Keystrokes whose units were analysed and compared with the whole module.
    assert!(
        analysed.get() > 1000,
        "{} keystrokes analysed",
        analysed.get()
    );
}

/// Texts with a syntax error: a stray token inserted at eight places of
/// every file with findings. The units, reusing the clean version's, find
/// what a fresh analysis of the broken text finds; so does the way back.
#[test]
fn syntax_errors_keep_units_equal_to_the_whole() {
    let resolver = FsResolver::default();
    let strays = [
        "(", ")", ":", "\"", "\"\"\"", "1+", "def", "x = [", "@", "\\", "else:",
    ];
    let (mut compared, mut reused) = (0, 0);
    for (n, (path, text)) in corpus()
        .iter()
        .filter(|(_, t)| t.contains("# ruleid:"))
        .enumerate()
    {
        let line_starts: Vec<usize> = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .filter(|&i| i < text.len())
            .collect();
        for k in 0..8 {
            let line = line_starts[(k * line_starts.len()) / 8];
            // A line's start or its end.
            let at = if k % 2 == 0 {
                line
            } else {
                text[line..].find('\n').map_or(text.len(), |i| line + i)
            };
            let stray = strays[(n + k) % strays.len()];
            let edited = format!("{}{}{}", &text[..at], stray, &text[at..]);
            if !syntax::parse(&edited, None)
                .expect("parse")
                .root_node()
                .has_error()
            {
                continue;
            }
            let mut state = Incremental::new();
            by_units(&mut state, text, path, &resolver);
            let got = by_units(&mut state, &edited, path, &resolver);
            assert_eq!(
                got,
                whole(&edited, path, &resolver),
                "{} with {stray:?} at {at}",
                path.display()
            );
            reused += usize::from(state.stats.reused > 0);
            let back = by_units(&mut state, text, path, &resolver);
            assert_eq!(
                back,
                whole(text, path, &resolver),
                "{} back",
                path.display()
            );
            compared += 1;
        }
    }
    eprintln!("{compared} broken texts compared, {reused} of them reusing units");
    assert!(compared > 500, "{compared} broken texts compared");
    assert!(
        reused > compared / 4,
        "{reused} of {compared} reused units: errors stay local"
    );
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
    let (mut findings, mut cut_sets) = (0, 0usize);
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        if !analysis::may_have_findings(&text) {
            continue;
        }
        let expected = whole(&text, path, &resolver);
        let got = by_units(&mut Incremental::new(), &text, path, &resolver);
        cut_sets += usize::from(check_clean_sections(&text, path, &resolver));
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
        "{} files, {} findings, {} mismatched; {} clean files' sections compared",
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

fn edit_range(text: &str, edit: &Edit) -> (usize, usize) {
    let mut start = ((text.len() as f64) * edit.at) as usize;
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (start + edit.len).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    (start, end)
}

fn apply(text: &str, edit: &Edit) -> String {
    let (start, end) = edit_range(text, edit);
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
    #![proptest_config(ProptestConfig::with_cases(std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(48)))]

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

    /// Texts mid-edit (often with syntax errors): the sections the server
    /// keeps up to date edit by edit are those of a fresh parse.
    #[test]
    fn sections_of_edited_texts_match_a_fresh_parse(
        file in 0usize..10_000,
        edits in prop::collection::vec(edit_strategy(), 1..12),
    ) {
        let files = corpus();
        let (_, text) = &files[file % files.len()];
        let mut doc = Document::new(text.clone(), 0);
        doc.parse_now();
        for edit in &edits {
            check_edited_sections(&mut doc, edit);
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

/// Found by `edits_keep_units_equal_to_the_whole` on 2026-12-05: with
/// `.lower)()` typed into the `if __name__` block of this fixture, recovery
/// parses a call of `.lower`; the whole module passed the prefilter through
/// a comment quoting JAX's `.lower(lowering_platforms=...)`, the unit (no
/// comments, no `.lower(` in its text) did not. A statement with an error
/// now also takes the needles of the text its tree models.
#[test]
fn units_equal_whole_after_a_broken_call_in_a_main_block() {
    let resolver = FsResolver::default();
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/JP003/pos_classmethod_planned_placement.py");
    let text = std::fs::read_to_string(&path).expect("fixture");
    let text = text.replacen(".lower()", ".lower)()", 1);
    let mut state = Incremental::new();
    let got = by_units(&mut state, &text, &path, &resolver);
    let expected = whole(&text, &path, &resolver);
    assert_eq!(expected.len(), 1, "the whole module finds the JP003");
    assert_eq!(got, expected);
}

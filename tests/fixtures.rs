//! Per-rule fixtures with inline expectations (Semgrep style):
//! `# ruleid: JP002` on the line above a line that must have a JP002 finding,
//! `# ok: JP002` above a line that must not. Every finding must be expected.
//! The same files are run under real JAX by `tests/oracle/run.py`.

use jax_lsp::analysis;
use jax_lsp::config::Settings;
use jax_lsp::resolver::FsResolver;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn fixture_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&root).expect("tests/fixtures exists") {
        let dir = dir.expect("readable").path();
        if !dir.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&dir).expect("readable") {
            let path = file.expect("readable").path();
            if path.extension().is_some_and(|e| e == "py") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// (line, code) pairs, 1-based lines of the line *below* each marker.
fn markers(text: &str, kind: &str) -> BTreeSet<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = BTreeSet::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        let Some(rest) = trimmed.strip_prefix(&format!("# {kind}:")) else {
            continue;
        };
        // The target is the next line that is not itself a marker.
        let mut target = i + 1;
        while lines
            .get(target)
            .is_some_and(|l| l.trim().starts_with("# ruleid:") || l.trim().starts_with("# ok:"))
        {
            target += 1;
        }
        for code in rest.split(',') {
            out.insert((target + 1, code.trim().to_owned()));
        }
    }
    out
}

fn findings(path: &Path, text: &str) -> BTreeSet<(usize, String)> {
    // The configuration beside the fixtures, where there is one
    // (`contracts/pyproject.toml`); the repository's own has no
    // `[tool.jax-lsp]` table.
    let settings = path
        .parent()
        .and_then(|dir| Settings::discover(dir).expect("fixture config parses"))
        .unwrap_or_default();
    assert!(
        settings.contracts.errors.is_empty(),
        "{:?}",
        settings.contracts.errors
    );
    let resolver = FsResolver::default();
    resolver.set_contracts(settings.contracts.matcher.clone());
    let found = analysis::analyze(text, path, &settings, Some(&resolver));
    found
        .iter()
        .map(|f| {
            (
                text[..f.span.start].matches('\n').count() + 1,
                f.code.to_owned(),
            )
        })
        .collect()
}

#[test]
fn fixtures_match_their_inline_expectations() {
    let mut failures = Vec::new();
    let (mut positives, mut near_misses) = (0, 0);
    let files = fixture_files();
    assert!(!files.is_empty(), "no fixtures found");
    for path in &files {
        let text = std::fs::read_to_string(path).expect("fixture is UTF-8");
        let expected = markers(&text, "ruleid");
        let ok = markers(&text, "ok");
        positives += expected.len();
        near_misses += ok.len();
        let found = findings(path, &text);
        let name = path
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap_or(path)
            .display();
        for missing in expected.difference(&found) {
            failures.push(format!(
                "{name}:{}: expected {} not reported",
                missing.0, missing.1
            ));
        }
        for extra in found.difference(&expected) {
            let note = if ok.contains(extra) {
                " (marked ok)"
            } else {
                ""
            };
            failures.push(format!("{name}:{}: unexpected {}{note}", extra.0, extra.1));
        }
    }
    eprintln!(
        "{} fixture files, {positives} positives, {near_misses} near misses",
        files.len()
    );
    assert!(
        failures.is_empty(),
        "{} fixture mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_rule_has_enough_fixtures() {
    let files = fixture_files();
    for rule in jax_lsp::rules::all() {
        let code = rule.meta().code;
        let (mut pos, mut ok) = (0, 0);
        for path in files
            .iter()
            .filter(|p| p.parent().is_some_and(|d| d.ends_with(code)))
        {
            let text = std::fs::read_to_string(path).expect("fixture is UTF-8");
            pos += markers(&text, "ruleid")
                .iter()
                .filter(|(_, c)| c == code)
                .count();
            ok += markers(&text, "ok")
                .iter()
                .filter(|(_, c)| c == code)
                .count();
        }
        assert!(
            pos >= 8 && ok >= 8,
            "{code}: {pos} positives and {ok} near misses (need 8 each)"
        );
    }
}

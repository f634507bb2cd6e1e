//! Every fix on every fixture: the result parses, the finding it fixes is
//! gone on re-check, and fix-all reaches a fixed point in one pass.

use jax_lsp::analysis;
use jax_lsp::config::Settings;
use jax_lsp::diagnostic::Finding;
use jax_lsp::fix::{apply_edits, select_fixes};
use std::path::{Path, PathBuf};

fn fixture_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("fixtures")
        .flat_map(|d| {
            std::fs::read_dir(d.expect("dir").path())
                .into_iter()
                .flatten()
        })
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    files.sort();
    files
}

fn check(text: &str, path: &Path) -> Vec<Finding> {
    analysis::analyze(text, path, &Settings::default(), None)
}

fn parses_cleanly(text: &str) -> bool {
    jax_lsp::syntax::parse(text, None).is_some_and(|t| !t.root_node().has_error())
}

fn count(findings: &[Finding], code: &str) -> usize {
    findings.iter().filter(|f| f.code == code).count()
}

#[test]
fn every_fix_parses_and_removes_its_finding() {
    let mut failures = Vec::new();
    let mut fixes_tried = 0;
    for path in fixture_files() {
        let text = std::fs::read_to_string(&path).expect("utf-8");
        let findings = check(&text, &path);
        for finding in &findings {
            for fix in &finding.fixes {
                fixes_tried += 1;
                let fixed = apply_edits(&text, &fix.edits);
                let name = format!("{}: {} `{}`", path.display(), finding.code, fix.title);
                if !parses_cleanly(&fixed) {
                    failures.push(format!("{name}: result does not parse:\n{fixed}"));
                    continue;
                }
                let after = check(&fixed, &path);
                if count(&after, finding.code) >= count(&findings, finding.code) {
                    failures.push(format!("{name}: finding still reported after the fix"));
                }
            }
        }
    }
    assert!(fixes_tried >= 20, "only {fixes_tried} fixes exercised");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn fix_all_is_idempotent() {
    for unsafe_ok in [false, true] {
        for path in fixture_files() {
            let text = std::fs::read_to_string(&path).expect("utf-8");
            let findings = check(&text, &path);
            let (edits, _) = select_fixes(findings.iter().map(|f| f.fixes.as_slice()), unsafe_ok);
            let once = apply_edits(&text, &edits);
            let again = check(&once, &path);
            let (edits2, _) = select_fixes(again.iter().map(|f| f.fixes.as_slice()), unsafe_ok);
            assert!(
                edits2.is_empty(),
                "{}: a second fix-all still edits: {edits2:?}",
                path.display()
            );
        }
    }
}

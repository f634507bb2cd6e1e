//! `jax-lsp check`: walk paths, check files in parallel, print in a format,
//! apply fixes.

use crate::analysis;
use crate::config::{ConfigError, Settings};
use crate::diagnostic::{Finding, Severity};
use crate::fix::{apply_edits, select_fixes, Applicability};
use crate::resolver::FsResolver;
use crate::rules;
use crate::syntax::{Encoding, LineIndex};
use dashmap::DashMap;
use rayon::prelude::*;
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    Text,
    Json,
    Sarif,
    Github,
}

#[derive(Clone, Debug)]
pub struct CheckOptions {
    pub paths: Vec<PathBuf>,
    pub format: OutputFormat,
    pub select: Option<Vec<String>>,
    pub ignore: Vec<String>,
    pub target_platforms: Option<Vec<String>>,
    pub fix: bool,
    pub unsafe_fixes: bool,
    pub diff: bool,
    pub statistics: bool,
    pub exit_zero: bool,
    /// Ignore pyproject.toml files.
    pub isolated: bool,
}

/// One checked file.
pub struct FileReport {
    pub path: PathBuf,
    pub text: Arc<str>,
    pub findings: Vec<Finding>,
    /// Text after fixes, when `--fix`/`--diff` changed it.
    pub fixed: Option<String>,
    pub fixes_applied: usize,
}

pub struct CheckRun {
    pub reports: Vec<FileReport>,
    /// Files or paths that could not be checked, and config errors.
    pub errors: Vec<String>,
}

/// Collects the `.py`/`.pyi` files under `paths` (respecting .gitignore).
/// Paths named explicitly are taken whatever their extension.
pub fn collect_files(paths: &[PathBuf], errors: &mut Vec<String>) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for path in paths {
        if !path.exists() {
            errors.push(format!("{}: No such file or directory", path.display()));
            continue;
        }
        if path.is_file() {
            files.push(path.clone());
            continue;
        }
        for entry in ignore::WalkBuilder::new(path).build() {
            match entry {
                Ok(entry) => {
                    let p = entry.path();
                    let is_python = p.extension().is_some_and(|e| e == "py" || e == "pyi");
                    if is_python && entry.file_type().is_some_and(|t| t.is_file()) {
                        files.push(p.to_path_buf());
                    }
                }
                Err(err) => errors.push(format!("{err}")),
            }
        }
    }
    files.sort();
    files.dedup();
    files
}

/// Settings per directory: the nearest `[tool.jax-lsp]`, then the command line.
struct SettingsCache<'a> {
    options: &'a CheckOptions,
    by_dir: DashMap<PathBuf, Result<Arc<Settings>, String>>,
}

impl SettingsCache<'_> {
    fn for_file(&self, file: &Path) -> Result<Arc<Settings>, String> {
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
        if let Some(found) = self.by_dir.get(&dir) {
            return found.clone();
        }
        let discovered = if self.options.isolated {
            Ok(None)
        } else {
            Settings::discover(&dir)
        };
        let result = discovered
            .map(|s| Arc::new(self.apply_flags(s.unwrap_or_default())))
            .map_err(|ConfigError(e)| e);
        self.by_dir.insert(dir, result.clone());
        result
    }

    fn apply_flags(&self, mut settings: Settings) -> Settings {
        if let Some(select) = &self.options.select {
            settings.select = Some(select.clone());
        }
        settings.ignore.extend(self.options.ignore.iter().cloned());
        if let Some(platforms) = &self.options.target_platforms {
            settings.target_platforms = platforms.clone();
        }
        settings
    }
}

/// Checks files; applies fixes when asked (writing them only with `--fix`).
pub fn run_check(options: &CheckOptions) -> CheckRun {
    let mut errors = Vec::new();
    let settings = SettingsCache {
        options,
        by_dir: DashMap::new(),
    };
    // The contracts of the configurations over the paths named: their codes
    // may be selected, and imported modules' summaries record their sites.
    let mut contracts: Vec<Arc<crate::contracts::Contracts>> = Vec::new();
    for path in &options.paths {
        let probe = if path.is_dir() {
            path.join("__probe__.py")
        } else {
            path.clone()
        };
        if let Ok(found) = settings.for_file(&probe) {
            if !found.contracts.list.is_empty()
                && !contracts.iter().any(|c| Arc::ptr_eq(c, &found.contracts))
            {
                contracts.push(found.contracts.clone());
            }
        }
    }
    for code in options.select.iter().flatten().chain(&options.ignore) {
        let builtin = rules::all()
            .iter()
            .any(|r| r.meta().code.starts_with(code.as_str()));
        let contract = contracts
            .iter()
            .flat_map(|c| c.list.iter())
            .any(|c| c.code.starts_with(code.as_str()));
        if !builtin && !contract {
            errors.push(format!("unknown rule code or prefix `{code}`"));
        }
    }
    let files = collect_files(&options.paths, &mut errors);
    let resolver = FsResolver::default();
    let matchers: Vec<_> = contracts.iter().filter_map(|c| c.matcher.clone()).collect();
    resolver.set_contracts(match matchers.as_slice() {
        [] => None,
        [one] => Some(one.clone()),
        several => Some(Arc::new(crate::semantic::contract::SiteMatcher::union(
            several,
        ))),
    });
    let results = check_files(&files, options, &settings, &resolver);
    let mut reports = Vec::new();
    for result in results {
        match result {
            Ok(Some(report)) => reports.push(report),
            Ok(None) => {}
            Err(err) => errors.push(err),
        }
    }
    let mut config_errors: Vec<String> = settings
        .by_dir
        .iter()
        .filter_map(|e| e.value().clone().err())
        .collect();
    config_errors.sort();
    config_errors.dedup();
    errors.extend(config_errors);
    errors.extend(contract_errors(&settings));
    CheckRun { reports, errors }
}

/// The mistakes in the contracts of every configuration used, each once:
/// `file:line:col: message`. The files were checked without the broken
/// contracts (the rest kept running).
fn contract_errors(settings: &SettingsCache<'_>) -> Vec<String> {
    let mut seen: Vec<Arc<crate::contracts::Contracts>> = Vec::new();
    for entry in settings.by_dir.iter() {
        if let Ok(s) = entry.value() {
            let c = &s.contracts;
            if (!c.list.is_empty() || !c.errors.is_empty())
                && !seen.iter().any(|o| Arc::ptr_eq(o, c) || **o == **c)
            {
                seen.push(c.clone());
            }
        }
    }
    let mut out = Vec::new();
    for contracts in seen {
        out.extend(contracts.errors.iter().map(|e| e.to_string()));
        if let Some(first) = contracts.list.first() {
            if let Ok(text) = std::fs::read_to_string(&first.source) {
                out.extend(
                    crate::contracts::unmatched_globs(&contracts, &text)
                        .iter()
                        .map(|e| e.to_string()),
                );
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// `check_file` over `files` in parallel, in their order.
fn check_files(
    files: &[PathBuf],
    options: &CheckOptions,
    settings: &SettingsCache<'_>,
    resolver: &FsResolver,
) -> Vec<Result<Option<FileReport>, String>> {
    files
        .par_iter()
        .map(|path| {
            // A bug in the analysis of one file must not cost the others
            // their report: that file gets an error, the run goes on.
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                check_file(path, options, settings, resolver)
            }))
            .unwrap_or_else(|panic| {
                let why = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Err(format!(
                    "{}: internal error while analysing it (please report): {why}",
                    path.display()
                ))
            })
        })
        .collect()
}

fn check_file(
    path: &Path,
    options: &CheckOptions,
    settings: &SettingsCache<'_>,
    resolver: &FsResolver,
) -> Result<Option<FileReport>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let text: Arc<str> = match String::from_utf8(bytes) {
        Ok(text) => Arc::from(text),
        Err(err) => {
            return Err(format!(
                "{}: not valid UTF-8 (byte {})",
                path.display(),
                err.utf8_error().valid_up_to()
            ))
        }
    };
    // A file calling another module's lowering helper passes too.
    if !analysis::may_have_findings(&text) && !resolver.calls_imported_helper(path, &text) {
        return Ok(None);
    }
    // Tests make one file's analysis panic (as the server's tests do).
    static PANIC_MARKER: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    let marker = PANIC_MARKER.get_or_init(|| {
        std::env::var("JAX_LSP_TEST_PANIC_MARKER")
            .ok()
            .filter(|m| !m.is_empty())
    });
    if marker.as_deref().is_some_and(|m| text.contains(m)) {
        panic!("test panic: {} holds the marker", path.display());
    }
    // A bad config is reported once (from the cache); its files are skipped.
    let Ok(settings) = settings.for_file(path) else {
        return Ok(None);
    };
    let mut findings = analysis::analyze(&text, path, &settings, Some(resolver));
    let (mut fixed, mut fixes_applied) = (None, 0);
    if (options.fix || options.diff) && !findings.is_empty() {
        let mut current = text.to_string();
        // Fixes can make room for others (overlaps): iterate to a fixed point.
        for _ in 0..10 {
            let (edits, count) = select_fixes(
                findings.iter().map(|f| f.fixes.as_slice()),
                options.unsafe_fixes,
            );
            if count == 0 {
                break;
            }
            current = apply_edits(&current, &edits);
            fixes_applied += count;
            findings = analysis::analyze(&current, path, &settings, Some(resolver));
        }
        if fixes_applied > 0 {
            if options.fix && !options.diff {
                std::fs::write(path, &current)
                    .map_err(|e| format!("{}: cannot write fixes: {e}", path.display()))?;
            }
            fixed = Some(current);
        }
    }
    if findings.is_empty() && fixed.is_none() {
        return Ok(None);
    }
    Ok(Some(FileReport {
        path: path.to_path_buf(),
        text,
        findings,
        fixed,
        fixes_applied,
    }))
}

/// Runs `check` and prints; returns the exit code.
pub fn main(options: CheckOptions) -> i32 {
    let run = run_check(&options);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = print_run(&run, &options, &mut out);
    for error in &run.errors {
        eprintln!("error: {error}");
    }
    let remaining: usize = run.reports.iter().map(|r| r.findings.len()).sum();
    let diff_pending = options.diff && run.reports.iter().any(|r| r.fixed.is_some());
    if !run.errors.is_empty() {
        2
    } else if (remaining > 0 || diff_pending) && !options.exit_zero {
        1
    } else {
        0
    }
}

fn print_run(run: &CheckRun, options: &CheckOptions, out: &mut dyn Write) -> std::io::Result<()> {
    if options.diff {
        for report in &run.reports {
            if let Some(fixed) = &report.fixed {
                let diff = similar::TextDiff::from_lines(&*report.text, fixed.as_str());
                let name = report.path.display().to_string();
                write!(out, "{}", diff.unified_diff().header(&name, &name))?;
            }
        }
        let applied: usize = run.reports.iter().map(|r| r.fixes_applied).sum();
        writeln!(
            out,
            "Would fix {applied} error{}.",
            if applied == 1 { "" } else { "s" }
        )?;
        return Ok(());
    }
    if options.statistics {
        return print_statistics(run, out);
    }
    match options.format {
        OutputFormat::Text => print_text(run, options, out),
        OutputFormat::Json => {
            let items: Vec<Value> = run.reports.iter().flat_map(json_findings).collect();
            writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&items).unwrap_or_default()
            )
        }
        OutputFormat::Sarif => writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&sarif(run)).unwrap_or_default()
        ),
        OutputFormat::Github => {
            for report in &run.reports {
                let text = report.fixed.as_deref().unwrap_or(&report.text);
                let index = LineIndex::new(text);
                for f in &report.findings {
                    let (start, end) = (
                        pos(text, &index, f.span.start),
                        pos(text, &index, f.span.end),
                    );
                    writeln!(
                        out,
                        "::{} title=jax-lsp ({}),file={},line={},col={},endLine={},endColumn={}::{}: {} {}",
                        if f.severity == Severity::Error { "error" } else { "warning" },
                        f.code,
                        report.path.display(),
                        start.0,
                        start.1,
                        end.0,
                        end.1,
                        report.path.display(),
                        f.code,
                        github_escape(&f.message)
                    )?;
                }
            }
            Ok(())
        }
    }
}

fn github_escape(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// 1-based row and character column of a byte offset.
fn pos(text: &str, index: &LineIndex, offset: usize) -> (u32, u32) {
    let lc = index.line_col(text, offset, Encoding::Utf32);
    (lc.line + 1, lc.col + 1)
}

fn print_text(run: &CheckRun, options: &CheckOptions, out: &mut dyn Write) -> std::io::Result<()> {
    let mut total = 0;
    let mut fixable = 0;
    for report in &run.reports {
        let text = report.fixed.as_deref().unwrap_or(&report.text);
        let index = LineIndex::new(text);
        for f in &report.findings {
            total += 1;
            let safe = f
                .fixes
                .iter()
                .any(|x| x.applicability == Applicability::Safe);
            fixable += usize::from(safe);
            let (row, col) = pos(text, &index, f.span.start);
            writeln!(
                out,
                "{}:{row}:{col}: {} {}{}",
                report.path.display(),
                f.code,
                if safe { "[*] " } else { "" },
                f.message
            )?;
            write_frame(out, text, &index, f)?;
        }
    }
    let applied: usize = run.reports.iter().map(|r| r.fixes_applied).sum();
    if options.fix && applied > 0 {
        writeln!(
            out,
            "Fixed {applied} error{}.",
            if applied == 1 { "" } else { "s" }
        )?;
    }
    if total == 0 {
        if run.errors.is_empty() && applied == 0 {
            writeln!(out, "All checks passed!")?;
        }
    } else {
        writeln!(
            out,
            "Found {total} error{}.",
            if total == 1 { "" } else { "s" }
        )?;
        if fixable > 0 {
            writeln!(out, "[*] {fixable} fixable with the `--fix` option.")?;
        }
    }
    Ok(())
}

/// ruff-style code frame: the finding's line with carets, and fix hints.
fn write_frame(
    out: &mut dyn Write,
    text: &str,
    index: &LineIndex,
    f: &Finding,
) -> std::io::Result<()> {
    let line = index.line_of(f.span.start);
    let range = index.line_range(text, line);
    let line_text = &text[range.clone()];
    let number = (line + 1).to_string();
    let pad = " ".repeat(number.len());
    let start_col = text[range.start..f.span.start.max(range.start)]
        .chars()
        .count();
    let end = f.span.end.min(range.end).max(f.span.start);
    let width = text[f.span.start..end].chars().count().max(1);
    let severity = f.severity.as_str();
    writeln!(out, "{pad} |")?;
    writeln!(out, "{number} | {}", line_text.replace('\t', " "))?;
    writeln!(
        out,
        "{pad} | {}{} {} ({severity})",
        " ".repeat(start_col),
        "^".repeat(width),
        f.code
    )?;
    writeln!(out, "{pad} |")?;
    for fix in &f.fixes {
        let tag = if fix.applicability == Applicability::Safe {
            ""
        } else {
            " (unsafe)"
        };
        writeln!(out, "{pad} = help: {}{tag}", fix.title)?;
    }
    writeln!(out)
}

fn print_statistics(run: &CheckRun, out: &mut dyn Write) -> std::io::Result<()> {
    let mut counts: std::collections::BTreeMap<&str, (usize, bool)> = Default::default();
    for f in run.reports.iter().flat_map(|r| &r.findings) {
        let entry = counts.entry(f.code).or_default();
        entry.0 += 1;
        entry.1 |= f
            .fixes
            .iter()
            .any(|x| x.applicability == Applicability::Safe);
    }
    let mut rows: Vec<_> = counts.into_iter().collect();
    rows.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(b.0)));
    for (code, (count, fixable)) in rows {
        let name = rules::by_code(code).map(|r| r.meta().name).unwrap_or("");
        writeln!(
            out,
            "{count:>5}\t{code}\t{}{name}",
            if fixable { "[*] " } else { "[ ] " }
        )?;
    }
    Ok(())
}

/// ruff's JSON fields, plus `severity`.
pub fn json_findings(report: &FileReport) -> Vec<Value> {
    let text = report.fixed.as_deref().unwrap_or(&report.text);
    let index = LineIndex::new(text);
    let loc = |offset: usize| {
        let (row, column) = pos(text, &index, offset);
        json!({ "row": row, "column": column })
    };
    report
        .findings
        .iter()
        .map(|f| {
            let meta = rules::by_code(f.code).map(|r| r.meta());
            let fix = f.fixes.first().map(|fix| {
                json!({
                    "applicability": fix.applicability,
                    "message": fix.title,
                    "edits": fix.edits.iter().map(|e| json!({
                        "content": e.text,
                        "location": loc(e.span.start),
                        "end_location": loc(e.span.end),
                    })).collect::<Vec<_>>(),
                })
            });
            json!({
                "code": f.code,
                "message": f.message,
                "severity": f.severity,
                "filename": report.path.display().to_string(),
                "location": loc(f.span.start),
                "end_location": loc(f.span.end),
                "fix": fix,
                "url": meta.map(|m| m.url()),
                "noqa_row": pos(text, &index, f.span.start).0,
            })
        })
        .collect()
}

fn sarif(run: &CheckRun) -> Value {
    let rules_json: Vec<Value> = rules::all()
        .iter()
        .map(|r| {
            let m = r.meta();
            json!({
                "id": m.code,
                "name": m.name,
                "shortDescription": { "text": m.summary },
                "fullDescription": { "text": m.template },
                "helpUri": m.url(),
                "help": { "text": m.summary, "markdown": m.explanation },
                "defaultConfiguration": { "level": m.severity.as_str() },
            })
        })
        .collect();
    let mut results = Vec::new();
    for report in &run.reports {
        let text = report.fixed.as_deref().unwrap_or(&report.text);
        let index = LineIndex::new(text);
        let uri = report.path.display().to_string();
        let region = |span: &std::ops::Range<usize>| {
            let (sl, sc) = pos(text, &index, span.start);
            let (el, ec) = pos(text, &index, span.end);
            json!({ "startLine": sl, "startColumn": sc, "endLine": el, "endColumn": ec })
        };
        for f in &report.findings {
            let related: Vec<Value> = f
                .related
                .iter()
                .enumerate()
                .filter(|(_, r)| r.file.is_none())
                .map(|(i, r)| {
                    json!({
                        "id": i,
                        "message": { "text": r.message },
                        "physicalLocation": { "artifactLocation": { "uri": uri }, "region": region(&r.span) },
                    })
                })
                .collect();
            results.push(json!({
                "ruleId": f.code,
                "level": f.severity.as_str(),
                "message": { "text": f.message },
                "locations": [{ "physicalLocation": { "artifactLocation": { "uri": uri }, "region": region(&f.span) } }],
                "relatedLocations": related,
            }));
        }
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "jax-lsp",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/jax-lsp/jax-lsp",
                "rules": rules_json,
            } },
            "results": results,
        }],
    })
}

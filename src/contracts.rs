//! `[[tool.jax-lsp.contract]]`: a project's own platform contracts, read
//! from pyproject.toml with the position of every value, so that a mistake
//! is reported at its file, line and column. A broken contract is dropped
//! alone: the other contracts and the built-in rules keep running.
//!
//! ```toml
//! [[tool.jax-lsp.contract]]
//! code = "TPU001"
//! name = "tpu-only-attention"
//! calls = ["mylib.kernels.tpu.*"]
//! query = "tools/jax-lsp/tpu_calls.scm"   # optional: @site captures count too
//! platforms = ["tpu"]
//! message = "{site} only lowers for {allowed}; this computation is lowered for {platform}"
//! severity = "error"
//! ```

use crate::diagnostic::Severity;
use crate::semantic::contract::{dotted_glob, SiteMatcher};
use crate::semantic::names::KNOWN_PLATFORMS;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// One contract, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contract {
    pub code: String,
    pub name: String,
    pub calls: Vec<String>,
    /// The query file (absolute) and its text.
    pub query: Option<(PathBuf, String)>,
    /// Where the contract's code may be lowered (`gpu` expanded).
    pub platforms: Vec<String>,
    /// As written (before expansion), for messages.
    pub platforms_written: Vec<String>,
    pub message: Option<String>,
    pub severity: Severity,
    /// The pyproject.toml it is written in.
    pub source: PathBuf,
}

pub const DEFAULT_MESSAGE: &str =
    "{site} only lowers for {allowed}; this computation is lowered for {platform}";

const KEYS: &[&str] = &[
    "code",
    "name",
    "calls",
    "query",
    "platforms",
    "message",
    "severity",
];
const PLACEHOLDERS: &[&str] = &["site", "allowed", "platform", "name", "code"];

/// A mistake in a contract, where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContractError {
    pub file: PathBuf,
    /// Byte range in that file.
    pub span: std::ops::Range<usize>,
    /// 1-based.
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl std::fmt::Display for ContractError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file.display(),
            self.line,
            self.col,
            self.message
        )
    }
}

impl ContractError {
    pub fn at(file: &Path, text: &str, span: std::ops::Range<usize>, message: String) -> Self {
        let start = span.start.min(text.len());
        let before = text.get(..start).unwrap_or("");
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = before[line_start..].chars().count() + 1;
        ContractError {
            file: file.to_path_buf(),
            span,
            line,
            col,
            message,
        }
    }
}

/// The contracts of a project, and what finds their sites.
#[derive(Clone, Debug, Default)]
pub struct Contracts {
    pub list: Vec<Arc<Contract>>,
    pub errors: Vec<ContractError>,
    pub matcher: Option<Arc<SiteMatcher>>,
}

impl PartialEq for Contracts {
    fn eq(&self, other: &Self) -> bool {
        self.list == other.list && self.errors == other.errors
    }
}

impl Contracts {
    pub fn by_code(&self, code: &str) -> Option<&Contract> {
        self.list
            .iter()
            .map(|c| c.as_ref())
            .find(|c| c.code == code)
    }
}

/// Reads every `[[tool.jax-lsp.contract]]` of a pyproject.toml's text.
/// Nothing at all when the text is not TOML (the settings report that).
pub fn parse(text: &str, path: &Path) -> Contracts {
    let mut out = Contracts::default();
    let Ok(doc) = DeTable::parse(text) else {
        return out;
    };
    let Some(entries) = doc
        .get_ref()
        .get("tool")
        .and_then(|t| t.get_ref().get("jax-lsp"))
        .and_then(|t| t.get_ref().get("contract"))
    else {
        return out;
    };
    let err = |span: std::ops::Range<usize>, message: String| {
        ContractError::at(path, text, span, message)
    };
    let DeValue::Array(items) = entries.get_ref() else {
        out.errors.push(err(
            entries.span(),
            "`contract` must be an array of tables (`[[tool.jax-lsp.contract]]`)".to_owned(),
        ));
        return out;
    };
    let root = path.parent().unwrap_or(Path::new("."));
    for item in items.iter() {
        match read_one(item, root, path, text) {
            Ok(contract) => {
                if let Some(previous) = out.list.iter().find(|c| c.code == contract.code) {
                    out.errors.push(err(
                        item.span(),
                        format!(
                            "contract code `{}` is used twice (also by `{}`)",
                            contract.code, previous.name
                        ),
                    ));
                    continue;
                }
                out.list.push(Arc::new(contract));
            }
            Err(e) => out.errors.push(e),
        }
    }
    out.matcher = matcher(&out.list, &mut out.errors, path, text);
    out
}

/// Compiles the contracts' globs and queries into one matcher; a query that
/// does not compile is reported at its own file, line and column.
fn matcher(
    list: &[Arc<Contract>],
    errors: &mut Vec<ContractError>,
    path: &Path,
    text: &str,
) -> Option<Arc<SiteMatcher>> {
    if list.is_empty() {
        return None;
    }
    let calls: Vec<(String, Vec<String>)> = list
        .iter()
        .map(|c| (c.code.clone(), c.calls.clone()))
        .collect();
    let mut matcher = match SiteMatcher::new(&calls) {
        Ok(m) => m,
        Err(e) => {
            // Each pattern was checked when read; this cannot happen.
            errors.push(ContractError::at(path, text, 0..0, e));
            return None;
        }
    };
    for contract in list {
        let Some((file, source)) = &contract.query else {
            continue;
        };
        match compile_query(source) {
            Ok(query) => {
                if matcher
                    .add_query(&contract.code, source, Arc::new(query))
                    .is_none()
                {
                    errors.push(ContractError::at(
                        file,
                        source,
                        0..0,
                        format!(
                            "the query of contract `{}` has no `@site` capture",
                            contract.code
                        ),
                    ));
                }
            }
            Err(e) => {
                let offset = e.offset.min(source.len());
                errors.push(ContractError::at(
                    file,
                    source,
                    offset..offset,
                    format!(
                        "the query of contract `{}` does not compile: {:?} error: {}",
                        contract.code, e.kind, e.message
                    ),
                ));
            }
        }
    }
    Some(Arc::new(matcher))
}

fn compile_query(source: &str) -> Result<tree_sitter::Query, tree_sitter::QueryError> {
    tree_sitter::Query::new(&tree_sitter_python::LANGUAGE.into(), source)
}

fn read_one(
    item: &Spanned<DeValue<'_>>,
    root: &Path,
    path: &Path,
    text: &str,
) -> Result<Contract, ContractError> {
    let err = |span: std::ops::Range<usize>, message: String| {
        ContractError::at(path, text, span, message)
    };
    let DeValue::Table(table) = item.get_ref() else {
        return Err(err(
            item.span(),
            "each contract must be a table (`[[tool.jax-lsp.contract]]`)".to_owned(),
        ));
    };
    for (key, _) in table.iter() {
        if !KEYS.contains(&key.get_ref().as_ref()) {
            return Err(err(
                key.span(),
                format!(
                    "unknown contract key `{}` (expected one of {})",
                    key.get_ref(),
                    KEYS.join(", ")
                ),
            ));
        }
    }
    let string = |key: &str| -> Result<Option<(String, std::ops::Range<usize>)>, ContractError> {
        match table.get(key) {
            None => Ok(None),
            Some(v) => match v.get_ref() {
                DeValue::String(s) => Ok(Some((s.to_string(), v.span()))),
                _ => Err(err(
                    v.span(),
                    format!("contract key `{key}` must be a string"),
                )),
            },
        }
    };
    let strings = |key: &str| -> Result<Vec<(String, std::ops::Range<usize>)>, ContractError> {
        match table.get(key) {
            None => Ok(Vec::new()),
            Some(v) => match v.get_ref() {
                DeValue::Array(items) => items
                    .iter()
                    .map(|i| match i.get_ref() {
                        DeValue::String(s) => Ok((s.to_string(), i.span())),
                        _ => Err(err(
                            i.span(),
                            format!("contract key `{key}` must be a list of strings"),
                        )),
                    })
                    .collect(),
                _ => Err(err(
                    v.span(),
                    format!("contract key `{key}` must be a list of strings"),
                )),
            },
        }
    };
    let Some((code, code_span)) = string("code")? else {
        return Err(err(item.span(), "a contract needs a `code`".to_owned()));
    };
    let digits = code.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let well_formed = digits.len() < code.len()
        && !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit());
    if !well_formed {
        return Err(err(
            code_span,
            format!("contract code `{code}` must be letters then digits (`TPU001`)"),
        ));
    }
    if let Some(rule) = crate::rules::by_code(&code) {
        return Err(err(
            code_span,
            format!(
                "contract code `{code}` clashes with the built-in rule {} ({})",
                rule.meta().code,
                rule.meta().name
            ),
        ));
    }
    if code.to_ascii_uppercase().starts_with("JP") {
        return Err(err(
            code_span,
            format!(
                "contract code `{code}`: codes starting with JP are reserved for built-in rules"
            ),
        ));
    }
    let name = string("name")?.map_or_else(|| code.clone(), |(n, _)| n);
    let calls = strings("calls")?;
    for (pattern, span) in &calls {
        dotted_glob(pattern).map_err(|e| err(span.clone(), format!("`calls`: {e}")))?;
    }
    let query = match string("query")? {
        None => None,
        Some((rel, span)) => {
            let file = root.join(&rel);
            let source = std::fs::read_to_string(&file).map_err(|e| {
                err(
                    span,
                    format!("`query`: cannot read {}: {e}", file.display()),
                )
            })?;
            Some((file, source))
        }
    };
    if calls.is_empty() && query.is_none() {
        return Err(err(
            item.span(),
            format!("contract `{code}` needs `calls` or `query` (what its sites are)"),
        ));
    }
    let written = strings("platforms")?;
    if written.is_empty() {
        let span = table.get("platforms").map_or(item.span(), |v| v.span());
        return Err(err(
            span,
            format!("contract `{code}` needs `platforms` (where its code may be lowered)"),
        ));
    }
    let mut platforms: Vec<String> = Vec::new();
    for (p, span) in &written {
        let names: Vec<&str> = match p.as_str() {
            "gpu" => vec!["cuda", "rocm", "oneapi"],
            other if KNOWN_PLATFORMS.contains(&other) => vec![other],
            other => {
                return Err(err(
                    span.clone(),
                    format!("`platforms`: unknown platform `{other}` (expected one of cpu, cuda, rocm, tpu, oneapi, gpu)"),
                ))
            }
        };
        for n in names {
            if !platforms.iter().any(|q| q == n) {
                platforms.push(n.to_owned());
            }
        }
    }
    let message = string("message")?;
    if let Some((m, span)) = &message {
        if let Some(bad) = placeholders(m).find(|p| !PLACEHOLDERS.contains(p)) {
            return Err(err(
                span.clone(),
                format!(
                    "`message`: unknown placeholder `{{{bad}}}` (expected {})",
                    PLACEHOLDERS
                        .iter()
                        .map(|p| format!("{{{p}}}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
    }
    let severity = match string("severity")? {
        None => Severity::Error,
        Some((s, span)) => match s.as_str() {
            "error" => Severity::Error,
            "warning" => Severity::Warning,
            other => {
                return Err(err(
                    span,
                    format!("`severity`: `{other}` is not `error` or `warning`"),
                ))
            }
        },
    };
    Ok(Contract {
        code,
        name,
        calls: calls.into_iter().map(|(c, _)| c).collect(),
        query,
        platforms,
        platforms_written: written.into_iter().map(|(p, _)| p).collect(),
        message: message.map(|(m, _)| m),
        severity,
        source: path.to_path_buf(),
    })
}

/// The `{name}` placeholders of a message.
fn placeholders(message: &str) -> impl Iterator<Item = &str> {
    message
        .split('{')
        .skip(1)
        .filter_map(|s| s.split_once('}').map(|(p, _)| p))
}

impl Contract {
    /// The finding's message: the contract's template, filled.
    pub fn render(&self, site: &str, platform: &str) -> String {
        let template = self.message.as_deref().unwrap_or(DEFAULT_MESSAGE);
        template
            .replace("{site}", site)
            .replace("{allowed}", &self.platforms_written.join(", "))
            .replace("{platform}", platform)
            .replace("{name}", &self.name)
            .replace("{code}", &self.code)
    }

    /// Markdown for hover and explain.
    pub fn explanation(&self) -> String {
        let mut out = format!(
            "**{}** {} (a contract of this project, `{}`)\n\n",
            self.code,
            self.name,
            self.source.display()
        );
        out.push_str(&format!(
            "Code matched by this contract only lowers for **{}**. A lowering, export or placed \
             execution for another platform that reaches it is reported at the lowering; \
             the matching call or function is given as related information.\n\n",
            self.platforms_written.join(", ")
        ));
        if !self.calls.is_empty() {
            out.push_str("Sites: calls of, or entering, ");
            out.push_str(
                &self
                    .calls
                    .iter()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
            );
            out.push('\n');
        }
        if let Some((file, _)) = &self.query {
            out.push_str(&format!(
                "\nSites also: the `@site` captures of `{}`\n",
                file.display()
            ));
        }
        out.push_str(
            "\nHow to fix: lower for the contract's platforms, select the implementation per \
             platform with `jax.lax.platform_dependent(...)` in a single-platform lowering, or \
             lower once per platform. Suppress one line with `# noqa: ",
        );
        out.push_str(&self.code);
        out.push_str("`.\n");
        out
    }
}

/// Contract `calls` patterns that match nothing in the workspace under the
/// pyproject.toml (no module, function, class or imported name): a typo
/// would otherwise silence the contract for good.
pub fn unmatched_globs(contracts: &Contracts, text: &str) -> Vec<ContractError> {
    let mut out = Vec::new();
    let Some(first) = contracts.list.first() else {
        return out;
    };
    let source = first.source.clone();
    let root = match source.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let names = workspace_names(root);
    let Ok(doc) = DeTable::parse(text) else {
        return out;
    };
    // Spans of each contract's patterns, to point at the one that matches nothing.
    let spans: Vec<Vec<(String, std::ops::Range<usize>)>> = doc
        .get_ref()
        .get("tool")
        .and_then(|t| t.get_ref().get("jax-lsp"))
        .and_then(|t| t.get_ref().get("contract"))
        .and_then(|c| match c.get_ref() {
            DeValue::Array(items) => Some(
                items
                    .iter()
                    .map(|item| match item.get_ref() {
                        DeValue::Table(t) => match t.get("calls").map(|c| c.get_ref()) {
                            Some(DeValue::Array(calls)) => calls
                                .iter()
                                .filter_map(|c| match c.get_ref() {
                                    DeValue::String(s) => Some((s.to_string(), c.span())),
                                    _ => None,
                                })
                                .collect(),
                            _ => Vec::new(),
                        },
                        _ => Vec::new(),
                    })
                    .collect(),
            ),
            _ => None,
        })
        .unwrap_or_default();
    for contract in &contracts.list {
        for pattern in &contract.calls {
            let Ok(glob) = dotted_glob(pattern) else {
                continue;
            };
            let glob = glob.compile_matcher();
            if names.iter().any(|n| glob.is_match(n.replace('.', "/"))) {
                continue;
            }
            let span = spans
                .iter()
                .flatten()
                .find(|(p, _)| p == pattern)
                .map_or(0..0, |(_, s)| s.clone());
            out.push(ContractError::at(
                &source,
                text,
                span,
                format!(
                    "contract `{}`: `calls` pattern `{pattern}` matches no module, function or imported name under {}",
                    contract.code,
                    root.display()
                ),
            ));
        }
    }
    out
}

/// The dotted names a workspace defines or imports: each module, its
/// top-level defs and classes (and their methods), and every imported name.
/// A lexical scan: enough to tell a typo from a real name.
fn workspace_names(root: &Path) -> std::collections::HashSet<String> {
    let mut names = std::collections::HashSet::new();
    for entry in ignore::WalkBuilder::new(root).build().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "py") {
            continue;
        }
        let Some(module) = crate::semantic::contract::module_name(path) else {
            continue;
        };
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        names.insert(module.clone());
        let mut class: Option<String> = None;
        for line in text.lines() {
            let indented = line.starts_with(' ') || line.starts_with('\t');
            let trimmed = line.trim_start();
            let def = trimmed
                .strip_prefix("async def ")
                .or_else(|| trimmed.strip_prefix("def "));
            let ident = |s: &str| -> String {
                s.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect()
            };
            if let Some(rest) = trimmed.strip_prefix("class ") {
                if !indented {
                    let name = ident(rest);
                    names.insert(format!("{module}.{name}"));
                    class = Some(name);
                }
            } else if let Some(rest) = def {
                let name = ident(rest);
                match (&class, indented) {
                    (_, false) => {
                        class = None;
                        names.insert(format!("{module}.{name}"));
                    }
                    (Some(c), true) => {
                        names.insert(format!("{module}.{c}.{name}"));
                    }
                    (None, true) => {}
                }
            } else if let Some(rest) = trimmed.strip_prefix("from ") {
                if let Some((from, imported)) = rest.split_once(" import ") {
                    let from = from.trim();
                    let base = crate::semantic::contract::absolute_path(
                        from,
                        crate::semantic::contract::package_name(path).as_deref(),
                    );
                    for item in imported.trim_matches(|c| c == '(' || c == ')').split(',') {
                        let name = ident(item.trim());
                        if let (Some(base), false) = (&base, name.is_empty()) {
                            names.insert(format!("{base}.{name}"));
                        }
                    }
                }
            } else if let Some(rest) = trimmed.strip_prefix("import ") {
                for item in rest.split(',') {
                    let dotted: String = item
                        .trim()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '.')
                        .collect();
                    if !dotted.is_empty() {
                        names.insert(dotted);
                    }
                }
            } else if !indented && !trimmed.is_empty() && !trimmed.starts_with('#') {
                class = None;
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(body: &str) -> Contracts {
        let text = format!("[tool.jax-lsp]\n\n[[tool.jax-lsp.contract]]\n{body}");
        parse(&text, Path::new("/p/pyproject.toml"))
    }

    #[test]
    fn reads_a_contract() {
        let c = one("code = \"TPU001\"\nname = \"tpu-only\"\ncalls = [\"mylib.tpu.*\"]\nplatforms = [\"tpu\"]\n");
        assert!(c.errors.is_empty(), "{:?}", c.errors);
        assert_eq!(c.list[0].platforms, vec!["tpu".to_owned()]);
        assert!(c.matcher.is_some());
        assert_eq!(
            c.list[0].render("mylib.tpu.f", "cuda"),
            "mylib.tpu.f only lowers for tpu; this computation is lowered for cuda"
        );
    }

    #[test]
    fn mistakes_name_their_line_and_column() {
        let c = one("code = \"TPU001\"\ncals = [\"x.*\"]\nplatforms = [\"tpu\"]\n");
        let e = &c.errors[0];
        assert_eq!((e.line, e.col), (5, 1), "{e}");
        assert!(e.message.contains("cals"), "{e}");
        let c = one("code = \"JP002\"\ncalls = [\"x.*\"]\nplatforms = [\"tpu\"]\n");
        assert!(c.errors[0].message.contains("clashes"), "{}", c.errors[0]);
        assert_eq!((c.errors[0].line, c.errors[0].col), (4, 8));
        let c = one("code = \"TPU001\"\ncalls = [\"x.*\"]\nplatforms = [\"tpuv4\"]\n");
        assert!(c.errors[0].message.contains("tpuv4"));
        let c = one(
            "code = \"TPU001\"\ncalls = [\"x.*\"]\nplatforms = [\"tpu\"]\nmessage = \"{sight}\"\n",
        );
        assert!(c.errors[0].message.contains("{sight}"));
        assert!(c.list.is_empty());
    }
}

//! Code actions: the rules' fixes (from the diagnostics' `data`), "Disable
//! JPxxx for this line", and `source.fixAll.jax-lsp`.

use super::convert::{diagnostic_code, DiagnosticData, Lines};
use super::hover::noqa_code_spans;
use crate::analysis;
use crate::diagnostic::Finding;
use crate::fix::select_fixes;
use crate::syntax::Span;
use std::collections::HashMap;
use tower_lsp::lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Diagnostic, DocumentChanges, OneOf,
    OptionalVersionedTextDocumentIdentifier, TextDocumentEdit, TextEdit, Url, WorkspaceEdit,
};

pub const FIX_ALL_KIND: &str = "source.fixAll.jax-lsp";

/// The edit that makes `line` (without its line end) suppress `code`:
/// a byte span of the line and its replacement; `None` if already suppressed.
pub fn noqa_edit(line: &str, code: &str) -> Option<(Span, String)> {
    match analysis::noqa_codes(line) {
        Some(codes) if codes.is_empty() || codes.iter().any(|c| c.eq_ignore_ascii_case(code)) => {
            None
        }
        Some(_) => {
            // After the last token that looks like a code (`# noqa: JP001 reason`
            // becomes `# noqa: JP001, JP003 reason`).
            let spans = noqa_code_spans(line);
            let looks_like_code = |s: &Span| {
                let t = &line[s.clone()];
                let letters = t.chars().take_while(|c| c.is_ascii_uppercase()).count();
                letters > 0 && letters < t.len() && t[letters..].chars().all(|c| c.is_ascii_digit())
            };
            let last = spans
                .iter()
                .rev()
                .find(|s| looks_like_code(s))
                .or(spans.last())?;
            Some((last.end..last.end, format!(", {code}")))
        }
        None => {
            let content = line.trim_end().len();
            Some((content..line.len(), format!("  # noqa: {code}")))
        }
    }
}

/// Is an action of `kind` wanted by a request's `only` filter?
pub fn wanted(only: Option<&[CodeActionKind]>, kind: &str) -> bool {
    match only {
        None => true,
        Some(kinds) => kinds.iter().any(|k| {
            let k = k.as_str();
            kind == k || (kind.starts_with(k) && kind.as_bytes().get(k.len()) == Some(&b'.'))
        }),
    }
}

/// How to wrap edits for the client.
#[derive(Clone, Copy)]
pub struct EditStyle {
    pub document_changes: bool,
}

pub fn workspace_edit(
    style: EditStyle,
    uri: &Url,
    version: i32,
    edits: Vec<TextEdit>,
) -> WorkspaceEdit {
    if style.document_changes {
        WorkspaceEdit {
            document_changes: Some(DocumentChanges::Edits(vec![TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier {
                    uri: uri.clone(),
                    version: Some(version),
                },
                edits: edits.into_iter().map(OneOf::Left).collect(),
            }])),
            ..Default::default()
        }
    } else {
        WorkspaceEdit {
            changes: Some(HashMap::from([(uri.clone(), edits)])),
            ..Default::default()
        }
    }
}

/// Quick fixes and "disable for this line" for the given diagnostics, which
/// must be ours; `lines` is the document's current text at `version`.
pub fn quick_fixes(
    diagnostics: &[Diagnostic],
    uri: &Url,
    version: i32,
    lines: Lines<'_>,
    style: EditStyle,
) -> Vec<CodeActionOrCommand> {
    let mut out = Vec::new();
    let mut disabled: Vec<(u32, String)> = Vec::new();
    for diag in diagnostics {
        let Some(code) = diagnostic_code(diag) else {
            continue;
        };
        let data: Option<DiagnosticData> = diag
            .data
            .clone()
            .and_then(|d| serde_json::from_value(d).ok());
        // Fixes computed for another version would land in the wrong place.
        if let Some(data) = data.filter(|d| d.version == version) {
            // Safe fixes first; the first of them is the preferred one (the
            // one fix-all takes). An unsafe fix is never preferred: a client
            // applies the preferred fix without showing the list.
            let mut fixes = data.fixes;
            fixes.sort_by_key(|f| !f.safe);
            for (i, fix) in fixes.into_iter().enumerate() {
                let preferred = i == 0 && fix.safe;
                out.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: format!("jax-lsp ({code}): {}", fix.title),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![diag.clone()]),
                    edit: Some(workspace_edit(style, uri, version, fix.edits)),
                    is_preferred: Some(preferred),
                    ..Default::default()
                }));
            }
        }
        let line = diag.range.start.line;
        if disabled.iter().any(|(l, c)| *l == line && c == code) {
            continue;
        }
        disabled.push((line, code.to_owned()));
        let range = lines.index.line_range(lines.text, line as usize);
        if lines.index.line_of(range.start) != line as usize {
            continue; // the line no longer exists
        }
        let Some((span, text)) = noqa_edit(&lines.text[range.clone()], code) else {
            continue;
        };
        let span = range.start + span.start..range.start + span.end;
        out.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: format!("jax-lsp ({code}): Disable for this line"),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![diag.clone()]),
            edit: Some(workspace_edit(
                style,
                uri,
                version,
                vec![TextEdit {
                    range: lines.range(&span),
                    new_text: text,
                }],
            )),
            is_preferred: Some(false),
            ..Default::default()
        }));
    }
    out
}

/// `source.fixAll.jax-lsp`: every safe fix that does not overlap another;
/// `None` when there is nothing to fix. `lines` must be the text the findings
/// were computed for.
pub fn fix_all(
    findings: &[Finding],
    uri: &Url,
    version: i32,
    lines: Lines<'_>,
    style: EditStyle,
) -> Option<CodeActionOrCommand> {
    let (edits, count) = select_fixes(findings.iter().map(|f| f.fixes.as_slice()), false);
    if count == 0 {
        return None;
    }
    let edits = edits
        .iter()
        .map(|e| TextEdit {
            range: lines.range(&e.span),
            new_text: e.text.clone(),
        })
        .collect();
    Some(CodeActionOrCommand::CodeAction(CodeAction {
        title: format!(
            "jax-lsp: Fix all ({count} safe fix{})",
            if count == 1 { "" } else { "es" }
        ),
        kind: Some(CodeActionKind::new(FIX_ALL_KIND)),
        edit: Some(workspace_edit(style, uri, version, edits)),
        ..Default::default()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noqa_edits_append_or_extend() {
        assert_eq!(
            noqa_edit("x = f()  ", "JP003"),
            Some((7..9, "  # noqa: JP003".to_owned()))
        );
        let line = "x = f()  # noqa: JP001";
        assert_eq!(
            noqa_edit(line, "JP003"),
            Some((line.len()..line.len(), ", JP003".to_owned()))
        );
        assert_eq!(noqa_edit("x = f()  # noqa: JP003", "JP003"), None);
        assert_eq!(noqa_edit("x = f()  # noqa", "JP003"), None);
        let line = "s = \"# 日本 😀\"; y = 1  # noqa: JP001 reason";
        let (span, text) = noqa_edit(line, "JP002").unwrap();
        let mut fixed = line.to_owned();
        fixed.replace_range(span, &text);
        assert_eq!(
            analysis::noqa_codes(&fixed),
            Some(vec!["JP001".to_owned(), "JP002".to_owned()])
        );
    }

    #[test]
    fn only_filters_by_kind_prefix() {
        let src = [CodeActionKind::SOURCE];
        assert!(wanted(Some(&src), FIX_ALL_KIND));
        assert!(!wanted(Some(&src), "quickfix"));
        assert!(wanted(
            Some(&[CodeActionKind::new("source.fixAll")]),
            FIX_ALL_KIND
        ));
        assert!(!wanted(
            Some(&[CodeActionKind::new("source.fix")]),
            FIX_ALL_KIND
        ));
        assert!(wanted(None, "quickfix"));
    }
}

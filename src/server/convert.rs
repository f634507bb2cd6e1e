//! Between the engine's byte ranges and LSP positions (through `LineIndex`
//! only), and from findings to LSP diagnostics.

use crate::diagnostic::{Finding, Severity};
use crate::fix::{Applicability, Fix};
use crate::rules;
use crate::syntax::{Encoding, LineCol, LineIndex, Span};
use serde::{Deserialize, Serialize};
use std::path::Path;
use tower_lsp::lsp_types::{
    ClientCapabilities, CodeDescription, Diagnostic, DiagnosticRelatedInformation,
    DiagnosticSeverity, Location, NumberOrString, Position, PositionEncodingKind, Range, TextEdit,
    Url,
};

pub const SOURCE: &str = "jax-lsp";

/// Picks the position encoding: utf-8 when the client offers it, else the
/// first of the client's list we support, else utf-16 (LSP's mandatory default).
pub fn negotiate_encoding(caps: &ClientCapabilities) -> Encoding {
    let offered = caps
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref());
    let Some(offered) = offered else {
        return Encoding::Utf16;
    };
    if offered.contains(&PositionEncodingKind::UTF8) {
        return Encoding::Utf8;
    }
    offered
        .iter()
        .find_map(|kind| match kind.as_str() {
            "utf-16" => Some(Encoding::Utf16),
            "utf-32" => Some(Encoding::Utf32),
            _ => None,
        })
        .unwrap_or(Encoding::Utf16)
}

pub fn encoding_kind(enc: Encoding) -> PositionEncodingKind {
    match enc {
        Encoding::Utf8 => PositionEncodingKind::UTF8,
        Encoding::Utf16 => PositionEncodingKind::UTF16,
        Encoding::Utf32 => PositionEncodingKind::UTF32,
    }
}

/// A text with its line index: everything needed to convert positions.
#[derive(Clone, Copy)]
pub struct Lines<'a> {
    pub text: &'a str,
    pub index: &'a LineIndex,
    pub enc: Encoding,
}

impl Lines<'_> {
    pub fn position(&self, offset: usize) -> Position {
        let lc = self.index.line_col(self.text, offset, self.enc);
        Position {
            line: lc.line,
            character: lc.col,
        }
    }

    pub fn range(&self, span: &Span) -> Range {
        Range {
            start: self.position(span.start),
            end: self.position(span.end.max(span.start)),
        }
    }

    /// Byte offset of a position (clamped into the text).
    pub fn offset(&self, pos: Position) -> usize {
        self.index.offset(
            self.text,
            LineCol {
                line: pos.line,
                col: pos.character,
            },
            self.enc,
        )
    }

    pub fn span(&self, range: Range) -> Span {
        let a = self.offset(range.start);
        let b = self.offset(range.end);
        a.min(b)..a.max(b)
    }
}

/// A fix as carried in a diagnostic's `data`: edits already in LSP positions
/// of the document version the diagnostic was computed for.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FixData {
    pub title: String,
    pub safe: bool,
    pub edits: Vec<TextEdit>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct DiagnosticData {
    /// The document version the ranges refer to.
    pub version: i32,
    pub fixes: Vec<FixData>,
}

pub fn fix_data(fix: &Fix, lines: Lines<'_>) -> FixData {
    FixData {
        title: fix.title.clone(),
        safe: fix.applicability == Applicability::Safe,
        edits: fix
            .edits
            .iter()
            .map(|e| TextEdit {
                range: lines.range(&e.span),
                new_text: e.text.clone(),
            })
            .collect(),
    }
}

/// Reads another file's text for related information (open buffer or disk).
pub trait ReadText {
    fn read_text(&self, path: &Path) -> Option<(std::sync::Arc<str>, std::sync::Arc<LineIndex>)>;
}

pub fn to_diagnostic(
    finding: &Finding,
    uri: &Url,
    version: i32,
    lines: Lines<'_>,
    other: &dyn ReadText,
) -> Diagnostic {
    let meta = rules::by_code(finding.code).map(|r| r.meta());
    let related: Vec<DiagnosticRelatedInformation> = finding
        .related
        .iter()
        .filter_map(|rel| {
            let location = match &rel.file {
                None => Location {
                    uri: uri.clone(),
                    range: lines.range(&rel.span),
                },
                Some(path) => {
                    let (text, index) = other.read_text(path)?;
                    let other_lines = Lines {
                        text: &text,
                        index: &index,
                        enc: lines.enc,
                    };
                    Location {
                        uri: Url::from_file_path(path).ok()?,
                        range: other_lines.range(&rel.span),
                    }
                }
            };
            Some(DiagnosticRelatedInformation {
                location,
                message: rel.message.clone(),
            })
        })
        .collect();
    let data = DiagnosticData {
        version,
        fixes: finding.fixes.iter().map(|f| fix_data(f, lines)).collect(),
    };
    Diagnostic {
        range: lines.range(&finding.span),
        severity: Some(match finding.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(finding.code.to_owned())),
        code_description: meta
            .and_then(|m| Url::parse(&m.url()).ok())
            .map(|href| CodeDescription { href }),
        source: Some(SOURCE.to_owned()),
        message: finding.message.clone(),
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: serde_json::to_value(data).ok(),
    }
}

/// The rule code of one of our diagnostics.
pub fn diagnostic_code(d: &Diagnostic) -> Option<&str> {
    if d.source.as_deref() != Some(SOURCE) {
        return None;
    }
    match &d.code {
        Some(NumberOrString::String(code)) => Some(code.as_str()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower_lsp::lsp_types::GeneralClientCapabilities;

    fn caps(list: Option<Vec<PositionEncodingKind>>) -> ClientCapabilities {
        ClientCapabilities {
            general: Some(GeneralClientCapabilities {
                position_encodings: list,
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    #[test]
    fn negotiates_utf8_first_then_the_clients_order() {
        use PositionEncodingKind as K;
        assert_eq!(
            negotiate_encoding(&ClientCapabilities::default()),
            Encoding::Utf16
        );
        assert_eq!(
            negotiate_encoding(&caps(Some(vec![K::UTF16, K::UTF8]))),
            Encoding::Utf8
        );
        assert_eq!(
            negotiate_encoding(&caps(Some(vec![K::UTF32, K::UTF16]))),
            Encoding::Utf32
        );
        assert_eq!(
            negotiate_encoding(&caps(Some(vec![K::new("utf-7")]))),
            Encoding::Utf16
        );
    }

    #[test]
    fn ranges_round_trip() {
        let text = "s = \"# 日本 😀\"; x.lower()\n";
        let index = LineIndex::new(text);
        let at = text.find("lower").unwrap();
        for (enc, col) in [
            (Encoding::Utf8, at as u32),
            (Encoding::Utf16, 17),
            (Encoding::Utf32, 16),
        ] {
            let lines = Lines {
                text,
                index: &index,
                enc,
            };
            let range = lines.range(&(at..at + 5));
            assert_eq!(
                range.start,
                Position {
                    line: 0,
                    character: col
                },
                "{enc:?}"
            );
            assert_eq!(lines.span(range), at..at + 5);
        }
    }
}

//! Fixes: text edits over byte ranges, with an applicability.

use crate::syntax::Span;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// Keeps the program's intent: applied by `--fix` and fix-all.
    Safe,
    /// Changes behaviour on some platform: applied only on request.
    Unsafe,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edit {
    pub span: Span,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<Edit>,
    pub applicability: Applicability,
}

/// Applies `edits` (non-overlapping) to `text`.
pub fn apply_edits(text: &str, edits: &[Edit]) -> String {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.span.start, e.span.end));
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    for edit in sorted {
        let start = edit.span.start.clamp(pos, text.len());
        let end = edit.span.end.clamp(start, text.len());
        out.push_str(&text[pos..start]);
        out.push_str(&edit.text);
        pos = end;
    }
    out.push_str(&text[pos..]);
    out
}

/// Picks fixes to apply together: the first fix of each list whose
/// applicability is allowed, skipping any that overlaps one already taken.
/// Returns the edits and how many fixes were taken.
pub fn select_fixes<'a>(
    candidates: impl IntoIterator<Item = &'a [Fix]>,
    unsafe_ok: bool,
) -> (Vec<Edit>, usize) {
    let mut taken: Vec<Edit> = Vec::new();
    let mut count = 0;
    for fixes in candidates {
        let Some(fix) = fixes
            .iter()
            .find(|f| f.applicability == Applicability::Safe || unsafe_ok)
        else {
            continue;
        };
        let overlaps = fix.edits.iter().any(|e| {
            taken.iter().any(|t| {
                e.span.start < t.span.end.max(t.span.start + 1)
                    && t.span.start < e.span.end.max(e.span.start + 1)
            })
        });
        if overlaps {
            continue;
        }
        taken.extend(fix.edits.iter().cloned());
        count += 1;
    }
    (taken, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applies_edits_in_order() {
        let edits = vec![
            Edit {
                span: 4..9,
                text: "(\"cpu\",)".into(),
            },
            Edit {
                span: 0..0,
                text: "# x\n".into(),
            },
        ];
        assert_eq!(apply_edits("p = \"cpu\"", &edits), "# x\np = (\"cpu\",)");
    }

    #[test]
    fn overlapping_fixes_are_not_taken_together() {
        let a = vec![Fix {
            title: "a".into(),
            edits: vec![Edit {
                span: 0..3,
                text: "x".into(),
            }],
            applicability: Applicability::Safe,
        }];
        let b = vec![Fix {
            title: "b".into(),
            edits: vec![Edit {
                span: 2..4,
                text: "y".into(),
            }],
            applicability: Applicability::Safe,
        }];
        let c = vec![Fix {
            title: "c".into(),
            edits: vec![Edit {
                span: 5..6,
                text: "z".into(),
            }],
            applicability: Applicability::Unsafe,
        }];
        let (edits, count) = select_fixes([a.as_slice(), b.as_slice(), c.as_slice()], false);
        assert_eq!(count, 1);
        assert_eq!(edits.len(), 1);
        let (_, count) = select_fixes([a.as_slice(), b.as_slice(), c.as_slice()], true);
        assert_eq!(count, 2);
    }
}

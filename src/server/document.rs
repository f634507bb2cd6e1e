//! An open document: text, line index, sections and version, and the edit
//! path that keeps them in step (text splice, then the sections around the
//! edit parsed again: `syntax::sections`).

use crate::syntax::sections::{self, Section};
use crate::syntax::{Encoding, LineCol, LineIndex, TextEdit, Tree};
use std::borrow::Cow;
use std::sync::Arc;
use tower_lsp::lsp_types::Position;

/// Files larger than this are not parsed or analyzed.
pub const MAX_ANALYZED_BYTES: usize = 5 * 1024 * 1024;
/// An edit that would reparse more than this (a large paste) drops the
/// sections instead: the next analysis parses the text afresh, in parallel,
/// off the thread that applies edits.
const MAX_EDIT_REPARSE_BYTES: usize = 256 * 1024;

#[derive(Clone)]
pub struct Document {
    pub text: String,
    /// Shared with the snapshots analyses read (rebuilt, not changed, by an edit).
    pub index: Arc<LineIndex>,
    /// The parse of `text`, or `None` until the first analysis parses it
    /// (and after a full replacement or a large paste). Shared with the
    /// snapshots analyses read; an edit copies it only while one holds it.
    pub sections: Option<Arc<Vec<Section>>>,
    pub version: i32,
    /// Bumped by every change to `text`.
    pub rev: u64,
}

/// What was wrong with a change (it was still applied, clamped).
#[derive(Debug, PartialEq, Eq)]
pub struct ClampNote(pub String);

impl Document {
    pub fn new(text: String, version: i32) -> Document {
        let index = Arc::new(LineIndex::new(&text));
        Document {
            text,
            index,
            sections: None,
            version,
            rev: 0,
        }
    }

    /// Takes `sections`, parsed from revision `rev` of the text, if that is
    /// the current text and it has none. Returns whether it was taken.
    pub fn adopt(&mut self, sections: Arc<Vec<Section>>, rev: u64) -> bool {
        if rev != self.rev || self.sections.is_some() {
            return false;
        }
        self.sections = Some(sections);
        true
    }

    /// Parses the text now if it has no sections (tests and benchmarks; the
    /// server parses in its first analysis).
    pub fn parse_now(&mut self) {
        if self.sections.is_none() && !self.too_large() {
            self.sections = sections::parse_parallel(&self.text).map(Arc::new);
        }
    }

    /// The trees of the sections, in document order (empty before a parse).
    pub fn trees(&self) -> Vec<Cow<'_, Tree>> {
        self.sections
            .as_deref()
            .map_or_else(Vec::new, |s| sections::trees(s))
    }

    /// The tree of the section holding `offset`.
    pub fn tree_at(&self, offset: usize) -> Option<Cow<'_, Tree>> {
        let sections = self.sections.as_ref()?;
        let after = sections.partition_point(|s| s.range.start <= offset);
        sections.get(after.checked_sub(1)?).map(Section::tree)
    }

    pub fn too_large(&self) -> bool {
        self.text.len() > MAX_ANALYZED_BYTES
    }

    /// Byte offset of an LSP position, and whether it had to be clamped.
    pub fn offset(&self, pos: Position, enc: Encoding) -> (usize, bool) {
        let lc = LineCol {
            line: pos.line,
            col: pos.character,
        };
        let offset = self.index.offset(&self.text, lc, enc);
        let exact = self.index.line_col(&self.text, offset, enc) == lc;
        (offset, !exact)
    }

    /// Replaces the whole text (a change without a range).
    pub fn replace_all(&mut self, text: &str) {
        self.text.clear();
        self.text.push_str(text);
        self.index = Arc::new(LineIndex::new(&self.text));
        // A fresh parse: an edit covering everything saves nothing.
        self.sections = None;
        self.rev += 1;
    }

    /// Applies one ranged change. Positions outside the text are clamped
    /// (and reported), never a panic.
    pub fn apply_change(
        &mut self,
        start: Position,
        end: Position,
        new_text: &str,
        enc: Encoding,
    ) -> Option<ClampNote> {
        let (mut start_byte, start_clamped) = self.offset(start, enc);
        let (mut end_byte, end_clamped) = self.offset(end, enc);
        let mut notes = Vec::new();
        if start_clamped || end_clamped {
            notes.push(format!(
                "range {}:{}-{}:{} is outside the text or not on a character boundary; clamped",
                start.line, start.character, end.line, end.character
            ));
        }
        if end_byte < start_byte {
            notes.push("range end before its start; swapped".to_owned());
            std::mem::swap(&mut start_byte, &mut end_byte);
        }
        self.splice(start_byte, end_byte, new_text);
        (!notes.is_empty()).then(|| ClampNote(notes.join("; ")))
    }

    /// Replaces bytes `start..end` (char boundaries) with `new_text`, and
    /// parses again the sections the change touches.
    pub fn splice(&mut self, start: usize, end: usize, new_text: &str) {
        // Tree points count `\n` only (tree-sitter's rows): the start's needs
        // a scan of the text before it; the ends follow from the edited bytes.
        let start_position = point_after(LineCol { line: 0, col: 0 }, &self.text[..start]);
        let old_end_position = point_after(start_position, &self.text[start..end]);
        let new_end_position = point_after(start_position, new_text);
        let removed_non_ascii = crate::syntax::non_ascii(&self.text.as_bytes()[start..end]);
        self.text.replace_range(start..end, new_text);
        // Edited in place unless a snapshot still reads it.
        Arc::make_mut(&mut self.index).edit(
            &self.text,
            start,
            end,
            start + new_text.len(),
            removed_non_ascii,
        );
        self.rev += 1;
        let edit = TextEdit::new(
            start,
            end,
            start + new_text.len(),
            [start_position, old_end_position, new_end_position],
        );
        if self.too_large() || new_text.len() > MAX_EDIT_REPARSE_BYTES {
            self.sections = None;
        }
        if let Some(shared) = &mut self.sections {
            let parsed = sections::apply_edit(
                Arc::make_mut(shared),
                &self.text,
                &edit,
                MAX_EDIT_REPARSE_BYTES,
            );
            if parsed.is_none() {
                // Parse afresh (off this thread) rather than again and again.
                self.sections = None;
            }
        }
    }
}

/// The (row, byte column) reached from `from` by `text`, rows ending at `\n`.
fn point_after(from: LineCol, text: &str) -> LineCol {
    let bytes = text.as_bytes();
    match memchr::memrchr(b'\n', bytes) {
        Some(last) => LineCol {
            line: from.line + memchr::memchr_iter(b'\n', bytes).count() as u32,
            col: (bytes.len() - last - 1) as u32,
        },
        None => LineCol {
            line: from.line,
            col: from.col + bytes.len() as u32,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Settings;
    use proptest::prelude::*;
    use std::path::Path;

    const BASE: &str = "import jax\n\
import jax.numpy as jnp\n\
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P\n\
mesh = AbstractMesh((8,), (\"data\",))\n\
f = jax.jit(lambda x: x * 2, in_shardings=NamedSharding(mesh, P(\"data\")))\n\
s = \"# 日本 😀\"; lowered = f.trace(jax.ShapeDtypeStruct((64, 32), jnp.float32)).lower()\n";

    const PIECES: &[&str] = &[
        "",
        "x",
        "日本",
        "😀",
        "é",
        "\n",
        "\r\n",
        "\r",
        "(",
        ")",
        "\"",
        "'",
        "#",
        " ",
        "lowering_platforms=(\"cpu\",)",
        "def g():\n    ",
        ".lower()",
        "jax.jit(",
        "AbstractMesh",
        "\t",
        "\\",
        "\"\"\"",
    ];

    /// The LSP position of `offset`, computed apart from `LineIndex`: lines
    /// end at \n, \r\n or a lone \r.
    fn pos_of(text: &str, offset: usize, enc: Encoding) -> Position {
        let bytes = text.as_bytes();
        let mut line = 0;
        let mut line_start = 0;
        for (i, &b) in bytes[..offset].iter().enumerate() {
            if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
                line += 1;
                line_start = i + 1;
            }
        }
        let seg = &text[line_start..offset];
        let character = match enc {
            Encoding::Utf8 => seg.len(),
            Encoding::Utf16 => seg.encode_utf16().count(),
            Encoding::Utf32 => seg.chars().count(),
        } as u32;
        Position { line, character }
    }

    fn boundary(text: &str, frac: f64) -> usize {
        let bounds: Vec<usize> = text
            .char_indices()
            .map(|(i, _)| i)
            .chain(std::iter::once(text.len()))
            .collect();
        // Columns of positions are counted up to the line end without `\r`;
        // a boundary between `\r` and `\n` has no LSP position of its own.
        let bounds: Vec<usize> = bounds
            .into_iter()
            .filter(|&b| {
                !(b > 0
                    && text.as_bytes()[b - 1] == b'\r'
                    && text.as_bytes().get(b) == Some(&b'\n'))
            })
            .collect();
        bounds[((bounds.len() - 1) as f64 * frac) as usize]
    }

    fn findings_key(
        text: &str,
        doc_trees: &[Cow<'_, Tree>],
    ) -> Vec<(String, std::ops::Range<usize>, String)> {
        let text: Arc<str> = Arc::from(text);
        let trees: Vec<&Tree> = doc_trees.iter().map(AsRef::as_ref).collect();
        crate::incremental::Incremental::new()
            .analyze_trees(
                &text,
                &trees,
                Path::new("/proptest/t.py"),
                &Settings::default(),
                None,
            )
            .into_iter()
            .map(|f| (f.code.to_owned(), f.span, f.message))
            .collect()
    }

    fn shape(trees: &[Cow<'_, Tree>]) -> Vec<(std::ops::Range<usize>, String)> {
        trees
            .iter()
            .flat_map(|t| crate::syntax::top_level_statements(t))
            .map(|n| (n.byte_range(), n.to_sexp()))
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(96)))]
        #[test]
        fn incremental_edits_match_a_fresh_parse(
            edits in proptest::collection::vec((0.0f64..1.0, 0.0f64..1.0, proptest::collection::vec(0..PIECES.len(), 0..4)), 1..24),
            enc_pick in 0..3usize,
        ) {
            let enc = [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32][enc_pick];
            let mut doc = Document::new(BASE.to_owned(), 0);
            doc.parse_now();
            let mut expected = BASE.to_owned();
            for (a, b, pieces) in edits {
                let x = boundary(&expected, a);
                let y = boundary(&expected, b);
                let (start, end) = (x.min(y), x.max(y));
                let insert: String = pieces.iter().map(|&i| PIECES[i]).collect();
                let note = doc.apply_change(pos_of(&expected, start, enc), pos_of(&expected, end, enc), &insert, enc);
                prop_assert_eq!(note, None);
                expected.replace_range(start..end, &insert);
                prop_assert_eq!(&doc.text, &expected);
            }
            let fresh = sections::parse(&expected).unwrap();
            let fresh = sections::trees(&fresh);
            prop_assert_eq!(shape(&doc.trees()), shape(&fresh));
            prop_assert_eq!(findings_key(&doc.text, &doc.trees()), findings_key(&expected, &fresh));
        }
    }

    #[test]
    fn only_sections_of_the_current_text_are_adopted() {
        let enc = Encoding::Utf8;
        let mut doc = Document::new("x = 1\n".to_owned(), 0);
        let first = Arc::new(sections::parse(&doc.text).unwrap());
        let at = Position {
            line: 1,
            character: 0,
        };
        doc.apply_change(at, at, "y = 2\n", enc);
        assert!(!doc.adopt(first.clone(), 0), "parsed before an edit");
        let current = Arc::new(sections::parse(&doc.text).unwrap());
        assert!(doc.adopt(current.clone(), doc.rev));
        assert!(!doc.adopt(current, doc.rev), "it has its own already");
        doc.replace_all("w = 4\n");
        assert!(doc.sections.is_none(), "a replacement is parsed afresh");
    }

    #[test]
    fn the_base_text_has_a_finding_and_edits_can_remove_it() {
        let mut doc = Document::new(BASE.to_owned(), 0);
        doc.parse_now();
        assert_eq!(findings_key(&doc.text, &doc.trees()).len(), 1);
        let at = doc.text.find(".lower()").unwrap() + ".lower(".len();
        let pos = pos_of(&doc.text, at, Encoding::Utf16);
        doc.apply_change(pos, pos, "lowering_platforms=(\"cpu\",)", Encoding::Utf16);
        assert!(findings_key(&doc.text, &doc.trees()).is_empty());
    }

    #[test]
    fn out_of_range_changes_are_clamped_not_panics() {
        let mut doc = Document::new("ab\r\n日本😀\n".to_owned(), 0);
        doc.parse_now();
        let far = Position {
            line: 99,
            character: 3,
        };
        let note = doc.apply_change(far, far, "x", Encoding::Utf16);
        assert!(note.is_some());
        assert_eq!(doc.text, "ab\r\n日本😀\nx");
        // Inside a surrogate pair, past a line's end, reversed.
        let note = doc.apply_change(
            Position {
                line: 1,
                character: 3,
            },
            Position {
                line: 0,
                character: 40,
            },
            "",
            Encoding::Utf16,
        );
        assert!(note.is_some());
        assert_eq!(doc.text, "ab\nx");
        let fresh = sections::parse(&doc.text).unwrap();
        assert_eq!(shape(&doc.trees()), shape(&sections::trees(&fresh)));
        doc.replace_all("y = 1\n");
        doc.parse_now();
        assert_eq!(doc.text, "y = 1\n");
        assert!(doc.sections.is_some());
    }
}

//! An open document: text, line index, syntax tree and version, and the edit
//! path that keeps them in step (text splice + `Tree::edit`; the reparse with
//! the edited old tree happens later, off the async threads).

use crate::syntax::{self, Encoding, LineCol, LineIndex, TextEdit, Tree};
use std::collections::VecDeque;
use tower_lsp::lsp_types::Position;

/// Files larger than this are not parsed or analyzed.
pub const MAX_ANALYZED_BYTES: usize = 5 * 1024 * 1024;
/// Changes kept for trees parsed from earlier revisions (`Document::adopt`).
/// Analyses adopt their trees as they finish, so the log stays short.
const MAX_LOGGED_EDITS: usize = 256;

#[derive(Clone)]
pub struct Document {
    pub text: String,
    pub index: LineIndex,
    /// The last parsed tree, with every later edit applied by `Tree::edit`
    /// (`dirty()`) or not (then it matches `text`).
    pub tree: Option<Tree>,
    pub version: i32,
    /// Bumped by every change to `text`.
    pub rev: u64,
    /// The revision `tree` was parsed from.
    tree_rev: u64,
    /// The changes after `tree_rev`, each with the revision it made, so that
    /// a tree parsed from a later revision can be adopted and caught up.
    edit_log: VecDeque<(u64, TextEdit)>,
    /// Trees parsed from revisions before this cannot catch up (the text was
    /// replaced whole then, or the log dropped a change).
    log_floor: u64,
}

/// What was wrong with a change (it was still applied, clamped).
#[derive(Debug, PartialEq, Eq)]
pub struct ClampNote(pub String);

impl Document {
    pub fn new(text: String, version: i32) -> Document {
        let index = LineIndex::new(&text);
        Document {
            text,
            index,
            tree: None,
            version,
            rev: 0,
            tree_rev: 0,
            edit_log: VecDeque::new(),
            log_floor: 0,
        }
    }

    /// Takes `tree`, parsed from revision `rev` of the text, replaying the
    /// changes made since, unless the document's own tree is as recent.
    /// Returns whether it was taken.
    pub fn adopt(&mut self, mut tree: Tree, rev: u64) -> bool {
        if rev < self.log_floor || rev > self.rev {
            return false;
        }
        if self.tree.is_some() && rev <= self.tree_rev {
            return false;
        }
        for (_, edit) in self.edit_log.iter().filter(|(r, _)| *r > rev) {
            edit.apply(&mut tree);
        }
        self.edit_log.retain(|(r, _)| *r > rev);
        self.tree = Some(tree);
        self.tree_rev = rev;
        true
    }

    /// `tree` does not match `text` yet (or there is none): reparse before use.
    pub fn dirty(&self) -> bool {
        self.tree.is_none() || self.tree_rev != self.rev
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
        self.index = LineIndex::new(&self.text);
        // A fresh parse: an edit covering everything saves nothing.
        self.tree = None;
        self.rev += 1;
        self.edit_log.clear();
        self.log_floor = self.rev;
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

    /// Replaces bytes `start..end` (char boundaries) with `new_text`.
    pub fn splice(&mut self, start: usize, end: usize, new_text: &str) {
        let start_position = self.point(start);
        let old_end_position = self.point(end);
        self.text.replace_range(start..end, new_text);
        self.index = LineIndex::new(&self.text);
        let new_end_byte = start + new_text.len();
        let new_end_position = self.point(new_end_byte);
        let edit = TextEdit::new(
            start,
            end,
            new_end_byte,
            [start_position, old_end_position, new_end_position],
        );
        if let Some(tree) = &mut self.tree {
            edit.apply(tree);
        }
        self.rev += 1;
        self.edit_log.push_back((self.rev, edit));
        if self.edit_log.len() > MAX_LOGGED_EDITS {
            if let Some((dropped, _)) = self.edit_log.pop_front() {
                self.log_floor = dropped;
            }
        }
    }

    /// (line, utf-8 column) of a byte offset in the current text.
    fn point(&self, offset: usize) -> LineCol {
        self.index.line_col(&self.text, offset, Encoding::Utf8)
    }

    /// Reparses if needed (incrementally, from the edited old tree).
    pub fn reparse(&mut self) {
        if self.dirty() {
            self.tree = reparse(&self.text, self.tree.as_ref(), true);
            self.tree_rev = self.rev;
            self.edit_log.clear();
        }
    }
}

/// Parses `text`, reusing `old` (already edited) when given.
pub fn reparse(text: &str, old: Option<&Tree>, dirty: bool) -> Option<Tree> {
    if text.len() > MAX_ANALYZED_BYTES {
        return None;
    }
    match old {
        Some(tree) if !dirty => Some(tree.clone()),
        old => syntax::parse(text, old),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis;
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

    fn pos_of(text: &str, offset: usize, enc: Encoding) -> Position {
        let before = &text[..offset];
        let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
        let line = before.matches('\n').count() as u32;
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

    fn findings_key(text: &str, tree: &Tree) -> Vec<(String, std::ops::Range<usize>, String)> {
        analysis::analyze_tree(
            text,
            tree,
            Path::new("/proptest/t.py"),
            &Settings::default(),
            None,
        )
        .into_iter()
        .map(|f| (f.code.to_owned(), f.span, f.message))
        .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]
        #[test]
        fn incremental_edits_match_a_fresh_parse(
            edits in proptest::collection::vec((0.0f64..1.0, 0.0f64..1.0, proptest::collection::vec(0..PIECES.len(), 0..4), any::<bool>()), 1..24),
            enc_pick in 0..3usize,
        ) {
            let enc = [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32][enc_pick];
            let mut doc = Document::new(BASE.to_owned(), 0);
            doc.reparse();
            let mut expected = BASE.to_owned();
            for (a, b, pieces, reparse_now) in edits {
                let x = boundary(&expected, a);
                let y = boundary(&expected, b);
                let (start, end) = (x.min(y), x.max(y));
                let insert: String = pieces.iter().map(|&i| PIECES[i]).collect();
                let note = doc.apply_change(pos_of(&expected, start, enc), pos_of(&expected, end, enc), &insert, enc);
                prop_assert_eq!(note, None);
                expected.replace_range(start..end, &insert);
                prop_assert_eq!(&doc.text, &expected);
                if reparse_now {
                    doc.reparse();
                }
            }
            doc.reparse();
            let fresh = syntax::parse(&expected, None).unwrap();
            let incremental = doc.tree.as_ref().unwrap();
            prop_assert_eq!(incremental.root_node().to_sexp(), fresh.root_node().to_sexp());
            prop_assert_eq!(findings_key(&doc.text, incremental), findings_key(&expected, &fresh));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]
        /// A tree parsed from an earlier text (a first analysis that was
        /// still joining its pieces while the user typed) is adopted and
        /// brought up to date with the changes made since.
        #[test]
        fn adopted_trees_catch_up_with_later_edits(
            edits in proptest::collection::vec((0.0f64..1.0, 0.0f64..1.0, proptest::collection::vec(0..PIECES.len(), 0..4)), 1..16),
            parsed_at in 0usize..16,
        ) {
            let enc = Encoding::Utf16;
            let mut doc = Document::new(BASE.to_owned(), 0);
            let mut expected = BASE.to_owned();
            let mut snapshot = (expected.clone(), doc.rev);
            for (i, (a, b, pieces)) in edits.iter().enumerate() {
                if i == parsed_at {
                    snapshot = (expected.clone(), doc.rev);
                }
                let x = boundary(&expected, *a);
                let y = boundary(&expected, *b);
                let (start, end) = (x.min(y), x.max(y));
                let insert: String = pieces.iter().map(|&i| PIECES[i]).collect();
                doc.apply_change(pos_of(&expected, start, enc), pos_of(&expected, end, enc), &insert, enc);
                expected.replace_range(start..end, &insert);
            }
            let (old_text, old_rev) = snapshot;
            let tree = syntax::parse(&old_text, None).unwrap();
            prop_assert!(doc.adopt(tree, old_rev));
            prop_assert_eq!(doc.dirty(), old_rev != doc.rev);
            doc.reparse();
            let fresh = syntax::parse(&expected, None).unwrap();
            prop_assert_eq!(doc.tree.as_ref().unwrap().root_node().to_sexp(), fresh.root_node().to_sexp());
        }
    }

    #[test]
    fn trees_older_than_the_documents_own_or_a_replacement_are_refused() {
        let enc = Encoding::Utf8;
        let mut doc = Document::new("x = 1\n".to_owned(), 0);
        let first = syntax::parse(&doc.text, None).unwrap();
        let at = Position {
            line: 1,
            character: 0,
        };
        doc.apply_change(at, at, "y = 2\n", enc);
        assert!(
            !doc.adopt(first.clone(), 5),
            "a revision the text never had"
        );
        doc.reparse();
        assert!(
            !doc.adopt(first.clone(), 0),
            "older than the document's tree"
        );
        doc.apply_change(at, at, "z = 3\n", enc);
        let second = syntax::parse("x = 1\ny = 2\n", None).unwrap();
        assert!(!doc.adopt(second, 1), "as old as the document's tree");
        doc.replace_all("w = 4\n");
        let before_replacement = syntax::parse("x = 1\nz = 3\ny = 2\n", None).unwrap();
        assert!(
            !doc.adopt(before_replacement, 2),
            "from before a full replacement"
        );
        let current = syntax::parse(&doc.text, None).unwrap();
        assert!(doc.adopt(current, doc.rev));
        assert!(!doc.dirty());
    }

    #[test]
    fn the_base_text_has_a_finding_and_edits_can_remove_it() {
        let mut doc = Document::new(BASE.to_owned(), 0);
        doc.reparse();
        assert_eq!(findings_key(&doc.text, doc.tree.as_ref().unwrap()).len(), 1);
        let at = doc.text.find(".lower()").unwrap() + ".lower(".len();
        let pos = pos_of(&doc.text, at, Encoding::Utf16);
        doc.apply_change(pos, pos, "lowering_platforms=(\"cpu\",)", Encoding::Utf16);
        doc.reparse();
        assert!(findings_key(&doc.text, doc.tree.as_ref().unwrap()).is_empty());
    }

    #[test]
    fn out_of_range_changes_are_clamped_not_panics() {
        let mut doc = Document::new("ab\r\n日本😀\n".to_owned(), 0);
        doc.reparse();
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
        doc.reparse();
        assert_eq!(
            doc.tree.as_ref().unwrap().root_node().to_sexp(),
            syntax::parse(&doc.text, None)
                .unwrap()
                .root_node()
                .to_sexp()
        );
        doc.replace_all("y = 1\n");
        doc.reparse();
        assert_eq!(doc.text, "y = 1\n");
        assert!(doc.tree.is_some());
    }
}

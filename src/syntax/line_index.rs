//! Byte offsets <-> (line, column) in any of the encodings LSP negotiates.
//!
//! Every conversion in the project goes through this one type so that the CLI
//! (character columns), and the server (utf-8/16/32) agree on where a range is.

/// How columns are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Bytes of UTF-8.
    Utf8,
    /// UTF-16 code units (LSP's default).
    Utf16,
    /// Unicode scalar values ("characters"; ruff's columns, LSP's utf-32).
    Utf32,
}

/// A zero-based line and column, the column counted in some [`Encoding`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

/// Start offsets of every line of a text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineIndex {
    line_starts: Vec<usize>,
    len: usize,
    /// Bytes of the text that are not ASCII: with none, every encoding
    /// counts bytes (kept so that an edit need not read the whole text).
    non_ascii: usize,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        // Lines end at \n, \r\n or a lone \r, as LSP (and Python) define them.
        for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            if bytes[i] == b'\n' || bytes.get(i + 1) != Some(&b'\n') {
                line_starts.push(i + 1);
            }
        }
        let non_ascii = non_ascii(bytes);
        LineIndex {
            line_starts,
            len: text.len(),
            non_ascii,
        }
    }

    /// Brings the index up to date with `text`, where bytes `start..old_end`
    /// of the indexed text (`removed_non_ascii` of them not ASCII) were
    /// replaced by `text[start..new_end]`. The same as `LineIndex::new(text)`,
    /// but only the edited bytes are scanned: rebuilding the index of a
    /// 10,000-line module was a ninth of a keystroke's instructions.
    pub fn edit(
        &mut self,
        text: &str,
        start: usize,
        old_end: usize,
        new_end: usize,
        removed_non_ascii: usize,
    ) {
        let bytes = text.as_bytes();
        let delta = new_end as isize - old_end as isize;
        // Starts before `start` depend on bytes before it; starts after
        // `old_end` on bytes after it (they move by `delta`). Those in
        // `start..=old_end` are found again from the new bytes, with the
        // byte before (a \r) and after (a \n) the edit.
        let keep = self.line_starts.partition_point(|&s| s < start);
        let after = self.line_starts.partition_point(|&s| s <= old_end);
        let mut found = Vec::new();
        if keep == 0 {
            found.push(0);
        }
        let from = start.saturating_sub(1);
        let to = new_end.min(bytes.len());
        if from < to {
            for i in memchr::memchr2_iter(b'\n', b'\r', &bytes[from..to]) {
                let i = from + i;
                if (bytes[i] == b'\n' || bytes.get(i + 1) != Some(&b'\n')) && i + 1 >= start {
                    found.push(i + 1);
                }
            }
        }
        let found_len = found.len();
        self.line_starts.splice(keep..after, found);
        for s in &mut self.line_starts[keep + found_len..] {
            *s = (*s as isize + delta) as usize;
        }
        self.len = text.len();
        self.non_ascii = (self.non_ascii + non_ascii(&bytes[start.min(to)..to]))
            .saturating_sub(removed_non_ascii);
    }

    /// The zero-based line holding byte `offset` (clamped to the text).
    pub fn line_of(&self, offset: usize) -> usize {
        let offset = offset.min(self.len);
        match self.line_starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// Byte range of a line's content, without its line end.
    pub fn line_range(&self, text: &str, line: usize) -> std::ops::Range<usize> {
        let start = self.line_starts.get(line).copied().unwrap_or(self.len);
        let end = match self.line_starts.get(line + 1) {
            // The line end is \n, \r\n or \r: the byte before the next
            // line is \n or \r; a \n may have a \r before it.
            Some(&next) => {
                let bytes = text.as_bytes();
                let mut end = next - 1;
                if bytes.get(end) == Some(&b'\n') && end > start && bytes[end - 1] == b'\r' {
                    end -= 1;
                }
                end
            }
            None => self.len,
        };
        start..end.max(start)
    }

    /// Byte offset -> line/column in `enc`. Offsets inside a multi-byte
    /// character are moved back to its start; offsets past the end are clamped.
    pub fn line_col(&self, text: &str, offset: usize, enc: Encoding) -> LineCol {
        let mut offset = offset.min(self.len);
        while offset > 0 && !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_of(offset);
        let start = self.line_starts[line];
        let col = if self.non_ascii == 0 || enc == Encoding::Utf8 {
            offset - start
        } else {
            column_width(&text[start..offset], enc)
        };
        LineCol {
            line: line as u32,
            col: col as u32,
        }
    }

    /// Line/column in `enc` -> byte offset. Positions past a line's end are
    /// clamped to the end of that line, lines past the end to the end of the text
    /// (LSP says clients may send such positions; they must never panic us).
    pub fn offset(&self, text: &str, pos: LineCol, enc: Encoding) -> usize {
        let line = pos.line as usize;
        if line >= self.line_starts.len() {
            return self.len;
        }
        let range = self.line_range(text, line);
        let content = &text[range.clone()];
        let want = pos.col as usize;
        if self.non_ascii == 0 || enc == Encoding::Utf8 {
            let mut off = range.start + want.min(content.len());
            while off > range.start && !text.is_char_boundary(off) {
                off -= 1;
            }
            return off;
        }
        let mut units = 0usize;
        for (i, ch) in content.char_indices() {
            if units >= want {
                return range.start + i;
            }
            units += char_width(ch, enc);
        }
        range.end
    }
}

/// How many bytes of `bytes` are not ASCII.
pub fn non_ascii(bytes: &[u8]) -> usize {
    // An ASCII text (the usual case) is told a word at a time.
    if bytes.is_ascii() {
        return 0;
    }
    bytes.iter().filter(|b| !b.is_ascii()).count()
}

fn char_width(ch: char, enc: Encoding) -> usize {
    match enc {
        Encoding::Utf8 => ch.len_utf8(),
        Encoding::Utf16 => ch.len_utf16(),
        Encoding::Utf32 => 1,
    }
}

fn column_width(s: &str, enc: Encoding) -> usize {
    match enc {
        Encoding::Utf8 => s.len(),
        Encoding::Utf16 => s.chars().map(char::len_utf16).sum(),
        Encoding::Utf32 => s.chars().count(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn an_edited_index_is_a_fresh_one(
            start in "[a\r\né]{0,12}",
            edits in proptest::collection::vec((0.0f64..1.0, 0.0f64..1.0, "[b\r\n😀]{0,4}"), 1..8),
        ) {
            let mut text = start;
            let mut index = LineIndex::new(&text);
            for (a, b, insert) in edits {
                let pick = |f: f64| {
                    let mut at = (text.len() as f64 * f) as usize;
                    while !text.is_char_boundary(at) {
                        at -= 1;
                    }
                    at
                };
                let (x, y) = (pick(a), pick(b));
                let (from, to) = (x.min(y), x.max(y));
                let removed = non_ascii(&text.as_bytes()[from..to]);
                text.replace_range(from..to, &insert);
                index.edit(&text, from, to, from + insert.len(), removed);
                prop_assert_eq!(&index, &LineIndex::new(&text), "{:?}", text);
            }
        }
    }

    #[test]
    fn round_trips_in_every_encoding() {
        let text = "a = 1\r\n# 日本 😀 x\n\tb = \"é\"\n";
        let index = LineIndex::new(text);
        for enc in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
            for (offset, ch) in text.char_indices() {
                // The \n of a CRLF is not addressable: a column never points
                // between \r and \n (it clamps to the line's end).
                if ch == '\n' && text[..offset].ends_with('\r') {
                    continue;
                }
                let lc = index.line_col(text, offset, enc);
                assert_eq!(index.offset(text, lc, enc), offset, "{enc:?} at {offset}");
            }
        }
    }

    #[test]
    fn counts_surrogate_pairs_and_cjk() {
        let text = "# 日本 😀 x\n";
        let index = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(index.line_col(text, x, Encoding::Utf16).col, 8);
        assert_eq!(index.line_col(text, x, Encoding::Utf32).col, 7);
        assert_eq!(index.line_col(text, x, Encoding::Utf8).col, 14);
    }

    #[test]
    fn clamps_out_of_range_positions() {
        let text = "ab\r\ncd";
        let index = LineIndex::new(text);
        assert_eq!(
            index.offset(text, LineCol { line: 0, col: 99 }, Encoding::Utf16),
            2
        );
        assert_eq!(
            index.offset(text, LineCol { line: 9, col: 0 }, Encoding::Utf16),
            6
        );
        assert_eq!(
            index.line_col(text, 99, Encoding::Utf8),
            LineCol { line: 1, col: 2 }
        );
        // Inside a multi-byte character: moved back to its start, not a panic.
        let text = "é";
        let index = LineIndex::new(text);
        assert_eq!(index.line_col(text, 1, Encoding::Utf16).col, 0);
    }

    #[test]
    fn lone_carriage_returns_end_lines_too() {
        let text = "a\rb\r\nc\nd\r\re";
        let index = LineIndex::new(text);
        let lines: Vec<&str> = (0..6).map(|l| &text[index.line_range(text, l)]).collect();
        assert_eq!(lines, vec!["a", "b", "c", "d", "", "e"]);
        for enc in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
            let e = text.find('e').unwrap();
            assert_eq!(index.line_col(text, e, enc), LineCol { line: 5, col: 0 });
            assert_eq!(
                index.offset(text, LineCol { line: 1, col: 9 }, enc),
                3,
                "clamped to b's end"
            );
            assert_eq!(index.offset(text, LineCol { line: 2, col: 0 }, enc), 5);
        }
        // A text ending in a lone \r has an empty last line.
        let index = LineIndex::new("x\r");
        assert_eq!(index.line_of(2), 1);
    }
}

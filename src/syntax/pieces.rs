//! Parsing a large module in pieces, in parallel, for its first analysis.
//!
//! tree-sitter parses on one thread, and a 12,000-line module takes it about
//! 50 ms. Opening such a module is latency the user waits for, so the text is
//! cut before top-level `def`/`class`/decorator lines into one piece per core
//! and each piece is parsed on its own (`Parser::set_included_ranges`: byte
//! offsets stay those of the whole text). When every piece parses without an
//! error, each piece's top-level statements are exactly the whole parse's
//! (`tests` below and `tests/incremental.rs` check it on every fixture, split
//! at every candidate line), and the analysis reads statements from several
//! trees. The one tree of the document that later edits reparse is then
//! joined by a reparse of the whole text that reuses one piece's tree.
//!
//! A cut may land inside a string or brackets (`def` at the start of a line of
//! a docstring): that piece then ends in an error, and the caller falls back
//! to one tree, still reusing the clean pieces' work.

use super::{parse, parse_unless, with_parser_in, Tree};
use std::cell::RefCell;
use tree_sitter::{Parser, Point, Range};

/// Below this size one parse is fast enough (under ~10 ms).
pub const MIN_SPLIT_BYTES: usize = 64 * 1024;
/// The smallest piece worth a thread of its own.
const MIN_PIECE_BYTES: usize = 32 * 1024;

thread_local! {
    // Separate from `super::PARSER`, which must keep parsing whole texts.
    static PIECE_PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// A first parse: one tree, or several clean pieces in document order.
pub enum FirstParse {
    Whole(Tree),
    Pieces(Vec<Tree>),
}

impl FirstParse {
    pub fn trees(&self) -> &[Tree] {
        match self {
            FirstParse::Whole(tree) => std::slice::from_ref(tree),
            FirstParse::Pieces(pieces) => pieces,
        }
    }
}

/// Parses `text` with no old tree, in up to `threads` pieces when it is large.
/// `None` only where `parse` gives up.
pub fn parse_first(text: &str, threads: usize) -> Option<FirstParse> {
    let parts = threads.min(text.len() / MIN_PIECE_BYTES);
    if text.len() < MIN_SPLIT_BYTES || parts < 2 {
        return parse(text, None).map(FirstParse::Whole);
    }
    let cuts = cut_points(text, parts);
    if cuts.is_empty() {
        return parse(text, None).map(FirstParse::Whole);
    }
    let pieces = parse_pieces(text, &cuts)?;
    if pieces.iter().all(|p| !p.root_node().has_error()) {
        Some(FirstParse::Pieces(pieces))
    } else {
        join(text, &pieces, &|| false).map(FirstParse::Whole)
    }
}

/// Where to cut `text` into about `parts` pieces of equal size: the start of
/// the first candidate line at or after each ideal offset. A candidate starts
/// with `def `, `async def `, `class ` or `@` at column 0, does not follow a
/// decorator line (that would split a decorated definition) and does not
/// follow a line ending in a backslash (a continuation would join them).
/// Strictly increasing, never 0 or `text.len()`.
pub fn cut_points(text: &str, parts: usize) -> Vec<usize> {
    let mut cuts: Vec<usize> = Vec::new();
    for i in 1..parts {
        let ideal = text.len() * i / parts;
        let from = cuts.last().map_or(ideal, |&last| ideal.max(last + 1));
        match next_candidate(text, from) {
            Some(cut) if cut < text.len() => cuts.push(cut),
            _ => break,
        }
    }
    cuts
}

/// Every candidate line start in `text` (for tests that try each one).
pub fn candidates(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(cut) = next_candidate(text, from) {
        out.push(cut);
        from = cut + 1;
    }
    out
}

fn next_candidate(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = from;
    loop {
        let newline = memchr::memchr(b'\n', bytes.get(at..)?)?;
        let start = at + newline + 1;
        at = start;
        let line = &bytes[start..];
        let starts_definition = line.starts_with(b"def ")
            || line.starts_with(b"async def ")
            || line.starts_with(b"class ")
            || line.starts_with(b"@");
        if !starts_definition {
            continue;
        }
        let previous = previous_line(bytes, start);
        let previous = previous.strip_suffix(b"\r").unwrap_or(previous);
        if previous.starts_with(b"@") || previous.ends_with(b"\\") {
            continue;
        }
        return Some(start);
    }
}

/// The line before the one starting at `start` (without its newline).
fn previous_line(bytes: &[u8], start: usize) -> &[u8] {
    let end = start.saturating_sub(1);
    let begin = memchr::memrchr(b'\n', &bytes[..end]).map_or(0, |i| i + 1);
    &bytes[begin..end]
}

/// Parses the pieces between `cuts` in parallel, in document order.
pub fn parse_pieces(text: &str, cuts: &[usize]) -> Option<Vec<Tree>> {
    use rayon::prelude::*;
    let mut bounds = Vec::with_capacity(cuts.len() + 2);
    bounds.push(0);
    bounds.extend_from_slice(cuts);
    bounds.push(text.len());
    let ranges: Vec<Range> = bounds
        .windows(2)
        .map(|w| Range {
            start_byte: w[0],
            end_byte: w[1],
            start_point: point_at(text, w[0]),
            end_point: point_at(text, w[1]),
        })
        .collect();
    ranges
        .into_par_iter()
        .map(|range| parse_range(text, range))
        .collect()
}

fn parse_range(text: &str, range: Range) -> Option<Tree> {
    with_parser_in(&PIECE_PARSER, |parser| {
        parser.set_included_ranges(&[range]).ok()?;
        parser.parse(text, None)
    })
}

/// The (row, byte column) of `offset`.
fn point_at(text: &str, offset: usize) -> Point {
    let before = &text.as_bytes()[..offset];
    let row = memchr::memchr_iter(b'\n', before).count();
    let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    Point {
        row,
        column: offset - line_start,
    }
}

/// The whole text's tree, reusing the largest clean piece: tree-sitter
/// reparses only what that piece's included range did not cover. `None` if
/// `cancelled()` says so first.
pub fn join(text: &str, pieces: &[Tree], cancelled: &dyn Fn() -> bool) -> Option<Tree> {
    let reused = pieces
        .iter()
        .filter(|p| !p.root_node().has_error())
        .max_by_key(|p| {
            let r = p.root_node().byte_range();
            r.end - r.start
        });
    parse_unless(text, reused, cancelled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::top_level_statements;

    fn shape(trees: &[Tree]) -> Vec<(std::ops::Range<usize>, String)> {
        trees
            .iter()
            .flat_map(top_level_statements)
            .map(|n| (n.byte_range(), n.to_sexp()))
            .collect()
    }

    const MODULE: &str = "import jax\n\n@jax.jit\ndef f(x):\n    return x\n# a comment\n\nclass C:\n    def m(self):\n        pass\n\nasync def g():\n    pass\nx = 1 \\\n    + 2\ndef h():\n    '''\ndef not_a_cut():\n    '''\n";

    #[test]
    fn candidates_skip_decorated_defs_and_continuations() {
        let lines: Vec<&str> = candidates(MODULE)
            .into_iter()
            .map(|c| MODULE[c..].lines().next().unwrap_or(""))
            .collect();
        assert_eq!(
            lines,
            vec![
                "@jax.jit",
                "class C:",
                "async def g():",
                "def h():",
                "def not_a_cut():"
            ]
        );
    }

    #[test]
    fn clean_pieces_hold_the_whole_parse_statements() {
        let whole = parse(MODULE, None).unwrap();
        let mut clean = 0;
        for cut in candidates(MODULE) {
            let pieces = parse_pieces(MODULE, &[cut]).unwrap();
            if pieces.iter().any(|p| p.root_node().has_error()) {
                // Only the cut inside the docstring is refused.
                assert!(MODULE[cut..].starts_with("def not_a_cut"));
            } else {
                clean += 1;
                assert_eq!(shape(&pieces), shape(std::slice::from_ref(&whole)));
            }
            let joined = join(MODULE, &pieces, &|| false).unwrap();
            assert_eq!(joined.root_node().to_sexp(), whole.root_node().to_sexp());
        }
        assert_eq!(clean, 4);
    }

    #[test]
    fn a_cancelled_join_gives_up_and_leaves_the_parser_usable() {
        let block = "def f(x):\n    return x + 1\n\n";
        let large = block.repeat(MIN_SPLIT_BYTES / block.len() * 3);
        let cuts = cut_points(&large, 2);
        let pieces = parse_pieces(&large, &cuts).unwrap();
        let asked = std::cell::Cell::new(0);
        let cancelled = || {
            asked.set(asked.get() + 1);
            true
        };
        assert!(join(&large, &pieces, &cancelled).is_none());
        assert_eq!(asked.get(), 1, "asked once, then given up");
        // The next parse on this thread starts afresh (a cancelled one would
        // otherwise resume).
        let small = "x = 1\n";
        let tree = parse(small, None).unwrap();
        assert_eq!(
            tree.root_node().to_sexp(),
            "(module (expression_statement (assignment left: (identifier) right: (integer))))"
        );
        let joined = join(&large, &pieces, &|| false).unwrap();
        assert_eq!(
            joined.root_node().to_sexp(),
            parse(&large, None).unwrap().root_node().to_sexp()
        );
    }

    #[test]
    fn large_texts_parse_in_pieces_small_ones_whole() {
        let block = "def f(x):\n    return x + 1\n\n";
        let large = block.repeat(MIN_SPLIT_BYTES / block.len() * 3);
        match parse_first(&large, 4) {
            Some(FirstParse::Pieces(pieces)) => {
                assert_eq!(pieces.len(), 4);
                let whole = parse(&large, None).unwrap();
                assert_eq!(shape(&pieces), shape(std::slice::from_ref(&whole)));
            }
            _ => panic!("a large text with definitions is parsed in pieces"),
        }
        assert!(matches!(parse_first(&large, 1), Some(FirstParse::Whole(_))));
        assert!(matches!(parse_first(block, 4), Some(FirstParse::Whole(_))));
        // An unclosed bracket before a cut: the piece has an error, so the
        // result is one tree, the same as a whole parse.
        let broken = format!("x = [\n{large}");
        match parse_first(&broken, 4) {
            Some(FirstParse::Whole(tree)) => assert_eq!(
                tree.root_node().to_sexp(),
                parse(&broken, None).unwrap().root_node().to_sexp()
            ),
            _ => panic!("a piece with an error falls back to one tree"),
        }
    }
}

//! Runs the fact queries of `queries/*.scm` with one cursor walk.
//!
//! tree-sitter's `QueryCursor` costs about three times a plain `TreeCursor`
//! walk over the same nodes (28 ms against 10 ms on the server bench's
//! 12,000-line module), and the fact pass is most of a module's first
//! analysis. The queries only use a small subset of the query language:
//! patterns of node kinds (or `_`, any named node but an ERROR), fields,
//! nested patterns and captures. This module compiles that subset from the same source text
//! and matches it during a single walk. Anything outside the subset
//! (predicates, quantifiers, alternations, anonymous nodes, negated fields,
//! supertypes) is refused when compiling, and a test compares every match with
//! tree-sitter's on every fixture (`tests::matches_equal_tree_sitters`).
//!
//! Semantics kept from tree-sitter: a child pattern with a field matches a
//! child in that field, one without matches any named child; the child
//! patterns of one node match children in their order; each combination of
//! matching children is one match.

use super::queries::Capture;
use tree_sitter::{Language, Node, TreeCursor};

/// A compiled pattern: a node kind (`None`: any named node), a capture, and
/// child patterns in order.
#[derive(Debug)]
struct Step {
    kind: Option<u16>,
    capture: Option<Capture>,
    children: Vec<(Option<u16>, Step)>,
}

#[derive(Debug)]
pub struct Matcher {
    patterns: Vec<Step>,
    /// Patterns by the kind id of their root node.
    by_kind: Vec<Vec<usize>>,
}

/// One match: each capture and its node, in pattern order.
pub type Match<'t> = [(Capture, Node<'t>)];

impl Matcher {
    /// Compiles `source` (the concatenated query files).
    pub fn new(language: &Language, source: &str) -> Result<Matcher, String> {
        let tokens = tokenize(source)?;
        let mut at = 0;
        let mut patterns = Vec::new();
        while at < tokens.len() {
            patterns.push(parse_step(language, &tokens, &mut at)?);
        }
        let mut by_kind = vec![Vec::new(); language.node_kind_count()];
        for (i, pattern) in patterns.iter().enumerate() {
            let kind = pattern
                .kind
                .ok_or("a pattern's root must name a node kind")?;
            by_kind[kind as usize].push(i);
        }
        Ok(Matcher { patterns, by_kind })
    }

    /// Calls `each` with every match in the subtree of `root` (`root`
    /// included), in pre-order of the matched root nodes.
    pub fn for_each_match<'t>(&self, root: Node<'t>, mut each: impl FnMut(&Match<'t>)) {
        let mut cursor = root.walk();
        let mut captures: Vec<(Capture, Node<'t>)> = Vec::new();
        let mut children = root.walk();
        loop {
            let node = cursor.node();
            if let Some(ids) = self.by_kind.get(node.kind_id() as usize) {
                for &id in ids {
                    captures.clear();
                    self.match_at(
                        &self.patterns[id],
                        node,
                        &mut captures,
                        &mut children,
                        &mut each,
                    );
                }
            }
            if cursor.goto_first_child() {
                continue;
            }
            loop {
                if cursor.node() == root {
                    return;
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return;
                }
            }
        }
    }

    /// Matches `step` at `node` (whose kind is already checked for a root),
    /// calling `each` for every way the child patterns can match.
    fn match_at<'t>(
        &self,
        step: &Step,
        node: Node<'t>,
        captures: &mut Vec<(Capture, Node<'t>)>,
        cursor: &mut TreeCursor<'t>,
        each: &mut impl FnMut(&Match<'t>),
    ) {
        let mark = captures.len();
        if let Some(capture) = step.capture {
            captures.push((capture, node));
        }
        if step.children.is_empty() {
            each(captures);
        } else {
            let children = children_of(node, cursor);
            self.match_children(&step.children, &children, 0, captures, cursor, &mut |c| {
                each(c)
            });
        }
        captures.truncate(mark);
    }

    /// Matches `specs` against `children` (a node's, with their fields) from
    /// index `from` on, each spec after the one before.
    fn match_children<'t>(
        &self,
        specs: &[(Option<u16>, Step)],
        children: &[(u16, Node<'t>)],
        from: usize,
        captures: &mut Vec<(Capture, Node<'t>)>,
        cursor: &mut TreeCursor<'t>,
        each: &mut dyn FnMut(&Match<'t>),
    ) {
        let Some(((field, step), rest)) = specs.split_first() else {
            each(captures);
            return;
        };
        for (index, &(child_field, child)) in children.iter().enumerate().skip(from) {
            let in_field = match field {
                Some(id) => child_field == *id,
                None => child.is_named(),
            };
            let kind_ok = match step.kind {
                Some(kind) => child.kind_id() == kind,
                // As in tree-sitter, `(_)` is any named node but an ERROR.
                None => child.is_named() && !child.is_error(),
            };
            if !(in_field && kind_ok) {
                continue;
            }
            let mark = captures.len();
            if let Some(capture) = step.capture {
                captures.push((capture, child));
            }
            if step.children.is_empty() {
                self.match_children(rest, children, index + 1, captures, cursor, each);
            } else {
                // The child's own child patterns, then the next specs after
                // this child, for each way the former match.
                let grandchildren = children_of(child, cursor);
                let base = captures.len();
                let mut ways: Vec<Vec<(Capture, Node<'t>)>> = Vec::new();
                self.match_children(
                    &step.children,
                    &grandchildren,
                    0,
                    captures,
                    cursor,
                    &mut |c| ways.push(c[base..].to_vec()),
                );
                for way in ways {
                    let inner = captures.len();
                    captures.extend(way);
                    self.match_children(rest, children, index + 1, captures, cursor, each);
                    captures.truncate(inner);
                }
            }
            captures.truncate(mark);
        }
    }
}

/// The children of `node` with their field ids (0: none), read in one pass.
fn children_of<'t>(node: Node<'t>, cursor: &mut TreeCursor<'t>) -> Vec<(u16, Node<'t>)> {
    let mut out = Vec::new();
    cursor.reset(node);
    if cursor.goto_first_child() {
        loop {
            out.push((cursor.field_id().map_or(0, |f| f.get()), cursor.node()));
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }
    out
}

#[derive(Debug, PartialEq)]
enum Token<'s> {
    Open,
    Close,
    Field(&'s str),
    Capture(&'s str),
    Name(&'s str),
}

fn tokenize(source: &str) -> Result<Vec<Token<'_>>, String> {
    let mut tokens = Vec::new();
    let bytes = source.as_bytes();
    let mut i = 0;
    let word_end = |mut j: usize| {
        while j < bytes.len()
            && (bytes[j].is_ascii_alphanumeric() || matches!(bytes[j], b'_' | b'.' | b'-'))
        {
            j += 1;
        }
        j
    };
    while i < bytes.len() {
        match bytes[i] {
            b';' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b if b.is_ascii_whitespace() => i += 1,
            b'(' => {
                tokens.push(Token::Open);
                i += 1;
            }
            b')' => {
                tokens.push(Token::Close);
                i += 1;
            }
            b'@' => {
                let end = word_end(i + 1);
                tokens.push(Token::Capture(&source[i + 1..end]));
                i = end;
            }
            b if b.is_ascii_alphabetic() || b == b'_' => {
                let end = word_end(i);
                if bytes.get(end) == Some(&b':') {
                    tokens.push(Token::Field(&source[i..end]));
                    i = end + 1;
                } else {
                    tokens.push(Token::Name(&source[i..end]));
                    i = end;
                }
            }
            other => {
                return Err(format!(
                    "unsupported query syntax at byte {i}: {:?}",
                    other as char
                ))
            }
        }
    }
    Ok(tokens)
}

/// `( kind child* ) @capture?` where child is `field: pattern` or `pattern`.
fn parse_step(language: &Language, tokens: &[Token<'_>], at: &mut usize) -> Result<Step, String> {
    if tokens.get(*at) != Some(&Token::Open) {
        return Err(format!("expected '(' at token {}", *at));
    }
    *at += 1;
    let kind = match tokens.get(*at) {
        Some(Token::Name("_")) => None,
        Some(Token::Name(name)) => {
            let id = language.id_for_node_kind(name, true);
            if id == 0 {
                return Err(format!("unknown node kind {name}"));
            }
            // A supertype (`expression`) stands for its subtypes in
            // tree-sitter; matching it needs the grammar's subtype lists.
            if language.node_kind_is_supertype(id) {
                return Err(format!("supertype {name} is not supported"));
            }
            Some(id)
        }
        other => return Err(format!("expected a node kind, found {other:?}")),
    };
    *at += 1;
    let mut children = Vec::new();
    loop {
        match tokens.get(*at) {
            Some(Token::Close) => {
                *at += 1;
                break;
            }
            Some(Token::Field(name)) => {
                let id = language
                    .field_id_for_name(name)
                    .ok_or_else(|| format!("unknown field {name}"))?;
                *at += 1;
                children.push((Some(id.get()), parse_step(language, tokens, at)?));
            }
            Some(Token::Open) => children.push((None, parse_step(language, tokens, at)?)),
            other => return Err(format!("unexpected {other:?} in a pattern")),
        }
    }
    let capture = match tokens.get(*at) {
        Some(Token::Capture(name)) => {
            *at += 1;
            Some(Capture::from_name(name).ok_or_else(|| format!("unknown capture @{name}"))?)
        }
        _ => None,
    };
    Ok(Step {
        kind,
        capture,
        children,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::queries::fact_query;
    use crate::syntax::{parse, top_level_statements};
    use tree_sitter::{QueryCursor, StreamingIterator};

    type Key = Vec<(&'static str, usize, usize)>;

    fn tree_sitters(root: Node<'_>, src: &str) -> Vec<Key> {
        let fq = fact_query();
        let mut cursor = QueryCursor::new();
        let mut matches = cursor.matches(&fq.query, root, src.as_bytes());
        let mut out = Vec::new();
        while let Some(m) = matches.next() {
            let mut key: Key = m
                .captures
                .iter()
                .map(|c| {
                    (
                        fq.captures[c.index as usize].name(),
                        c.node.start_byte(),
                        c.node.end_byte(),
                    )
                })
                .collect();
            key.sort();
            out.push(key);
        }
        out.sort();
        out
    }

    fn ours(root: Node<'_>) -> Vec<Key> {
        let mut out = Vec::new();
        fact_query().matcher.for_each_match(root, |m| {
            let mut key: Key = m
                .iter()
                .map(|(c, n)| (c.name(), n.start_byte(), n.end_byte()))
                .collect();
            key.sort();
            out.push(key);
        });
        out.sort();
        out
    }

    /// Every `.py` file under the fixtures and examples, and under
    /// `$JAX_LSP_EQUIVALENCE_DIR` when set (the sweep corpus).
    fn files() -> Vec<std::path::PathBuf> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![root.join("tests/fixtures"), root.join("examples")];
        if let Ok(extra) = std::env::var("JAX_LSP_EQUIVALENCE_DIR") {
            dirs.push(root.join(extra));
        }
        crate::check::collect_files(&dirs, &mut Vec::new())
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "py"))
            .collect()
    }

    #[test]
    fn matches_equal_tree_sitters() {
        let mut compared = 0;
        let extra = "\nx = [f(a) for a in b]\nreturn\nreturn a, b  # c\nimport a.b, c as d\nfrom . import (e as f, g)\nwith h() as i, j: pass\ndef g():\n    return x y\n";
        for path in files() {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            // The file, with more constructs, and mid-edit: a character
            // deleted at a few places, a stray word after each `return`.
            let mut variants = vec![text.clone(), format!("{text}{extra}")];
            variants.push(text.replace("return ", "return junk "));
            let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
            for k in 1..6 {
                if let Some(&at) = bounds.get(bounds.len() * k / 6) {
                    let mut broken = text.clone();
                    broken.remove(at);
                    variants.push(broken);
                }
            }
            for text in variants {
                let tree = parse(&text, None).unwrap();
                let expected = tree_sitters(tree.root_node(), &text);
                assert_eq!(ours(tree.root_node()), expected, "{}", path.display());
                compared += expected.len();
                for statement in top_level_statements(&tree) {
                    assert_eq!(
                        ours(statement),
                        tree_sitters(statement, &text),
                        "{} at {:?}",
                        path.display(),
                        statement.byte_range()
                    );
                }
            }
        }
        assert!(compared > 10_000, "{compared} matches compared");
    }

    #[test]
    fn unsupported_syntax_is_refused() {
        let language: Language = tree_sitter_python::LANGUAGE.into();
        for source in [
            "(call) @c (#eq? @c \"x\")",
            "(call function: (identifier)* @f)",
            "[(call) (lambda)] @x",
            "(call \"(\")",
            "(no_such_kind)",
            "(call no_such_field: (_))",
            "(call) @no.such.capture",
            "(return_statement (expression) @reference.returned)",
        ] {
            assert!(Matcher::new(&language, source).is_err(), "{source}");
        }
    }
}

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

//! Runs the queries of `queries/*.scm` and `queries/rules/*.scm` with one
//! cursor walk.
//!
//! tree-sitter's `QueryCursor` costs about three times a plain `TreeCursor`
//! walk over the same nodes (28 ms against 10 ms on the server bench's
//! 12,000-line module), and the query pass is most of a module's first
//! analysis. The queries only use a subset of the query language:
//! patterns of node kinds (or `_`, any named node but an ERROR), fields,
//! nested patterns, captures, and the text predicates `#eq?`, `#not-eq?`,
//! `#any-of?`, `#not-any-of?`, `#match?` and `#not-match?` (with a capture
//! or a string to compare with). This module compiles that subset from the
//! same source text and matches it during a single walk. Anything outside
//! the subset (quantifiers, alternations, anonymous nodes, negated fields,
//! supertypes, other predicates) is refused when compiling, and a test
//! compares every match with tree-sitter's on every fixture and a corpus
//! (`tests::matches_equal_tree_sitters`).
//!
//! Semantics kept from tree-sitter: a child pattern with a field matches a
//! child in that field, one without matches any named child; the child
//! patterns of one node match children in their order; each combination of
//! matching children is one match; predicates filter whole matches, wherever
//! in the pattern they are written; `#match?` searches (it is not anchored).

use regex::Regex;
use tree_sitter::{Language, Node, TreeCursor};

/// A capture's index: the same as in tree-sitter's `Query` of the same
/// source (the caller resolves names, `Matcher::new`).
pub type CaptureId = u16;

/// A compiled pattern: a node kind (`None`: any named node), a capture, and
/// child patterns in order.
#[derive(Debug)]
struct Step {
    kind: Option<u16>,
    capture: Option<CaptureId>,
    children: Vec<(Option<u16>, Step)>,
}

/// The right-hand side of `#eq?`.
#[derive(Debug)]
enum Operand {
    Capture(CaptureId),
    Text(String),
}

/// A text predicate over a match's captures (`negate`: the `not-` form).
#[derive(Debug)]
enum Predicate {
    Eq(CaptureId, Operand, bool),
    AnyOf(CaptureId, Vec<String>, bool),
    Match(CaptureId, Regex, bool),
}

impl Predicate {
    fn holds(&self, captures: &[(CaptureId, Node<'_>)], src: &[u8]) -> bool {
        let text = |id: CaptureId| {
            captures
                .iter()
                .find(|(c, _)| *c == id)
                .map(|(_, n)| src.get(n.byte_range()).unwrap_or(b""))
        };
        match self {
            Predicate::Eq(capture, operand, negate) => {
                let Some(left) = text(*capture) else {
                    return true;
                };
                let right = match operand {
                    Operand::Capture(other) => match text(*other) {
                        Some(right) => right,
                        None => return true,
                    },
                    Operand::Text(s) => s.as_bytes(),
                };
                (left == right) != *negate
            }
            Predicate::AnyOf(capture, values, negate) => match text(*capture) {
                Some(t) => values.iter().any(|v| v.as_bytes() == t) != *negate,
                None => true,
            },
            Predicate::Match(capture, regex, negate) => match text(*capture) {
                Some(t) => regex.is_match(&String::from_utf8_lossy(t)) != *negate,
                None => true,
            },
        }
    }
}

/// A pattern and the query's pattern indices written exactly as it is (the
/// rules that start from the same sites share their patterns' text; they
/// are matched once).
#[derive(Debug)]
struct Pattern {
    step: Step,
    predicates: Vec<Predicate>,
    indices: Vec<usize>,
}

#[derive(Debug)]
pub struct Matcher {
    patterns: Vec<Pattern>,
    /// Patterns by the kind id of their root node.
    by_kind: Vec<Vec<usize>>,
    /// How many patterns the source has (duplicates included).
    count: usize,
}

/// One match: each capture and its node, in pattern order.
pub type Match<'t> = [(CaptureId, Node<'t>)];

impl Matcher {
    /// Compiles `source`; `capture_id` gives each capture name's index.
    pub fn new(
        language: &Language,
        source: &str,
        capture_id: &dyn Fn(&str) -> Option<CaptureId>,
    ) -> Result<Matcher, String> {
        let tokens = tokenize(source)?;
        let mut at = 0;
        let mut patterns: Vec<Pattern> = Vec::new();
        let mut texts: Vec<&[Token<'_>]> = Vec::new();
        let mut count = 0;
        while at < tokens.len() {
            let begin = at;
            let mut predicates = Vec::new();
            let step = parse_top(language, &tokens, &mut at, capture_id, &mut predicates)?;
            let text = &tokens[begin..at];
            match texts.iter().position(|t| *t == text) {
                Some(same) => patterns[same].indices.push(count),
                None => {
                    texts.push(text);
                    patterns.push(Pattern {
                        step,
                        predicates,
                        indices: vec![count],
                    });
                }
            }
            count += 1;
        }
        let mut by_kind = vec![Vec::new(); language.node_kind_count()];
        for (i, pattern) in patterns.iter().enumerate() {
            let kind = pattern
                .step
                .kind
                .ok_or("a pattern's root must name a node kind")?;
            by_kind[kind as usize].push(i);
        }
        Ok(Matcher {
            patterns,
            by_kind,
            count,
        })
    }

    /// How many patterns the source holds, as tree-sitter counts them.
    pub fn pattern_count(&self) -> usize {
        self.count
    }

    /// Calls `each` with every match (its pattern index and captures) in the
    /// subtree of `root` (`root` included), in pre-order of the matched root
    /// nodes. `src` is the text the tree was parsed from (for predicates).
    pub fn for_each_match<'t>(
        &self,
        root: Node<'t>,
        src: &[u8],
        mut each: impl FnMut(usize, &Match<'t>),
    ) {
        let mut cursor = root.walk();
        let mut captures: Vec<(CaptureId, Node<'t>)> = Vec::new();
        let mut children = root.walk();
        loop {
            let node = cursor.node();
            if let Some(ids) = self.by_kind.get(node.kind_id() as usize) {
                for &id in ids {
                    let pattern = &self.patterns[id];
                    captures.clear();
                    self.match_at(
                        &pattern.step,
                        node,
                        &mut captures,
                        &mut children,
                        &mut |m: &Match<'t>| {
                            if pattern.predicates.iter().all(|p| p.holds(m, src)) {
                                for &index in &pattern.indices {
                                    each(index, m);
                                }
                            }
                        },
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
        captures: &mut Vec<(CaptureId, Node<'t>)>,
        cursor: &mut TreeCursor<'t>,
        each: &mut dyn FnMut(&Match<'t>),
    ) {
        let mark = captures.len();
        if let Some(capture) = step.capture {
            captures.push((capture, node));
        }
        if step.children.is_empty() {
            each(captures);
        } else {
            let children = children_of(node, cursor);
            self.match_children(&step.children, &children, 0, captures, cursor, each);
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
        captures: &mut Vec<(CaptureId, Node<'t>)>,
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
                let mut ways: Vec<Vec<(CaptureId, Node<'t>)>> = Vec::new();
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
    /// `#eq?` and the like, without the `#`.
    Predicate(&'s str),
    /// A string literal, unescaped.
    Str(String),
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
            b'#' => {
                let mut end = word_end(i + 1);
                if matches!(bytes.get(end), Some(b'?' | b'!')) {
                    end += 1;
                }
                tokens.push(Token::Predicate(&source[i + 1..end]));
                i = end;
            }
            b'"' => {
                // tree-sitter's escapes: \n \r \t \0, and \x for any other x.
                let mut value = String::new();
                let mut chars = source[i + 1..].char_indices();
                let mut closed = None;
                while let Some((j, c)) = chars.next() {
                    match c {
                        '"' => {
                            closed = Some(i + 1 + j + 1);
                            break;
                        }
                        '\\' => match chars.next() {
                            Some((_, 'n')) => value.push('\n'),
                            Some((_, 'r')) => value.push('\r'),
                            Some((_, 't')) => value.push('\t'),
                            Some((_, '0')) => value.push('\0'),
                            Some((_, other)) => value.push(other),
                            None => break,
                        },
                        c => value.push(c),
                    }
                }
                let Some(end) = closed else {
                    return Err(format!("unterminated string at byte {i}"));
                };
                tokens.push(Token::Str(value));
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

/// A top-level pattern: `( kind ... ) @capture?`, or a group of one such
/// pattern and predicates, `( (kind ...) @capture? (#pred ...)* )`.
fn parse_top(
    language: &Language,
    tokens: &[Token<'_>],
    at: &mut usize,
    capture_id: &dyn Fn(&str) -> Option<CaptureId>,
    predicates: &mut Vec<Predicate>,
) -> Result<Step, String> {
    if tokens.get(*at) == Some(&Token::Open) && tokens.get(*at + 1) == Some(&Token::Open) {
        *at += 1;
        let step = parse_step(language, tokens, at, capture_id, predicates)?;
        loop {
            match (tokens.get(*at), tokens.get(*at + 1)) {
                (Some(Token::Close), _) => {
                    *at += 1;
                    break;
                }
                (Some(Token::Open), Some(Token::Predicate(_))) => {
                    predicates.push(parse_predicate(tokens, at, capture_id)?)
                }
                // Several sibling patterns in a group are a sequence.
                other => return Err(format!("unsupported in a group: {other:?}")),
            }
        }
        if let Some(Token::Capture(_)) = tokens.get(*at) {
            return Err("a capture of a group is not supported".to_owned());
        }
        return Ok(step);
    }
    parse_step(language, tokens, at, capture_id, predicates)
}

/// `(#name @capture arg*)`: arguments are captures or strings.
fn parse_predicate(
    tokens: &[Token<'_>],
    at: &mut usize,
    capture_id: &dyn Fn(&str) -> Option<CaptureId>,
) -> Result<Predicate, String> {
    let Some(Token::Predicate(name)) = tokens.get(*at + 1) else {
        return Err(format!("expected a predicate at token {}", *at));
    };
    *at += 2;
    let capture = |name: &str| {
        capture_id(name).ok_or_else(|| format!("predicate on unknown capture @{name}"))
    };
    let first = match tokens.get(*at) {
        Some(Token::Capture(c)) => capture(c)?,
        other => return Err(format!("#{name} needs a capture first, found {other:?}")),
    };
    *at += 1;
    let mut args: Vec<Operand> = Vec::new();
    loop {
        match tokens.get(*at) {
            Some(Token::Close) => {
                *at += 1;
                break;
            }
            Some(Token::Capture(c)) => args.push(Operand::Capture(capture(c)?)),
            Some(Token::Str(s)) => args.push(Operand::Text(s.clone())),
            other => return Err(format!("unexpected {other:?} in #{name}")),
        }
        *at += 1;
    }
    let strings = |args: Vec<Operand>| -> Result<Vec<String>, String> {
        args.into_iter()
            .map(|a| match a {
                Operand::Text(s) => Ok(s),
                Operand::Capture(_) => Err(format!("#{name} takes strings after its capture")),
            })
            .collect()
    };
    let one = |mut args: Vec<Operand>| match (args.pop(), args.is_empty()) {
        (Some(arg), true) => Ok(arg),
        _ => Err(format!("#{name} takes two arguments")),
    };
    Ok(match *name {
        "eq?" | "not-eq?" => Predicate::Eq(first, one(args)?, name.starts_with("not-")),
        "any-of?" | "not-any-of?" => {
            let values = strings(args)?;
            if values.is_empty() {
                return Err(format!("#{name} needs at least one string"));
            }
            Predicate::AnyOf(first, values, name.starts_with("not-"))
        }
        "match?" | "not-match?" => {
            let Operand::Text(pattern) = one(args)? else {
                return Err(format!("#{name} takes a regex string"));
            };
            let regex = Regex::new(&pattern).map_err(|e| format!("#{name}: {e}"))?;
            Predicate::Match(first, regex, name.starts_with("not-"))
        }
        other => return Err(format!("predicate #{other} is not supported")),
    })
}

/// `( kind child* ) @capture?` where child is `field: pattern`, `pattern`
/// or a predicate (which applies to the whole pattern, as in tree-sitter).
fn parse_step(
    language: &Language,
    tokens: &[Token<'_>],
    at: &mut usize,
    capture_id: &dyn Fn(&str) -> Option<CaptureId>,
    predicates: &mut Vec<Predicate>,
) -> Result<Step, String> {
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
        match (tokens.get(*at), tokens.get(*at + 1)) {
            (Some(Token::Close), _) => {
                *at += 1;
                break;
            }
            (Some(Token::Field(name)), _) => {
                let id = language
                    .field_id_for_name(name)
                    .ok_or_else(|| format!("unknown field {name}"))?;
                *at += 1;
                let child = parse_step(language, tokens, at, capture_id, predicates)?;
                children.push((Some(id.get()), child));
            }
            (Some(Token::Open), Some(Token::Predicate(_))) => {
                predicates.push(parse_predicate(tokens, at, capture_id)?)
            }
            (Some(Token::Open), _) => children.push((
                None,
                parse_step(language, tokens, at, capture_id, predicates)?,
            )),
            (other, _) => return Err(format!("unexpected {other:?} in a pattern")),
        }
    }
    let capture = match tokens.get(*at) {
        Some(Token::Capture(name)) => {
            *at += 1;
            Some(capture_id(name).ok_or_else(|| format!("unknown capture @{name}"))?)
        }
        _ => None,
    };
    if let Some(Token::Capture(_)) = tokens.get(*at) {
        return Err("several captures on one node are not supported".to_owned());
    }
    Ok(Step {
        kind,
        capture,
        children,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::queries::queries;
    use crate::syntax::{parse, top_level_statements};
    use tree_sitter::{Query, QueryCursor, StreamingIterator};

    /// A match: its pattern and its captures (name, start, end), sorted.
    type Key = (usize, Vec<(String, usize, usize)>);

    fn tree_sitters(query: &Query, root: Node<'_>, src: &str) -> Vec<Key> {
        let mut cursor = QueryCursor::new();
        // `matches` applies the text predicates, as the matcher does.
        let mut matches = cursor.matches(query, root, src.as_bytes());
        let mut out = Vec::new();
        while let Some(m) = matches.next() {
            let mut key: Vec<_> = m
                .captures
                .iter()
                .map(|c| {
                    (
                        query.capture_names()[c.index as usize].to_owned(),
                        c.node.start_byte(),
                        c.node.end_byte(),
                    )
                })
                .collect();
            key.sort();
            out.push((m.pattern_index, key));
        }
        out.sort();
        out
    }

    fn ours(query: &Query, matcher: &Matcher, root: Node<'_>, src: &str) -> Vec<Key> {
        let mut out = Vec::new();
        matcher.for_each_match(root, src.as_bytes(), |pattern, m| {
            let mut key: Vec<_> = m
                .iter()
                .map(|(c, n)| {
                    (
                        query.capture_names()[*c as usize].to_owned(),
                        n.start_byte(),
                        n.end_byte(),
                    )
                })
                .collect();
            key.sort();
            out.push((pattern, key));
        });
        out.sort();
        out
    }

    /// Every `.py` file under tests/ (fixtures, library cases, variants'
    /// inputs) and examples/, and under `$JAX_LSP_EQUIVALENCE_DIR` when set
    /// (the sweep corpus: real libraries, not in the repository).
    fn files() -> Vec<std::path::PathBuf> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![root.join("tests"), root.join("examples")];
        if let Ok(extra) = std::env::var("JAX_LSP_EQUIVALENCE_DIR") {
            dirs.extend(extra.split(':').map(|d| root.join(d)));
        }
        crate::check::collect_files(&dirs, &mut Vec::new())
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "py"))
            .collect()
    }

    /// The file, with more constructs, and mid-edit: a character deleted at
    /// a few places, a stray word after each `return`.
    fn variants(text: &str) -> Vec<String> {
        let extra = "\nx = [f(a) for a in b]\nreturn\nreturn a, b  # c\nimport a.b, c as d\nfrom . import (e as f, g)\nwith h() as i, j: pass\ndef g():\n    return x y\ny = jit(f).lower(x).compile()\nz = export(jit(f), platforms=('cpu',))(x)\npdep(x, gpu=1, gpu=2)\njax.jit(f, backend='cpu', device=d)\n";
        let mut out = vec![text.to_owned(), format!("{text}{extra}")];
        out.push(text.replace("return ", "return junk "));
        let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        for k in 1..6 {
            if let Some(&at) = bounds.get(bounds.len() * k / 6) {
                let mut broken = text.to_owned();
                broken.remove(at);
                out.push(broken);
            }
        }
        out
    }

    #[test]
    fn matches_equal_tree_sitters() {
        // The fact queries and every rule's query, predicates included, as
        // the model runs them.
        let all = queries();
        let (mut read, mut compared, mut predicated) = (0, 0, 0);
        for path in files() {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            read += 1;
            for text in variants(&text) {
                let tree = parse(&text, None).unwrap();
                let expected = tree_sitters(&all.query, tree.root_node(), &text);
                assert_eq!(
                    ours(&all.query, &all.matcher, tree.root_node(), &text),
                    expected,
                    "{}",
                    path.display()
                );
                compared += expected.len();
                predicated += expected
                    .iter()
                    .filter(|(_, captures)| captures.iter().any(|(n, _, _)| n.starts_with('_')))
                    .count();
                for statement in top_level_statements(&tree) {
                    assert_eq!(
                        ours(&all.query, &all.matcher, statement, &text),
                        tree_sitters(&all.query, statement, &text),
                        "{} at {:?}",
                        path.display(),
                        statement.byte_range()
                    );
                }
            }
        }
        eprintln!("{read} files: {compared} matches compared, {predicated} through predicates");
        assert!(compared > 10_000, "{compared} matches compared");
        assert!(
            predicated > 1_000,
            "{predicated} matches through predicates"
        );
    }

    /// Each predicate, both forms of writing one, and what they reject.
    #[test]
    fn predicates_equal_tree_sitters() {
        let language: Language = tree_sitter_python::LANGUAGE.into();
        let source = r#"
((call function: (identifier) @f) @c (#eq? @f "jit"))
(call function: (attribute object: (identifier) @o attribute: (identifier) @a (#eq? @o @a))) @c
(call function: (attribute object: (identifier) @o attribute: (identifier) @a) (#not-eq? @o @a)) @c
((call function: (identifier) @f) @c (#not-eq? @f "jit"))
((keyword_argument name: (identifier) @k) @kw (#any-of? @k "backend" "device"))
((keyword_argument name: (identifier) @k) @kw (#not-any-of? @k "backend" "device"))
((string) @s (#match? @s "^.c.u"))
((string) @s (#not-match? @s "pu"))
((string) @i (#match? @i "a\\.b|x\"y"))
((call arguments: (argument_list (keyword_argument name: (identifier) @k value: (_) @v))) @c (#eq? @k "gpu") (#match? @v "^[0-9]+$"))
"#;
        let text = "jit(f)\nx.x(1)\nx.y(2)\nf(backend='cpu', device=d, gpu=3, other=1)\ns = ['cpu', 'cuda', 'tpu', 'a.b', 'axb']\npdep(x, gpu=1, gpu=f())\njax.jit(g)\n";
        let query = Query::new(&language, source).expect("tree-sitter compiles it");
        let id = |name: &str| query.capture_index_for_name(name).map(|i| i as u16);
        let matcher = Matcher::new(&language, source, &id).expect("the matcher compiles it");
        assert_eq!(matcher.pattern_count(), query.pattern_count());
        let tree = parse(text, None).unwrap();
        let expected = tree_sitters(&query, tree.root_node(), text);
        assert_eq!(ours(&query, &matcher, tree.root_node(), text), expected);
        for pattern in 0..query.pattern_count() {
            assert!(
                expected.iter().any(|(p, _)| *p == pattern),
                "pattern {pattern} matches nothing: the test shows nothing"
            );
        }
        // A pattern written twice is matched once and reported twice.
        let twice = "((call function: (identifier) @f) @c (#eq? @f \"jit\"))\n((call function: (identifier) @f) @c (#eq? @f \"jit\"))";
        let query = Query::new(&language, twice).unwrap();
        let id = |name: &str| query.capture_index_for_name(name).map(|i| i as u16);
        let matcher = Matcher::new(&language, twice, &id).unwrap();
        assert_eq!(matcher.patterns.len(), 1);
        assert_eq!(
            ours(&query, &matcher, tree.root_node(), text),
            tree_sitters(&query, tree.root_node(), text)
        );
    }

    #[test]
    fn unsupported_syntax_is_refused() {
        let language: Language = tree_sitter_python::LANGUAGE.into();
        let id = |name: &str| (name == "c" || name == "f").then_some(0);
        for source in [
            "(call function: (identifier)* @f)",
            "[(call) (lambda)] @c",
            "(call \"(\")",
            "(no_such_kind)",
            "(call no_such_field: (_))",
            "(call) @no.such.capture",
            "(return_statement (expression) @c)",
            "((call) @c (#set! x \"y\"))",
            "((call) @c (#is? @c \"y\"))",
            "((call) @c (#eq? @c))",
            "((call) @c (#eq? @missing \"x\"))",
            "((call) @c (#any-of? @c))",
            "((call) @c (#any-of? @c @f))",
            "((call) @c (#match? @c \"(\"))",
            "((call) @c (#eq? @c \"x))",
            "((call) (call))",
            "((call) @c (#eq? @c \"x\")) @f",
            "(call) @c @f",
        ] {
            assert!(Matcher::new(&language, source, &id).is_err(), "{source}");
        }
    }
}

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

/// A capture's index in `Matcher::capture_names`: names are numbered in the
/// order they first appear, as tree-sitter numbers them.
pub type CaptureId = u16;

/// The id of capture `name`, numbering it if it is new.
fn intern(names: &mut Vec<String>, name: &str) -> Result<CaptureId, String> {
    let id = match names.iter().position(|n| n == name) {
        Some(id) => id,
        None => {
            names.push(name.to_owned());
            names.len() - 1
        }
    };
    CaptureId::try_from(id).map_err(|_| "too many captures".to_owned())
}

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

impl Step {
    fn captures(&self, out: &mut Vec<CaptureId>) {
        out.extend(self.capture);
        for (_, child) in &self.children {
            child.captures(out);
        }
    }
}

impl Predicate {
    fn reads(&self) -> Vec<CaptureId> {
        match self {
            Predicate::Eq(c, Operand::Capture(other), _) => vec![*c, *other],
            Predicate::Eq(c, _, _) | Predicate::AnyOf(c, _, _) | Predicate::Match(c, _, _) => {
                vec![*c]
            }
        }
    }

    fn mentions(&self, id: CaptureId) -> bool {
        match self {
            Predicate::Eq(c, Operand::Capture(other), _) => *c == id || *other == id,
            Predicate::Eq(c, _, _) | Predicate::AnyOf(c, _, _) | Predicate::Match(c, _, _) => {
                *c == id
            }
        }
    }

    /// True unless the captures it reads are bound and fail it.
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

/// The patterns written alike but for their predicates: one structure,
/// matched once for all of them (the rules that start from calls share most
/// of their patterns' shape), and each one's predicates.
#[derive(Debug)]
struct Pattern {
    step: Step,
    /// At most 64 (a bit each while matching).
    members: Vec<Member>,
}

/// Patterns written exactly alike (the query's pattern indices) and their
/// predicates.
#[derive(Debug)]
struct Member {
    predicates: Vec<Predicate>,
    indices: Vec<usize>,
}

/// A pattern's tokens without its predicates: what it matches before they
/// filter.
fn structure<'a, 's>(tokens: &'a [Token<'s>]) -> Vec<&'a Token<'s>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == Token::Open && matches!(tokens.get(i + 1), Some(Token::Predicate(_))) {
            // A predicate's arguments hold no parentheses.
            while i < tokens.len() && tokens[i] != Token::Close {
                i += 1;
            }
        } else {
            out.push(&tokens[i]);
        }
        i += 1;
    }
    out
}

#[derive(Debug)]
pub struct Matcher {
    patterns: Vec<Pattern>,
    /// Patterns by the kind id of their root node.
    by_kind: Vec<Vec<usize>>,
    /// How many patterns the source has (duplicates included).
    count: usize,
    /// Capture names by id.
    capture_names: Vec<String>,
}

/// One match: each capture and its node, in pattern order.
pub type Match<'t> = [(CaptureId, Node<'t>)];

impl Matcher {
    /// Compiles `source` (patterns numbered in order, as tree-sitter does).
    pub fn new(language: &Language, source: &str) -> Result<Matcher, String> {
        let mut names = Vec::new();
        let names = &mut names;
        let tokens = tokenize(source)?;
        let mut at = 0;
        let mut patterns: Vec<Pattern> = Vec::new();
        // Per pattern: its structure, and each member's whole text.
        let mut texts: Vec<(Vec<&Token<'_>>, Vec<&[Token<'_>]>)> = Vec::new();
        let mut count = 0;
        while at < tokens.len() {
            let begin = at;
            let mut predicates = Vec::new();
            let step = parse_top(language, &tokens, &mut at, names, &mut predicates)?;
            // As in tree-sitter, a predicate reads captures of its own pattern.
            let mut own = Vec::new();
            step.captures(&mut own);
            if let Some(p) = predicates
                .iter()
                .find(|p| !p.reads().iter().all(|c| own.contains(c)))
            {
                return Err(format!("{p:?} reads a capture its pattern does not have"));
            }
            let text = &tokens[begin..at];
            let shape = structure(text);
            let alike = texts
                .iter()
                .zip(&patterns)
                .position(|((s, _), p)| *s == shape && p.members.len() < 64);
            match alike {
                Some(same) => match texts[same].1.iter().position(|t| *t == text) {
                    Some(member) => patterns[same].members[member].indices.push(count),
                    None => {
                        texts[same].1.push(text);
                        patterns[same].members.push(Member {
                            predicates,
                            indices: vec![count],
                        });
                    }
                },
                None => {
                    texts.push((shape, vec![text]));
                    patterns.push(Pattern {
                        step,
                        members: vec![Member {
                            predicates,
                            indices: vec![count],
                        }],
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
        let capture_names = std::mem::take(names);
        Ok(Matcher {
            patterns,
            by_kind,
            count,
            capture_names,
        })
    }

    /// Capture names by id.
    pub fn capture_names(&self) -> &[String] {
        &self.capture_names
    }

    /// The pattern indices written exactly alike, each set once (`each` in
    /// `for_each_match` gets one of these).
    pub fn alike(&self) -> impl Iterator<Item = &[usize]> {
        self.patterns
            .iter()
            .flat_map(|p| p.members.iter().map(|m| m.indices.as_slice()))
    }

    /// How many patterns the source holds, as tree-sitter counts them.
    pub fn pattern_count(&self) -> usize {
        self.count
    }

    /// Calls `each` with every match in the subtree of `root` (`root`
    /// included), in pre-order of the matched root nodes: the indices of the
    /// patterns it matches (several when written alike) and its captures.
    /// `src` is the text the tree was parsed from (for predicates).
    pub fn for_each_match<'t>(
        &self,
        root: Node<'t>,
        src: &[u8],
        mut each: impl FnMut(&[usize], &Match<'t>),
    ) {
        let mut captures: Vec<(CaptureId, Node<'t>)> = Vec::new();
        let mut walk = Walk {
            src,
            members: &[],
            alive: 0,
            cursor: root.walk(),
            children: Vec::new(),
            read_below: rustc_hash::FxHashMap::default(),
        };
        // Pre-order with a stack of the nodes still to visit: each node's
        // children are read once, for its patterns and for the walk (a
        // cursor step costs hundreds of instructions in a grammar with many
        // hidden nodes, and the patterns start at most calls).
        let mut pending: Vec<Node<'t>> = vec![root];
        let mut read: Vec<(u16, Node<'t>)> = Vec::new();
        while let Some(node) = pending.pop() {
            let patterns = self
                .by_kind
                .get(node.kind_id() as usize)
                .filter(|ids| !ids.is_empty());
            read.clear();
            if let Some(children) = walk.read_below.remove(&node.id()) {
                // Read (with their fields) by a pattern above this node.
                read.extend_from_slice(&children);
            } else {
                walk.cursor.reset(node);
                if walk.cursor.goto_first_child() {
                    loop {
                        // Fields are only read for patterns (the cursor finds a
                        // child's field by looking through hidden parents).
                        let field = match patterns {
                            Some(_) => walk.cursor.field_id().map_or(0, |f| f.get()),
                            None => 0,
                        };
                        read.push((field, walk.cursor.node()));
                        if !walk.cursor.goto_next_sibling() {
                            break;
                        }
                    }
                }
            }
            if let Some(ids) = patterns {
                // Many patterns start at the same kinds (every rule's at a
                // call): a node's children are read once for all of them.
                walk.children.clear();
                walk.children.push((node.id(), read.as_slice().into()));
                for &id in ids {
                    let pattern = &self.patterns[id];
                    walk.members = &pattern.members;
                    walk.alive = u64::MAX >> (64 - pattern.members.len());
                    captures.clear();
                    walk.match_at(&pattern.step, node, &mut captures, &mut |alive, m| {
                        for (i, member) in pattern.members.iter().enumerate() {
                            if alive & (1 << i) != 0 {
                                each(&member.indices, m);
                            }
                        }
                    });
                }
            }
            // A leaf no pattern starts at (a name, a token) needs no visit.
            pending.extend(read.iter().rev().map(|&(_, child)| child).filter(|child| {
                child.child_count() > 0
                    || self
                        .by_kind
                        .get(child.kind_id() as usize)
                        .is_none_or(|ids| !ids.is_empty())
            }));
        }
    }
}

/// A node's children with their field ids (0: none), shared by the
/// patterns that read them.
type Children<'t> = std::rc::Rc<[(u16, Node<'t>)]>;

/// The state of matching the patterns at one node.
struct Walk<'m, 't> {
    src: &'m [u8],
    /// The members of the pattern being matched, and which of them the
    /// captures so far satisfy (a bit each).
    members: &'m [Member],
    alive: u64,
    cursor: TreeCursor<'t>,
    /// The children of the nodes read since the walk reached this node,
    /// each with its field ids (0: none).
    children: Vec<(usize, Children<'t>)>,
    /// The children patterns read of nodes below the one the walk is at,
    /// by node id: the walk takes them when it gets there instead of
    /// reading them again.
    read_below: rustc_hash::FxHashMap<usize, Children<'t>>,
}

impl<'t> Walk<'_, 't> {
    /// The children of `node`, read once per walk position.
    fn children_of(&mut self, node: Node<'t>) -> Children<'t> {
        if let Some((_, children)) = self.children.iter().find(|(id, _)| *id == node.id()) {
            return children.clone();
        }
        if let Some(children) = self.read_below.get(&node.id()) {
            let children = children.clone();
            self.children.push((node.id(), children.clone()));
            return children;
        }
        let mut out = Vec::new();
        self.cursor.reset(node);
        if self.cursor.goto_first_child() {
            loop {
                out.push((
                    self.cursor.field_id().map_or(0, |f| f.get()),
                    self.cursor.node(),
                ));
                if !self.cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        let children: Children<'t> = out.into();
        self.children.push((node.id(), children.clone()));
        self.read_below.insert(node.id(), children.clone());
        children
    }

    /// Pushes `capture` of `node` and drops the members whose predicates
    /// the captures so far fail; `None` (nothing pushed) when none is left,
    /// else the members alive before, to restore when backtracking.
    /// Predicates are checked as soon as their captures are bound: a keyword
    /// name that is not the one asked for stops the search in that list.
    fn capture(
        &mut self,
        capture: Option<CaptureId>,
        node: Node<'t>,
        captures: &mut Vec<(CaptureId, Node<'t>)>,
    ) -> Option<u64> {
        let before = self.alive;
        let Some(capture) = capture else {
            return Some(before);
        };
        captures.push((capture, node));
        let mut alive = before;
        for (i, member) in self.members.iter().enumerate() {
            if alive & (1 << i) != 0
                && !member
                    .predicates
                    .iter()
                    .filter(|p| p.mentions(capture))
                    .all(|p| p.holds(captures, self.src))
            {
                alive &= !(1 << i);
            }
        }
        if alive == 0 {
            captures.pop();
            return None;
        }
        self.alive = alive;
        Some(before)
    }

    /// Matches `step` at `node` (whose kind is already checked for a root),
    /// calling `each` for every way the child patterns can match.
    fn match_at(
        &mut self,
        step: &Step,
        node: Node<'t>,
        captures: &mut Vec<(CaptureId, Node<'t>)>,
        each: &mut dyn FnMut(u64, &Match<'t>),
    ) {
        let mark = captures.len();
        let Some(before) = self.capture(step.capture, node, captures) else {
            return;
        };
        if step.children.is_empty() {
            each(self.alive, captures);
        } else {
            let children = self.children_of(node);
            self.match_children(&step.children, &children, 0, captures, each);
        }
        captures.truncate(mark);
        self.alive = before;
    }

    /// Matches `specs` against `children` (a node's, with their fields) from
    /// index `from` on, each spec after the one before.
    fn match_children(
        &mut self,
        specs: &[(Option<u16>, Step)],
        children: &[(u16, Node<'t>)],
        from: usize,
        captures: &mut Vec<(CaptureId, Node<'t>)>,
        each: &mut dyn FnMut(u64, &Match<'t>),
    ) {
        let Some(((field, step), rest)) = specs.split_first() else {
            each(self.alive, captures);
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
            let Some(before) = self.capture(step.capture, child, captures) else {
                continue;
            };
            if step.children.is_empty() {
                self.match_children(rest, children, index + 1, captures, each);
            } else {
                // The child's own child patterns, then the next specs after
                // this child, for each way the former match (with the
                // members it leaves alive).
                let grandchildren = self.children_of(child);
                let base = captures.len();
                let mut ways: Vec<(u64, Vec<(CaptureId, Node<'t>)>)> = Vec::new();
                self.match_children(
                    &step.children,
                    &grandchildren,
                    0,
                    captures,
                    &mut |alive, c| ways.push((alive, c[base..].to_vec())),
                );
                let outer = self.alive;
                for (alive, way) in ways {
                    let inner = captures.len();
                    captures.extend(way);
                    self.alive = alive;
                    self.match_children(rest, children, index + 1, captures, each);
                    captures.truncate(inner);
                }
                self.alive = outer;
            }
            captures.truncate(mark);
            self.alive = before;
        }
    }
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
    names: &mut Vec<String>,
    predicates: &mut Vec<Predicate>,
) -> Result<Step, String> {
    if tokens.get(*at) == Some(&Token::Open) && tokens.get(*at + 1) == Some(&Token::Open) {
        *at += 1;
        let step = parse_step(language, tokens, at, names, predicates)?;
        loop {
            match (tokens.get(*at), tokens.get(*at + 1)) {
                (Some(Token::Close), _) => {
                    *at += 1;
                    break;
                }
                (Some(Token::Open), Some(Token::Predicate(_))) => {
                    predicates.push(parse_predicate(tokens, at, names)?)
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
    parse_step(language, tokens, at, names, predicates)
}

/// `(#name @capture arg*)`: arguments are captures or strings.
fn parse_predicate(
    tokens: &[Token<'_>],
    at: &mut usize,
    names: &mut Vec<String>,
) -> Result<Predicate, String> {
    let Some(Token::Predicate(name)) = tokens.get(*at + 1) else {
        return Err(format!("expected a predicate at token {}", *at));
    };
    *at += 2;
    let first = match tokens.get(*at) {
        Some(Token::Capture(c)) => intern(names, c)?,
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
            Some(Token::Capture(c)) => args.push(Operand::Capture(intern(names, c)?)),
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
    names: &mut Vec<String>,
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
                let child = parse_step(language, tokens, at, names, predicates)?;
                children.push((Some(id.get()), child));
            }
            (Some(Token::Open), Some(Token::Predicate(_))) => {
                predicates.push(parse_predicate(tokens, at, names)?)
            }
            (Some(Token::Open), _) => {
                children.push((None, parse_step(language, tokens, at, names, predicates)?))
            }
            (other, _) => return Err(format!("unexpected {other:?} in a pattern")),
        }
    }
    let capture = match tokens.get(*at) {
        Some(Token::Capture(name)) => {
            *at += 1;
            Some(intern(names, name)?)
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

    fn ours(matcher: &Matcher, root: Node<'_>, src: &str) -> Vec<Key> {
        let mut out = Vec::new();
        matcher.for_each_match(root, src.as_bytes(), |patterns, m| {
            let mut key: Vec<_> = m
                .iter()
                .map(|(c, n)| {
                    (
                        matcher.capture_names()[*c as usize].clone(),
                        n.start_byte(),
                        n.end_byte(),
                    )
                })
                .collect();
            key.sort();
            out.extend(patterns.iter().map(|p| (*p, key.clone())));
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
        let query = Query::new(
            &tree_sitter_python::LANGUAGE.into(),
            &crate::syntax::queries::concatenated().0,
        )
        .expect("compiles");
        let (mut read, mut compared, mut predicated) = (0, 0, 0);
        for path in files() {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            read += 1;
            for text in variants(&text) {
                let tree = parse(&text, None).unwrap();
                let expected = tree_sitters(&query, tree.root_node(), &text);
                assert_eq!(
                    ours(&all.matcher, tree.root_node(), &text),
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
                        ours(&all.matcher, statement, &text),
                        tree_sitters(&query, statement, &text),
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
        let matcher = Matcher::new(&language, source).expect("the matcher compiles it");
        assert_eq!(matcher.pattern_count(), query.pattern_count());
        // Patterns alike but for their predicates are matched as one.
        assert_eq!(matcher.patterns.len(), 6);
        let tree = parse(text, None).unwrap();
        let expected = tree_sitters(&query, tree.root_node(), text);
        assert_eq!(ours(&matcher, tree.root_node(), text), expected);
        for pattern in 0..query.pattern_count() {
            assert!(
                expected.iter().any(|(p, _)| *p == pattern),
                "pattern {pattern} matches nothing: the test shows nothing"
            );
        }
        // A pattern written twice is matched once and reported twice.
        let twice = "((call function: (identifier) @f) @c (#eq? @f \"jit\"))\n((call function: (identifier) @f) @c (#eq? @f \"jit\"))";
        let query = Query::new(&language, twice).unwrap();
        let matcher = Matcher::new(&language, twice).unwrap();
        assert_eq!(matcher.patterns.len(), 1);
        assert_eq!(matcher.patterns[0].members.len(), 1);
        assert_eq!(
            ours(&matcher, tree.root_node(), text),
            tree_sitters(&query, tree.root_node(), text)
        );
    }

    #[test]
    fn unsupported_syntax_is_refused() {
        let language: Language = tree_sitter_python::LANGUAGE.into();
        for source in [
            "(call function: (identifier)* @f)",
            "[(call) (lambda)] @c",
            "(call \"(\")",
            "(no_such_kind)",
            "(call no_such_field: (_))",
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
            assert!(Matcher::new(&language, source).is_err(), "{source}");
        }
    }
}

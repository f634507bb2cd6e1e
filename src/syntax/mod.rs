//! The syntax layer: parsing with tree-sitter, the compiled fact queries, and
//! the line index. Only this module and `semantic/` know tree-sitter types.

mod line_index;
pub mod matcher;
pub mod queries;
pub mod sections;

pub use line_index::{non_ascii, Encoding, LineCol, LineIndex};

use std::cell::RefCell;
/// A parsed syntax tree (opaque to front ends: they pass it back to this layer).
pub use tree_sitter::Tree;
use tree_sitter::{InputEdit, Node, Parser, Point};

/// A half-open byte range in one file's text.
pub type Span = std::ops::Range<usize>;

thread_local! {
    // A parser per thread: creating one costs more than parsing a small file.
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// Field access by name without tree-sitter's name lookup, which compares the
/// name with each of the grammar's field names (`strncmp`) on every call:
/// 7.5% of the samples when opening the server bench's 12,000-line module.
pub trait Field<'t> {
    fn field(&self, name: &str) -> Option<Node<'t>>;
}

impl<'t> Field<'t> for Node<'t> {
    fn field(&self, name: &str) -> Option<Node<'t>> {
        static IDS: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, u16>> =
            std::sync::OnceLock::new();
        let ids = IDS.get_or_init(|| {
            let language: tree_sitter::Language = tree_sitter_python::LANGUAGE.into();
            (1..=language.field_count() as u16)
                .filter_map(|id| language.field_name_for_id(id).map(|name| (name, id)))
                .collect()
        });
        self.child_by_field_id(*ids.get(name)?)
    }
}

/// A node's kind by table instead of tree-sitter's `Node::kind`, which
/// measures the C string (`strlen`) and checks it is UTF-8 on every call:
/// about 7% of a module's first analysis. The same name: `kind_id` is the
/// public symbol, which has the name of the symbol `kind` reads.
pub trait KindName {
    fn kind_name(&self) -> &'static str;
}

impl KindName for Node<'_> {
    #[inline]
    fn kind_name(&self) -> &'static str {
        static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
        let names = NAMES.get_or_init(|| {
            let language: tree_sitter::Language = tree_sitter_python::LANGUAGE.into();
            (0..language.node_kind_count() as u16)
                .map(|id| language.node_kind_for_id(id).unwrap_or(""))
                .collect()
        });
        match names.get(self.kind_id() as usize) {
            Some(name) if !name.is_empty() => name,
            // `ERROR` (an id past the grammar's own symbols).
            _ => self.kind(),
        }
    }
}

/// The top-level statements of a tree (comments are not statements). One
/// cursor pass: a module's root may have thousands of children.
pub fn top_level_statements(tree: &Tree) -> Vec<Node<'_>> {
    statements_under(tree.root_node())
}

/// The top-level statements under a module's root node.
pub fn statements_under(root: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = root.walk();
    let mut out = Vec::new();
    if cursor.goto_first_child() {
        loop {
            let node = cursor.node();
            // Extras are comments, but error recovery may mark an ERROR as
            // one. A token straight under the root is a syntax error too.
            if !node.is_extra() || node.is_error() {
                out.push(node);
            }
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }
    out
}

/// Parses Python source, reusing `old` (already edited) for an incremental parse.
/// Returns `None` only if tree-sitter gives up (it does not on any input we have
/// seen; callers treat it as "no findings").
pub fn parse(text: &str, old: Option<&Tree>) -> Option<Tree> {
    with_parser(|parser| parser.parse(text, old))
}

/// Runs `f` with this thread's parser.
fn with_parser(f: impl FnOnce(&mut Parser) -> Option<Tree>) -> Option<Tree> {
    with_parser_in(&PARSER, f)
}

/// Runs `f` with the Python parser in `slot` (a thread-local), made on first use.
fn with_parser_in(
    slot: &'static std::thread::LocalKey<RefCell<Option<Parser>>>,
    f: impl FnOnce(&mut Parser) -> Option<Tree>,
) -> Option<Tree> {
    slot.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            let mut parser = Parser::new();
            parser
                .set_language(&tree_sitter_python::LANGUAGE.into())
                .ok()?;
            *slot = Some(parser);
        }
        f(slot.as_mut()?)
    })
}

/// A change to a text, in the form `Tree::edit` takes: bytes `start..old_end`
/// replaced by text now ending at `new_end`. Kept by documents so that a tree
/// parsed from an earlier text can be brought up to date.
#[derive(Clone, Copy, Debug)]
pub struct TextEdit(InputEdit);

impl TextEdit {
    /// Positions are (line, utf-8 column) of start, old end and new end, as
    /// `LineIndex` gives them.
    pub fn new(start: usize, old_end: usize, new_end: usize, positions: [LineCol; 3]) -> Self {
        let point = |lc: LineCol| Point {
            row: lc.line as usize,
            column: lc.col as usize,
        };
        TextEdit(InputEdit {
            start_byte: start,
            old_end_byte: old_end,
            new_end_byte: new_end,
            start_position: point(positions[0]),
            old_end_position: point(positions[1]),
            new_end_position: point(positions[2]),
        })
    }

    /// Records the change in `tree`, so the next `parse(text, Some(tree))`
    /// reuses the rest.
    pub fn apply(&self, tree: &mut Tree) {
        tree.edit(&self.0);
    }
}

/// Is `offset` inside a comment or a string literal?
pub fn in_comment_or_string(tree: &Tree, offset: usize) -> bool {
    let mut node = tree.root_node().descendant_for_byte_range(offset, offset);
    while let Some(n) = node {
        if matches!(n.kind_name(), "comment" | "string" | "string_content") {
            return true;
        }
        node = n.parent();
    }
    false
}

/// The indices of a subscript: one for `d[k]`, several for `d[a, b]`
/// (the tuple `(a, b)`, whose elements tree-sitter gives as separate
/// `subscript` fields).
pub fn subscript_indices<'t>(subscript: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = subscript.walk();
    subscript
        .children_by_field_name("subscript", &mut cursor)
        .collect()
}

/// The index of `d[k]`; `None` for `d[a, b]`, whose key is a tuple.
pub fn single_index<'t>(subscript: Node<'t>) -> Option<Node<'t>> {
    match subscript_indices(subscript).as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// The source text of a node ("" if the range is not valid UTF-8 boundaries,
/// which tree-sitter never produces for valid UTF-8 input).
pub fn text<'a>(node: Node<'_>, src: &'a str) -> &'a str {
    src.get(node.byte_range()).unwrap_or("")
}

/// The value of a plain string literal (`"cpu"`, `'cpu'`, `r"cpu"`), or `None`
/// for f-strings, byte strings, concatenations and anything that is not a string.
pub fn string_value(node: Node<'_>, src: &str) -> Option<String> {
    if node.kind_name() != "string" {
        return None;
    }
    let mut value = String::new();
    let mut raw = false;
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        match child.kind_name() {
            "string_start" => {
                let prefix = text(child, src).to_ascii_lowercase();
                if prefix.contains('f') || prefix.contains('b') {
                    return None;
                }
                raw = prefix.contains('r');
            }
            "string_content" => value.push_str(&string_content(child, src, raw, false)?),
            "string_end" => {}
            // Interpolations make the value non-literal.
            _ => return None,
        }
    }
    Some(value)
}

/// The text of a `string_content` node as Python reads it: escape
/// sequences (children of the content of a non-raw literal) decoded, and in
/// an f-string `{{`/`}}` read as one brace; the text between them copied.
fn string_content(content: Node<'_>, src: &str, raw: bool, f_string: bool) -> Option<String> {
    let mut value = String::new();
    let mut at = content.start_byte();
    let mut cursor = content.walk();
    for piece in content.named_children(&mut cursor) {
        let decoded = match piece.kind_name() {
            "escape_sequence" if !raw => unescape(text(piece, src))?,
            "escape_interpolation" if f_string => text(piece, src).get(..1)?.to_owned(),
            _ => continue,
        };
        value.push_str(src.get(at..piece.start_byte())?);
        value.push_str(&decoded);
        at = piece.end_byte();
    }
    value.push_str(src.get(at..content.end_byte())?);
    Some(value)
}

/// A piece of an f-string: literal text, or an interpolated expression.
pub enum FStringPart<'t> {
    Text(String),
    Expr(Node<'t>),
}

/// The pieces of an f-string literal (`f"{name}_out"`), its text decoded
/// like `string_value`'s; `None` for other strings, and for interpolations
/// with a conversion (`!r`) or a format spec (`:>3`), whose text is not the
/// value's own.
pub fn fstring_parts<'t>(node: Node<'t>, src: &str) -> Option<Vec<FStringPart<'t>>> {
    if node.kind_name() != "string" {
        return None;
    }
    let mut parts = Vec::new();
    let mut raw = false;
    let mut is_f = false;
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        match child.kind_name() {
            "string_start" => {
                let prefix = text(child, src).to_ascii_lowercase();
                if prefix.contains('b') {
                    return None;
                }
                is_f = prefix.contains('f');
                raw = prefix.contains('r');
            }
            "string_content" => {
                parts.push(FStringPart::Text(string_content(child, src, raw, true)?));
            }
            "interpolation" => {
                if child.field("type_conversion").is_some()
                    || child.field("format_specifier").is_some()
                {
                    return None;
                }
                parts.push(FStringPart::Expr(child.field("expression")?));
            }
            "string_end" => {}
            _ => return None,
        }
    }
    is_f.then_some(parts)
}

/// One escape sequence of a (non-raw) string literal, as Python reads it;
/// `None` for the named ones (`\N{...}`).
fn unescape(escape: &str) -> Option<String> {
    let body = escape.strip_prefix('\\')?;
    let code = |digits: &str, radix: u32| {
        u32::from_str_radix(digits, radix)
            .ok()
            .and_then(char::from_u32)
            .map(String::from)
    };
    match body.chars().next()? {
        'n' => Some("\n".into()),
        't' => Some("\t".into()),
        'r' => Some("\r".into()),
        '0'..='7' => code(body, 8),
        'x' | 'u' | 'U' => code(&body[1..], 16),
        'a' => Some("\x07".into()),
        'b' => Some("\x08".into()),
        'f' => Some("\x0c".into()),
        'v' => Some("\x0b".into()),
        '\\' | '\'' | '"' => Some(body.to_owned()),
        // A line continuation inside the literal.
        '\n' | '\r' => Some(String::new()),
        _ => None,
    }
}

/// The ancestors of `node`, nearest first, up to (not including) `top`:
/// what calling `parent()` from `node` until it gives `top` visits, or, if
/// `top` is not an ancestor, until the root. `Node::parent` walks down from
/// the tree's root on every call (its cost grows with the depth): the path
/// is found by one walk down from `top` when it holds `node`.
pub fn ancestors_below<'t>(node: Node<'t>, top: Node<'t>) -> Vec<Node<'t>> {
    if top.id() != node.id() {
        // Down from `top`, each step to the child holding `node`.
        let mut path = Vec::new();
        let mut current = top;
        while let Some(next) = current.child_with_descendant(node) {
            if next.id() == node.id() {
                path.reverse();
                return path;
            }
            path.push(next);
            current = next;
        }
    }
    // `top` does not hold `node` (another tree or statement, or `node`
    // itself): up to the root.
    let mut out = Vec::new();
    let mut current = node.parent();
    while let Some(parent) = current {
        if parent.id() == top.id() {
            break;
        }
        out.push(parent);
        current = parent.parent();
    }
    out
}

/// The identifiers under `node` that name something (not an attribute's
/// name after the dot, nor a keyword argument's name): what reading the
/// expression looks up.
pub fn name_uses(node: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.kind_name() == "identifier" {
            out.push(n);
            continue;
        }
        let mut cursor = n.walk();
        for child in n.named_children(&mut cursor) {
            let is_attribute_name = n.kind_name() == "attribute"
                && n.field("attribute").is_some_and(|a| a.id() == child.id());
            let is_keyword_name = n.kind_name() == "keyword_argument"
                && n.field("name").is_some_and(|a| a.id() == child.id());
            if !is_attribute_name && !is_keyword_name {
                stack.push(child);
            }
        }
    }
    out
}

/// The innermost expression of a parenthesized one: `(("cpu"))` -> `"cpu"`.
/// The operators of a `comparison_operator` node, in order (`a is not
/// None`: `["is not"]` as tree-sitter spells it, `a < b <= c`: `["<", "<="]`).
pub fn comparison_operators(node: Node<'_>) -> Vec<&'static str> {
    let mut cursor = node.walk();
    node.children(&mut cursor)
        .filter(|c| !c.is_named())
        .map(|c| c.kind())
        .collect()
}

pub fn unparenthesize(mut node: Node<'_>) -> Node<'_> {
    while node.kind_name() == "parenthesized_expression" {
        let mut cursor = node.walk();
        let inner = node
            .named_children(&mut cursor)
            .find(|c| c.kind_name() != "comment");
        match inner {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ancestors_below` is the `parent()` walk it replaces, for every node
    /// and every candidate top (ancestors, other nodes, the node itself,
    /// a node of another tree).
    #[test]
    fn ancestors_below_is_the_parent_walk() {
        let src = "import jax\n@jax.jit\ndef f(x):\n    with m:\n        if x:\n            return g(x, (1, [y]))\n    return x  # c\nclass C:\n    def m(self): return (lambda: 1)()\nbroken = (\n";
        let other = parse("def z(): return 1\n", None).expect("parse");
        let tree = parse(src, None).expect("parse");
        let mut nodes = Vec::new();
        let mut stack = vec![tree.root_node()];
        while let Some(node) = stack.pop() {
            nodes.push(node);
            let mut cursor = node.walk();
            stack.extend(node.children(&mut cursor));
        }
        let walk = |node: Node<'_>, top: Node<'_>| -> Vec<usize> {
            let mut out = Vec::new();
            let mut current = node.parent();
            while let Some(parent) = current {
                if parent.id() == top.id() {
                    break;
                }
                out.push(parent.id());
                current = parent.parent();
            }
            out
        };
        let ids = |v: Vec<Node<'_>>| v.iter().map(|n| n.id()).collect::<Vec<_>>();
        for &node in &nodes {
            for &top in nodes.iter().chain([&other.root_node()]) {
                assert_eq!(ids(ancestors_below(node, top)), walk(node, top));
            }
        }
    }

    /// `kind_name` is `kind` on every node of every fixture and example,
    /// broken ones included (ERROR and MISSING nodes).
    #[test]
    fn kind_names_are_tree_sitters() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let dirs = [root.join("tests"), root.join("examples")];
        let mut nodes = 0;
        for path in crate::check::collect_files(&dirs, &mut Vec::new()) {
            if path.extension().is_none_or(|e| e != "py") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            for text in [text.clone(), text.replace("return ", "return ) junk (")] {
                let tree = parse(&text, None).unwrap();
                let mut stack = vec![tree.root_node()];
                while let Some(node) = stack.pop() {
                    assert_eq!(node.kind_name(), node.kind(), "{}", path.display());
                    nodes += 1;
                    let mut cursor = node.walk();
                    stack.extend(node.children(&mut cursor));
                }
            }
        }
        assert!(nodes > 100_000, "{nodes} nodes");
    }

    #[test]
    fn reads_plain_strings_only() {
        let src = "a = ('cpu', r\"tpu\", f\"{x}\", b'cuda', 'c' 'pu')";
        let tree = parse(src, None).unwrap();
        let mut strings = Vec::new();
        let mut stack = vec![tree.root_node()];
        while let Some(node) = stack.pop() {
            if node.kind() == "string" {
                strings.push((node.start_byte(), string_value(node, src)));
            }
            let mut cursor = node.walk();
            stack.extend(node.children(&mut cursor));
        }
        strings.sort();
        let values: Vec<_> = strings.into_iter().map(|(_, v)| v).collect();
        assert_eq!(
            values,
            vec![
                Some("cpu".to_owned()),
                Some("tpu".to_owned()),
                None,
                None,
                Some("c".to_owned()),
                Some("pu".to_owned())
            ]
        );
    }

    /// A literal's escapes are decoded as Python decodes them; a raw
    /// literal keeps them; an f-string or bytes is no literal value.
    #[test]
    fn string_values_decode_escapes() {
        let value = |literal: &str| {
            let src = format!("x = {literal}\n");
            let tree = parse(&src, None).expect("parses");
            let string = tree
                .root_node()
                .named_descendant_for_byte_range(4, 4 + literal.len())
                .filter(|n| n.kind() == "string")
                .expect("a string node");
            string_value(string, &src)
        };
        assert_eq!(value(r#""a\ntpu""#).as_deref(), Some("a\ntpu"));
        assert_eq!(value(r#""\x41\u00e9\101\t\\""#).as_deref(), Some("AéA\t\\"));
        assert_eq!(value(r#"r"a\ntpu""#).as_deref(), Some(r"a\ntpu"));
        assert_eq!(value("'''a\nb'''").as_deref(), Some("a\nb"));
        assert_eq!(value(r#""\N{BULLET}""#), None);
        assert_eq!(value(r#"f"{x}""#), None);
        assert_eq!(value(r#"b"cpu""#), None);
    }
}

//! Hover: explanations on diagnostics, on codes in `# noqa:` comments, and on
//! JAX's upstream error ids in comments and strings.

use crate::diagnostic::Finding;
use crate::explain;
use crate::rules;
use crate::syntax::{self, Tree};
use crate::syntax::{LineIndex, Span};

/// Byte spans (in `line`, which has no line end) of the codes listed in a
/// `# noqa: A, B` comment, parsed like `analysis::noqa_codes`.
pub fn noqa_code_spans(line: &str) -> Vec<Span> {
    let Some(hash) = line.find('#') else {
        return Vec::new();
    };
    let Some(found) = line[hash..].to_ascii_lowercase().find("noqa") else {
        return Vec::new();
    };
    let after = hash + found + 4;
    let rest = &line[after..];
    let trimmed = rest.trim_start();
    if !trimmed.starts_with(':') {
        return Vec::new();
    }
    let list_start = after + (rest.len() - trimmed.len()) + 1;
    let mut spans = Vec::new();
    let mut token: Option<usize> = None;
    let list = &line[list_start..];
    let ends = list
        .char_indices()
        .map(|(i, c)| (i, Some(c)))
        .chain(std::iter::once((list.len(), None)));
    for (i, ch) in ends {
        let separator = ch.is_none_or(|c| c == ',' || c.is_whitespace());
        match (separator, token) {
            (true, Some(start)) => {
                let word = &list[start..i];
                if !word.chars().all(|c| c.is_ascii_alphanumeric()) {
                    break;
                }
                spans.push(list_start + start..list_start + i);
                token = None;
            }
            (false, None) => token = Some(i),
            _ => {}
        }
    }
    spans
}

/// Is `offset` inside a comment or a string literal? Without an up-to-date
/// tree, answers yes (an upstream id is 16 hex digits: in Python it can only
/// stand alone inside a comment or a string anyway).
fn in_comment_or_string(tree: Option<&Tree>, offset: usize) -> bool {
    tree.is_none_or(|tree| syntax::in_comment_or_string(tree, offset))
}

/// The hover text as plain text, for clients that ask for it: the Markdown
/// of `hover_at` without its markup (headings, emphasis, code spans and
/// fences, rules); links keep their address in parentheses.
pub fn plain_text(markdown: &str) -> String {
    let mut out = Vec::new();
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            continue;
        }
        if trimmed == "---" {
            out.push(String::new());
            continue;
        }
        let line = trimmed
            .strip_prefix("### ")
            .or_else(|| trimmed.strip_prefix("## "))
            .or_else(|| trimmed.strip_prefix("# "))
            .map_or(line, |heading| heading);
        let mut plain = line.replace("**", "").replace('`', "");
        // [text](address) -> text (address)
        while let Some(open) = plain.find("](") {
            let Some(start) = plain[..open].rfind('[') else {
                break;
            };
            let Some(close) = plain[open..].find(')').map(|i| open + i) else {
                break;
            };
            let text = plain[start + 1..open].to_owned();
            let address = plain[open + 2..close].to_owned();
            plain.replace_range(start..=close, &format!("{text} ({address})"));
        }
        out.push(plain);
    }
    // No runs of blank lines where rules and fences were.
    let mut text = out.join("\n");
    while text.contains("\n\n\n") {
        text = text.replace("\n\n\n", "\n\n");
    }
    text.trim().to_owned()
}

/// The hover text (Markdown) and the byte span it applies to.
pub fn hover_at(
    text: &str,
    index: &LineIndex,
    tree: Option<&Tree>,
    findings: Option<&[Finding]>,
    offset: usize,
) -> Option<(String, Span)> {
    // 1. Our diagnostics under the cursor.
    if let Some(findings) = findings {
        let hits: Vec<&Finding> = findings
            .iter()
            .filter(|f| f.span.start <= offset && offset <= f.span.end)
            .collect();
        if !hits.is_empty() {
            let span = hits.iter().map(|f| f.span.start).min().unwrap_or(offset)
                ..hits.iter().map(|f| f.span.end).max().unwrap_or(offset);
            let parts: Vec<String> = hits
                .iter()
                .map(|f| {
                    let mut part = format!("**{}**: {}\n", f.code, f.message);
                    if let Some(rule) = rules::by_code(f.code) {
                        part.push_str("\n---\n\n");
                        part.push_str(&explain::render(rule));
                    }
                    part
                })
                .collect();
            return Some((parts.join("\n\n---\n\n"), span));
        }
    }
    let line = index.line_of(offset);
    let range = index.line_range(text, line);
    let line_text = text.get(range.clone())?;
    let col = offset.checked_sub(range.start)?;
    // 2. A code in a `# noqa:` comment.
    for span in noqa_code_spans(line_text) {
        if span.start <= col && col <= span.end {
            let rule = rules::by_code(&line_text[span.clone()])?;
            return Some((
                explain::render(rule),
                range.start + span.start..range.start + span.end,
            ));
        }
    }
    // 3. An upstream error id (16 hex digits standing alone).
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let bytes = line_text.as_bytes();
    let mut start = col.min(line_text.len());
    while start > 0 && word(bytes[start - 1] as char) {
        start -= 1;
    }
    let mut end = col.min(line_text.len());
    while end < bytes.len() && word(bytes[end] as char) {
        end += 1;
    }
    let token = &line_text[start..end];
    if token.len() == 16 && token.chars().all(|c| c.is_ascii_hexdigit()) {
        let id = token.to_ascii_lowercase();
        let rule = rules::all()
            .iter()
            .copied()
            .find(|r| r.meta().upstream_id == Some(id.as_str()))?;
        if in_comment_or_string(tree, range.start + start) {
            let mut value = format!(
                "JAX error id `{id}`: **{}** {}\n\n---\n\n",
                rule.meta().code,
                rule.meta().name
            );
            value.push_str(&explain::render(rule));
            return Some((value, range.start + start..range.start + end));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax;

    #[test]
    fn finds_noqa_code_spans_like_the_engine() {
        let line = "x = f()  # noqa: JP001, JP002 because";
        let spans = noqa_code_spans(line);
        let codes: Vec<&str> = spans.iter().map(|s| &line[s.clone()]).collect();
        assert_eq!(codes, vec!["JP001", "JP002", "because"]); // as the engine reads it
        assert!(noqa_code_spans("x  # noqa").is_empty());
        let line = "s = \"# 日本\"  # NOQA:JP003";
        let codes: Vec<&str> = noqa_code_spans(line)
            .iter()
            .map(|s| &line[s.clone()])
            .collect();
        assert_eq!(codes, vec!["JP003"]);
    }

    #[test]
    fn hovers_noqa_codes_and_upstream_ids() {
        let id = rules::all()
            .iter()
            .find_map(|r| r.meta().upstream_id)
            .expect("a rule with an upstream id");
        let text = format!("x = 1  # noqa: JP002\n# see {id}\ny = 2\n");
        let index = LineIndex::new(&text);
        let tree = syntax::parse(&text, None);
        let at = text.find("JP002").unwrap() + 2;
        let (md, span) = hover_at(&text, &index, tree.as_ref(), None, at).unwrap();
        assert!(md.contains("JP002"));
        assert_eq!(&text[span], "JP002");
        let at = text.find(id).unwrap() + 3;
        let (md, span) = hover_at(&text, &index, tree.as_ref(), None, at).unwrap();
        assert!(md.contains(id), "{md}");
        assert_eq!(&text[span], id);
        assert!(hover_at(
            &text,
            &index,
            tree.as_ref(),
            None,
            text.find("y = 2").unwrap()
        )
        .is_none());
    }

    #[test]
    fn plain_text_has_no_markup() {
        let rule = rules::by_code("JP003").unwrap();
        let md = format!("**JP003**: a message\n\n---\n\n{}", explain::render(rule));
        let plain = plain_text(&md);
        for markup in ["**", "```", "# JP003", "`", "\n---\n", "\n\n\n"] {
            assert!(!plain.contains(markup), "{markup:?} in {plain}");
        }
        assert!(plain.starts_with("JP003: a message\n\nJP003 "), "{plain}");
        assert_eq!(
            plain_text("see [the docs](https://x.dev/a) and `f()`"),
            "see the docs (https://x.dev/a) and f()"
        );
    }
}

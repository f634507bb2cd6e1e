//! `jax-lsp explain` and `jax-lsp rules`.

use crate::rules::{self, Rule};
use serde_json::json;

/// Finds a rule by code (`JP002`), upstream id (`1bdcdc8192178bcd`) or a
/// pasted JAX error message.
pub fn find(query: &str) -> Option<&'static dyn Rule> {
    let query = query.trim();
    if let Some(rule) = rules::by_code(query) {
        return Some(rule);
    }
    if let Some(rule) = rules::all()
        .iter()
        .copied()
        .find(|r| r.meta().upstream_id == Some(query))
    {
        return Some(rule);
    }
    // A pasted message: match each template with placeholders as wildcards.
    let pasted = query.lines().map(str::trim).collect::<Vec<_>>().join(" ");
    rules::all()
        .iter()
        .copied()
        .find(|r| template_regex(r.meta().template).is_match(&pasted))
}

fn template_regex(template: &str) -> regex::Regex {
    let mut pattern = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        pattern.push_str(&regex::escape(&rest[..open]));
        pattern.push_str(".+?");
        rest = rest[open..]
            .find('}')
            .map(|close| &rest[open + close + 1..])
            .unwrap_or("");
    }
    pattern.push_str(&regex::escape(rest));
    // A paste may be cut short or carry a prefix like `ValueError: `.
    regex::Regex::new(&pattern).unwrap_or_else(|_| regex::Regex::new("$^").expect("valid"))
}

/// The explanation as Markdown, with a header.
pub fn render(rule: &dyn Rule) -> String {
    let m = rule.meta();
    let mut out = format!(
        "# {} {}\n\n{}\n\nSeverity: {}. JAX says: `{}`\n",
        m.code,
        m.name,
        m.summary,
        m.severity.as_str(),
        m.template
    );
    if let Some(id) = m.upstream_id {
        out.push_str(&format!("Upstream error id: `{id}`\n"));
    }
    out.push('\n');
    out.push_str(m.explanation.trim_start());
    out
}

pub fn rules_table(as_json: bool) -> String {
    if as_json {
        let items: Vec<_> = rules::all()
            .iter()
            .map(|r| {
                let m = r.meta();
                json!({
                    "code": m.code, "name": m.name, "severity": m.severity, "summary": m.summary,
                    "message": m.template, "upstream_id": m.upstream_id, "url": m.url(),
                    "explanation": m.explanation,
                })
            })
            .collect();
        return serde_json::to_string_pretty(&items).unwrap_or_default();
    }
    let mut out = String::new();
    for r in rules::all() {
        let m = r.meta();
        out.push_str(&format!(
            "{}  {:<32} {:<8} {}\n",
            m.code,
            m.name,
            m.severity.as_str(),
            m.summary
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_rules_by_code_id_and_message() {
        assert_eq!(find("jp002").map(|r| r.meta().code), Some("JP002"));
        assert_eq!(
            find("1bdcdc8192178bcd").map(|r| r.meta().code),
            Some("JP002")
        );
        assert_eq!(
            find("ValueError: the platform for the specified backend cpu is different from the lowering platform cuda")
                .map(|r| r.meta().code),
            Some("JP001")
        );
        assert_eq!(
            find("Compiler params for platform tpu cannot be used for gpu lowering.")
                .map(|r| r.meta().code),
            Some("JP002")
        );
        assert_eq!(
            find("ValueError: Passing lowering_platforms via jax.export or jit(f).trace(*args).lower(lowering_platforms=...) is required when only AbstractMesh exists in a jitted computation. Got context mesh: Mesh()")
                .map(|r| r.meta().code),
            Some("JP003")
        );
        assert!(find("something else entirely").is_none());
    }
}

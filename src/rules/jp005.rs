//! JP005 platforms-not-a-tuple: a bare string (or a list in `Traced.lower`)
//! given as lowering platforms.

use super::{python_tuple_repr, tuple_source, Context, Rule, RuleMeta};
use crate::diagnostic::{Finding, Severity};
use crate::fix::{Applicability, Edit, Fix};
use crate::semantic::{LoweringKind, PlatformsValue};
use crate::syntax::Field;
use crate::syntax::KindName;
use crate::syntax::{text, unparenthesize};

pub struct Jp005;

static META: RuleMeta = RuleMeta {
    code: "JP005",
    name: "platforms-not-a-tuple",
    severity: Severity::Error,
    template: "{keyword}={value} is a string, not a tuple: JAX lowers for platforms {chars}",
    summary: "lowering_platforms/platforms given as a bare string (JAX iterates its characters) or a list in Traced.lower.",
    upstream_id: None,
    explanation: r#"## What it means

`Traced.lower(lowering_platforms=...)` and `jax.export.export(..., platforms=...)` take a
sequence of platform names. A bare string is a sequence too: JAX iterates it and lowers
for `('c', 'p', 'u')`. Nothing rejects it at that point. Note that `("cpu")` without a
trailing comma is the same bare string. `Traced.lower` also needs a tuple: a list
fails with `TypeError: unhashable type: 'list'`.

## When it happens

Silently at lowering; later as `ValueError: safe_zip() argument 1 has length 1 but
argument 0 has length 2` on `.compile()`, `NotImplementedError: multi-platform
lowering for python_callback` with a callback, `Function 'f' was exported for
platforms '('c', 'p', 'u')' but it is used on '('cpu',)'` when calling an export, and
it hides other errors: an AbstractMesh computation lowered for `'tpu'` does not raise
E3 at all.

## How to fix

A one-element tuple: `lowering_platforms=("cpu",)`.

## Example

```python
jax.jit(f).trace(x).lower(lowering_platforms="cpu")    # lowers for ('c', 'p', 'u')
jax.jit(f).trace(x).lower(lowering_platforms=("cpu",)) # right
```

## JAX source

`jax/_src/stages.py:567` (`Traced.lower`), `jax/_src/interpreters/pxla.py:1082`,
`jax/_src/interpreters/mlir.py:1408` (`tuple(map(canonicalize_platform, platforms))`),
`jax/_src/export/_export.py:608` (`tuple(platforms)`).
"#,
};

impl Rule for Jp005 {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Context<'_, '_>, out: &mut Vec<Finding>) {
        let src = ctx.src();
        for lowering in ctx.lowerings_at_sites(META.code) {
            let Some((keyword, value)) = lowering.platforms_arg else {
                // Passed through `**` from entries with no node of their own
                // (a decorator's stored `**kwargs`, an imported dict): the
                // value is known, the text is elsewhere; reported at the call.
                let source = unwritten_source(lowering.call, src);
                if let Some(message) =
                    unwritten_message(&lowering.platforms, lowering.kind, &source)
                {
                    out.push(Finding {
                        code: META.code,
                        severity: META.severity,
                        message,
                        span: lowering.anchor.clone(),
                        related: Vec::new(),
                        fixes: Vec::new(),
                    });
                }
                continue;
            };
            // A helper's positional argument (`export_for(f, "tpu")`) is
            // named by what the lowering it reaches calls it.
            let keyword_name =
                keyword
                    .field("name")
                    .map(|n| text(n, src))
                    .unwrap_or(match lowering.kind {
                        LoweringKind::Export => "platforms",
                        _ => "lowering_platforms",
                    });
            let inner = unparenthesize(value);
            let is_literal = matches!(inner.kind_name(), "string" | "list");
            let (message, replacement) = match (&lowering.platforms, lowering.kind) {
                (PlatformsValue::Str(s), _) => {
                    let message = format!(
                        "{keyword_name}={} is a string, not a tuple: JAX lowers for platforms {}",
                        text(value, src),
                        chars_repr(s)
                    );
                    let replacement = if is_literal {
                        tuple_source(std::slice::from_ref(s))
                    } else {
                        format!("({},)", text(inner, src))
                    };
                    (message, Some(replacement))
                }
                // `tuple(platform)` of a string: its characters.
                (PlatformsValue::Split(s), _) => {
                    let message = format!(
                        "{keyword_name}={} makes a tuple of a string's characters: JAX lowers for platforms {}",
                        text(value, src),
                        chars_repr(s)
                    );
                    // Only `tuple("cpu")` itself has one right tuple; a
                    // configured string may be a list on other runs.
                    let literal = inner.kind_name() == "call"
                        && inner
                            .field("arguments")
                            .and_then(|a| a.named_child(0))
                            .is_some_and(|a| a.kind_name() == "string");
                    (message, literal.then(|| tuple_source(std::slice::from_ref(s))))
                }
                // A str whose text is not known here (`jax.default_backend()`,
                // an environment variable, a flag): JAX iterates it all the same.
                (PlatformsValue::Text, _) => (
                    format!(
                        "{keyword_name}={} is a string, not a tuple: JAX lowers for platforms named by its characters",
                        text(value, src)
                    ),
                    Some(format!("({},)", text(inner, src))),
                ),
                (PlatformsValue::SomeList, LoweringKind::TracedLower) => (
                    format!(
                        "TypeError: unhashable type: 'list' ({keyword_name} of `Traced.lower` must be a tuple, got {})",
                        text(value, src)
                    ),
                    Some(format!("tuple({})", text(inner, src))),
                ),
                (PlatformsValue::List(items), LoweringKind::TracedLower) => {
                    let message = format!(
                        "TypeError: unhashable type: 'list' ({keyword_name} of `Traced.lower` must be a tuple, got {})",
                        text(value, src)
                    );
                    let replacement = if is_literal {
                        tuple_source(items)
                    } else {
                        format!("tuple({})", text(inner, src))
                    };
                    (message, Some(replacement))
                }
                _ => continue,
            };
            out.push(Finding {
                code: META.code,
                severity: META.severity,
                message,
                span: value.byte_range(),
                related: Vec::new(),
                fixes: replacement
                    .into_iter()
                    .map(|replacement| Fix {
                        title: format!("Use a tuple: {keyword_name}={replacement}"),
                        edits: vec![Edit {
                            span: value.byte_range(),
                            text: replacement,
                        }],
                        applicability: Applicability::Safe,
                    })
                    .collect(),
            });
        }
    }
}

/// Where platforms not written at the call come from: a `**` unpacking, or
/// the helper the call goes to (another module's `aot_lower(f, x)` reading
/// its own settings).
fn unwritten_source(call: tree_sitter::Node<'_>, src: &str) -> String {
    let splat = call.field("arguments").is_some_and(|args| {
        let mut cursor = args.walk();
        let found = args
            .named_children(&mut cursor)
            .any(|a| a.kind_name() == "dictionary_splat");
        found
    });
    let callee = call.field("function").map(|f| text(f, src)).unwrap_or("");
    let lowers_itself = callee.ends_with(".lower") || callee.ends_with("export");
    match (splat, lowers_itself) {
        (true, _) | (false, true) => "passed with `**`".to_owned(),
        (false, false) => format!("that `{callee}` lowers with"),
    }
}

/// The message for a bad platforms value not written at the call
/// (`source`: where it comes from, `unwritten_source`).
fn unwritten_message(value: &PlatformsValue, kind: LoweringKind, source: &str) -> Option<String> {
    match (value, kind) {
        (PlatformsValue::Str(s), _) => Some(format!(
            "the lowering_platforms {source} is the string {s:?}, not a tuple: JAX lowers for platforms {}",
            chars_repr(s)
        )),
        (PlatformsValue::Split(s), _) => Some(format!(
            "the lowering_platforms {source} is a tuple of the string {s:?}'s characters: JAX lowers for platforms {}",
            chars_repr(s)
        )),
        (PlatformsValue::List(_) | PlatformsValue::SomeList, LoweringKind::TracedLower) => Some(format!(
            "TypeError: unhashable type: 'list' (the lowering_platforms {source} is a list; `Traced.lower` needs a tuple)"
        )),
        _ => None,
    }
}

/// `('c', 'p', 'u')`: the platforms JAX lowers for when it iterates `s`.
fn chars_repr(s: &str) -> String {
    let chars: Vec<String> = s.chars().map(String::from).collect();
    python_tuple_repr(&chars)
}

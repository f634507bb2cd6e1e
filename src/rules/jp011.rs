//! JP011 buffer-callback-platform: `buffer_callback` lowered for tpu, an unknown
//! platform, or several platforms.

use super::{python_tuple_repr, Context, Rule, RuleMeta};
use crate::diagnostic::{Finding, Severity};
use crate::semantic::ReqKind;

pub struct Jp011;

static META: RuleMeta = RuleMeta {
    code: "JP011",
    name: "buffer-callback-platform",
    severity: Severity::Error,
    template: "`buffer_callback` not supported on {platform} backend.",
    summary: "jax.experimental.buffer_callback lowered for tpu, an unknown platform, or several platforms.",
    upstream_id: None,
    explanation: r#"## What it means

`jax.experimental.buffer_callback.buffer_callback` is implemented for `cpu` and
`cuda`/`rocm` only, and only for one platform at a time.

## When it happens

At lowering: ``NotImplementedError: `buffer_callback` not supported on tpu
backend.`` or `multi-platform lowering for buffer_callback`.

## How to fix

Lower the computation that uses it for `cpu` or `cuda` alone.

## Example

```python
jax.jit(f).trace(x).lower(lowering_platforms=("tpu",))   # f uses buffer_callback
```

## JAX source

`jax/_src/buffer_callback.py:237` (multi-platform) and `:246`.
"#,
};

impl Rule for Jp011 {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Context<'_, '_>, out: &mut Vec<Finding>) {
        for lowering in ctx.lowerings_at_sites(META.code) {
            let Some(platforms) = lowering.lowered_platforms() else {
                continue;
            };
            let Some(req) = lowering.reqs.iter().find(|r| {
                matches!(r.kind, ReqKind::BufferCallback) && r.kept_for(&platforms) == Some(true)
            }) else {
                continue;
            };
            let message = if platforms.len() > 1 {
                format!(
                    "multi-platform lowering for buffer_callback (lowered for {})",
                    python_tuple_repr(&platforms)
                )
            } else if let Some(bad) = platforms
                .iter()
                .find(|p| !matches!(p.as_str(), "cpu" | "cuda" | "rocm"))
            {
                format!("`buffer_callback` not supported on {bad} backend.")
            } else {
                continue;
            };
            out.push(Finding {
                code: META.code,
                severity: META.severity,
                message,
                span: lowering.anchor.clone(),
                related: vec![ctx.related_req(req, "buffer_callback used here")],
                fixes: Vec::new(),
            });
        }
    }
}

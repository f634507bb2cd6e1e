//! JP010 pallas-cpu-needs-interpret: a Pallas kernel lowered for cpu without `interpret=True`.

use super::{insert_keyword, Context, Rule, RuleMeta};
use crate::diagnostic::{Finding, Severity};
use crate::fix::{Applicability, Fix};
use crate::semantic::reach::Interpret;
use crate::semantic::ReqKind;
use crate::syntax::KindName;

pub struct Jp010;

static META: RuleMeta = RuleMeta {
    code: "JP010",
    name: "pallas-cpu-needs-interpret",
    severity: Severity::Error,
    template: "Only interpret mode is supported on CPU backend.",
    summary: "A pallas_call without interpret=True is lowered for cpu.",
    upstream_id: None,
    explanation: r#"## What it means

Pallas has no CPU compiler: on `cpu` a `pallas_call` only runs in interpret mode.
Whatever its compiler params, a kernel reached from a lowering for `cpu` must be
called with `interpret=True`.

## When it happens

At lowering for `cpu` (`.lower(lowering_platforms=("cpu",))`, `jax.export(...,
platforms=["cpu", "tpu"])`), and when a plain `jit(f)(x)` runs on a CPU host.
A `lax.platform_dependent(x, tpu=kernel, default=...)` branch is pruned in a
single-platform `cpu` lowering, but not in a multi-platform one.

## How to fix

Pass `interpret=True` for CPU (for example `interpret=jax.default_backend() == "cpu"`),
or keep the kernel out of the CPU lowering with `platform_dependent` in a
single-platform lowering.

## Example

```python
def f(x):
    return pl.pallas_call(kernel, out_shape=x)(x)
jax.jit(f).trace(x).lower(lowering_platforms=("cpu",))
# ValueError: Only interpret mode is supported on CPU backend.
```

## JAX source

`jax/_src/pallas/pallas_call.py:896`.
"#,
};

impl Rule for Jp010 {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Context<'_, '_>, out: &mut Vec<Finding>) {
        for lowering in ctx.lowerings_at_sites(META.code) {
            // Explicit platforms, or a host that may be a CPU one.
            let platforms = match lowering.platforms() {
                Some(platforms) => platforms,
                None if lowering.uses_host_platform()
                    && ctx.host_platforms(lowering).iter().any(|p| p == "cpu") =>
                {
                    vec!["cpu".to_owned()]
                }
                None => continue,
            };
            if !platforms.iter().any(|p| p == "cpu") {
                continue;
            }
            for req in &lowering.reqs {
                let ReqKind::PallasCall {
                    interpret: Interpret::No,
                    ..
                } = &req.kind
                else {
                    continue;
                };
                if ctx.kept(req, lowering, &platforms) != Some(true) {
                    continue;
                }
                let mut fixes = Vec::new();
                if ctx.is_local(req) {
                    if let Some(call) = ctx.module.node_for_span(req.span.clone()) {
                        if call.kind_name() == "call" {
                            // Replace an existing `interpret=...` value, else add the keyword.
                            let existing = ctx.module.args_of(call).keyword("interpret");
                            let edit = match existing {
                                Some(value) => Some(crate::fix::Edit {
                                    span: value.byte_range(),
                                    text: "True".to_owned(),
                                }),
                                None => insert_keyword(call, ctx.src(), "interpret=True"),
                            };
                            if let Some(edit) = edit {
                                fixes.push(Fix {
                                    title: "Add interpret=True to the pallas_call".to_owned(),
                                    edits: vec![edit],
                                    applicability: Applicability::Unsafe,
                                });
                            }
                        }
                    }
                }
                out.push(Finding {
                    code: META.code,
                    severity: META.severity,
                    message: META.template.to_owned(),
                    span: lowering.anchor.clone(),
                    related: vec![ctx.related_req(req, "this pallas_call has no interpret=True")],
                    fixes,
                });
                break;
            }
        }
    }
}

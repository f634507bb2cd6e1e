//! JP008 platform-dependent-branches: `platform_dependent(gpu=...)`, or no
//! branch for a platform the computation is lowered for.

use super::{Context, Rule, RuleMeta};
use crate::diagnostic::{Finding, Severity};
use crate::fix::{Applicability, Edit, Fix};
use crate::semantic::{names, ReqKind};
use crate::syntax::Field;

pub struct Jp008;

static META: RuleMeta = RuleMeta {
    code: "JP008",
    name: "platform-dependent-branches",
    severity: Severity::Error,
    template: "Use 'cuda', 'rocm', or 'oneapi' for lax.platform_dependent.",
    summary: "lax.platform_dependent with a gpu= branch, or without a branch (and default) for a platform it is lowered for.",
    upstream_id: None,
    explanation: r#"## What it means

`jax.lax.platform_dependent(*args, default=None, **per_platform)` picks a branch by
lowering platform. Its keywords must be real platform names: `gpu=` is rejected
(`gpu` is only an alias that JAX resolves to the present GPU platform). A platform
the computation is lowered for needs a branch of its own or a `default=`.

## When it happens

`gpu=`: as soon as the call is traced (`ValueError: Use 'cuda', 'rocm', or 'oneapi'
for lax.platform_dependent.`). A missing branch: at lowering,
`NotImplementedError: MLIR translation rule for primitive 'platform_index(...)'
not found for platform cpu`.

## How to fix

Rename `gpu=` to `cuda=` (and add `rocm=` if you run on AMD GPUs); add the missing
branch or a `default=`.

## Example

```python
lax.platform_dependent(x, tpu=tpu_impl, gpu=gpu_impl)        # ValueError
lax.platform_dependent(x, tpu=tpu_impl, cuda=gpu_impl)       # right
jax.jit(lambda x: lax.platform_dependent(x, tpu=f, cuda=g)).trace(x).lower(lowering_platforms=("cpu",))
# NotImplementedError: MLIR translation rule for primitive 'platform_index(...)' not found for platform cpu
```

## JAX source

`jax/_src/lax/control_flow/conditionals.py:1290` (`platform_dependent`);
`jax/_src/interpreters/mlir.py:2650` for the missing branch.
"#,
};

impl Rule for Jp008 {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Context<'_, '_>, out: &mut Vec<Finding>) {
        let module = ctx.module;
        // gpu= anywhere: raised whenever the call runs.
        for site in module.sites_named(
            ctx.rule(META.code),
            &module.callee_names(&["platform_dependent", "partial"]),
        ) {
            let args = ctx.module.args_of(site.node);
            let callee = module.callee(site.node, site.scope);
            // Also `functools.partial(lax.platform_dependent, gpu=...)`.
            let bound = callee.as_deref() == Some(names::PARTIAL)
                && args.positional.first().is_some_and(|f| {
                    module.canonical(*f, site.scope).as_deref() == Some(names::PLATFORM_DEPENDENT)
                });
            if callee.as_deref() != Some(names::PLATFORM_DEPENDENT) && !bound {
                continue;
            }
            let Some(keyword) = args.keyword_arg("gpu") else {
                continue;
            };
            let name_node = keyword.field("name");
            let fixes = match name_node {
                Some(name) if args.keyword("cuda").is_none() => vec![Fix {
                    title: "Rename `gpu=` to `cuda=`".to_owned(),
                    edits: vec![Edit {
                        span: name.byte_range(),
                        text: "cuda".to_owned(),
                    }],
                    applicability: Applicability::Safe,
                }],
                _ => Vec::new(),
            };
            out.push(Finding {
                code: META.code,
                severity: META.severity,
                message: META.template.to_owned(),
                span: keyword.byte_range(),
                related: Vec::new(),
                fixes,
            });
        }
        // A literal lowering platform without a branch.
        for lowering in ctx.lowerings_at_sites(META.code) {
            let Some(platforms) = lowering.platforms() else {
                continue;
            };
            for req in &lowering.reqs {
                let ReqKind::PlatformDependent { keys, has_default } = &req.kind else {
                    continue;
                };
                if *has_default
                    || keys.iter().any(|k| k == "gpu")
                    || req.kept_for(&platforms) != Some(true)
                {
                    continue;
                }
                let Some(missing) = platforms.iter().find(|p| !keys.contains(p)) else {
                    continue;
                };
                let branches: Vec<String> = keys.iter().map(|k| format!("('{k}',)")).collect();
                out.push(Finding {
                    code: META.code,
                    severity: META.severity,
                    message: format!(
                        "MLIR translation rule for primitive 'platform_index(platforms=({}))' not found for platform {missing} (lax.platform_dependent has no `{missing}=` branch and no `default=`)",
                        branches.join(", ")
                    ),
                    span: lowering.anchor.clone(),
                    related: vec![ctx.related_req(req, format!("this platform_dependent has branches for {} only", keys.join(", ")))],
                    fixes: Vec::new(),
                });
            }
        }
    }
}

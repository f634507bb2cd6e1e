//! JP002 pallas-params-platform: Pallas compiler params lowered for another platform.

use super::{arguments_text, Context, Rule, RuleMeta};
use crate::diagnostic::{Finding, Related, Severity};
use crate::fix::{Applicability, Edit, Fix};
use crate::semantic::names::ParamsFamily;
use crate::semantic::reach::{CompilerParams, Interpret};
use crate::semantic::{ReqKind, Requirement};
use crate::syntax::text;
use crate::syntax::Field;
use crate::syntax::KindName;

pub struct Jp002;

static META: RuleMeta = RuleMeta {
    code: "JP002",
    name: "pallas-params-platform",
    severity: Severity::Error,
    template: "Compiler params for platform {platform} cannot be used for {expected_platform} lowering.",
    summary: "A pallas_call's compiler params belong to one platform but the computation is lowered for another.",
    upstream_id: Some("1bdcdc8192178bcd"),
    explanation: r#"## What it means

A `pl.pallas_call` carries `compiler_params` that only one Pallas backend
understands: `pltpu.CompilerParams` is registered for `tpu`, the Triton
`pltriton.CompilerParams` for `gpu` (cuda and rocm). Mosaic GPU's
`plgpu.CompilerParams` is not registered for `pallas_call` at all (Mosaic GPU
kernels go through `plgpu.kernel`). The kernel is reached from a lowering or
export for a platform whose backend cannot use those params.

## When it happens

At lowering time, in `get_lowering_rule`: `jax.jit(f).trace(x).lower(lowering_platforms=("cuda",))`
or `jax.export.export(jax.jit(f), platforms=["tpu", "cuda"])` of a function that
reaches the kernel. In a fresh process, TPU params lowered for a GPU fail with a
bare `AssertionError` (the TPU registration is imported lazily), and Mosaic GPU
params fail with a bare `AssertionError` on every platform.

## How to fix

* A single-platform lowering: choose the kernel per platform with
  `jax.lax.platform_dependent(x, tpu=tpu_kernel, cuda=gpu_kernel)`; branches for
  other platforms are pruned.
* Several platforms in one lowering: `platform_dependent` does **not** help (every
  kept branch is lowered for every platform). Lower or export once per platform.
* A `jax.default_backend()` branch only guards code that runs where it is traced,
  never a cross-lowering. Both fixes are offered as unsafe.

## Example

```python
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def add(x):
    return pl.pallas_call(kernel, out_shape=x,
                          compiler_params=pltpu.CompilerParams())(x)

jax.jit(add).trace(x).lower(lowering_platforms=("cuda",))
# Compiler params for platform tpu cannot be used for gpu lowering.
```

## JAX source

`jax/_src/pallas/core.py:186` (`get_lowering_rule`), called from
`jax/_src/pallas/pallas_call.py:905` (tpu) and `:936` (gpu), with the
`assert rule is not None` at `pallas_call.py:937`. Upstream error id `1bdcdc8192178bcd`.
"#,
};

/// Why a params family cannot be lowered for a platform, as JAX words it.
fn conflict(family: ParamsFamily, platform: &str) -> Option<String> {
    match (family, platform) {
        (ParamsFamily::Tpu, "cuda" | "rocm") => {
            Some("Compiler params for platform tpu cannot be used for gpu lowering.".to_owned())
        }
        (ParamsFamily::Triton, "tpu") => Some("Compiler params for platform gpu cannot be used for tpu lowering.".to_owned()),
        (ParamsFamily::MosaicGpu, "tpu" | "cuda" | "rocm") => Some(format!(
            "AssertionError: Mosaic GPU compiler params (`plgpu.CompilerParams`) are not registered for `pallas_call`; \
             lowering it for {platform} fails. Use `plgpu.kernel` for Mosaic GPU, or `pltriton.CompilerParams` / `pltpu.CompilerParams`."
        )),
        _ => None,
    }
}

impl Rule for Jp002 {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Context<'_, '_>, out: &mut Vec<Finding>) {
        for lowering in ctx.lowerings_at_sites(META.code) {
            let scenarios = ctx.platform_scenarios(lowering);
            let mut reported: Vec<&Requirement> = Vec::new();
            for (platforms, explicit) in &scenarios {
                for req in &lowering.reqs {
                    let ReqKind::PallasCall {
                        params: CompilerParams::Class(family),
                        interpret: Interpret::No,
                        ..
                    } = &req.kind
                    else {
                        continue;
                    };
                    if ctx.kept(req, lowering, platforms) != Some(true) || reported.contains(&req) {
                        continue;
                    }
                    let Some((platform, message)) = platforms
                        .iter()
                        .find_map(|p| conflict(*family, p).map(|m| (p, m)))
                    else {
                        continue;
                    };
                    reported.push(req);
                    let mut message = message;
                    if !explicit {
                        message.push_str(&format!(
                            " (lowered for the host's platform; this code runs on {platform})"
                        ));
                    }
                    let mut related = vec![
                        ctx.related_req(req, "the pallas_call whose compiler params conflict")
                    ];
                    if let Some(detail) = &req.detail {
                        related.push(Related {
                            file: related[0].file.clone(),
                            span: detail.clone(),
                            message: "compiler params given here".to_owned(),
                        });
                    }
                    let fixes = if ctx.is_local(req) {
                        fixes(ctx, req, *family, platforms.len() == 1)
                    } else {
                        Vec::new()
                    };
                    out.push(Finding {
                        code: META.code,
                        severity: META.severity,
                        message,
                        span: lowering.anchor.clone(),
                        related,
                        fixes,
                    });
                }
            }
        }
    }
}

/// The two unsafe rewrites of `pl.pallas_call(...)(args)`: per-platform
/// selection with an interpreted fallback.
fn fixes(
    ctx: &Context<'_, '_>,
    req: &Requirement,
    family: ParamsFamily,
    single_platform: bool,
) -> Vec<Fix> {
    let src = ctx.src();
    let keys: &[&str] = match family {
        ParamsFamily::Tpu => &["tpu"],
        ParamsFamily::Triton => &["cuda", "rocm"],
        ParamsFamily::MosaicGpu => return Vec::new(),
    };
    let Some(jax) = ctx.module.local_name_of("jax") else {
        return Vec::new();
    };
    let Some(pallas) = ctx.module.node_for_span(req.span.clone()) else {
        return Vec::new();
    };
    if pallas.kind_name() != "call" {
        return Vec::new();
    }
    // Only the direct form `pl.pallas_call(...)(args)`.
    let Some(invocation) = pallas
        .parent()
        .filter(|p| p.kind_name() == "call" && p.field("function") == Some(pallas))
    else {
        return Vec::new();
    };
    let (Some(call_args), Some(insert)) = (
        arguments_text(invocation, src),
        super::insert_keyword(pallas, src, "interpret=True"),
    ) else {
        return Vec::new();
    };
    let kernel = text(pallas, src);
    let relative = insert.span.start - pallas.start_byte();
    let interpreted = format!(
        "{}{}{}",
        &kernel[..relative],
        insert.text,
        &kernel[relative..]
    );
    let mut fixes = Vec::new();
    if single_platform {
        let branches: Vec<String> = keys.iter().map(|k| format!("{k}={kernel}")).collect();
        fixes.push(Fix {
            title: format!(
                "Select the kernel with `{jax}.lax.platform_dependent` (interpreted elsewhere)"
            ),
            edits: vec![Edit {
                span: invocation.byte_range(),
                text: format!(
                    "{jax}.lax.platform_dependent({call_args}, {}, default={interpreted})",
                    branches.join(", ")
                ),
            }],
            applicability: Applicability::Unsafe,
        });
    }
    let test = keys
        .iter()
        .map(|k| {
            format!(
                "{jax}.default_backend() == \"{}\"",
                if *k == "tpu" { "tpu" } else { "gpu" }
            )
        })
        .next()
        .unwrap_or_default();
    fixes.push(Fix {
        title: format!(
            "Run the kernel only when `{jax}.default_backend()` matches (interpreted elsewhere)"
        ),
        edits: vec![Edit {
            span: invocation.byte_range(),
            text: format!("({kernel} if {test} else {interpreted})({call_args})"),
        }],
        applicability: Applicability::Unsafe,
    });
    fixes
}

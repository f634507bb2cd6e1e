//! JP003 abstract-mesh-needs-platforms: an AbstractMesh-only computation
//! lowered without `lowering_platforms`, and eager ops under an AbstractMesh.

use super::{arguments_text, insert_keyword, tuple_source, Context, Rule, RuleMeta};
use crate::diagnostic::{Finding, Severity};
use crate::fix::{Applicability, Edit, Fix};
use crate::semantic::values::AbstractMeshInfo;
use crate::semantic::{ContextMesh, Lowering, LoweringKind};

pub struct Jp003;

static META: RuleMeta = RuleMeta {
    code: "JP003",
    name: "abstract-mesh-needs-platforms",
    severity: Severity::Error,
    template: "Passing lowering_platforms via jax.export or jit(f).trace(*args).lower(lowering_platforms=...) is required when only AbstractMesh exists in a jitted computation. Got context mesh: {context_mesh}",
    summary: "A computation whose shardings only use an AbstractMesh is lowered without lowering_platforms.",
    upstream_id: Some("8aad64be99a6b47e"),
    explanation: r#"## What it means

An `AbstractMesh` has axis names and sizes but no devices. When every sharding of a
jitted computation (in/out shardings, `ShapeDtypeStruct(sharding=...)` arguments,
a `use_abstract_mesh` context) is over an `AbstractMesh`, JAX has no device to take
the platform from, so the platform must be given explicitly.

## When it happens

At `.lower()` (or the `jit(f).lower(*args)` shortcut, which cannot take
`lowering_platforms` at all) when the context mesh has no `abstract_device`; and for
eager operations (`jnp.zeros(...)`) inside `with jax.sharding.use_abstract_mesh(am):`
when `am` has an Explicit axis (the default).

## How to fix

Pass the platform as a tuple: `.trace(*args).lower(lowering_platforms=("tpu",))`
(never a bare string, see JP005), or export with `jax.export.export`, which always
supplies platforms, or give the context mesh an `abstract_device`. The fix inserts
the platform from `target-platforms`, else offers `cpu`, `cuda` and `tpu`.

## Example

```python
mesh = AbstractMesh((8,), ("data",))
s = NamedSharding(mesh, P("data"))
jax.jit(f, in_shardings=s).trace(jax.ShapeDtypeStruct((64, 32), jnp.float32)).lower()
# ValueError: Passing lowering_platforms via jax.export or jit(f).trace(*args).lower(lowering_platforms=...)
#   is required when only AbstractMesh exists in a jitted computation. Got context mesh: Mesh()
```

## JAX source

`jax/_src/interpreters/pxla.py:1051` (`lower_sharding_computation`); the platform
inference from an abstract device is at `jax/_src/stages.py:576-578`.
Upstream error id `8aad64be99a6b47e`.
"#,
};

/// JAX's text for the context mesh in the message.
fn context_repr(context: &ContextMesh) -> String {
    match context {
        ContextMesh::Abstract(AbstractMeshInfo { repr: Some(r), .. }) => r.clone(),
        ContextMesh::Abstract(_) => "AbstractMesh(...)".to_owned(),
        _ => "Mesh()".to_owned(),
    }
}

pub fn message(context: &ContextMesh) -> String {
    META.template
        .replace("{context_mesh}", &context_repr(context))
}

impl Rule for Jp003 {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Context<'_, '_>, out: &mut Vec<Finding>) {
        for lowering in ctx.lowerings_at_sites(META.code) {
            if !lowering.platforms_missing() || lowering.context_has_device() {
                continue;
            }
            let mesh = ctx.mesh_use(lowering);
            if !mesh.abstract_mesh || mesh.concrete || mesh.unknown {
                continue;
            }
            let mut related = Vec::new();
            if let Some(jitted) = &lowering.jitted {
                related.push(ctx.related_here(
                    jitted.site,
                    "the jitted computation whose shardings only use an AbstractMesh",
                ));
            }
            out.push(Finding {
                code: META.code,
                severity: META.severity,
                message: message(&lowering.context),
                span: lowering.anchor.clone(),
                related,
                fixes: fixes(ctx, lowering),
            });
        }
        for (call, context) in ctx
            .module
            .eager_ops_under_abstract_mesh(ctx.rule(META.code))
        {
            out.push(Finding {
                code: META.code,
                severity: META.severity,
                message: format!(
                    "{} (an eager operation inside `use_abstract_mesh`)",
                    message(&context)
                ),
                span: call.byte_range(),
                related: Vec::new(),
                fixes: Vec::new(),
            });
        }
    }
}

/// Insert `lowering_platforms=("<p>",)`: one fix per candidate platform, the
/// first preferred.
fn fixes(ctx: &Context<'_, '_>, lowering: &Lowering<'_>) -> Vec<Fix> {
    let src = ctx.src();
    let candidates: Vec<String> = if ctx.settings.target_platforms.is_empty() {
        ["cpu", "cuda", "tpu"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect()
    } else {
        ctx.settings.target_platforms.clone()
    };
    let mut fixes = Vec::new();
    for platform in candidates {
        let value = tuple_source(std::slice::from_ref(&platform));
        let edit = match lowering.kind {
            LoweringKind::TracedLower => {
                // Replace an explicit `lowering_platforms=None`, else add the keyword.
                match lowering.platforms_arg {
                    Some((_, value_node)) => Some(Edit {
                        span: value_node.byte_range(),
                        text: value.clone(),
                    }),
                    None => {
                        insert_keyword(lowering.call, src, &format!("lowering_platforms={value}"))
                    }
                }
            }
            // `jit(f).lower(x)` has no lowering_platforms: go through trace.
            LoweringKind::JitLower => arguments_text(lowering.call, src).map(|args| Edit {
                span: lowering.anchor.start..lowering.call.end_byte(),
                text: format!("trace({args}).lower(lowering_platforms={value})"),
            }),
            LoweringKind::Export => None,
        };
        if let Some(edit) = edit {
            fixes.push(Fix {
                title: format!("Insert lowering_platforms={value}"),
                edits: vec![edit],
                applicability: Applicability::Safe,
            });
        }
    }
    fixes
}

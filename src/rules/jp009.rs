//! JP009 set-mesh-abstract: `jax.set_mesh(AbstractMesh(...))`.

use super::{Context, Rule, RuleMeta};
use crate::diagnostic::{Finding, Severity};
use crate::fix::{Applicability, Edit, Fix};
use crate::semantic::{names, MeshValue};
use crate::syntax::Field;
use crate::syntax::KindName;

pub struct Jp009;

static META: RuleMeta = RuleMeta {
    code: "JP009",
    name: "set-mesh-abstract",
    severity: Severity::Error,
    template: "Expected mesh of type `jax.sharding.Mesh`. Got <class 'jax._src.mesh.AbstractMesh'>",
    summary: "jax.set_mesh is given an AbstractMesh; it only takes a concrete Mesh.",
    upstream_id: None,
    explanation: r#"## What it means

`jax.set_mesh` (= `jax.sharding.set_mesh`) installs a concrete device mesh. An
`AbstractMesh` (no devices) goes through `jax.sharding.use_abstract_mesh` instead.

## When it happens

At the call: ``ValueError: Expected mesh of type `jax.sharding.Mesh`. Got <class
'jax._src.mesh.AbstractMesh'>``.

## How to fix

`with jax.sharding.use_abstract_mesh(abstract_mesh):`, or pass a concrete mesh
(`jax.make_mesh(...)`) to `set_mesh`.

## Example

```python
with jax.set_mesh(AbstractMesh((2,), ("x",))):                  # ValueError
with jax.sharding.use_abstract_mesh(AbstractMesh((2,), ("x",))): # right
```

## JAX source

`jax/_src/sharding_impls.py:1003-1005` (`set_mesh`).
"#,
};

impl Rule for Jp009 {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Context<'_, '_>, out: &mut Vec<Finding>) {
        let module = ctx.module;
        for site in module.sites_named(ctx.rule(META.code), &module.callee_names(&["set_mesh"])) {
            if module.callee(site.node, site.scope).as_deref() != Some(names::SET_MESH) {
                continue;
            }
            let args = ctx.module.args_of(site.node);
            let Some(mesh) = args
                .positional
                .first()
                .copied()
                .or_else(|| args.keyword("mesh"))
            else {
                continue;
            };
            // Every mesh it may be is abstract, or one that certainly runs
            // is (an element of a loop over meshes).
            let meshes = module.eval_mesh_alts(mesh, site.scope);
            let all_abstract = !meshes.is_empty()
                && meshes
                    .iter()
                    .all(|(m, _, _)| matches!(m, MeshValue::Abstract(_)));
            let running = meshes
                .iter()
                .find(|(m, why, _)| matches!(m, MeshValue::Abstract(_)) && why.certain());
            let note = match (all_abstract, running) {
                (true, _) => None,
                (false, Some((_, why, _))) => why.note().map(str::to_owned),
                (false, None) => continue,
            };
            // The fix only fits the context-manager use (`use_abstract_mesh` is not a setter).
            let in_with = site
                .node
                .parent()
                .is_some_and(|p| matches!(p.kind_name(), "with_item" | "as_pattern"));
            let mut fixes = Vec::new();
            if let (true, Some(jax), Some(func)) = (
                in_with,
                module.local_name_of("jax"),
                site.node.field("function"),
            ) {
                fixes.push(Fix {
                    title: format!("Use `{jax}.sharding.use_abstract_mesh`"),
                    edits: vec![Edit {
                        span: func.byte_range(),
                        text: format!("{jax}.sharding.use_abstract_mesh"),
                    }],
                    applicability: Applicability::Safe,
                });
            }
            out.push(Finding {
                code: META.code,
                severity: META.severity,
                message: match note {
                    Some(note) => format!("{} ({note})", META.template),
                    None => META.template.to_owned(),
                },
                span: site.node.byte_range(),
                related: Vec::new(),
                fixes,
            });
        }
    }
}

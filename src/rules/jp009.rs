//! JP009 set-mesh-abstract: `jax.set_mesh(AbstractMesh(...))`.

use super::{Context, Rule, RuleMeta};
use crate::diagnostic::{Finding, Severity};
use crate::fix::{Applicability, Edit, Fix};
use crate::semantic::names;
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
            let Some(note) = module.set_mesh_given_abstract(site.node, site.scope) else {
                continue;
            };
            // `if isinstance(mesh, AbstractMesh): ... else: jax.set_mesh(mesh)`
            // given an AbstractMesh never reaches the setter; nor does the
            // `__enter__` of a class made only in such a branch.
            if module.never_runs(site.node, site.scope)
                || module.guarded_off(site.node, site.scope)
                || module.called_only_from_dead_code(module.enclosing_function(site.scope))
            {
                continue;
            }
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
        // A function of another module given the mesh and passing it to
        // `jax.set_mesh` (`with contexts.entered(mesh):`): JAX raises in it,
        // at this call.
        for site in module.imported_helper_calls() {
            let Some((callee, note)) = module.foreign_set_mesh_abstract(site.node, site.scope)
            else {
                continue;
            };
            if module.never_runs(site.node, site.scope) {
                continue;
            }
            let passes = format!("`{callee}` passes it to `jax.set_mesh`");
            out.push(Finding {
                code: META.code,
                severity: META.severity,
                message: match note {
                    Some(note) => format!("{} ({passes}; {note})", META.template),
                    None => format!("{} ({passes})", META.template),
                },
                span: site.node.byte_range(),
                related: Vec::new(),
                fixes: Vec::new(),
            });
        }
    }
}

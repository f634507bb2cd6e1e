//! JP007 multi-platform-callback: a host callback in a lowering for several platforms.

use super::{Context, Rule, RuleMeta};
use crate::diagnostic::{Finding, Severity};
use crate::semantic::values::PlatformsValue;
use crate::semantic::ReqKind;

pub struct Jp007;

static META: RuleMeta = RuleMeta {
    code: "JP007",
    name: "multi-platform-callback",
    severity: Severity::Error,
    template: "multi-platform lowering for python_callback",
    summary: "A host callback is reached from a lowering or export for more than one platform.",
    upstream_id: None,
    explanation: r#"## What it means

Host callbacks (`jax.pure_callback`, `io_callback`) cannot be lowered for several
platforms at once; `jax.debug.print` and `jax.debug.callback` crash in that case
with a JAX bug (`TypeError: can only concatenate list (not "tuple") to list`). A
bare string such as `lowering_platforms="cpu"` is several platforms too
(`('c', 'p', 'u')`, see JP005); for those characters the debug primitives have no
lowering rule at all (`NotImplementedError: MLIR translation rule for primitive
'debug_print' not found for platforms ['c', 'p', 'u']`).

## When it happens

At lowering: `.lower(lowering_platforms=("cpu", "cuda"))` or
`jax.export.export(jit(f), platforms=["cpu", "tpu"])` of a function that reaches a
callback, even inside a `lax.platform_dependent` branch that is kept for one of the
platforms.

## How to fix

Lower once per platform, or keep the callback in a `platform_dependent` branch of a
single-platform lowering.

## Example

```python
def f(x):
    return jax.pure_callback(np.sin, x, x)
jax.jit(f).trace(x).lower(lowering_platforms=("cpu", "cuda"))
# NotImplementedError: multi-platform lowering for python_callback
```

## JAX source

`jax/_src/callback.py:811` (`emit_python_callback`); the debug variant fails at
`jax/_src/interpreters/mlir.py:2704`.
"#,
};

impl Rule for Jp007 {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Context<'_, '_>, out: &mut Vec<Finding>) {
        for lowering in ctx.lowerings_at_sites(META.code) {
            let Some(platforms) = lowering.lowered_platforms() else {
                continue;
            };
            if platforms.len() < 2 {
                continue;
            }
            let Some(req) = lowering.reqs.iter().find(|r| {
                matches!(r.kind, ReqKind::HostCallback { .. })
                    && r.kept_for(&platforms) == Some(true)
            }) else {
                continue;
            };
            // An AbstractMesh-only computation with a device-requiring callback
            // fails earlier (JP004).
            let mesh = ctx.mesh_use(lowering);
            if req.kind.requires_devices() && mesh.abstract_mesh && !mesh.concrete && !mesh.unknown
            {
                continue;
            }
            let ReqKind::HostCallback { api } = &req.kind else {
                continue;
            };
            // A bare string's characters are no platforms JAX knows: its
            // debug primitives have no rule for them (jax-facts.md).
            let bare_string = matches!(
                lowering.platforms,
                PlatformsValue::Str(_) | PlatformsValue::Split(_)
            );
            let message = if api.starts_with("jax.debug") && bare_string {
                let primitive = if api.ends_with("print") {
                    "debug_print"
                } else {
                    "debug_callback"
                };
                format!(
                    "NotImplementedError: MLIR translation rule for primitive '{primitive}' not found for platforms {} (`{api}` in a lowering for a bare string's characters)",
                    python_list_repr(&platforms)
                )
            } else if api.starts_with("jax.debug") {
                format!("TypeError: can only concatenate list (not \"tuple\") to list (`{api}` in a lowering for {} platforms; JAX cannot lower it for several)", platforms.len())
            } else {
                format!(
                    "{} (`{api}` in a lowering for {})",
                    META.template,
                    super::python_tuple_repr(&platforms)
                )
            };
            out.push(Finding {
                code: META.code,
                severity: META.severity,
                message,
                span: lowering.anchor.clone(),
                related: vec![ctx.related_req(req, format!("host callback `{api}`"))],
                fixes: Vec::new(),
            });
        }
    }
}

/// `['c', 'p', 'u']`: how JAX's message lists the platforms.
fn python_list_repr(platforms: &[String]) -> String {
    let items: Vec<String> = platforms.iter().map(|p| format!("'{p}'")).collect();
    format!("[{}]", items.join(", "))
}

//! JP004 abstract-mesh-device-primitive: an AbstractMesh-only computation that
//! needs devices during lowering.

use super::{Context, Rule, RuleMeta};
use crate::diagnostic::{Finding, Severity};
use crate::semantic::{Guard, LoweringKind, ReqKind};

pub struct Jp004;

static META: RuleMeta = RuleMeta {
    code: "JP004",
    name: "abstract-mesh-device-primitive",
    severity: Severity::Error,
    template: "AbstractMesh cannot be used when jaxpr contains primitives that require devices to be present during lowering.",
    summary: "A computation sharded only over an AbstractMesh reaches a callback or another primitive that needs devices.",
    upstream_id: None,
    explanation: r#"## What it means

With only an `AbstractMesh` in its shardings, a computation has no devices. Some
primitives need devices while lowering: `jax.pure_callback`, `io_callback`,
`jax.debug.inspect_array_sharding`, `custom_partitioning` (and the cuDNN fused
attention/scaled-matmul primitives). JAX refuses to lower them without devices.
(`jax.debug.print` and `jax.debug.callback` are not in that set.)

## When it happens

At lowering, once lowering platforms are given (`.lower(lowering_platforms=...)`,
a context mesh with an `abstract_device`) or always through `jax.export`, which
supplies platforms itself. A callback only some hosts trace (picked by
`jax.default_backend()`) is reported as a warning naming the host that traces it.

## How to fix

Use a concrete mesh (`jax.make_mesh`) for this computation, or move the callback
out of it.

## Example

```python
mesh = AbstractMesh((2,), ("x",))
def f(x):
    return jax.pure_callback(np.sin, x, x)
jax.jit(f, in_shardings=NamedSharding(mesh, P("x"))).trace(x).lower(lowering_platforms=("cpu",))
# ValueError: AbstractMesh cannot be used when jaxpr contains primitives that require devices to be present during lowering.
```

## JAX source

`jax/_src/interpreters/pxla.py:1057` (`lower_sharding_computation`); the set is
`dispatch.prim_requires_devices_during_lowering` (`jax/_src/dispatch.py:271`).
"#,
};

impl Rule for Jp004 {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Context<'_, '_>, out: &mut Vec<Finding>) {
        for lowering in ctx.lowerings_at_sites(META.code) {
            // Lowering platforms must be supplied: explicitly, by export (always),
            // or inferred from the context mesh's abstract device.
            let supplied = lowering.platforms().is_some()
                || lowering.platforms == crate::semantic::PlatformsValue::SomeTuple
                || lowering.kind == LoweringKind::Export
                || (lowering.platforms_missing() && lowering.context_has_device());
            if !supplied {
                continue;
            }
            let mesh = ctx.mesh_use(lowering);
            if !(mesh.abstract_mesh && !mesh.concrete && !mesh.unknown) {
                continue;
            }
            // The device check scans the whole jaxpr before lowering, so
            // `platform_dependent` branches do not hide a callback; only code
            // that is not traced at all (a host-dependent branch) is skipped.
            let kept = |r: &crate::semantic::Requirement| {
                !r.guards
                    .iter()
                    .any(|g| matches!(g, Guard::HostDependent(_) | Guard::CallerChoice))
            };
            // Traced only on some hosts (picked by `jax.default_backend()`):
            // it fails on those, the ones this code runs on if it says.
            let traced_on = |r: &crate::semantic::Requirement| -> Option<Vec<String>> {
                if r.guards.contains(&Guard::CallerChoice) {
                    return None;
                }
                let targets = ctx.host_platforms(lowering);
                r.named_hosts()
                    .map(|h| -> Vec<String> {
                        h.into_iter()
                            .filter(|x| targets.is_empty() || targets.contains(x))
                            .collect()
                    })
                    .filter(|h| !h.is_empty())
            };
            let (req, severity, note) = match lowering
                .reqs
                .iter()
                .find(|r| r.kind.requires_devices() && kept(r))
            {
                Some(req) => (req, META.severity, String::new()),
                None => {
                    let Some((req, hosts)) = lowering
                        .reqs
                        .iter()
                        .filter(|r| r.kind.requires_devices())
                        .find_map(|r| traced_on(r).map(|h| (r, h)))
                    else {
                        continue;
                    };
                    let backend = match hosts[0].as_str() {
                        "cuda" | "rocm" => "gpu",
                        other => other,
                    };
                    (
                        req,
                        Severity::Warning,
                        format!(" on a host whose backend is {backend}, which traces it"),
                    )
                }
            };
            let api = match &req.kind {
                ReqKind::HostCallback { api } => (*api).to_owned(),
                ReqKind::DevicePrimitive { api } => api.clone(),
                _ => continue,
            };
            out.push(Finding {
                code: META.code,
                severity,
                message: format!(
                    "{} (`{api}` needs devices; the computation only has an AbstractMesh{note})",
                    META.template
                ),
                span: lowering.anchor.clone(),
                related: vec![
                    ctx.related_req(req, format!("`{api}` requires devices during lowering"))
                ],
                fixes: Vec::new(),
            });
        }
    }
}

//! JP001 callback-backend-mismatch: a host callback lowered for a platform
//! other than the backend the computation is placed on.

use super::{tuple_source, Context, Rule, RuleMeta};
use crate::diagnostic::{Finding, Related, Severity};
use crate::fix::{Applicability, Edit, Fix};
use crate::semantic::names::{self, is_accelerator, KNOWN_PLATFORMS};
use crate::semantic::reach::Interpret;
use crate::semantic::{Lowering, ReqKind};
use crate::syntax::unparenthesize;
use crate::syntax::Field;
use crate::syntax::KindName;

pub struct Jp001;

static META: RuleMeta = RuleMeta {
    code: "JP001",
    name: "callback-backend-mismatch",
    severity: Severity::Error,
    template: "the platform for the specified backend {backend} is different from the lowering platform {platform}",
    summary: "A host callback is lowered for a platform other than the backend the computation runs on.",
    upstream_id: Some("d8bc04aa488be938"),
    explanation: r#"## What it means

Host callbacks (`jax.pure_callback`, `io_callback`, `jax.debug.print`,
`jax.debug.callback`, and Pallas `interpret=pltpu.InterpretParams()`) are lowered
through `emit_python_callback`, which asks the module for its backend: the backend
of the devices the computation is placed on. When the computation is lowered for a
different platform, JAX refuses.

## When it happens

At lowering: `jax.jit(f).trace(x).lower(lowering_platforms=("cuda",))` or
`jax.export.export(jax.jit(f), platforms=["tpu"])` on a CPU host, or a
`jax.jit(f, backend="cpu")` computation lowered for an accelerator. Where the
backend is only known from the host (no `backend=`/`device=` and no
`target-platforms`), an explicit accelerator platform signals cross-lowering and
is reported as a warning: it fails on every host that is not that accelerator.
A callback only some hosts trace (a solver picked by `jax.default_backend()`,
`SOLVERS[jax.default_backend()]` with a `pure_callback` one for `"cpu"`) is
reported the same way, naming the host on which it fails.

## How to fix

Lower for the platform of the backend the computation runs on, or move the
callback out of the lowered/exported function. (Exporting a computation with host
callbacks fails anyway: `serialization of host_callbacks is not yet implemented`.)

## Example

```python
def f(x):
    jax.debug.print("x = {}", x)
    return x * 2

jax.jit(f).trace(x).lower(lowering_platforms=("tpu",))   # on a CPU host
# ValueError: the platform for the specified backend cpu is different from the lowering platform tpu
```

## JAX source

`jax/_src/interpreters/mlir.py:952` (`ModuleContext.get_backend`), called from
`jax/_src/callback.py:822` (`emit_python_callback`). Upstream error id `d8bc04aa488be938`.
"#,
};

/// The backend `jit(backend=...)` / `jit(device=jax.devices("cpu")[0])` names.
/// The backend the computation is placed on, when the code says:
/// `jit(backend=...)`, `jit(device=jax.devices("cpu")[0])`, or arguments
/// committed with `jax.device_put(x, jax.devices("cpu")[0])`.
fn placed_backend<'t>(ctx: &Context<'_, 't>, lowering: &Lowering<'t>) -> Option<String> {
    if let Some(jitted) = lowering.jitted.as_ref() {
        if let Some((node, scope)) = jitted.keyword("backend") {
            return ctx.module.eval_str(node, scope, 0);
        }
        if let Some((device, scope)) = jitted.keyword("device") {
            return device_platform(ctx, device, scope);
        }
    }
    // Committed arguments: all that name a device must agree.
    let mut found: Option<String> = None;
    for arg in &lowering.trace_args {
        let Some((call, scope)) = follow_to_call(ctx, *arg, lowering.scope) else {
            continue;
        };
        if ctx.module.callee(call, scope).as_deref() != Some(names::DEVICE_PUT) {
            continue;
        }
        let args = ctx.module.args_of(call);
        let Some(device) = args
            .positional
            .get(1)
            .copied()
            .or_else(|| args.keyword("device"))
        else {
            continue;
        };
        let platform = device_platform(ctx, device, scope)?;
        if found.as_ref().is_some_and(|f| *f != platform) {
            return None;
        }
        found = Some(platform);
    }
    found
}

/// An expression through names to the call (or subscript) it is bound to.
fn follow_to_call<'t>(
    ctx: &Context<'_, 't>,
    node: tree_sitter::Node<'t>,
    scope: crate::semantic::ScopeId,
) -> Option<(tree_sitter::Node<'t>, crate::semantic::ScopeId)> {
    ctx.module
        .follow_names(node, scope)
        .filter(|(n, _)| matches!(n.kind_name(), "call" | "subscript"))
}

/// `jax.devices("cpu")[0]` / `jax.local_devices(backend="cpu")[0]` -> "cpu".
fn device_platform<'t>(
    ctx: &Context<'_, 't>,
    device: tree_sitter::Node<'t>,
    scope: crate::semantic::ScopeId,
) -> Option<String> {
    let (device, scope) = follow_to_call(ctx, device, scope)?;
    let call = if device.kind_name() == "subscript" {
        unparenthesize(device.field("value")?)
    } else {
        device
    };
    if call.kind_name() != "call" {
        return None;
    }
    let callee = ctx.module.callee(call, scope)?;
    if callee != names::DEVICES && callee != names::LOCAL_DEVICES {
        return None;
    }
    let args = ctx.module.args_of(call);
    let backend = args
        .positional
        .first()
        .copied()
        .or_else(|| args.keyword("backend"))?;
    ctx.module.eval_str(backend, scope, 0)
}

impl Rule for Jp001 {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Context<'_, '_>, out: &mut Vec<Finding>) {
        for lowering in ctx.lowerings_at_sites(META.code) {
            let Some(platforms) = lowering.platforms() else {
                continue;
            };
            // Several platforms with a callback is JP007's error; unknown names JP006's.
            let [platform] = platforms.as_slice() else {
                continue;
            };
            if !KNOWN_PLATFORMS.contains(&platform.as_str()) {
                continue;
            }
            let all_callbacks: Vec<_> = lowering
                .reqs
                .iter()
                .filter(|r| match &r.kind {
                    ReqKind::HostCallback { .. } => true,
                    ReqKind::PallasCall { interpret, .. } => *interpret == Interpret::Callback,
                    _ => false,
                })
                .collect();
            let mut callbacks: Vec<_> = all_callbacks
                .iter()
                .copied()
                .filter(|r| ctx.kept(r, lowering, &platforms) == Some(true))
                .collect();
            // Where nothing says which host runs it, a callback that only
            // some hosts trace (picked by `jax.default_backend()`) fails on
            // those of them whose backend is not the lowering's platform.
            let mut host_only: Vec<String> = Vec::new();
            let placed = placed_backend(ctx, lowering);
            if callbacks.is_empty() && placed.is_none() && ctx.host_platforms(lowering).is_empty() {
                for r in &all_callbacks {
                    let Some(hosts) = r.kept_only_on_hosts(&platforms) else {
                        continue;
                    };
                    let failing: Vec<String> =
                        hosts.into_iter().filter(|h| h != platform).collect();
                    if failing.is_empty() {
                        continue;
                    }
                    callbacks.push(r);
                    for h in failing {
                        if !host_only.contains(&h) {
                            host_only.push(h);
                        }
                    }
                }
            }
            let Some(first) = callbacks.first() else {
                continue;
            };
            // An AbstractMesh-only computation with a callback that needs
            // devices fails as JP004 says. `jax.debug.print`/`callback` do
            // not need devices, and are still checked against the host's
            // backend (docs/jax-facts-additions.md): JP001's error.
            let mesh = ctx.mesh_use(lowering);
            let debug_only = callbacks.iter().all(|r| {
                matches!(r.kind, ReqKind::HostCallback { .. }) && !r.kind.requires_devices()
            });
            if mesh.abstract_mesh && !mesh.concrete && !debug_only {
                continue;
            }
            let (backend, severity, note) = match placed {
                None if !host_only.is_empty() => {
                    let backend = match host_only[0].as_str() {
                        "cuda" | "rocm" => "gpu".to_owned(),
                        other => other.to_owned(),
                    };
                    let note = format!(" (on a host whose backend is {backend}, which picks it)");
                    (backend, Severity::Warning, note)
                }
                Some(b) if b == "gpu" || !KNOWN_PLATFORMS.contains(&b.as_str()) => continue,
                Some(b) if b != *platform => (b, Severity::Error, String::new()),
                Some(_) => continue,
                None if !ctx.host_platforms(lowering).is_empty() => {
                    let targets = &ctx.host_platforms(lowering);
                    let Some(host) = targets.iter().find(|t| *t != platform) else {
                        continue;
                    };
                    let severity = if targets.contains(platform) {
                        Severity::Warning
                    } else {
                        Severity::Error
                    };
                    (
                        host.clone(),
                        severity,
                        " (on a host whose backend is one of the platforms this code runs on)"
                            .to_owned(),
                    )
                }
                None if is_accelerator(platform) => (
                    "cpu".to_owned(),
                    Severity::Warning,
                    format!(" (on any host whose default backend is not {platform})"),
                ),
                None => continue,
            };
            let api = match &first.kind {
                ReqKind::HostCallback { api } => (*api).to_owned(),
                _ => "Pallas interpret mode (built on io_callback)".to_owned(),
            };
            let mut related: Vec<Related> = callbacks
                .iter()
                .take(3)
                .map(|r| {
                    ctx.related_req(
                        r,
                        format!("host callback `{api}` reached from this lowering"),
                    )
                })
                .collect();
            if let Some(jitted) = &lowering.jitted {
                related
                    .push(ctx.related_here(jitted.site, "the computation's backend is set here"));
            }
            let mut fixes = Vec::new();
            if severity == Severity::Error {
                if let Some((_, value)) = lowering.platforms_arg {
                    fixes.push(Fix {
                        title: format!(
                            "Lower for the backend's platform: {}",
                            tuple_source(std::slice::from_ref(&backend))
                        ),
                        edits: vec![Edit {
                            span: value.byte_range(),
                            text: tuple_source(std::slice::from_ref(&backend)),
                        }],
                        applicability: Applicability::Unsafe,
                    });
                }
            }
            out.push(Finding {
                code: META.code,
                severity,
                message: format!(
                    "the platform for the specified backend {backend} is different from the lowering platform {platform}{note}"
                ),
                span: lowering.anchor.clone(),
                related,
                fixes,
            });
        }
    }
}

//! JP012 jit-backend-device: `jax.jit(..., backend=/device=)`.

use super::{Context, Rule, RuleMeta};
use crate::diagnostic::{Finding, Severity};
use crate::semantic::{names, ContextMesh, Module, ScopeId};
use crate::syntax::text;
use crate::syntax::KindName;
use tree_sitter::Node;

pub struct Jp012;

static META: RuleMeta = RuleMeta {
    code: "JP012",
    name: "jit-backend-device",
    severity: Severity::Warning,
    template: "backend and device argument on jit is deprecated. You can use `jax.device_put(..., jax.local_devices(backend=\"cpu\")[0])` on the inputs to the jitted function to get the same behavior.",
    summary: "jax.jit(..., backend=/device=): deprecated, and an error together, with shardings, or under a mesh context.",
    upstream_id: None,
    explanation: r#"## What it means

`jax.jit`'s `backend=` and `device=` arguments are deprecated: place the inputs
instead, and the computation follows them. They also conflict with other ways of
placing a computation, which JAX rejects outright:

* both together: `can't specify both a device and a backend for jit, got device=... and backend=...`;
* with `in_shardings`/`out_shardings`: `If backend or device is specified on jit, then in_shardings should not be specified.`;
* called under `with jax.set_mesh(...)`: `Mesh context manager should not be used with jit when backend or device is also specified as an argument to jit.`

## When it happens

The DeprecationWarning (a warning) when `jax.jit` is called; the errors at `jax.jit`
or when the jitted function is called in a mesh context.

## How to fix

Drop the argument and put the inputs on the device:
`f(jax.device_put(x, jax.local_devices(backend="cpu")[0]))`.

## Example

```python
step = jax.jit(update, backend="cpu")        # DeprecationWarning
step = jax.jit(update)                         # right
step(jax.device_put(params, jax.local_devices(backend="cpu")[0]))
```

## JAX source

`jax/_src/pjit.py:386-392` (deprecation), `:394`, `:397`, `:400`, `:504-507`.
"#,
};

/// True if a keyword's value is known not to be `None`: a literal or call,
/// or a name bound to one. A forwarded parameter of unknown value (flax's
/// `nnx.jit(..., backend=backend)` with `backend=None` by default) is not.
fn is_given<'t>(module: &Module<'t>, value: Node<'t>, scope: ScopeId) -> bool {
    use crate::semantic::flow::Val;
    let flow = module.flow();
    // A parameter its callers fill counts as its default (`device=None`).
    let alts = flow.with_defaults(flow.eval(value, scope));
    // A factory or config method may still return None.
    if alts.iter().any(|a| matches!(a.val, Val::None)) {
        return false;
    }
    // Every alternative a known value (a config field, a loop element).
    if !alts.is_empty() && alts.iter().all(|a| !a.val.is_unknown()) {
        return true;
    }
    module
        .follow_names(value, scope)
        .is_some_and(|(node, _)| node.kind_name() != "none")
}

impl Rule for Jp012 {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Context<'_, '_>, out: &mut Vec<Finding>) {
        let module = ctx.module;
        let src = ctx.src();
        // `jax.jit(...)`, `partial(jax.jit, ...)`, and calls of a name bound to
        // `partial(jax.jit, ...)` with the stored keywords merged.
        let rule = ctx.rule(META.code);
        let direct = module
            .sites_named(rule, &module.callee_names(&["jit", "pjit", "partial"]))
            .into_iter()
            .filter_map(|site| {
                let args = ctx.module.args_of(site.node);
                let callee = module.callee(site.node, site.scope);
                let is_jit = callee.as_deref() == Some(names::JIT)
                    || (callee.as_deref() == Some(names::PARTIAL)
                        && args.positional.first().is_some_and(|f| {
                            module.canonical(*f, site.scope).as_deref() == Some(names::JIT)
                        }));
                is_jit.then_some((site, args))
            });
        let through_partial = module.calls_through_partial(names::JIT, rule);
        for (site, args) in direct.chain(through_partial) {
            let given: Vec<(&str, Node<'_>)> = ["backend", "device"]
                .into_iter()
                .filter_map(|k| {
                    args.keyword(k)
                        .filter(|v| is_given(module, *v, site.scope))
                        .map(|_| (k, args.keyword_arg(k)))
                })
                .filter_map(|(k, arg)| arg.map(|a| (k, a)))
                .collect();
            let Some((_, first)) = given.iter().min_by_key(|(_, arg)| arg.start_byte()) else {
                continue;
            };
            let (severity, message) = if given.len() == 2 {
                let value = |k| args.keyword(k).map(|v| text(v, src)).unwrap_or("");
                (Severity::Error, format!("can't specify both a device and a backend for jit, got device={} and backend={}", value("device"), value("backend")))
            } else if let Some(key) = ["in_shardings", "out_shardings"].into_iter().find(|k| {
                args.keyword(k)
                    .is_some_and(|v| is_given(module, v, site.scope))
            }) {
                (Severity::Error, format!("If backend or device is specified on jit, then {key} should not be specified."))
            } else if under_mesh_context(module, site.node, site.scope) {
                (Severity::Error, "Mesh context manager should not be used with jit when backend or device is also specified as an argument to jit.".to_owned())
            } else {
                (
                    Severity::Warning,
                    format!("DeprecationWarning: {}", META.template),
                )
            };
            out.push(Finding {
                code: META.code,
                severity,
                message,
                span: first.byte_range(),
                related: Vec::new(),
                fixes: Vec::new(),
            });
        }
    }
}

/// A `with jax.set_mesh(...)` (or `use_abstract_mesh` of a mesh with an
/// Explicit axis) around the jit in the same scope.
fn under_mesh_context<'t>(module: &Module<'t>, node: Node<'t>, scope: ScopeId) -> bool {
    match module.context_mesh(node, scope) {
        ContextMesh::Concrete => true,
        ContextMesh::Abstract(info) => info.has_explicit_axis,
        _ => false,
    }
}

//! JP015 compile-needs-devices: `.compile()` of a lowering that cannot be compiled.

use super::{Context, Rule, RuleMeta};
use crate::diagnostic::{Finding, Related, Severity};
use crate::syntax::text;
use crate::syntax::Field;

pub struct Jp015;

static META: RuleMeta = RuleMeta {
    code: "JP015",
    name: "compile-needs-devices",
    severity: Severity::Error,
    template: "device_assignment cannot be `None` during compilation. Please pass a tuple of devices to `.compile(device_assignment=)`",
    summary: ".compile() of a multi-platform lowering, or of an AbstractMesh-only lowering without device_assignment=.",
    upstream_id: None,
    explanation: r#"## What it means

A `Lowered` is compiled for the devices it was lowered with. A lowering for several
platforms (a literal tuple of more than one, or a bare string, see JP005) has no
single set of devices and cannot be compiled at all: it is meant for `jax.export`.
An AbstractMesh-only lowering has no devices either: `.compile()` needs them passed.

## When it happens

At `.compile()`: `ValueError: safe_zip() argument 1 has length 1 but argument 0 has
length 2` for a multi-platform lowering, and `RuntimeError: device_assignment cannot be
`None` during compilation. Please pass a tuple of devices to
`.compile(device_assignment=)`` for an AbstractMesh-only one.

## How to fix

Export multi-platform artifacts (`jax.export.export(jit(f), platforms=...)`), or lower
for one platform before compiling; pass
`.compile(device_assignment=tuple(jax.devices()[:n]))` for an AbstractMesh lowering.

## Example

```python
lowered = jax.jit(f).trace(x).lower(lowering_platforms=("cpu", "tpu"))
lowered.compile()   # ValueError: safe_zip() argument 1 has length 1 but argument 0 has length 2
```

## JAX source

`jax/_src/interpreters/pxla.py:1471` (safe_zip) and `:1734` (device_assignment).
"#,
};

impl Rule for Jp015 {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Context<'_, '_>, out: &mut Vec<Finding>) {
        let src = ctx.src();
        for (index, compile) in ctx.module.compile_calls(ctx.lowerings, ctx.rule(META.code)) {
            let lowering = &ctx.lowerings[index];
            let anchor = compile
                .field("function")
                .and_then(|f| f.field("attribute"))
                .map(|a| a.byte_range())
                .unwrap_or_else(|| compile.byte_range());
            let platforms = lowering.lowered_platforms().unwrap_or_default();
            let message = if platforms.len() > 1 {
                format!(
                    "ValueError: safe_zip() argument ... (a lowering for {} platforms cannot be compiled; export it with jax.export instead)",
                    platforms.len()
                )
            } else {
                let supplied = lowering.platforms().is_some() || lowering.context_has_device();
                let mesh = ctx.mesh_use(lowering);
                let abstract_only = mesh.abstract_mesh && !mesh.concrete && !mesh.unknown;
                if !(supplied && abstract_only)
                    || ctx
                        .module
                        .args_of(compile)
                        .keyword("device_assignment")
                        .is_some()
                {
                    continue;
                }
                META.template.to_owned()
            };
            out.push(Finding {
                code: META.code,
                severity: META.severity,
                message,
                span: anchor,
                related: vec![Related {
                    file: None,
                    span: lowering.anchor.clone(),
                    message: format!(
                        "lowered here: {}",
                        text(lowering.call, src)
                            .chars()
                            .take(80)
                            .collect::<String>()
                    ),
                }],
                fixes: Vec::new(),
            });
        }
    }
}

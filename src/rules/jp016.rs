//! JP016 declared-platforms: a function declared for some platforms
//! (`# jax-lsp: platforms=tpu` on its `def` line) reached from a lowering
//! for another.

use super::contract::{check, Source};
use super::{Context, Rule, RuleMeta};
use crate::diagnostic::{Finding, Severity};

pub struct Jp016;

pub const CODE: &str = "JP016";

static META: RuleMeta = RuleMeta {
    code: CODE,
    name: "declared-platforms",
    severity: Severity::Error,
    template: "`{site}` is declared for {allowed} (`# jax-lsp: platforms=`); this computation is lowered for {platform}",
    summary: "A function whose def line declares its platforms (`# jax-lsp: platforms=tpu`) is reached from a lowering for another platform.",
    upstream_id: None,
    explanation: r#"## What it means

A library author marked a function as lowering only for some platforms, with
a comment on its `def` line:

```python
def flash_attention(q, k, v):  # jax-lsp: platforms=tpu
    ...
```

A lowering, export or placed execution for another platform reaches it
(directly, through other functions, or from another module). What JAX then
raises depends on what the function does (a Mosaic-only primitive, TPU
compiler params, an FFI target registered for one platform): the comment
is the author's word that it will not lower there. Names: `cpu`, `cuda`,
`rocm`, `tpu`, `oneapi`, and `gpu` for cuda, rocm and oneapi; a comment
naming anything else is ignored.

## When it happens

When the lowering's platforms are known (`lowering_platforms=`,
`export(platforms=)`, the host where JAX takes it and the project's
`target-platforms` say which) and not all of them are declared. Calls under
`lax.platform_dependent(tpu=...)` in a single-platform lowering for another
platform, and behind `jax.default_backend()` checks, are not reported.

## How to fix

* Lower for the declared platforms.
* In a single-platform lowering, choose the implementation per platform:
  `jax.lax.platform_dependent(x, tpu=flash_attention, default=reference)`.
* Several platforms in one lowering: lower or export once per platform.

## Example

```python
from mylib.ops import flash_attention   # def flash_attention(...):  # jax-lsp: platforms=tpu

jax.jit(model).trace(x).lower(lowering_platforms=("cuda",))
# `mylib.ops.flash_attention` is declared for tpu; this computation is lowered for cuda
```

Project-wide contracts with their own codes are written in pyproject.toml
(`[[tool.jax-lsp.contract]]`, see the README's "Writing a contract").
"#,
};

impl Rule for Jp016 {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Context<'_, '_>, out: &mut Vec<Finding>) {
        check(ctx, Source::Declared, out);
    }
}

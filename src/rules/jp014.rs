//! JP014 pallas-kernel-mesh-platform: a `pl.kernel` mesh lowered for the
//! wrong platform, or a kernel lowered for several platforms.

use super::{python_tuple_repr, Context, Rule, RuleMeta};
use crate::diagnostic::{Finding, Severity};
use crate::semantic::{KernelMesh, ReqKind};

pub struct Jp014;

static META: RuleMeta = RuleMeta {
    code: "JP014",
    name: "pallas-kernel-mesh-platform",
    severity: Severity::Error,
    template: "Mesh {mesh} is not supported by the Mosaic GPU backend",
    summary: "A pl.kernel/plgpu.kernel whose mesh belongs to another platform, or a kernel lowered for several platforms.",
    upstream_id: None,
    explanation: r#"## What it means

`pl.kernel` (and `plgpu.kernel`) lower through `mpmd_map`, whose backend is chosen
by the mesh: a TPU `TensorCoreMesh` only lowers for `tpu`, a Mosaic GPU mesh
(`plgpu.Mesh`, and `plgpu.kernel` itself) only for `cuda`. `mpmd_map` also lowers
for one platform at a time. It is the `pl.kernel` analogue of JP002.

## When it happens

At lowering:
* TPU mesh for cuda: `Mesh TensorCoreMesh(...) is not supported by the Mosaic GPU backend`;
* any mesh for rocm: `mesh is not supported in the Triton backend`;
* Mosaic GPU mesh for tpu: ``mpmd_map requires the mesh to define its ``core_type`` and ``dimension_semantics`` ``;
* several platforms: `mpmd_map does not support multi-platform lowering`.

## How to fix

Lower or export once per platform, with the kernel for that platform (choose it
with `lax.platform_dependent` in a single-platform lowering).

## Example

```python
mesh = pltpu.TensorCoreMesh(axis_name="core", num_cores=1)
f = lambda x: pl.kernel(body, out_type=x, mesh=mesh)(x)
jax.jit(f).trace(x).lower(lowering_platforms=("cuda",))
# NotImplementedError: Mesh TensorCoreMesh(axis_name='core', num_cores=1) is not supported by the Mosaic GPU backend
```

## JAX source

`jax/_src/pallas/mpmd.py:869` and `:881`,
`jax/_src/pallas/mosaic_gpu/pallas_call_registration.py:144`.
"#,
};

impl Rule for Jp014 {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Context<'_, '_>, out: &mut Vec<Finding>) {
        for lowering in ctx.lowerings_at_sites(META.code) {
            let Some(platforms) = lowering.lowered_platforms() else {
                continue;
            };
            for req in &lowering.reqs {
                let ReqKind::PallasKernel { mesh } = &req.kind else {
                    continue;
                };
                if req.kept_for(&platforms) != Some(true) {
                    continue;
                }
                let message = match (platforms.as_slice(), mesh) {
                    ([_, _, ..], _) => format!("mpmd_map does not support multi-platform lowering (lowered for {})", python_tuple_repr(&platforms)),
                    ([p], KernelMesh::Tpu) if p == "cuda" => "Mesh TensorCoreMesh(...) is not supported by the Mosaic GPU backend".to_owned(),
                    ([p], KernelMesh::Tpu | KernelMesh::Gpu) if p == "rocm" => "mesh is not supported in the Triton backend".to_owned(),
                    ([p], KernelMesh::Gpu) if p == "tpu" => {
                        "mpmd_map requires the mesh to define its ``core_type`` and ``dimension_semantics`` (a Mosaic GPU mesh lowered for tpu)".to_owned()
                    }
                    _ => continue,
                };
                out.push(Finding {
                    code: META.code,
                    severity: META.severity,
                    message,
                    span: lowering.anchor.clone(),
                    related: vec![ctx.related_req(req, "the Pallas kernel and its mesh")],
                    fixes: Vec::new(),
                });
                break;
            }
        }
    }
}

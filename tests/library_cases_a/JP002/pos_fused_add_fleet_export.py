import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

from _fleet import BLOCK, FLEET_PLATFORMS


def _add_relu_kernel(x_ref, y_ref, o_ref):
  o_ref[...] = jnp.maximum(x_ref[...] + y_ref[...], 0.0)


def add_relu_tpu(x, y):
  spec = pl.BlockSpec(BLOCK, lambda i, j: (i, j))
  return pl.pallas_call(
      _add_relu_kernel,
      out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
      grid=(x.shape[0] // BLOCK[0], x.shape[1] // BLOCK[1]),
      in_specs=[spec, spec],
      out_specs=spec,
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel")),
  )(x, y)


def add_relu_reference(x, y):
  return jnp.maximum(x + y, 0.0)


def add_relu(x, y):
  return jax.lax.platform_dependent(x, y, tpu=add_relu_tpu, default=add_relu_reference)


def export_for_fleet(fn, *specs):
  return jax.export.export(jax.jit(fn), platforms=FLEET_PLATFORMS)(*specs)


if __name__ == "__main__":
  spec = jax.ShapeDtypeStruct((64, 512), jnp.float32)
  exported = export_for_fleet(add_relu, spec, spec)
  print(exported.platforms, len(exported.mlir_module_serialized))

"""Bias + GELU op that uses its Mosaic TPU kernel on TPU and XLA elsewhere; exported for the GPU fleet."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

EXPORT_PLATFORMS = ("cuda",)


class BiasGelu:
  block_rows = 16

  def reference(self, x, bias):
    return jax.nn.gelu(x + bias)

  def mosaic_tpu(self, x, bias):
    def kernel(x_ref, b_ref, o_ref):
      o_ref[...] = jax.nn.gelu(x_ref[...] + b_ref[...])

    spec = pl.BlockSpec((self.block_rows, x.shape[1]), lambda i: (i, 0))
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(x.shape[0] // self.block_rows,),
        in_specs=[spec, pl.BlockSpec((1, x.shape[1]), lambda i: (0, 0))],
        out_specs=spec,
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
    )(x, bias[None, :])

  def __call__(self, x, bias):
    return lax.platform_dependent(x, bias, tpu=self.mosaic_tpu, default=self.reference)


if __name__ == "__main__":
  op = BiasGelu()
  specs = (jax.ShapeDtypeStruct((64, 256), jnp.float32), jax.ShapeDtypeStruct((256,), jnp.float32))
  exported = jax.export.export(jax.jit(op), platforms=EXPORT_PLATFORMS)(*specs)
  print(exported.platforms)

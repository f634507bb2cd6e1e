"""Blocked softmax Pallas-Triton kernel exported for the GPU fleet with the export checks it needs."""

import dataclasses
import functools

import jax
import jax.numpy as jnp
from jax import export
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as pltriton

TRITON_FFI_KEY = "__gpu$xla.gpu.triton"
DISABLE_JAX_EXPORT_CHECKS = (export.DisabledSafetyCheck.custom_call(TRITON_FFI_KEY),)
GPU_FLEET = jax.sharding.AbstractMesh(
    (1,), ("x",), abstract_device=jax.sharding.AbstractDevice("NVIDIA H100 80GB HBM3", 132, "cuda")
)


@dataclasses.dataclass(frozen=True, kw_only=True)
class Config:
  block_rows: int = 32
  num_warps: int = 4
  num_stages: int = 2


@functools.partial(jax.jit, static_argnames=("config",))
def softmax(x, *, config: Config = Config()):
  def kernel(x_ref, o_ref):
    v = x_ref[...]
    e = jnp.exp(v - jnp.max(v, axis=-1, keepdims=True))
    o_ref[...] = e / jnp.sum(e, axis=-1, keepdims=True)

  spec = pl.BlockSpec((config.block_rows, x.shape[1]), lambda i: (i, 0))
  return pl.pallas_call(
      kernel,
      out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
      grid=(pl.cdiv(x.shape[0], config.block_rows),),
      in_specs=[spec],
      out_specs=spec,
      compiler_params=pltriton.CompilerParams(num_warps=config.num_warps, num_stages=config.num_stages),
  )(x)


if __name__ == "__main__":
  x = jax.ShapeDtypeStruct((256, 512), jnp.float32)
  with jax.sharding.use_abstract_mesh(GPU_FLEET):
    exported = export.export(softmax, platforms=("cuda",), disabled_checks=DISABLE_JAX_EXPORT_CHECKS)(x)
  print(exported.platforms)

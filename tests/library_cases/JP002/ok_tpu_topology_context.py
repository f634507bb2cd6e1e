"""Pallas TPU kernel lowered on a developer machine under an abstract TPU topology."""

import contextlib

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

DEFAULT_BLOCK_SIZE = 16
DEFAULT_VMEM_LIMIT_BYTES = 32 * 1024 * 1024
PARALLEL_DIMENSION_SEMANTICS = (pltpu.PARALLEL,)


@contextlib.contextmanager
def tpu_mesh_context(device_kind="TPU v5 lite"):
  """Makes an abstract TPU available when this host has none."""
  abstract_mesh = jax.sharding.AbstractMesh(
      (1,), ("core",), abstract_device=jax.sharding.AbstractDevice(device_kind, 1, "tpu")
  )
  with jax.sharding.use_abstract_mesh(abstract_mesh):
    yield


def residual_scale(x, residual, scale, block_size=DEFAULT_BLOCK_SIZE):
  def kernel(x_ref, r_ref, s_ref, o_ref):
    o_ref[...] = x_ref[...] * s_ref[...] + r_ref[...]

  spec = pl.BlockSpec((block_size, x.shape[1]), lambda i: (i, 0))
  return pl.pallas_call(
      kernel,
      out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
      grid=(x.shape[0] // block_size,),
      in_specs=[spec, spec, pl.BlockSpec((1, x.shape[1]), lambda i: (0, 0))],
      out_specs=spec,
      compiler_params=pltpu.CompilerParams(
          dimension_semantics=PARALLEL_DIMENSION_SEMANTICS, vmem_limit_bytes=DEFAULT_VMEM_LIMIT_BYTES
      ),
  )(x, residual, scale)


if __name__ == "__main__":
  spec = jax.ShapeDtypeStruct((64, 256), jnp.float32)
  scale = jax.ShapeDtypeStruct((1, 256), jnp.float32)
  with tpu_mesh_context():
    lowered = jax.jit(residual_scale).trace(spec, spec, scale).lower()
  print(lowered.as_text()[:100])

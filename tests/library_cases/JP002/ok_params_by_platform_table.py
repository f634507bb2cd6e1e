"""Row-wise gated activation built per platform from a table of backend compiler params."""

import contextlib
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

import _kernels_cfg as cfg

PLATFORMS = ("tpu", "cuda")


def _swiglu_kernel(gate_ref, up_ref, out_ref):
  g = gate_ref[...]
  out_ref[...] = g * jax.nn.sigmoid(g) * up_ref[...]


def make_swiglu(platform, block_rows=cfg.DEFAULT_BLOCK_ROWS):
  pallas_call = functools.partial(pl.pallas_call, compiler_params=cfg.PARAMS_BY_PLATFORM[platform])

  def swiglu(gate, up):
    spec = pl.BlockSpec((block_rows, gate.shape[1]), lambda i: (i, 0))
    return pallas_call(
        _swiglu_kernel,
        out_shape=jax.ShapeDtypeStruct(gate.shape, gate.dtype),
        grid=(gate.shape[0] // block_rows,),
        in_specs=[spec, spec],
        out_specs=spec,
    )(gate, up)

  return swiglu


def device_context(platform):
  if platform == "cuda":
    return jax.sharding.use_abstract_mesh(jax.sharding.AbstractMesh((1,), ("x",), abstract_device=cfg.H100))
  return contextlib.nullcontext()


def lower_all(platforms=PLATFORMS):
  spec = jax.ShapeDtypeStruct((128, 512), jnp.float32)
  modules = {}
  for platform in platforms:
    with device_context(platform):
      traced = jax.jit(make_swiglu(platform)).trace(spec, spec)
      modules[platform] = traced.lower(lowering_platforms=(platform,))
  return modules


if __name__ == "__main__":
  print({p: len(m.as_text()) for p, m in lower_all().items()})

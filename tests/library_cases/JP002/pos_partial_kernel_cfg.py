"""Row-wise gated activation as a Pallas kernel, built with shared kernel defaults and lowered for the default target."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

import _kernels_cfg as cfg

_pallas_call = functools.partial(
    pl.pallas_call,
    compiler_params=pltpu.CompilerParams(
        dimension_semantics=cfg.PARALLEL_DIMENSION_SEMANTICS,
        vmem_limit_bytes=cfg.DEFAULT_VMEM_LIMIT_BYTES,
    ),
)


def _swiglu_kernel(gate_ref, up_ref, out_ref):
  g = gate_ref[...]
  out_ref[...] = g * jax.nn.sigmoid(g) * up_ref[...]


def swiglu(gate, up, *, block_rows=cfg.DEFAULT_BLOCK_ROWS):
  spec = pl.BlockSpec((block_rows, gate.shape[1]), lambda i: (i, 0))
  return _pallas_call(
      _swiglu_kernel,
      out_shape=jax.ShapeDtypeStruct(gate.shape, gate.dtype),
      grid=(gate.shape[0] // block_rows,),
      in_specs=[spec, spec],
      out_specs=spec,
      name="swiglu",
  )(gate, up)


def lower_for(target=cfg.DEFAULT_TARGET):
  spec = jax.ShapeDtypeStruct((128, 512), jnp.float32)
  return jax.jit(swiglu).trace(spec, spec).lower(lowering_platforms=(target,))


if __name__ == "__main__":
  print(lower_for().as_text()[:100])

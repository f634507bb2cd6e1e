"""Rewires a small scoring model to use a fused Triton softmax, then checks that
the jitted model lowers for the planning target (the environment's default)."""

import dataclasses

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as pltriton

from _pz_model import DotProductSoftmax, Jitted, Linear, Sequential, init_params, select_instances
from _pz_plan import planning


def _softmax_kernel(x_ref, o_ref):
  x = x_ref[...]
  x = x - jnp.max(x, axis=-1, keepdims=True)
  e = jnp.exp(x)
  o_ref[...] = e / jnp.sum(e, axis=-1, keepdims=True)


@dataclasses.dataclass(frozen=True)
class FusedSoftmax(DotProductSoftmax):
  block_rows: int = 16

  def __call__(self, params, logits):
    rows, cols = logits.shape
    spec = pl.BlockSpec((self.block_rows, cols), lambda i: (i, 0))
    return pl.pallas_call(
        _softmax_kernel,
        out_shape=jax.ShapeDtypeStruct(logits.shape, logits.dtype),
        in_specs=[spec],
        out_specs=spec,
        grid=(rows // self.block_rows,),
        compiler_params=pltriton.CompilerParams(num_warps=4, num_stages=1),
    )(logits)


def build_model():
  base = Sequential((Linear(128, 128), DotProductSoftmax(), Linear(128, 128)))
  params = init_params(base, jax.random.key(0))
  fused = select_instances(base, DotProductSoftmax).apply(lambda _: FusedSoftmax())
  return Jitted(fused), params


def main():
  model, params = build_model()
  x = jax.ShapeDtypeStruct((64, 128), jnp.float32)
  with planning():
    lowered = jax.jit(model.__call__).trace(params, x).lower()
  return lowered


if __name__ == "__main__":
  print(main().as_text()[:120])

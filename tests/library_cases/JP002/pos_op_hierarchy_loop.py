"""Op hierarchy with backend subclasses; every registered platform gets its own lowered module."""

import abc
import dataclasses

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

PLATFORMS = ("tpu", "cuda")


@dataclasses.dataclass(frozen=True, kw_only=True)
class Op(abc.ABC):
  """Base class: `__call__` validates, `_fwd` is the backend implementation."""

  block_rows: int = 16

  def __call__(self, x, bias):
    if x.shape[-1] != bias.shape[-1]:
      raise ValueError("bias does not match the feature dimension")
    return self._fwd(x, bias)

  @abc.abstractmethod
  def _fwd(self, x, bias): ...

  def compiler_params(self):
    return None


class BiasGelu(Op):
  def _fwd(self, x, bias):
    return jax.nn.gelu(x + bias)


class PallasMosaicTpuBiasGelu(BiasGelu):
  def compiler_params(self):
    return pltpu.CompilerParams(dimension_semantics=("parallel",))

  def _fwd(self, x, bias):
    def kernel(x_ref, b_ref, o_ref):
      o_ref[...] = jax.nn.gelu(x_ref[...] + b_ref[...])

    spec = pl.BlockSpec((self.block_rows, x.shape[1]), lambda i: (i, 0))
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(x.shape[0] // self.block_rows,),
        in_specs=[spec, pl.BlockSpec((1, x.shape[1]), lambda i: (0, 0))],
        out_specs=spec,
        compiler_params=self.compiler_params(),
    )(x, bias[None, :])


def lower_everywhere(op: Op):
  traced = jax.jit(op).trace(jax.ShapeDtypeStruct((64, 256), jnp.float32), jax.ShapeDtypeStruct((256,), jnp.float32))
  return {p: traced.lower(lowering_platforms=(p,)) for p in PLATFORMS}


if __name__ == "__main__":
  modules = lower_everywhere(PallasMosaicTpuBiasGelu())
  print({p: len(m.as_text()) for p, m in modules.items()})

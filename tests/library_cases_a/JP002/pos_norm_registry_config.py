import dataclasses
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

IMPLEMENTATIONS = {}


def register(name):
  def decorate(fn):
    IMPLEMENTATIONS[name] = fn
    return fn
  return decorate


def _rms_kernel(x_ref, o_ref, *, eps):
  x = x_ref[...].astype(jnp.float32)
  o_ref[...] = (x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + eps)).astype(o_ref.dtype)


@register("mosaic")
def _rms_norm_mosaic(x, *, eps, block_rows):
  spec = pl.BlockSpec((block_rows, x.shape[1]), lambda i: (i, 0))
  return pl.pallas_call(
      functools.partial(_rms_kernel, eps=eps),
      out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
      grid=(x.shape[0] // block_rows,),
      in_specs=[spec],
      out_specs=spec,
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
  )(x)


@register("xla")
def _rms_norm_xla(x, *, eps, block_rows):
  del block_rows
  return x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + eps)


@dataclasses.dataclass(frozen=True)
class NormConfig:
  implementation: str = "mosaic"
  eps: float = 1e-6
  block_rows: int = 8


def rms_norm(x, config=NormConfig()):
  impl = IMPLEMENTATIONS[config.implementation]
  return impl(x, eps=config.eps, block_rows=config.block_rows)


if __name__ == "__main__":
  spec = jax.ShapeDtypeStruct((64, 256), jnp.float32)
  config = dataclasses.replace(NormConfig(), eps=1e-5)
  fn = jax.jit(functools.partial(rms_norm, config=config))
  lowered = fn.trace(spec).lower(lowering_platforms=("cuda",))
  print(lowered.as_text()[:100])

import functools
from dataclasses import dataclass, field

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as pltriton


@dataclass(frozen=True)
class KernelConfig:
  block_rows: int = 16
  num_warps: int = 4
  num_stages: int = 2


@dataclass(frozen=True)
class ExportConfig:
  platforms: tuple = ("tpu",)
  kernel: KernelConfig = field(default_factory=KernelConfig)


def _softmax_kernel(x_ref, o_ref):
  x = x_ref[...]
  e = jnp.exp(x - jnp.max(x, axis=-1, keepdims=True))
  o_ref[...] = e / jnp.sum(e, axis=-1, keepdims=True)


def make_softmax(cfg: KernelConfig, n_cols: int):
  params = pltriton.CompilerParams(num_warps=cfg.num_warps, num_stages=cfg.num_stages)
  call = functools.partial(pl.pallas_call, compiler_params=params)
  spec = pl.BlockSpec((cfg.block_rows, n_cols), lambda i: (i, 0))

  def softmax(x):
    return call(
        _softmax_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(x.shape[0] // cfg.block_rows,),
        in_specs=[spec],
        out_specs=spec,
    )(x)

  return jax.jit(softmax)


def export_softmax(cfg: ExportConfig, shape):
  fn = make_softmax(cfg.kernel, shape[-1])
  return jax.export.export(fn, platforms=cfg.platforms)(jax.ShapeDtypeStruct(shape, jnp.float32))


if __name__ == "__main__":
  exported = export_softmax(ExportConfig(), (128, 64))
  print(exported.platforms)

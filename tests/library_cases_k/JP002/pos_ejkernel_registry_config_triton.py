"""RMSNorm module backed by a kernel registry, lowered for the TPU topology.

Kernel implementations register themselves per (platform, backend); the module
reads its ``KernelConfig`` (block sizes, warps, platform) and asks the registry
for the implementation.  The AOT check lowers the layer for TPU.
"""

from __future__ import annotations

import dataclasses
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as pltriton

from _kreg import Backend, Platform, detect_platform, kernel_registry


@dataclasses.dataclass
class KernelConfig:
  block_rows: int = 8
  num_warps: int = 4
  num_stages: int = 2
  platform: str = "triton"


def _rms_norm_kernel(x_ref, w_ref, o_ref, *, eps):
  x = x_ref[...].astype(jnp.float32)
  inv = jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + eps)
  o_ref[...] = (x * inv * w_ref[...].astype(jnp.float32)).astype(o_ref.dtype)


def _specs(rows, hidden, block_rows):
  return dict(
      grid=(rows // block_rows,),
      in_specs=[pl.BlockSpec((block_rows, hidden), lambda i: (i, 0)),
                pl.BlockSpec((1, hidden), lambda i: (0, 0))],
      out_specs=pl.BlockSpec((block_rows, hidden), lambda i: (i, 0)),
  )


@kernel_registry.register("rms_norm", Platform.TRITON, Backend.GPU)
def rms_norm_triton(x, w, *, eps, cfg: KernelConfig):
  rows, hidden = x.shape
  return pl.pallas_call(
      functools.partial(_rms_norm_kernel, eps=eps),
      out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
      compiler_params=pltriton.CompilerParams(num_warps=cfg.num_warps, num_stages=cfg.num_stages),
      **_specs(rows, hidden, cfg.block_rows),
  )(x, w)


@kernel_registry.register("rms_norm", Platform.PALLAS, Backend.TPU)
def rms_norm_pallas_tpu(x, w, *, eps, cfg: KernelConfig):
  rows, hidden = x.shape
  out = pl.pallas_call(
      functools.partial(_rms_norm_kernel, eps=eps),
      out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
      **_specs(rows, hidden, cfg.block_rows),
  )(x, w)
  return out


@kernel_registry.register("rms_norm", Platform.XLA, Backend.ANY)
def rms_norm_xla(x, w, *, eps, cfg: KernelConfig):
  del cfg
  xf = x.astype(jnp.float32)
  return (xf * jax.lax.rsqrt(jnp.mean(xf * xf, -1, keepdims=True) + eps) * w).astype(x.dtype)


class RMSNorm:

  def __init__(self, hidden: int, eps: float = 1e-6, kernel_config: KernelConfig | None = None):
    self.hidden = hidden
    self.eps = eps
    self.kernel_config = kernel_config or KernelConfig()

  def __call__(self, x, w):
    platform = detect_platform("rms_norm", self.kernel_config.platform)
    impl = kernel_registry.get("rms_norm", platform=platform)
    return impl(x, w, eps=self.eps, cfg=self.kernel_config)


def main():
  layer = RMSNorm(hidden=256, kernel_config=KernelConfig(block_rows=8))
  x = jax.ShapeDtypeStruct((64, 256), jnp.float32)
  w = jax.ShapeDtypeStruct((1, 256), jnp.float32)
  traced = jax.jit(layer.__call__).trace(x, w)
  lowered = traced.lower(lowering_platforms=("tpu",))
  print(lowered.as_text()[:200])


if __name__ == "__main__":
  main()

"""Exports the int8 dequantize-matmul of a served model once per platform of the serving fleet.
The fused kernel is a Mosaic kernel; interpret mode is chosen by probing the host, as eformer does."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

from _quant_cfg import SERVING_FLEET, QuantizationConfig, on_cpu_host


def _dequant_kernel(w_ref, s_ref, o_ref):
  o_ref[...] = w_ref[...].astype(jnp.float32) * s_ref[...]


def dequantize(w_q, scales, cfg: QuantizationConfig, *, interpret: bool):
  bx = cfg.block_size
  spec = pl.BlockSpec((bx, w_q.shape[1]), lambda i: (i, 0))
  return pl.pallas_call(
      _dequant_kernel,
      grid=(w_q.shape[0] // bx,),
      in_specs=[spec, spec],
      out_specs=spec,
      out_shape=jax.ShapeDtypeStruct(w_q.shape, jnp.float32),
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
      interpret=interpret,
  )(w_q, scales)


def make_linear(cfg: QuantizationConfig, platform: str):
  interpret = on_cpu_host() and platform == "cpu"
  def linear(x, w_q, scales):
    w = dequantize(w_q, scales, cfg, interpret=interpret) if cfg.use_kernel else w_q * scales
    return x @ w
  return linear


if __name__ == "__main__":
  cfg = QuantizationConfig()
  x = jax.ShapeDtypeStruct((4, 16), jnp.float32)
  w = jax.ShapeDtypeStruct((16, 128), jnp.int8)
  s = jax.ShapeDtypeStruct((16, 128), jnp.float32)
  artifacts = {}
  for platform in SERVING_FLEET:
    fn = jax.jit(make_linear(cfg, platform))
    artifacts[platform] = jax.export.export(fn, platforms=(platform,))(x, w, s)
  print(sorted(artifacts))

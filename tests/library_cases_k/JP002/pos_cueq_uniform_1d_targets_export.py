"""Export the equivariant channel-mixing layer for each deployment target.

As in equivariant-network libraries, the layer calls a segmented polynomial
primitive with an explicit ``method``; ``"uniform_1d"`` is the fused GPU kernel
(a Pallas kernel compiled by Triton), ``"naive"`` the einsum reference.  Method
options are merged with the method's defaults by ``_polymethods``.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as pltriton

from _polymethods import resolve_options

DEPLOY_TARGETS = {
    "v5e-pod": "tpu",
    "edge-cpu": "cpu",
}

LAYER_METHOD = "uniform_1d"


def _uniform_1d_kernel(x_ref, w_ref, o_ref):
  o_ref[...] = jnp.dot(x_ref[...], w_ref[...], preferred_element_type=jnp.float32).astype(o_ref.dtype)


def _channel_mix_uniform_1d(x, w, *, block_batch, num_warps, num_stages):
  batch, cin = x.shape
  cout = w.shape[1]
  return pl.pallas_call(
      _uniform_1d_kernel,
      out_shape=jax.ShapeDtypeStruct((batch, cout), x.dtype),
      grid=(batch // block_batch,),
      in_specs=[pl.BlockSpec((block_batch, cin), lambda b: (b, 0)),
                pl.BlockSpec((cin, cout), lambda b: (0, 0))],
      out_specs=pl.BlockSpec((block_batch, cout), lambda b: (b, 0)),
      compiler_params=pltriton.CompilerParams(num_warps=num_warps, num_stages=num_stages),
  )(x, w)


def _channel_mix_naive(x, w):
  return jnp.einsum("bi,io->bo", x, w)


def segmented_polynomial(x, w, *, method: str = "", options: dict | None = None):
  opts = resolve_options(method, options)
  match method:
    case "naive":
      return _channel_mix_naive(x, w)
    case "uniform_1d":
      return _channel_mix_uniform_1d(x, w, **opts)


class ChannelMix:

  def __init__(self, irreps_in: int, irreps_out: int, method: str, options: dict | None = None):
    self.irreps_in, self.irreps_out = irreps_in, irreps_out
    self.method, self.options = method, options

  def __call__(self, x, w):
    y = segmented_polynomial(x, w, method=self.method, options=self.options)
    return y / jnp.sqrt(jnp.float32(self.irreps_in))


def main():
  layer = ChannelMix(64, 32, method=LAYER_METHOD, options={"block_batch": 32})
  specs = (jax.ShapeDtypeStruct((128, 64), jnp.float32), jax.ShapeDtypeStruct((64, 32), jnp.float32))
  for name, platform in DEPLOY_TARGETS.items():
    exported = jax.export.export(jax.jit(layer.__call__), platforms=(platform,))(*specs)
    print(name, exported.platforms)


if __name__ == "__main__":
  main()

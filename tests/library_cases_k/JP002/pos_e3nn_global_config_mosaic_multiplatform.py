"""Lower an interatomic-potential message block once for the mixed GPU/TPU fleet.

The tensor product reads a process-wide setting to decide between the einsum
path and a Mosaic (TPU Pallas) kernel.  The training entry point switches the
kernel on; the portability check lowers the block for both accelerator
platforms at once.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

from _e3config import config

FLEET_PLATFORMS = ("cuda", "tpu")


def _tp_kernel(x_ref, y_ref, o_ref):
  o_ref[...] = x_ref[...] * y_ref[...]


def _tp_mosaic(x, y, block):
  n, d = x.shape
  return pl.pallas_call(
      _tp_kernel,
      out_shape=jax.ShapeDtypeStruct((n, d), x.dtype),
      grid=(n // block,),
      in_specs=[pl.BlockSpec((block, d), lambda i: (i, 0)), pl.BlockSpec((block, d), lambda i: (i, 0))],
      out_specs=pl.BlockSpec((block, d), lambda i: (i, 0)),
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
  )(x, y)


def elementwise_tensor_product(x, y):
  if config("tensor_product_kernel") == "mosaic":
    return _tp_mosaic(x, y, config("tensor_product_block"))
  return x * y


def message_block(node_feats, edge_attrs, senders, receivers):
  msgs = elementwise_tensor_product(node_feats[senders], edge_attrs)
  return jax.ops.segment_sum(msgs, receivers, num_segments=node_feats.shape[0])


def configure_for_training(use_kernels: bool):
  if use_kernels:
    config("tensor_product_kernel", "mosaic")
    config("tensor_product_block", 16)


def main():
  configure_for_training(use_kernels=True)
  n_nodes, n_edges, dim = 64, 256, 128
  args = (jax.ShapeDtypeStruct((n_nodes, dim), jnp.float32), jax.ShapeDtypeStruct((n_edges, dim), jnp.float32),
          jax.ShapeDtypeStruct((n_edges,), jnp.int32), jax.ShapeDtypeStruct((n_edges,), jnp.int32))
  traced = jax.jit(message_block).trace(*args)
  lowered = traced.lower(lowering_platforms=FLEET_PLATFORMS)
  print(lowered.as_text()[:200])


if __name__ == "__main__":
  main()

"""Dense expert matmul with a Pallas Mosaic TPU kernel, exported once for the whole serving fleet."""

import functools
import json

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

SERVING_FLEETS = ("tpu", "cuda")


def _matmul_kernel(lhs_ref, rhs_ref, out_ref, acc_ref, *, num_k):
  @pl.when(pl.program_id(2) == 0)
  def _():
    acc_ref[...] = jnp.zeros_like(acc_ref)

  acc_ref[...] += jnp.dot(lhs_ref[...], rhs_ref[...], preferred_element_type=jnp.float32)

  @pl.when(pl.program_id(2) == num_k - 1)
  def _():
    out_ref[...] = acc_ref[...].astype(out_ref.dtype)


def gmm(lhs, rhs, *, tiling=(128, 128, 128), interpret=False):
  m, k = lhs.shape
  n = rhs.shape[1]
  tm, tk, tn = tiling
  num_k = k // tk
  metadata = {"tiling": {"tile_m": tm, "tile_k": tk, "tile_n": tn}}
  call_gmm = pl.pallas_call(
      functools.partial(_matmul_kernel, num_k=num_k),
      out_shape=jax.ShapeDtypeStruct((m, n), lhs.dtype),
      grid=(m // tm, n // tn, num_k),
      in_specs=[pl.BlockSpec((tm, tk), lambda i, j, kk: (i, kk)), pl.BlockSpec((tk, tn), lambda i, j, kk: (kk, j))],
      out_specs=pl.BlockSpec((tm, tn), lambda i, j, kk: (i, j)),
      scratch_shapes=[pltpu.VMEM((tm, tn), jnp.float32)],
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel", "arbitrary")),
      interpret=interpret,
      cost_estimate=pl.CostEstimate(flops=2 * m * k * n, bytes_accessed=(m * k + k * n + m * n) * 4, transcendentals=0),
      metadata={"xprof_metadata": json.dumps(metadata)},
  )
  return call_gmm(lhs, rhs)


def export_serving(fleets=SERVING_FLEETS):
  lhs = jax.ShapeDtypeStruct((256, 512), jnp.float32)
  rhs = jax.ShapeDtypeStruct((512, 256), jnp.float32)
  return jax.export.export(jax.jit(gmm), platforms=fleets)(lhs, rhs)


if __name__ == "__main__":
  exported = export_serving()
  print(exported.platforms, exported.out_avals)

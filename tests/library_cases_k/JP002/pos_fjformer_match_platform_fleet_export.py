"""Export a quantised-weight GEMM block for every platform of a release channel.

The GEMM picks its kernel with a ``match`` on a module-level ``PLATFORM``
constant (the backend JAX runs on, overridable through the environment so
that a CPU build box can prepare accelerator artifacts).  The release script
then exports the block for the platforms of the chosen channel.
"""

from __future__ import annotations

import functools
import os

os.environ.setdefault("FJFORMER_KERNEL_PLATFORM", "tpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.experimental import pallas as pl  # noqa: E402
from jax.experimental.pallas import tpu as pltpu  # noqa: E402

PLATFORM = os.environ.get("FJFORMER_KERNEL_PLATFORM") or jax.default_backend()

RELEASE_CHANNELS = {
    "nightly": ("tpu",),
    "stable": ("tpu", "cuda"),
}
CHANNEL = "stable"


def get_best_block_size_tpu(m: int, k: int, n: int):
  bm = 128 if m >= 128 else m
  bk = 128 if k > 128 else k
  bn = 128 if n >= 128 else n
  return bm, bk, bn


def _tpu_matmul_kernel(a_ref, b_ref, o_ref, acc_ref, *, k_grid):
  @pl.when(pl.program_id(2) == 0)
  def _():
    acc_ref[...] = jnp.zeros_like(acc_ref)

  acc_ref[...] += jnp.dot(a_ref[...].astype(jnp.float32), b_ref[...].astype(jnp.float32),
                          preferred_element_type=jnp.float32)

  @pl.when(pl.program_id(2) == k_grid - 1)
  def _():
    o_ref[...] = acc_ref[...].astype(o_ref.dtype)


def pallas_gemm_tpu(A, B, blocksize_m=None, blocksize_k=None, blocksize_n=None):
  m, k = A.shape
  n = B.shape[1]
  pbm, pbk, pbn = get_best_block_size_tpu(m, k, n)
  bm, bk, bn = blocksize_m or pbm, blocksize_k or pbk, blocksize_n or pbn
  grid = (pl.cdiv(m, bm), pl.cdiv(n, bn), pl.cdiv(k, bk))
  return pl.pallas_call(
      functools.partial(_tpu_matmul_kernel, k_grid=grid[-1]),
      out_shape=jax.ShapeDtypeStruct((m, n), A.dtype),
      grid=grid,
      in_specs=[pl.BlockSpec((bm, bk), lambda i, j, kk: (i, kk)),
                pl.BlockSpec((bk, bn), lambda i, j, kk: (kk, j))],
      out_specs=pl.BlockSpec((bm, bn), lambda i, j, kk: (i, j)),
      scratch_shapes=[pltpu.VMEM((bm, bn), jnp.float32)],
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel", "arbitrary")),
  )(A, B)


def gemm(A, B, *, blocksize_m=None, blocksize_k=None, blocksize_n=None):
  match PLATFORM:
    case "tpu":
      org_dtype = A.dtype
      A = A.astype(jnp.promote_types(jnp.bfloat16, A.dtype))
      B = B.astype(jnp.promote_types(jnp.bfloat16, B.dtype))
      return pallas_gemm_tpu(A, B, blocksize_m, blocksize_k, blocksize_n).astype(org_dtype)
    case "cpu" | "gpu":
      return jax.lax.dot(A, B, preferred_element_type=jnp.float32).astype(A.dtype)
  raise NotImplementedError(f"`gemm` is not implemented for request platform {PLATFORM}")


def dequant_linear(x, w_q, scale):
  w = w_q.astype(jnp.float32) * scale
  return gemm(x, w)


def main():
  specs = (jax.ShapeDtypeStruct((256, 512), jnp.float32),
           jax.ShapeDtypeStruct((512, 256), jnp.int8),
           jax.ShapeDtypeStruct((1, 256), jnp.float32))
  platforms = RELEASE_CHANNELS[CHANNEL]
  exported = jax.export.export(jax.jit(dequant_linear), platforms=platforms)(*specs)
  print(CHANNEL, exported.platforms, len(exported.mlir_module_serialized))


if __name__ == "__main__":
  main()

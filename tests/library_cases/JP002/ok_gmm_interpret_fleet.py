"""Dense expert matmul with a Pallas kernel; the portable artifact runs the kernel in interpret mode."""

import dataclasses
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


@dataclasses.dataclass(frozen=True)
class ExportConfig:
  fleets: tuple[str, ...] = ("tpu", "cuda", "cpu")
  interpret: bool = True
  tiling: tuple[int, int, int] = (128, 128, 128)


def _matmul_kernel(lhs_ref, rhs_ref, out_ref, acc_ref, *, num_k):
  @pl.when(pl.program_id(2) == 0)
  def _():
    acc_ref[...] = jnp.zeros_like(acc_ref)

  acc_ref[...] += jnp.dot(lhs_ref[...], rhs_ref[...], preferred_element_type=jnp.float32)

  @pl.when(pl.program_id(2) == num_k - 1)
  def _():
    out_ref[...] = acc_ref[...].astype(out_ref.dtype)


def gmm(lhs, rhs, *, tiling, interpret=False):
  m, k = lhs.shape
  n = rhs.shape[1]
  tm, tk, tn = tiling
  return pl.pallas_call(
      functools.partial(_matmul_kernel, num_k=k // tk),
      out_shape=jax.ShapeDtypeStruct((m, n), lhs.dtype),
      grid=(m // tm, n // tn, k // tk),
      in_specs=[pl.BlockSpec((tm, tk), lambda i, j, kk: (i, kk)), pl.BlockSpec((tk, tn), lambda i, j, kk: (kk, j))],
      out_specs=pl.BlockSpec((tm, tn), lambda i, j, kk: (i, j)),
      scratch_shapes=[pltpu.VMEM((tm, tn), jnp.float32)],
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel", "arbitrary")),
      interpret=interpret,
  )(lhs, rhs)


def export_serving(cfg: ExportConfig):
  fn = jax.jit(functools.partial(gmm, tiling=cfg.tiling, interpret=cfg.interpret))
  lhs = jax.ShapeDtypeStruct((256, 512), jnp.float32)
  rhs = jax.ShapeDtypeStruct((512, 256), jnp.float32)
  return jax.export.export(fn, platforms=cfg.fleets)(lhs, rhs)


if __name__ == "__main__":
  exported = export_serving(ExportConfig())
  print(exported.platforms, exported.out_avals)

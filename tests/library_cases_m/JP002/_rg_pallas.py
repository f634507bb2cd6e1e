"""A Pallas linear-RNN scan in the shape of recurrentgemma/jax/pallas.py: the
kernel spec (tile sizes and compiler params) is computed from the first device
of the process, and the pallas_call wrapper takes it as given."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as pltriton


@dataclasses.dataclass(frozen=True)
class PallasKernelSpec:
  batch_grid_size: int
  dim_grid_size: int
  seq_len: int
  dim_tile_size: int
  compiler_params: Any

  @property
  def grid(self) -> tuple[int, int]:
    return (self.batch_grid_size, self.dim_grid_size)


def _compiler_params_for(platform: str):
  if platform == "tpu":
    return pltpu.CompilerParams(dimension_semantics=("parallel", "parallel"))
  return pltriton.CompilerParams(num_warps=4, num_stages=1)


def compute_pallas_kernel_spec(x, singleton_tile_size: int = 128) -> PallasKernelSpec:
  batch_size, seq_len, dim = x.shape
  device = jax.devices()[0]
  if dim % singleton_tile_size != 0:
    raise ValueError(f"{dim=} has to be divisible by {singleton_tile_size=} for pallas scan.")
  return PallasKernelSpec(batch_grid_size=batch_size,
                          dim_grid_size=dim // singleton_tile_size,
                          seq_len=seq_len,
                          dim_tile_size=singleton_tile_size,
                          compiler_params=_compiler_params_for(device.platform))


def linear_rnn_kernel(x_ref, a_ref, h0_ref, y_ref, h_last_ref, *, seq_len):
  def body(t, h):
    h = a_ref[0, t, :].astype(jnp.float32) * h + x_ref[0, t, :].astype(jnp.float32)
    y_ref[0, t, :] = h.astype(y_ref.dtype)
    return h

  h = jax.lax.fori_loop(0, seq_len, body, h0_ref[0, :].astype(jnp.float32))
  h_last_ref[0, :] = h.astype(h_last_ref.dtype)


def linear_rnn_pallas_call(x, a, h0, kernel_spec: PallasKernelSpec):
  b, t, d = x.shape
  seq_spec = pl.BlockSpec((1, t, kernel_spec.dim_tile_size), lambda i, j: (i, 0, j))
  h_spec = pl.BlockSpec((1, kernel_spec.dim_tile_size), lambda i, j: (i, j))
  return pl.pallas_call(
      functools.partial(linear_rnn_kernel, seq_len=kernel_spec.seq_len),
      out_shape=(jax.ShapeDtypeStruct(x.shape, x.dtype), jax.ShapeDtypeStruct((b, d), x.dtype)),
      in_specs=[seq_spec, seq_spec, h_spec],
      out_specs=(seq_spec, h_spec),
      grid=kernel_spec.grid,
      compiler_params=kernel_spec.compiler_params,
  )(x, a, h0)

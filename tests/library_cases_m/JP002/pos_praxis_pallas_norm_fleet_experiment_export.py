"""Serving export of the final norm of a language model. The TPU experiment
swaps in a Pallas layer norm; the fleet experiment reuses it and ships one
artifact for both accelerator fleets."""

import dataclasses
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

from _pax_serving import (LayerNorm, ServingExperiment, get_experiment, register_experiment,
                          register_norm)


def _layer_norm_kernel(x_ref, scale_ref, bias_ref, o_ref, *, epsilon):
  x = x_ref[...].astype(jnp.float32)
  mean = jnp.mean(x, axis=-1, keepdims=True)
  var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
  y = (x - mean) * jax.lax.rsqrt(var + epsilon)
  o_ref[...] = (y * scale_ref[...] + bias_ref[...]).astype(o_ref.dtype)


@register_norm("pallas_tpu_layer_norm")
@dataclasses.dataclass(frozen=True)
class TpuPallasLayerNorm(LayerNorm):
  block_rows: int = 8

  def __call__(self, params, x):
    rows, dim = x.shape
    row_spec = pl.BlockSpec((self.block_rows, dim), lambda i: (i, 0))
    vec_spec = pl.BlockSpec((1, dim), lambda i: (0, 0))
    return pl.pallas_call(
        functools.partial(_layer_norm_kernel, epsilon=self.epsilon),
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        in_specs=[row_spec, vec_spec, vec_spec],
        out_specs=row_spec,
        grid=(rows // self.block_rows,),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
    )(x, params["scale"].reshape(1, dim), params["bias"].reshape(1, dim))


@register_experiment
class LmTpuServing(ServingExperiment):
  NORM_TPL = "pallas_tpu_layer_norm"
  SERVING_PLATFORMS = ("tpu",)


@register_experiment
class LmFleetServing(LmTpuServing):
  SERVING_PLATFORMS = ("tpu", "cuda")


def export_final_norm(name: str):
  exp = get_experiment(name)
  norm = exp.norm()
  x = jax.ShapeDtypeStruct((64, exp.MODEL_DIMS), jnp.float32)
  exported = jax.export.export(jax.jit(norm.__call__), platforms=exp.serving_platforms())(norm.init(), x)
  return exported


if __name__ == "__main__":
  print(export_final_norm("LmFleetServing").platforms)

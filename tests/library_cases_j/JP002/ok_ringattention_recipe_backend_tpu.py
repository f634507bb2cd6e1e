"""Compiles the attention-scoring step of a recipe for its topology; the fused kernel is picked from
a backend table the way ringattention picks ring_flash_attention_tpu / _gpu / the JAX fallback.
The v5e recipe was derived from the H100 recipe and given its own kernel backend."""
import dataclasses
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as pltriton

from _ring_cfg import BlockSizes, Recipe, canonical_backend


def _score_kernel(q_ref, k_ref, o_ref, *, scale):
  o_ref[...] = q_ref[...] * k_ref[...] * scale


def scores_tpu(q, k, scale, block_sizes: BlockSizes):
  grid = (q.shape[0] // block_sizes.block_q,)
  spec = pl.BlockSpec((block_sizes.block_q, block_sizes.block_k), lambda i: (i, 0))
  out = pl.pallas_call(
      functools.partial(_score_kernel, scale=scale),
      grid=grid, in_specs=[spec, spec], out_specs=spec,
      out_shape=jax.ShapeDtypeStruct(q.shape, q.dtype),
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
  )(q, k)
  return out


def scores_gpu(q, k, scale, block_sizes: BlockSizes):
  del block_sizes
  return pl.pallas_call(
      functools.partial(_score_kernel, scale=scale),
      out_shape=jax.ShapeDtypeStruct(q.shape, q.dtype),
      compiler_params=pltriton.CompilerParams(num_warps=4, num_stages=2),
  )(q, k)


def scores_jax(q, k, scale, block_sizes):
  return q * k * scale


SCORE_IMPLS = {"tpu": scores_tpu, "gpu": scores_gpu, "cpu": scores_jax}


def make_step(recipe: Recipe):
  impl = SCORE_IMPLS[canonical_backend(recipe.attention_backend)]
  def step(q, k):
    bs = BlockSizes.get_default(1, 1, q.shape[0], k.shape[0], q.shape[1])
    s = impl(q, k, 1.0 / q.shape[1] ** 0.5, bs)
    return jax.nn.softmax(s.astype(jnp.float32) if recipe.float32_logits else s, axis=-1)
  return step


H100_RECIPE = Recipe()
V5E_RECIPE = dataclasses.replace(H100_RECIPE, topology="v5e-8", attention_backend="tpu")


if __name__ == "__main__":
  recipe = V5E_RECIPE
  spec = jax.ShapeDtypeStruct((16, 128), jnp.float32)
  traced = jax.jit(make_step(recipe)).trace(spec, spec)
  lowered = traced.lower(lowering_platforms=(recipe.platform,))
  print(recipe.topology, "ok")

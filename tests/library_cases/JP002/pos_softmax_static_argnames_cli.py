"""Command-line build of a blocked softmax Pallas kernel with heuristic block sizes."""

import argparse
import dataclasses
import functools
import sys

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as pltriton


@dataclasses.dataclass(frozen=True, kw_only=True)
class Config:
  block_rows: int
  num_warps: int
  num_stages: int


def get_heuristics_config(num_rows, num_cols):
  block_rows = min(max(pl.next_power_of_2(num_rows // 8), 8), 64)
  num_warps = 8 if num_cols >= 1024 else 4
  return Config(block_rows=block_rows, num_warps=num_warps, num_stages=2)


@functools.partial(jax.jit, static_argnames=("config",))
def softmax(x, *, config: Config):
  def kernel(x_ref, o_ref):
    v = x_ref[...]
    e = jnp.exp(v - jnp.max(v, axis=-1, keepdims=True))
    o_ref[...] = e / jnp.sum(e, axis=-1, keepdims=True)

  spec = pl.BlockSpec((config.block_rows, x.shape[1]), lambda i: (i, 0))
  return pl.pallas_call(
      kernel,
      out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
      grid=(pl.cdiv(x.shape[0], config.block_rows),),
      in_specs=[spec],
      out_specs=spec,
      compiler_params=pltriton.CompilerParams(num_warps=config.num_warps, num_stages=config.num_stages),
  )(x)


def main(argv):
  parser = argparse.ArgumentParser()
  parser.add_argument("--platform", default="tpu")
  parser.add_argument("--rows", type=int, default=256)
  parser.add_argument("--cols", type=int, default=512)
  args, _ = parser.parse_known_args(argv)
  config = get_heuristics_config(args.rows, args.cols)
  x = jax.ShapeDtypeStruct((args.rows, args.cols), jnp.float32)
  lowered = softmax.trace(x, config=config).lower(lowering_platforms=(args.platform,))
  print(lowered.as_text()[:100])


if __name__ == "__main__":
  main(sys.argv[1:])

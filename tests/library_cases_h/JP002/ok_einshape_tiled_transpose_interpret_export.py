"""An einshape-style reshaping DSL whose JAX backend runs transposes as a
tiled Pallas kernel.

The engine parses an equation such as "ij->ji" into a list of abstract ops
(`Reshape`, `Transpose`), and a backend object executes them one by one.  The
JAX backend is built by a factory from an options dict; large 2-D transposes go
to a Pallas kernel whose compiler params come from the same options.  The
reshaping function is exported for the serving fleet.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Sequence

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as pltriton


@dataclasses.dataclass(frozen=True)
class Reshape:
  shape: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class Transpose:
  perm: tuple[int, ...]


def parse(equation: str, shape: Sequence[int]) -> list[Any]:
  lhs, rhs = equation.replace(" ", "").split("->")
  if sorted(lhs) != sorted(rhs):
    raise ValueError(f"einshape: {equation!r} is not a permutation")
  ops: list[Any] = []
  perm = tuple(lhs.index(c) for c in rhs)
  if perm != tuple(range(len(lhs))):
    ops.append(Transpose(perm))
  ops.append(Reshape(tuple(shape[p] for p in perm)))
  return ops


class Backend:

  def reshape(self, x, op: Reshape):
    raise NotImplementedError

  def transpose(self, x, op: Transpose):
    raise NotImplementedError

  def exec(self, x, ops):
    for op in ops:
      x = self.transpose(x, op) if isinstance(op, Transpose) else self.reshape(x, op)
    return x


def _copy_t_kernel(x_ref, o_ref):
  o_ref[...] = x_ref[...].T


class JaxBackend(Backend):

  def __init__(self, tile: int, compiler_params, interpret: bool):
    self.tile = tile
    self.compiler_params = compiler_params
    self.interpret = interpret

  def reshape(self, x, op):
    return jnp.reshape(x, op.shape)

  def transpose(self, x, op):
    if op.perm != (1, 0) or min(x.shape) < self.tile:
      return jnp.transpose(x, op.perm)
    t = self.tile
    return pl.pallas_call(
        _copy_t_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape[::-1], x.dtype),
        grid=(x.shape[0] // t, x.shape[1] // t),
        in_specs=[pl.BlockSpec((t, t), lambda i, j: (i, j))],
        out_specs=pl.BlockSpec((t, t), lambda i, j: (j, i)),
        compiler_params=self.compiler_params,
        interpret=self.interpret,
    )(x)


def make_backend(options: Mapping[str, Any]) -> Backend:
  params = pltriton.CompilerParams(
      num_warps=options.get("num_warps", 4), num_stages=options.get("num_stages", 2)
  )
  return JaxBackend(options.get("tile", 128), params, options.get("interpret", False))


def einshape(equation: str, x, backend: Backend):
  return backend.exec(x, parse(equation, x.shape))


# The portable artifact is run by the interpreter: the tuned kernels are GPU-only.
DEFAULT_OPTIONS = {"tile": 128, "num_warps": 8, "num_stages": 3, "interpret": True}


def export_reshaper(equation: str, shape, platforms: Sequence[str], options=DEFAULT_OPTIONS):
  backend = make_backend(options)
  fn = jax.jit(lambda x: einshape(equation, x, backend))
  spec = jax.ShapeDtypeStruct(shape, jnp.float32)
  return jax.export.export(fn, platforms=platforms)(spec)


if __name__ == "__main__":
  exp = export_reshaper("ij->ji", (256, 512), platforms=("tpu",))
  print(exp.platforms, exp.out_avals)

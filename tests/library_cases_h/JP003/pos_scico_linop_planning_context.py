"""Checking that a composed imaging operator fits a multi-host slice.

Operators follow scico's design: an `Operator` knows its input/output shapes
and dtype, `LinearOperator`s compose with `@` and scale with `*`, and `.jit()`
swaps the evaluation function for a jitted one.  A small planning helper enters
an abstract mesh for the slice described in the job spec, and the operator is
jitted with a partition spec for its input (the mesh comes from the context).
"""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Callable, Optional

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, PartitionSpec as P


class Operator:

  def __init__(self, input_shape, output_shape=None, input_dtype=jnp.float32,
               eval_fn: Optional[Callable] = None):
    self.input_shape = tuple(input_shape)
    self.output_shape = tuple(output_shape or input_shape)
    self.input_dtype = input_dtype
    if eval_fn is not None:
      self._eval = eval_fn

  def _eval(self, x):
    raise NotImplementedError

  def __call__(self, x):
    return self._eval(x)

  def jit(self, in_spec=None):
    fn = jax.jit(self._eval, in_shardings=in_spec) if in_spec is not None else jax.jit(self._eval)
    self._eval = fn
    return fn


class LinearOperator(Operator):

  def __matmul__(self, other: "LinearOperator") -> "LinearOperator":
    return LinearOperator(other.input_shape, self.output_shape, other.input_dtype,
                          eval_fn=lambda x: self(other(x)))

  def __mul__(self, scalar: float) -> "LinearOperator":
    return LinearOperator(self.input_shape, self.output_shape, self.input_dtype,
                          eval_fn=lambda x: scalar * self(x))

  __rmul__ = __mul__


class Diagonal(LinearOperator):

  def __init__(self, diagonal):
    super().__init__(diagonal.shape, input_dtype=diagonal.dtype)
    self.diagonal = diagonal

  def _eval(self, x):
    return self.diagonal * x


class Identity(Diagonal):

  def __init__(self, input_shape):
    super().__init__(jnp.ones(input_shape, jnp.float32))


class PointwiseNonlinearity(Operator):

  def _eval(self, x):
    return jnp.log1p(jnp.abs(x))


@dataclasses.dataclass(frozen=True)
class SliceSpec:
  name: str
  rows: int
  cols: int


@contextlib.contextmanager
def planning_mesh(spec: SliceSpec):
  mesh = AbstractMesh((spec.rows, spec.cols), ("x", "y"))
  with jax.sharding.use_abstract_mesh(mesh):
    yield mesh


def build_forward(shape, log_measurements: bool = False):
  mask = Diagonal(jnp.linspace(0.5, 1.0, shape[0] * shape[1]).reshape(shape))
  blur = 0.25 * Identity(shape)
  forward = mask @ blur
  if log_measurements:
    log = PointwiseNonlinearity(shape)
    return Operator(shape, eval_fn=lambda x: log(forward(x)))
  return forward


def check_slice(spec: SliceSpec, shape=(512, 512)):
  forward = build_forward(shape)
  x_spec = jax.ShapeDtypeStruct(shape, jnp.float32)
  with planning_mesh(spec):
    fn = forward.jit(in_spec=P("x", "y"))
    lowered = fn.trace(x_spec).lower()
  return lowered


if __name__ == "__main__":
  lowered = check_slice(SliceSpec("v5e-16", rows=4, cols=4))
  print(lowered.as_text()[:120])

"""Batched Poisson solves with a lineax-style operator and CG solver, exported.

Follows lineax: an ``AbstractLinearOperator`` hierarchy (``mv``,
``in_structure``, ``as_matrix``) with ``MatrixLinearOperator`` and
``FunctionLinearOperator``, a ``CG`` solver with ``init``/``compute``, and
``linear_solve(operator, vector, solver)``.  The discrete Laplacian is large and
sparse; large systems apply it on the host with SciPy's CSR matrix through a
``FunctionLinearOperator``, small ones keep the dense matrix on the device.  The right-hand sides are split
across the devices of the serving slice; the solve is exported for that slice.
"""

from __future__ import annotations

import abc
import os
from typing import Any, Callable, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import scipy.sparse as sp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

Array = jax.Array


# --------------------------------------------------------------------------
# operators
# --------------------------------------------------------------------------


class AbstractLinearOperator(abc.ABC):

  @abc.abstractmethod
  def mv(self, vector: Array) -> Array:
    ...

  @abc.abstractmethod
  def in_structure(self) -> jax.ShapeDtypeStruct:
    ...

  def as_matrix(self) -> Array:
    n = self.in_structure().shape[0]
    return jax.vmap(self.mv, in_axes=1, out_axes=1)(jnp.eye(n, dtype=self.in_structure().dtype))


class MatrixLinearOperator(AbstractLinearOperator):

  def __init__(self, matrix: Array, tags: frozenset = frozenset()):
    self.matrix = matrix
    self.tags = tags

  def mv(self, vector):
    return self.matrix @ vector

  def in_structure(self):
    return jax.ShapeDtypeStruct(self.matrix.shape[1:], self.matrix.dtype)

  def as_matrix(self):
    return self.matrix


class FunctionLinearOperator(AbstractLinearOperator):

  def __init__(self, fn: Callable[[Array], Array], input_structure: jax.ShapeDtypeStruct,
               tags: frozenset = frozenset()):
    self.fn = fn
    self.input_structure = input_structure
    self.tags = tags

  def mv(self, vector):
    return self.fn(vector)

  def in_structure(self):
    return self.input_structure


positive_semidefinite_tag = "positive_semidefinite"


# --------------------------------------------------------------------------
# solver
# --------------------------------------------------------------------------


class Solution(NamedTuple):
  value: Array
  num_steps: Array


class CG:

  def __init__(self, rtol: float, atol: float, max_steps: int = 200):
    self.rtol, self.atol, self.max_steps = rtol, atol, max_steps

  def init(self, operator: AbstractLinearOperator, options: dict[str, Any]):
    if positive_semidefinite_tag not in operator.tags:
      raise ValueError("CG requires a positive semidefinite operator")
    return operator

  def compute(self, state, vector: Array, options) -> Solution:
    operator = state
    x = jnp.zeros_like(vector)
    r = vector - operator.mv(x)
    tol = self.atol + self.rtol * jnp.linalg.norm(vector, axis=0)

    def cond(carry):
      _, r, _, _, step = carry
      return jnp.logical_and(jnp.any(jnp.linalg.norm(r, axis=0) > tol), step < self.max_steps)

    def body(carry):
      x, r, p, rr, step = carry
      ap = operator.mv(p)
      alpha = rr / jnp.sum(p * ap, axis=0)
      x = x + alpha * p
      r = r - alpha * ap
      rr_new = jnp.sum(r * r, axis=0)
      p = r + (rr_new / rr) * p
      return x, r, p, rr_new, step + 1

    x, _, _, _, steps = jax.lax.while_loop(cond, body, (x, r, r, jnp.sum(r * r, axis=0), 0))
    return Solution(value=x, num_steps=steps)


def linear_solve(operator: AbstractLinearOperator, vector: Array, solver, options=None) -> Solution:
  options = options or {}
  return solver.compute(solver.init(operator, options), vector, options)


# --------------------------------------------------------------------------
# application
# --------------------------------------------------------------------------


def poisson_matrix(n: int) -> sp.csr_matrix:
  main = 2.0 * np.ones(n)
  off = -1.0 * np.ones(n - 1)
  return sp.diags([off, main, off], [-1, 0, 1], format="csr").astype(np.float32)


def host_sparse_operator(matrix: sp.csr_matrix, num_rhs: int) -> FunctionLinearOperator:
  n = matrix.shape[0]

  def matvec(v):
    out = jax.ShapeDtypeStruct(v.shape, v.dtype)
    return jax.pure_callback(lambda x: np.asarray(matrix @ np.asarray(x), dtype=np.float32), out, v)

  return FunctionLinearOperator(matvec, jax.ShapeDtypeStruct((n, num_rhs), jnp.float32),
                                tags=frozenset({positive_semidefinite_tag}))


def dense_operator(matrix: sp.csr_matrix) -> MatrixLinearOperator:
  return MatrixLinearOperator(jnp.asarray(matrix.toarray()), tags=frozenset({positive_semidefinite_tag}))


OPERATOR_KINDS = {
    "host_sparse": lambda m, k: host_sparse_operator(m, k),
    "dense": lambda m, k: dense_operator(m),
}

# Below this size the dense matrix fits comfortably on every device.
DENSE_LIMIT = 4096


def default_operator_kind(n: int) -> str:
  return "dense" if n <= DENSE_LIMIT else "host_sparse"


def make_solver_fn(operator_kind: str, n: int, num_rhs: int):
  operator = OPERATOR_KINDS[operator_kind](poisson_matrix(n), num_rhs)
  solver = CG(rtol=1e-5, atol=1e-6, max_steps=4 * n)

  def solve(rhs):
    return linear_solve(operator, rhs, solver).value

  return solve


def export_for_slice(operator_kind: str, n: int, num_rhs: int, slice_devices: int, platform: str):
  mesh = AbstractMesh((slice_devices,), ("rhs",), axis_types=(AxisType.Auto,))
  sharding = NamedSharding(mesh, P(None, "rhs"))
  solve = jax.jit(make_solver_fn(operator_kind, n, num_rhs), in_shardings=sharding, out_shardings=sharding)
  rhs_spec = jax.ShapeDtypeStruct((n, num_rhs), jnp.float32)
  return jax.export.export(solve, platforms=(platform,))(rhs_spec)


def main():
  n, num_rhs = 64, 8
  operator_kind = os.environ.get("POISSON_OPERATOR") or default_operator_kind(n)
  rhs = jnp.ones((n, num_rhs), jnp.float32)
  x = jax.jit(make_solver_fn(operator_kind, n, num_rhs))(rhs)
  print("local residual:", float(jnp.max(jnp.abs(poisson_matrix(n) @ np.asarray(x) - 1.0))))
  exported = export_for_slice(operator_kind, n, num_rhs,
                              slice_devices=int(os.environ.get("POISSON_SLICE_DEVICES", "4")),
                              platform=os.environ.get("POISSON_PLATFORM", "tpu"))
  print("exported for", exported.platforms, exported.in_shardings_hlo)


if __name__ == "__main__":
  main()

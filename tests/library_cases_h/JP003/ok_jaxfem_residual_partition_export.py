"""Ahead-of-time planning of a partitioned finite-element residual.

Structure after jax-fem: a `Problem` holds the FE mesh (points and cell
connectivity), its kernels are defined by subclass hooks (`get_tensor_map`,
`get_mass_map`), and the solver options are a nested dict handed in by the
user.  A `partition` entry in the options asks for the cell-wise residual to be
sharded over an abstract mesh of the target cluster; the residual function is
jitted by a decorator factory that binds the output sharding.
"""

from __future__ import annotations

import functools
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P


def rectangle_mesh(nx: int, ny: int):
  xs, ys = np.meshgrid(np.linspace(0, 1, nx + 1), np.linspace(0, 1, ny + 1), indexing="ij")
  points = np.stack([xs.ravel(), ys.ravel()], -1).astype(np.float32)
  idx = np.arange((nx + 1) * (ny + 1)).reshape(nx + 1, ny + 1)
  cells = np.stack([idx[:-1, :-1], idx[1:, :-1], idx[1:, 1:], idx[:-1, 1:]], -1).reshape(-1, 4)
  return points, cells.astype(np.int32)


class Problem:

  def __init__(self, points, cells, solver_options: dict[str, Any]):
    self.points = points
    self.cells = cells
    self.solver_options = solver_options
    self.custom_init()

  def custom_init(self):
    pass

  def get_tensor_map(self):
    raise NotImplementedError

  def get_mass_map(self):
    return None

  def cell_shardings(self):
    part = self.solver_options.get("partition")
    if not part:
      return None
    mesh = AbstractMesh((part["devices"],), (part["axis"],))
    return NamedSharding(mesh, P(part["axis"]))

  def compute_residual_fn(self):
    tensor_map = self.get_tensor_map()
    mass_map = self.get_mass_map()
    sharding = self.cell_shardings()
    jit_cells = functools.partial(jax.jit, out_shardings=sharding) if sharding else jax.jit

    @jit_cells
    def cell_residual(sol, cell_points):
      u_cell = sol[self.cells]
      grad_u = (u_cell[:, 1] - u_cell[:, 0] + u_cell[:, 2] - u_cell[:, 3]) * 0.5
      flux = jax.vmap(tensor_map)(grad_u)
      res = flux[:, None] * jnp.ones((1, 4), sol.dtype)
      if mass_map is not None:
        res = res + jax.vmap(mass_map)(u_cell)
      return res * jnp.mean(cell_points, axis=(1, 2))[:, None]

    return cell_residual


class Poisson(Problem):

  def custom_init(self):
    self.kappa = 2.0

  def get_tensor_map(self):
    return lambda g: self.kappa * g


class ReactionDiffusion(Poisson):

  def get_mass_map(self):
    return lambda u: 0.1 * u ** 3


OPTIONS = {
    "jax_solver": {"precond": True},
    "tol": 1e-8,
    "partition": {"devices": 8, "axis": "cells"},
}


def plan_residual(problem_cls, nx=32, ny=32, options=OPTIONS):
  points, cells = rectangle_mesh(nx, ny)
  problem = problem_cls(points, cells, dict(options))
  residual = problem.compute_residual_fn()
  sol = jnp.zeros((points.shape[0],), jnp.float32)
  cell_points = jnp.asarray(points[cells])
  # export always names its platforms (the host's by default).
  return jax.export.export(residual)(sol, cell_points)


if __name__ == "__main__":
  exported = plan_residual(ReactionDiffusion)
  print(exported.platforms, exported.out_shardings_hlo)

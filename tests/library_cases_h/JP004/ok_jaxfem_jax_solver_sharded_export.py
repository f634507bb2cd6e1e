"""Exporting a sharded finite-element Newton solve.

After jax-fem's `solver.py`: `linear_solver(A, b, x0, solver_options)` looks at
which solver key the user's options dict holds ('jax_solver', 'umfpack_solver',
'custom_solver', ...), filling in the JAX solver when none is given, and the
host solvers are reached through `jax.pure_callback`.  The Newton solve is
jitted with the load cases sharded over an abstract mesh of the target cluster
and exported as an artifact.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import scipy.linalg
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P

SOLVER_KEYS = {"jax_solver", "umfpack_solver", "custom_solver"}


def jax_solve(A, b, x0, precond: bool):
  M = (lambda v: v / jnp.diag(A)) if precond else None
  x, _ = jax.scipy.sparse.linalg.cg(lambda v: A @ v, b, x0=x0, M=M, tol=1e-10)
  return x


def _host_dense_solve(A, b):
  return scipy.linalg.solve(np.asarray(A), np.asarray(b), assume_a="pos").astype(b.dtype)


def host_solve(A, b, x0):
  return jax.pure_callback(_host_dense_solve, jax.ShapeDtypeStruct(b.shape, b.dtype), A, b,
                           vmap_method="sequential")


def linear_solver(A, b, x0, solver_options):
  if len(solver_options.keys() & SOLVER_KEYS) == 0:
    solver_options["jax_solver"] = {}
  if "jax_solver" in solver_options:
    precond = solver_options["jax_solver"].get("precond", True)
    return jax_solve(A, b, x0, precond)
  if "custom_solver" in solver_options:
    return solver_options["custom_solver"](A, b, x0)
  if "umfpack_solver" in solver_options:
    return host_solve(A, b, x0)
  raise ValueError(f"unknown solver in {sorted(solver_options)}")


def assemble(u, n):
  main = 2.0 + 0.1 * u ** 2
  A = jnp.diag(main) - jnp.diag(jnp.ones(n - 1), 1) - jnp.diag(jnp.ones(n - 1), -1)
  return A


def residual(u, f):
  n = u.shape[0]
  return assemble(u, n) @ u - f


def newton_solve(f, solver_options, n_iter=3):
  u = jnp.zeros_like(f)
  for _ in range(n_iter):
    A = jax.jacfwd(residual)(u, f)
    du = linear_solver(A, -residual(u, f), jnp.zeros_like(u), solver_options)
    u = u + du
  return u


def make_sharded_solver(solver_options, n_cases, cluster_devices):
  mesh = AbstractMesh((cluster_devices,), ("cases",))
  cases = NamedSharding(mesh, P("cases"))
  batched = jax.vmap(lambda f: newton_solve(f, dict(solver_options)))
  return jax.jit(batched, in_shardings=cases, out_shardings=cases)


def export_solver(solver_options, n=32, n_cases=8, cluster_devices=4, platforms=("cpu",)):
  solver = make_sharded_solver(solver_options, n_cases, cluster_devices)
  spec = jax.ShapeDtypeStruct((n_cases, n), jnp.float32)
  return jax.export.export(solver, platforms=platforms)(spec)


USER_OPTIONS = {
    # The exported artifact stays on device: preconditioned CG.
    "jax_solver": {"precond": True},
    "tol": 1e-8,
}


if __name__ == "__main__":
  exp = export_solver(USER_OPTIONS)
  print(exp.platforms)

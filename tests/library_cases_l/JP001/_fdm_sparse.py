"""Linear solvers for the force density method (FDM), chosen once per process.

The stiffness matrix of the free nodes is symmetric, so it is handed around in
compressed-sparse-row form (data, indices, indptr) and solved either on the
host (NumPy, wrapped as a pure callback) or on the accelerator (dense JAX
solve of the re-assembled matrix).  Which one a process uses is decided when
this module is imported, from the backend JAX starts on.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class CSRMatrix(NamedTuple):
    data: jax.Array
    indices: np.ndarray
    indptr: np.ndarray
    shape: tuple[int, int]


def _dense_from_csr_np(data, indices, indptr, shape):
    out = np.zeros(shape, dtype=data.dtype)
    for row in range(shape[0]):
        lo, hi = indptr[row], indptr[row + 1]
        out[row, indices[lo:hi]] = data[lo:hi]
    return out


def spsolve_host(A: CSRMatrix, b: jax.Array) -> jax.Array:
    """Solve on the host with NumPy; the result comes back as a JAX array."""

    def _callback(data, _b):
        dense = _dense_from_csr_np(np.asarray(data), A.indices, A.indptr, A.shape)
        return np.linalg.solve(dense, np.asarray(_b)).astype(_b.dtype)

    return jax.pure_callback(_callback, jax.ShapeDtypeStruct(b.shape, b.dtype), A.data, b)


def spsolve_device(A: CSRMatrix, b: jax.Array) -> jax.Array:
    """Re-assemble densely on the device and solve there."""
    rows = np.repeat(np.arange(A.shape[0]), np.diff(A.indptr))
    dense = jnp.zeros(A.shape, A.data.dtype).at[rows, A.indices].set(A.data)
    return jnp.linalg.solve(dense, b)


def register_sparse_solver(solvers: dict[str, Callable]) -> Callable:
    """The solver registered for the backend this process runs on."""
    backend = jax.default_backend()
    solver = solvers.get(backend)
    if solver is None:
        raise ValueError(f"backend {backend} has no sparse solver")
    return solver


_SOLVERS = {"cpu": spsolve_host, "gpu": spsolve_device, "tpu": spsolve_device}

spsolve = register_sparse_solver(_SOLVERS)

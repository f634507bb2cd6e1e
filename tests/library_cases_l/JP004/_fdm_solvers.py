"""Linear solvers for force-density form finding, picked per process.

On a CPU process the stiffness system goes to NumPy on the host (a pure
callback that maps sequentially over batched designs); on accelerators it is
re-assembled densely and solved on the device.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np


def _solve_host(K, P):
    def _callback(K, P):
        return np.linalg.solve(np.asarray(K), np.asarray(P)).astype(P.dtype)

    return jax.pure_callback(_callback, jax.ShapeDtypeStruct(P.shape, P.dtype), K, P,
                             vmap_method="sequential")


def _solve_device(K, P):
    return jnp.linalg.solve(K, P)


SOLVERS = {"cpu": _solve_host, "gpu": _solve_device, "tpu": _solve_device}


def solver_for_backend(backend: str | None = None):
    backend = backend or jax.default_backend()
    try:
        return SOLVERS[backend]
    except KeyError:
        raise ValueError(f"no linear solver registered for backend {backend}") from None


linearsolve = solver_for_backend()

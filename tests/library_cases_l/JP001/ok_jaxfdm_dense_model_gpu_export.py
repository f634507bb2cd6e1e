"""Export a force-density form-finding model for the GPU form-finding service.

Shaped after jax_fdm: dense and sparse `EquilibriumModel`s; the service spec keeps the
dense device solve, so the host-picked sparse solver never enters the export.
"""

from __future__ import annotations

import dataclasses
import functools

import jax
import jax.numpy as jnp
import numpy as np

from _fdm_sparse import CSRMatrix, spsolve


class EquilibriumStructure:
    """Connectivity of a rectangular cable net; boundary nodes are supports."""

    def __init__(self, nx: int, ny: int):
        ids = np.arange(nx * ny).reshape(nx, ny)
        edges = [(ids[i, j], ids[i + 1, j]) for i in range(nx - 1) for j in range(ny)]
        edges += [(ids[i, j], ids[i, j + 1]) for i in range(nx) for j in range(ny - 1)]
        self.num_nodes = nx * ny
        self.num_edges = len(edges)
        C = np.zeros((self.num_edges, self.num_nodes), np.float32)
        for e, (u, v) in enumerate(edges):
            C[e, u], C[e, v] = 1.0, -1.0
        boundary = np.zeros((nx, ny), bool)
        boundary[[0, -1], :] = True
        boundary[:, [0, -1]] = True
        self.fixed = np.flatnonzero(boundary.ravel())
        self.free = np.flatnonzero(~boundary.ravel())
        self.Cf = C[:, self.free]
        self.Cx = C[:, self.fixed]
        pattern = (np.abs(self.Cf.T) @ np.abs(self.Cf)) > 0
        self.rows, self.cols = np.nonzero(pattern)
        self.indptr = np.concatenate([[0], np.cumsum(pattern.sum(axis=1))])


class EquilibriumModel:
    """Dense FDM model: K = Cf^T Q Cf, solved on the device."""

    def __init__(self, tmax: int = 1):
        self.tmax = tmax
        self.linearsolve_fn = jnp.linalg.solve

    @staticmethod
    def stiffness_matrix(q, structure: EquilibriumStructure):
        return structure.Cf.T @ (q[:, None] * structure.Cf)

    def equilibrium(self, q, xyz_fixed, loads, *, structure: EquilibriumStructure):
        K = self.stiffness_matrix(q, structure)
        P = loads - structure.Cf.T @ (q[:, None] * (structure.Cx @ xyz_fixed))
        xyz_free = self.linearsolve_fn(K, P)
        xyz = jnp.zeros((structure.num_nodes, 3), xyz_free.dtype)
        xyz = xyz.at[structure.free].set(xyz_free).at[structure.fixed].set(xyz_fixed)
        lengths = jnp.linalg.norm((structure.Cf @ xyz_free) + (structure.Cx @ xyz_fixed), axis=1)
        return xyz, q * lengths


class EquilibriumModelSparse(EquilibriumModel):
    """Same model, stiffness assembled in CSR form and solved by `spsolve`."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.linearsolve_fn = spsolve

    @staticmethod
    def stiffness_matrix(q, structure: EquilibriumStructure):
        dense = structure.Cf.T @ (q[:, None] * structure.Cf)
        data = dense[structure.rows, structure.cols]
        n = structure.free.size
        return CSRMatrix(data, structure.cols, structure.indptr, (n, n))


def model_from_sparsity(sparse: bool) -> EquilibriumModel:
    return EquilibriumModelSparse() if sparse else EquilibriumModel()


@dataclasses.dataclass(frozen=True)
class ServiceSpec:
    """Where the exported form finder is served, and how it solves."""

    platform: str = "cuda"
    sparse: bool = False  # the service solves densely on the device
    grid: tuple[int, int] = (6, 5)


def export_form_finding(spec: ServiceSpec):
    structure = EquilibriumStructure(*spec.grid)
    model = model_from_sparsity(spec.sparse)
    fn = jax.jit(functools.partial(model.equilibrium, structure=structure))
    q = jax.ShapeDtypeStruct((structure.num_edges,), jnp.float32)
    xyz_fixed = jax.ShapeDtypeStruct((structure.fixed.size, 3), jnp.float32)
    loads = jax.ShapeDtypeStruct((structure.free.size, 3), jnp.float32)
    return jax.export.export(fn, platforms=(spec.platform,))(q, xyz_fixed, loads)


if __name__ == "__main__":
    exported = export_form_finding(ServiceSpec())
    print("exported for", exported.platforms, "inputs:", len(exported.in_avals))

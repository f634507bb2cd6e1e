"""Lower a batched form-finding sweep for the layout of the sweep cluster.

Shaped after jax_fdm: a cable-net `EquilibriumModel` whose linear solve is the
process's registered solver, vmapped over a batch of force-density designs,
with the batch split over the hosts named in a JSON sweep plan; the plan's
mesh is built over this machine's devices (a one-host dry run).
"""

from __future__ import annotations

import json

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

from _fdm_solvers import linearsolve

SWEEP_PLAN = json.loads("""
{
  "designs": 64,
  "net": [6, 6],
  "mesh": {"designs": 1}
}
""")


class CableNet:
    def __init__(self, nx: int, ny: int):
        ids = np.arange(nx * ny).reshape(nx, ny)
        edges = [(ids[i, j], ids[i + 1, j]) for i in range(nx - 1) for j in range(ny)]
        edges += [(ids[i, j], ids[i, j + 1]) for i in range(nx) for j in range(ny - 1)]
        C = np.zeros((len(edges), nx * ny), np.float32)
        for e, (u, v) in enumerate(edges):
            C[e, u], C[e, v] = 1.0, -1.0
        border = np.zeros((nx, ny), bool)
        border[[0, -1], :] = border[:, [0, -1]] = True
        self.free = np.flatnonzero(~border.ravel())
        self.fixed = np.flatnonzero(border.ravel())
        self.Cf, self.Cx = C[:, self.free], C[:, self.fixed]
        self.num_edges = len(edges)


class EquilibriumModel:
    def __init__(self, net: CableNet, linearsolve_fn=linearsolve):
        self.net = net
        self.linearsolve_fn = linearsolve_fn

    def __call__(self, q, xyz_fixed, loads):
        net = self.net
        K = net.Cf.T @ (q[:, None] * net.Cf)
        P = loads - net.Cf.T @ (q[:, None] * (net.Cx @ xyz_fixed))
        xyz_free = self.linearsolve_fn(K, P)
        lengths = jnp.linalg.norm(net.Cf @ xyz_free + net.Cx @ xyz_fixed, axis=1)
        return xyz_free, q * lengths


def plan_mesh(plan) -> Mesh:
    names = tuple(plan["mesh"])
    sizes = tuple(plan["mesh"][n] for n in names)
    devices = jax.devices()[:int(np.prod(sizes))]
    return jax.make_mesh(sizes, names, axis_types=(AxisType.Auto,) * len(names), devices=devices)


def lower_sweep(plan):
    net = CableNet(*plan["net"])
    model = EquilibriumModel(net)
    batched = jax.vmap(model, in_axes=(0, None, None))
    mesh = plan_mesh(plan)
    q = jax.ShapeDtypeStruct((plan["designs"], net.num_edges), jnp.float32,
                             sharding=NamedSharding(mesh, P("designs")))
    xyz_fixed = jax.ShapeDtypeStruct((net.fixed.size, 3), jnp.float32,
                                     sharding=NamedSharding(mesh, P()))
    loads = jax.ShapeDtypeStruct((net.free.size, 3), jnp.float32, sharding=NamedSharding(mesh, P()))
    traced = jax.jit(batched).trace(q, xyz_fixed, loads)
    return traced.lower(lowering_platforms=("cpu",))


if __name__ == "__main__":
    lowered = lower_sweep(SWEEP_PLAN)
    print(len(lowered.as_text()), "chars")

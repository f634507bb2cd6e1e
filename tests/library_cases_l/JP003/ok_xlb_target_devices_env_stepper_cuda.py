"""Check how a D2Q9 channel-flow stepper partitions on the target machine.

Shaped after XLB: a grid factory that lays fields out over a device mesh, a
stepper whose jitted step (a cached property) carries the grid's sharding in
and out, and a script that reads the size of the target machine from the
environment so that the partitioning can be checked from a laptop, lowering
for the target machine's platform.
"""

from __future__ import annotations

import functools
import os

import jax
import jax.numpy as jnp
import numpy as np

from _xlb_grid import JaxGrid, grid_factory

TARGET_DEVICES = int(os.environ.get("XLB_TARGET_DEVICES", "8"))

C = np.array([[0, 1, 0, -1, 0, 1, -1, -1, 1],
              [0, 0, 1, 0, -1, 1, 1, -1, -1]], dtype=np.int32)
W = np.array([4 / 9] + [1 / 9] * 4 + [1 / 36] * 4, dtype=np.float32)


class NSEStepper:
    def __init__(self, grid: JaxGrid, omega: float, body_force: float = 1e-5):
        self.grid, self.omega, self.body_force = grid, omega, body_force

    def _equilibrium(self, rho, u):
        cu = 3.0 * jnp.einsum("dq,dxy->qxy", C, u)
        usq = 1.5 * jnp.sum(u * u, axis=0)
        return W[:, None, None] * rho * (1.0 + cu + 0.5 * cu * cu - usq)

    def _step(self, f):
        rho = f.sum(0)
        u = jnp.einsum("dq,qxy->dxy", C, f) / rho
        u = u.at[0].add(self.body_force / rho)
        f = f - self.omega * (f - self._equilibrium(rho, u))
        return jnp.stack([jnp.roll(f[i], (int(C[0, i]), int(C[1, i])), axis=(0, 1))
                          for i in range(9)])

    @functools.cached_property
    def jitted(self):
        return jax.jit(self._step, in_shardings=self.grid.sharding,
                       out_shardings=self.grid.sharding)


if __name__ == "__main__":
    grid = grid_factory((256, 64), target_devices=TARGET_DEVICES)
    stepper = NSEStepper(grid, omega=1.7)
    traced = stepper.jitted.trace(grid.field_spec(9, jnp.float32))
    lowered = traced.lower(lowering_platforms=("cuda",))
    print(lowered.as_text().count("sharding"), "sharding annotations")

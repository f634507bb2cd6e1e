"""Host-side monitors for lattice-Boltzmann runs.

A monitor is a callable `monitor(step, f)` called from inside the compiled
time loop; it decides on the device whether this step is reported and ships
a few scalars to the host with `io_callback`.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.experimental import io_callback


class MacroscopicMonitor:
    def __init__(self, every: int = 100):
        self.every = every
        self.history: list[tuple[int, float, float]] = []

    def _record(self, step, rho_mean, u_max):
        self.history.append((int(step), float(rho_mean), float(u_max)))

    def __call__(self, step, f, c):
        rho = f.sum(0)
        ux = jnp.tensordot(c[0], f, axes=1) / rho
        uy = jnp.tensordot(c[1], f, axes=1) / rho
        u_max = jnp.sqrt(ux * ux + uy * uy).max()
        jax.lax.cond(step % self.every == 0,
                     lambda: io_callback(self._record, None, step, rho.mean(), u_max),
                     lambda: None)

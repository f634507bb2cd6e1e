"""Lower a monitored lid-driven-cavity run for the planned GPU partition.

Shaped after XLB: a stepper operator with a list of callbacks that the time
loop calls every step (here a macroscopic monitor reporting to the host), and
a grid whose sharding is laid out over the target machine's devices; the run
configuration describes a 4-GPU partition that this machine plans for.
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

from _xlb_monitor import MacroscopicMonitor

C = np.array([[0, 1, 0, -1, 0, 1, -1, -1, 1],
              [0, 0, 1, 0, -1, 1, 1, -1, -1]], dtype=np.int32)
W = np.array([4 / 9] + [1 / 9] * 4 + [1 / 36] * 4, dtype=np.float32)


@dataclasses.dataclass(frozen=True)
class RunConfig:
    shape: tuple[int, int] = (128, 128)
    omega: float = 1.8
    steps: int = 2000
    target_devices: int = 4
    platform: str = "cuda"


class Grid:
    def __init__(self, shape, target_devices: int):
        names = ("cardinality", "x", "y")
        self.mesh = AbstractMesh((1, target_devices, 1), names, axis_types=(AxisType.Auto,) * 3)
        self.sharding = NamedSharding(self.mesh, P(*names))
        self.shape = shape


class Stepper:
    def __init__(self, grid: Grid, omega: float):
        self.grid, self.omega = grid, omega
        self.callbacks = []

    def add_callback(self, cb):
        self.callbacks.append(cb)
        return cb

    def collide_stream(self, f):
        rho = f.sum(0)
        u = jnp.einsum("dq,qxy->dxy", C, f) / rho
        cu = 3.0 * jnp.einsum("dq,dxy->qxy", C, u)
        feq = W[:, None, None] * rho * (1.0 + cu + 0.5 * cu * cu - 1.5 * jnp.sum(u * u, 0))
        f = f - self.omega * (f - feq)
        return jnp.stack([jnp.roll(f[i], (int(C[0, i]), int(C[1, i])), axis=(0, 1))
                          for i in range(9)])

    def run(self, f, num_steps: int):
        def body(step, f):
            f = self.collide_stream(f)
            for cb in self.callbacks:
                cb(step, f, C)
            return f

        return jax.lax.fori_loop(0, num_steps, body, f)


def lower_run(config: RunConfig, stepper: Stepper):
    run = jax.jit(lambda f: stepper.run(f, config.steps),
                  in_shardings=stepper.grid.sharding, out_shardings=stepper.grid.sharding)
    f = jax.ShapeDtypeStruct((9, *config.shape), jnp.float32)
    return run.trace(f).lower(lowering_platforms=(config.platform,))


if __name__ == "__main__":
    config = RunConfig()
    stepper = Stepper(Grid(config.shape, config.target_devices), config.omega)
    stepper.add_callback(MacroscopicMonitor(every=200))
    lowered = lower_run(config, stepper)
    print(lowered.as_text().count("\n"), "lines")

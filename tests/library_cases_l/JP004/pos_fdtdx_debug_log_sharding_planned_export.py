"""Export the FDTD update of an inverse-design example for a planned TPU run.

Shaped after fdtdx: E and H field arrays split over devices along x by a
sharding helper that can plan for a device count this machine does not have,
a helper that logs the sharding XLA chose for each field when debug logging
is on, and an example script whose log level comes from the environment.
"""

from __future__ import annotations

import dataclasses
import logging
import os

import jax
import jax.numpy as jnp

from _fdtdx_sharding import get_named_sharding_from_shape, log_sharding

# verbose while the example is being tuned; set FDTDX_LOG_LEVEL=INFO for production runs
logging.basicConfig(level=os.environ.get("FDTDX_LOG_LEVEL", "DEBUG"))


@dataclasses.dataclass(frozen=True)
class SimulationConfig:
    volume: tuple[int, int, int] = (128, 64, 32)
    courant_factor: float = 0.99
    planned_devices: int = 8


def _curl(F, sign):
    dx = lambda a, ax: sign * (jnp.roll(a, -sign, axis=ax) - a)
    Fx, Fy, Fz = F[0], F[1], F[2]
    return jnp.stack([dx(Fz, 1) - dx(Fy, 2), dx(Fx, 2) - dx(Fz, 0), dx(Fy, 0) - dx(Fx, 1)])


def update_fields(E, H, inv_permittivity, *, coeff):
    H = H - coeff * _curl(E, 1)
    log_sharding(H, "H after update")
    E = E + coeff * inv_permittivity * _curl(H, -1)
    log_sharding(E, "E after update")
    return E, H


def export_update(config: SimulationConfig):
    shape = (3, *config.volume)
    sharding = get_named_sharding_from_shape(shape, sharding_axis=1,
                                             planned_devices=config.planned_devices)
    field = jax.ShapeDtypeStruct(shape, jnp.float32, sharding=sharding)
    eps = jax.ShapeDtypeStruct(shape, jnp.float32, sharding=sharding)
    coeff = config.courant_factor / 3 ** 0.5
    step = jax.jit(lambda E, H, eps: update_fields(E, H, eps, coeff=coeff))
    return jax.export.export(step, platforms=("tpu",))(field, field, eps)


if __name__ == "__main__":
    exported = export_update(SimulationConfig())
    print("exported for", exported.platforms, "with", exported.nr_devices, "devices")

"""Export the FDTD time loop of a waveguide example for the TPU queue.

Shaped after fdtdx: a `BackendOption` literal type for the compute backend,
frozen config dataclasses, and an options object that turns itself into the
keyword arguments of `jax.export.export`.
"""

from __future__ import annotations

import dataclasses
from typing import Literal

import jax
import jax.numpy as jnp

BackendOption = Literal["gpu", "tpu", "cpu", "METAL"]


@dataclasses.dataclass(frozen=True)
class SimulationConfig:
    volume: tuple[int, int] = (96, 64)
    time_steps: int = 400
    courant_factor: float = 0.99


@dataclasses.dataclass(frozen=True)
class CompileOptions:
    export_backend: BackendOption = "tpu"
    allow_unstable_custom_calls: bool = False

    def export_kwargs(self) -> dict:
        checks = []
        if self.allow_unstable_custom_calls:
            checks.append(jax.export.DisabledSafetyCheck.custom_call("*"))
        return {"platforms": self.export_backend, "disabled_checks": checks}


def time_loop(E, H, source_amplitude, *, config: SimulationConfig):
    coeff = config.courant_factor / 2 ** 0.5

    def step(carry, t):
        E, H = carry
        E = E.at[:, 4].add(source_amplitude * jnp.sin(0.15 * t))
        H = H.at[0].add(-coeff * (jnp.roll(E, -1, 0) - E)).at[1].add(coeff * (jnp.roll(E, -1, 1) - E))
        curl = (H[1] - jnp.roll(H[1], 1, 1)) - (H[0] - jnp.roll(H[0], 1, 0))
        E = E + coeff * curl
        return (E, H), jnp.sum(E[:, -4] ** 2)

    (E, H), monitor = jax.lax.scan(step, (E, H), jnp.arange(config.time_steps, dtype=jnp.float32))
    return E, H, monitor


def export_simulation(config: SimulationConfig, options: CompileOptions):
    fn = jax.jit(lambda E, H, a: time_loop(E, H, a, config=config))
    E = jax.ShapeDtypeStruct(config.volume, jnp.float32)
    H = jax.ShapeDtypeStruct((2, *config.volume), jnp.float32)
    a = jax.ShapeDtypeStruct((), jnp.float32)
    return jax.export.export(fn, **options.export_kwargs())(E, H, a)


if __name__ == "__main__":
    exported = export_simulation(SimulationConfig(), CompileOptions())
    print("exported for", exported.platforms)

"""Ahead-of-time compile a 2-D FDTD run for the cluster it will be queued on.

Shaped after fdtdx: a frozen `SimulationConfig` whose `backend` falls back to
the CPU when the requested accelerator is missing, a progress bar that reaches
the host through ordered `io_callback`s wrapped around the time-loop body, and
an AOT backend read from the environment for the batch cluster.
"""

from __future__ import annotations

import dataclasses
import functools
import os

import jax
import jax.numpy as jnp

from _fdtdx_progress import make_pbar, wrap_body_with_progress

C0 = 299_792_458.0


@dataclasses.dataclass(frozen=True)
class SimulationConfig:
    time: float = 40e-15
    resolution: float = 50e-9
    courant_factor: float = 0.99
    backend: str = "gpu"
    show_progress: bool = True
    aot_backend: str = dataclasses.field(
        default_factory=lambda: os.environ.get("FDTDX_AOT_BACKEND", "tpu"))

    def __post_init__(self):
        if self.backend in ("gpu", "tpu"):
            try:
                jax.devices(self.backend)
            except RuntimeError:
                # the requested accelerator is not on this machine: run on the CPU
                object.__setattr__(self, "backend", "cpu")

    @property
    def time_step_duration(self) -> float:
        return self.courant_factor * self.resolution / (C0 * 2 ** 0.5)

    @property
    def time_steps_total(self) -> int:
        return int(round(self.time / self.time_step_duration))


def _curl_step(E, H, coeff):
    dEy = jnp.roll(E, -1, axis=0) - E
    dEx = jnp.roll(E, -1, axis=1) - E
    H = H.at[0].add(-coeff * dEy).at[1].add(coeff * dEx)
    curl_h = (H[1] - jnp.roll(H[1], 1, axis=1)) - (H[0] - jnp.roll(H[0], 1, axis=0))
    return E + coeff * curl_h, H


def run_fdtd(E, H, source, *, config: SimulationConfig):
    total = config.time_steps_total
    coeff = config.courant_factor / 2 ** 0.5

    def body(state):
        t, E, H = state
        E = E.at[E.shape[0] // 2, 4].add(source * jnp.sin(0.2 * t))
        E, H = _curl_step(E, H, coeff)
        return t + 1, E, H

    pbar = make_pbar(config.show_progress, total, desc="fdtd")
    body, close = wrap_body_with_progress(body, pbar)
    _, E, H = jax.lax.while_loop(lambda s: s[0] < total, body, (jnp.int32(0), E, H))
    close()
    return E, H


def compile_for_cluster(config: SimulationConfig, shape=(64, 96)):
    sim = jax.jit(functools.partial(run_fdtd, config=config))
    E = jax.ShapeDtypeStruct(shape, jnp.float32)
    H = jax.ShapeDtypeStruct((2, *shape), jnp.float32)
    src = jax.ShapeDtypeStruct((), jnp.float32)
    traced = sim.trace(E, H, src)
    return traced.lower(lowering_platforms=(config.aot_backend,))


if __name__ == "__main__":
    cfg = SimulationConfig()
    print("local backend:", cfg.backend, "steps:", cfg.time_steps_total)
    lowered = compile_for_cluster(cfg)
    print(lowered.as_text()[:200])

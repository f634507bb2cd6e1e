"""Compile a sharded spiking-network step for a planned 4-chip run.

Shaped after brainpy: a decorator/context-manager `environment` holding the
integration step and, here, the mesh the neuron population is laid out on;
the population reads `dt` from the environment, and the compile function runs
under the environment of the planned layout.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, PartitionSpec as P

from _bp_env import environment, get_dt

# the layout of the 4-chip job this network is being prepared for
TRAIN_MESH = AbstractMesh((4,), ("neurons",))


class LIFPopulation:
    def __init__(self, size: int, tau: float = 20.0, v_th: float = -50.0, v_rest: float = -65.0,
                 coupling: float = 2.0):
        self.size, self.tau, self.v_th, self.v_rest, self.coupling = size, tau, v_th, v_rest, coupling
        self.dt = get_dt()

    def step(self, v, ext):
        rate = jnp.mean((v >= self.v_th).astype(v.dtype))
        dv = (-(v - self.v_rest) + ext + self.coupling * rate) / self.tau
        v = v + self.dt * dv
        spike = v >= self.v_th
        return jnp.where(spike, self.v_rest, v), spike


@environment(mesh=TRAIN_MESH, dt=0.05)
def compile_population_step(size: int):
    pop = LIFPopulation(size)
    step = jax.jit(pop.step, in_shardings=(P("neurons"), P("neurons")),
                   out_shardings=(P("neurons"), P("neurons")))
    v = jax.ShapeDtypeStruct((size,), jnp.float32)
    return step.trace(v, v).lower()


if __name__ == "__main__":
    lowered = compile_population_step(4096)
    print(lowered.as_text()[:120])

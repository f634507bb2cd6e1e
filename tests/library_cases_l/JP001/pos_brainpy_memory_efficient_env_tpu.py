"""Compile a spiking-network simulation for the cloud TPU queue.

Shaped after brainpy: an `environment` settings stack usable as a decorator,
a `DSRunner` that picks `memory_efficient` up from the environment when it is
built (then offloading monitors with `jax.debug.callback` each step), and a
named deployment preset that names the lowering platform.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from _bp_runtime import DSRunner, DynamicalSystem, environment


class LIFGroup(DynamicalSystem):
    def __init__(self, size: int, tau: float = 10.0, v_th: float = 1.0, v_reset: float = 0.0):
        self.size, self.tau, self.v_th, self.v_reset = size, tau, v_th, v_reset

    def init_state(self):
        return {"v": jnp.zeros(self.size), "spike": jnp.zeros(self.size, bool)}

    def update(self, state, inp, t, dt):
        v = state["v"] + dt / self.tau * (-state["v"] + inp)
        spike = v >= self.v_th
        return {"v": jnp.where(spike, self.v_reset, v), "spike": spike}

    def monitors(self, state):
        return {"spike": state["spike"], "v_mean": state["v"].mean()}


PLATFORM_PRESETS = {
    "workstation": "cpu",
    "cloud-tpu": "tpu",
}
DEPLOY = "cloud-tpu"


@environment(dt=0.05, memory_efficient=True)
def build_runner(size: int) -> DSRunner:
    # long recordings: keep the per-step monitors off the device
    return DSRunner(LIFGroup(size))


def compile_predict(runner: DSRunner, num_steps: int, preset: str):
    platform = PLATFORM_PRESETS[preset]
    state = jax.eval_shape(runner.target.init_state)
    inputs = jax.ShapeDtypeStruct((num_steps, runner.target.size), jnp.float32)
    traced = jax.jit(runner.predict_fn(num_steps)).trace(state, inputs)
    return traced.lower(lowering_platforms=(platform,))


if __name__ == "__main__":
    runner = build_runner(512)
    lowered = compile_predict(runner, 2000, DEPLOY)
    print("lowered", lowered.as_text().count("\n"), "lines")

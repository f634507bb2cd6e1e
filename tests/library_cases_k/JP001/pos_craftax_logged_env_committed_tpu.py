"""Lower the batched environment step for the TPU build, with states kept on the host CPU.

The training launcher makes the environment by name, keeps the environment
state committed to the CPU device (the replay collector runs there) and checks
that the step also lowers for the TPU learner.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from _gridworld_envs import make_env_from_name

ENV_NAME = "Grid-Symbolic-v1-Logged"
NUM_ENVS = 16


def batched_step(env):
  def step(keys, states, actions):
    return jax.vmap(env.step)(keys, states, actions)
  return step


def main():
  env = make_env_from_name(ENV_NAME, auto_reset=True)
  host = jax.devices("cpu")[0]
  keys = jax.random.split(jax.random.key(0), NUM_ENVS)
  states = jax.vmap(env.reset)(keys)
  states = jax.device_put(states, host)
  actions = jax.device_put(jnp.zeros((NUM_ENVS,), jnp.int32), host)
  keys = jax.device_put(keys, host)

  traced = jax.jit(batched_step(env)).trace(keys, states, actions)
  lowered = traced.lower(lowering_platforms=("tpu",))
  print(lowered.as_text()[:200])


if __name__ == "__main__":
  main()

"""AOT-check the batched step of a symbolic crafting environment from an INI run file.

The environment is chosen by name, the number of parallel environments and the
AOT platforms come from the run file's sections.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp

import _runcfg


class EnvState(NamedTuple):
  inventory: jax.Array
  health: jax.Array
  timestep: jax.Array


class CraftaxClassicSymbolicEnv:
  num_items = 12
  num_actions = 17

  def reset(self, key):
    del key
    return EnvState(jnp.zeros((self.num_items,), jnp.int32), jnp.float32(9.0), jnp.int32(0))

  def step(self, key, state: EnvState, action):
    gain = jax.nn.one_hot(action % self.num_items, self.num_items, dtype=jnp.int32)
    noise = jax.random.bernoulli(key, 0.1).astype(jnp.float32)
    state = EnvState(state.inventory + gain, state.health - noise, state.timestep + 1)
    obs = jnp.concatenate([state.inventory.astype(jnp.float32), state.health[None]])
    return obs, state, jnp.sum(gain).astype(jnp.float32), state.health <= 0


def make_env_from_name(name: str, auto_reset: bool):
  if name in ("Craftax-Classic-Symbolic-v1", "Craftax-Classic-Symbolic-AutoReset-v1"):
    return CraftaxClassicSymbolicEnv()
  raise ValueError(f"Unknown env {name}")


def main():
  cfg = _runcfg.load()
  env_section, aot = cfg["env"], cfg["aot"]
  env = make_env_from_name(env_section["name"], auto_reset=env_section.getboolean("auto_reset"))
  n = env_section.getint("num_envs")
  keys = jax.random.split(jax.random.key(0), n)
  states = jax.vmap(env.reset)(keys)
  actions = jnp.zeros((n,), jnp.int32)
  traced = jax.jit(jax.vmap(env.step)).trace(keys, states, actions)
  lowered = traced.lower(lowering_platforms=aot.gettuple("platforms"))
  if not aot.getboolean("check_only"):
    lowered.compile()
  print("lowered", env_section["name"], "x", n)


if __name__ == "__main__":
  main()

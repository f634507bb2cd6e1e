"""Grid-world environments, looked up by name.

``make_env_from_name(name, auto_reset)`` mirrors the usual factory of
procedurally generated JAX environments: symbolic/pixel variants, optional
auto-reset, and a ``-Logged`` suffix that wraps the environment in a wrapper
reporting finished episodes.
"""

from __future__ import annotations

import os
from typing import NamedTuple

import jax
import jax.numpy as jnp

LOG_EPISODES = os.environ.get("GRIDWORLD_LOG_EPISODES", "1") == "1"


class EnvState(NamedTuple):
  pos: jax.Array
  goal: jax.Array
  timestep: jax.Array
  episode_return: jax.Array


class SymbolicGridEnv:
  size = 9
  max_timesteps = 100

  def reset(self, key):
    k1, k2 = jax.random.split(key)
    pos = jax.random.randint(k1, (2,), 0, self.size)
    goal = jax.random.randint(k2, (2,), 0, self.size)
    return EnvState(pos, goal, jnp.int32(0), jnp.float32(0.0))

  def observation(self, state: EnvState):
    grid = jnp.zeros((self.size, self.size), jnp.float32)
    grid = grid.at[state.pos[0], state.pos[1]].set(1.0)
    return grid.at[state.goal[0], state.goal[1]].add(-1.0).reshape(-1)

  def step(self, key, state: EnvState, action):
    moves = jnp.array([[0, 1], [1, 0], [0, -1], [-1, 0]], jnp.int32)
    pos = jnp.clip(state.pos + moves[action], 0, self.size - 1)
    reached = jnp.all(pos == state.goal)
    reward = jnp.where(reached, 1.0, -0.01).astype(jnp.float32)
    t = state.timestep + 1
    done = reached | (t >= self.max_timesteps)
    state = EnvState(pos, state.goal, t, state.episode_return + reward)
    return self.observation(state), state, reward, done


class AutoResetEnv:
  def __init__(self, env):
    self._env = env

  def __getattr__(self, name):
    return getattr(self._env, name)

  def step(self, key, state, action):
    k_step, k_reset = jax.random.split(key)
    obs, new_state, reward, done = self._env.step(k_step, state, action)
    fresh = self._env.reset(k_reset)
    new_state = jax.tree.map(lambda a, b: jnp.where(done, a, b), fresh, new_state)
    return obs, new_state, reward, done


class EpisodeLogWrapper:
  def __init__(self, env, enabled: bool = True):
    self._env = env
    self.enabled = enabled

  def __getattr__(self, name):
    return getattr(self._env, name)

  def step(self, key, state, action):
    obs, new_state, reward, done = self._env.step(key, state, action)
    if self.enabled:
      jax.lax.cond(
          done,
          lambda: jax.debug.print("episode done: return={r} steps={t}", r=state.episode_return + reward,
                                  t=state.timestep + 1),
          lambda: None,
      )
    return obs, new_state, reward, done


def make_env_from_name(name: str, auto_reset: bool):
  logged = name.endswith("-Logged")
  base = name.removesuffix("-Logged")
  if base in ("Grid-Symbolic-v1", "Grid-Symbolic-AutoReset-v1"):
    env = SymbolicGridEnv()
  else:
    raise ValueError(f"Unknown environment {name}")
  if auto_reset or base.endswith("AutoReset-v1"):
    env = AutoResetEnv(env)
  if logged:
    env = EpisodeLogWrapper(env, enabled=LOG_EPISODES)
  return env

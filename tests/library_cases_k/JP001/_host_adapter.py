"""Adapter for environments that only exist on the host (NumPy simulators).

Each step leaves the traced program through ``jax.pure_callback``; the shapes
of the results are probed once on the host.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from _envcompat import EnvParams


class _NumpyCartPole:
  def __init__(self, seed: int = 0):
    self.rng = np.random.default_rng(seed)

  def reset(self, seed):
    self.rng = np.random.default_rng(int(seed))
    return self.rng.uniform(-0.05, 0.05, size=(4,)).astype(np.float32)

  def step(self, state, action):
    state = np.asarray(state, np.float32).copy()
    state[1] += 0.02 * (20.0 * float(action) - 10.0)
    state[0] += 0.02 * state[1]
    done = bool(abs(state[2]) > 0.21)
    return state, np.float32(1.0), np.bool_(done)


class HostEnv:
  num_actions = 2

  def __init__(self, name: str):
    self.name = name
    self.sim = _NumpyCartPole()

  @property
  def default_params(self) -> EnvParams:
    return EnvParams()

  @functools.cached_property
  def step_shape_dtype(self):
    return (jax.ShapeDtypeStruct((4,), jnp.float32), jax.ShapeDtypeStruct((), jnp.float32),
            jax.ShapeDtypeStruct((), jnp.bool_))

  def reset(self, key, params):
    seed = jax.random.randint(key, (), 0, 2**16)
    obs = jax.pure_callback(self.sim.reset, jax.ShapeDtypeStruct((4,), jnp.float32), seed)
    return obs, obs

  def step(self, key, state, action, params):
    del key
    obs, reward, done = jax.pure_callback(self.sim.step, self.step_shape_dtype, state, action,
                                          vmap_method="sequential")
    return obs, obs, reward, done


def create_host(env_name: str, **kwargs):
  env = HostEnv(env_name, **kwargs)
  return env, env.default_params

"""Environment construction: plain names are native JAX environments, prefixed
names (``"<suite>/<name>"``) are created by the adapter module of that suite.

The adapter modules are imported lazily so that optional dependencies are only
needed when their environments are used.
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

import jax
import jax.numpy as jnp

_create_fns = {
    "host": ("_host_adapter", "create_host"),
}


@dataclasses.dataclass(frozen=True)
class EnvParams:
  max_steps_in_episode: int = 200
  gravity: float = 9.8
  force_mag: float = 10.0
  tau: float = 0.02


class CartPole:
  """Small native cart-pole (obs = x, x_dot, theta, theta_dot)."""

  num_actions = 2

  @property
  def default_params(self) -> EnvParams:
    return EnvParams()

  def reset(self, key, params: EnvParams):
    obs = jax.random.uniform(key, (4,), minval=-0.05, maxval=0.05)
    return obs, obs

  def step(self, key, state, action, params: EnvParams):
    del key
    x, x_dot, theta, theta_dot = state
    force = params.force_mag * (2 * action - 1)
    theta_acc = (params.gravity * jnp.sin(theta) - jnp.cos(theta) * force * 0.05) / 0.5
    x_acc = force - 0.05 * theta_acc * jnp.cos(theta)
    new = jnp.stack([x + params.tau * x_dot, x_dot + params.tau * x_acc,
                     theta + params.tau * theta_dot, theta_dot + params.tau * theta_acc])
    done = jnp.abs(new[2]) > 0.21
    return new, new, jnp.float32(1.0), done


_native = {"CartPole-v1": CartPole}


def create(env: str, **kwargs: Any):
  if len(split := env.split("/", 1)) == 1:
    env_obj = _native[env](**kwargs)
    return env_obj, env_obj.default_params
  prefix, env_name = split
  module, create_fn = _create_fns[prefix]
  module = importlib.import_module(module)
  return getattr(module, create_fn)(env_name, **kwargs)

"""Plan the vectorised environment reset of a data-parallel SAC run for TPU.

Environments are created from the config's ``env`` string: plain names are
native JAX environments, ``gymnasium/...`` names are host simulators stepped
through ``jax.pure_callback`` (with ``vmap_method="sequential"``).  Reset keys
are laid out over the ``envs`` axis of an abstract mesh of the TPU slice.
"""

from __future__ import annotations

import copy
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

CONFIG = {
    "env": "Pendulum-v1",
    "num_envs": 64,
    "env_params": {"max_speed": 8.0},
    "slice_shape": (8,),
}


class Pendulum:
  obs_dim = 3

  def __init__(self, max_speed: float = 8.0):
    self.max_speed = max_speed

  def reset(self, key):
    th, thdot = jax.random.uniform(key, (2,), minval=-1.0, maxval=1.0)
    return jnp.stack([jnp.cos(th), jnp.sin(th), jnp.clip(thdot, -self.max_speed, self.max_speed)])


class GymnasiumPendulum:
  obs_dim = 3

  def __init__(self, max_speed: float = 8.0):
    self.max_speed = max_speed

  def _host_reset(self, seed):
    rng = np.random.default_rng(int(seed))
    th, thdot = rng.uniform(-np.pi, np.pi), rng.uniform(-1.0, 1.0)
    return np.array([np.cos(th), np.sin(th), thdot], np.float32)

  @functools.cached_property
  def reset_shape_dtype(self):
    return jax.ShapeDtypeStruct((self.obs_dim,), jnp.float32)

  def reset(self, key):
    seed = jax.random.randint(key, (), 0, 2**16)
    return jax.pure_callback(self._host_reset, self.reset_shape_dtype, seed, vmap_method="sequential")


_native = {"Pendulum-v1": Pendulum}
_gymnasium = {"Pendulum-v1": GymnasiumPendulum}
_create_fns = {"gymnasium": _gymnasium}


def create(env: str, **kwargs):
  if len(split := env.split("/", 1)) == 1:
    return _native[env](**kwargs)
  prefix, name = split
  return _create_fns[prefix][name](**kwargs)


def main():
  config = copy.deepcopy(CONFIG)
  env = create(config.pop("env"), **config.pop("env_params"))
  mesh = AbstractMesh(config["slice_shape"], ("envs",), axis_types=(AxisType.Auto,))
  keys_sharding = NamedSharding(mesh, P("envs"))
  reset = jax.jit(jax.vmap(env.reset), in_shardings=keys_sharding, out_shardings=keys_sharding)
  keys = jax.ShapeDtypeStruct((config["num_envs"],), jax.random.key(0).dtype)
  lowered = reset.trace(keys).lower(lowering_platforms=("tpu",))
  print(lowered.as_text()[:200])


if __name__ == "__main__":
  main()

"""Plans the batched reset of registered grid-world environments over the env axis of a training
mesh (registry / EnvSpec / make shaped like xminigrid.registration)."""
import dataclasses
import importlib
from typing import Any

import jax
import jax.numpy as jnp
from jax.sharding import AbstractDevice, AbstractMesh, NamedSharding, PartitionSpec as P


@dataclasses.dataclass
class EnvParams:
  height: int = 9
  width: int = 9
  max_steps: int = 80

  def replace(self, **kw):
    return dataclasses.replace(self, **kw)


class EmptyGrid:
  def default_params(self, **kwargs):
    return EnvParams(**kwargs)

  def reset(self, params: EnvParams, key):
    grid = jnp.zeros((params.height, params.width), jnp.int32)
    pos = jax.random.randint(key, (2,), 1, params.height - 1)
    return grid.at[pos[0], pos[1]].set(1)


@dataclasses.dataclass
class EnvSpec:
  id: str
  entry_point: str
  kwargs: dict = dataclasses.field(default_factory=dict)


_REGISTRY: dict[str, EnvSpec] = {}


def register(id: str, entry_point: str, **kwargs) -> None:
  if not id.startswith("MiniGrid"):
    raise ValueError("Invalid id format.")
  _REGISTRY[id] = EnvSpec(id=id, entry_point=entry_point, kwargs=kwargs)


def make(id: str, **kwargs: Any):
  spec = _REGISTRY[id]
  mod_name, env_name = spec.entry_point.split(":")
  env = getattr(importlib.import_module(mod_name), env_name)()
  params = env.default_params(**spec.kwargs).replace(**kwargs)
  return env, params


register("MiniGrid-Empty-9x9", entry_point="__main__:EmptyGrid", height=9, width=9)
TRAIN_MESH = AbstractMesh((8,), ("envs",), abstract_device=AbstractDevice(device_kind="TPU v5 lite", num_cores=1, platform="tpu"))

if __name__ == "__main__":
  env, params = make("MiniGrid-Empty-9x9", max_steps=128)
  reset = jax.vmap(lambda k: env.reset(params, k))
  keys = jax.ShapeDtypeStruct((1024, 2), jnp.uint32, sharding=NamedSharding(TRAIN_MESH, P("envs")))
  with jax.sharding.use_abstract_mesh(TRAIN_MESH):
    lowered = jax.jit(lambda k: reset(k)).trace(keys).lower()
  print(lowered.as_text()[:60])

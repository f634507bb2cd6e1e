"""Trainer config whose children copy fields from the root config.

Child objects declare fields as `ROOT_CFG_REF.<name>`: a placeholder that the
trainer resolves against itself after construction (`update_from_root_cfg`).
The sharding strategy and the AOT-compile helper both read the trainer's
compile-only mesh this way; the AOT helper also reads which platforms to
lower for (None: "whatever the host has").
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, ClassVar, Optional

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P


@dataclasses.dataclass(frozen=True)
class _FakeRootCfg:
  parent: Optional["_FakeRootCfg"] = None
  name: str = "cfg"

  def __getattr__(self, name: str) -> Any:
    if name.startswith("_"):
      raise AttributeError(name)
    return _FakeRootCfg(parent=self, name=name)

  @property
  def names(self) -> tuple[str, ...]:
    out, cur = [], self
    while cur is not None:
      out.append(cur.name)
      cur = cur.parent
    return tuple(reversed(out))


ROOT_CFG_REF: Any = _FakeRootCfg()


@dataclasses.dataclass(frozen=True, kw_only=True)
class UpdateFromRootCfg:
  __root_cfg_fields_to_recurse__: ClassVar[tuple[str, ...]] = ()

  def update_from_root_cfg(self, root_cfg):
    changes = {}
    for f in dataclasses.fields(self):
      value = getattr(self, f.name)
      if isinstance(value, _FakeRootCfg):
        resolved = root_cfg
        for attr in value.names[1:]:
          resolved = getattr(resolved, attr)
        changes[f.name] = resolved
    for name in self.__root_cfg_fields_to_recurse__:
      child = changes.get(name, getattr(self, name))
      changes[name] = child.update_from_root_cfg(root_cfg)
    return dataclasses.replace(self, **changes) if changes else self


@dataclasses.dataclass(frozen=True, kw_only=True)
class ShardingStrategy(UpdateFromRootCfg):
  mesh: Any = ROOT_CFG_REF.aot_mesh
  batch_axis: str = "data"

  @property
  def ds(self):
    return NamedSharding(self.mesh, P(self.batch_axis))

  @property
  def params(self):
    return NamedSharding(self.mesh, P())


@dataclasses.dataclass(frozen=True, kw_only=True)
class AotCompile(UpdateFromRootCfg):
  sharding: ShardingStrategy = dataclasses.field(default_factory=ShardingStrategy)
  platforms: Optional[tuple[str, ...]] = ROOT_CFG_REF.aot_platforms

  __root_cfg_fields_to_recurse__ = ("sharding",)

  def lower(self, step_fn, params, batch):
    jitted = jax.jit(step_fn, in_shardings=(self.sharding.params, self.sharding.ds),
                     out_shardings=self.sharding.params)
    traced = jitted.trace(params, batch)
    lower_kwargs = {} if self.platforms is None else {"lowering_platforms": self.platforms}
    return traced.lower(**lower_kwargs)


@dataclasses.dataclass(frozen=True, kw_only=True)
class Trainer:
  seed: int = 0
  batch_size: int = 32
  num_features: int = 64
  aot_mesh: Any = dataclasses.field(default_factory=lambda: AbstractMesh((8,), ("data",)))
  aot_platforms: Optional[tuple[str, ...]] = None
  aot: AotCompile = dataclasses.field(default_factory=AotCompile)

  def __post_init__(self):
    object.__setattr__(self, "aot", self.aot.update_from_root_cfg(self))

  def init_params(self):
    return {"w": jnp.zeros((self.num_features, self.num_features)), "b": jnp.zeros((self.num_features,))}

  @staticmethod
  def train_step(params, batch):
    def loss(p):
      return jnp.mean((batch @ p["w"] + p["b"] - batch) ** 2)
    grads = jax.grad(loss)(params)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)

  def compile_train(self):
    params = jax.eval_shape(self.init_params)
    batch = jax.ShapeDtypeStruct((self.batch_size, self.num_features), jnp.float32)
    return self.aot.lower(self.train_step, params, batch)


def get_config() -> Trainer:
  return Trainer(batch_size=64, aot_mesh=AbstractMesh((4,), ("data",)), aot_platforms=("tpu",))


if __name__ == "__main__":
  trainer = get_config()
  print(trainer.aot.sharding.mesh)
  trainer.compile_train()

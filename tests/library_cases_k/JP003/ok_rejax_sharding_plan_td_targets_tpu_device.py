"""Check that the data-parallel TD-target computation of a Q-learning agent lowers.

The agent's hyperparameters live in a frozen dataclass (``create(**config)``);
the sharding layout is a context manager (``ShardingPlan``) that installs an
abstract mesh for the duration of the planning, so that ``P("dp")`` in the
jitted step refers to it.
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
from jax.sharding import AbstractDevice, AbstractMesh, PartitionSpec as P

CONFIG = {"gamma": 0.99, "lambda_": 0.65, "num_actions": 6, "batch_size": 256, "obs_dim": 32}


@dataclasses.dataclass(frozen=True)
class PQNConfig:
  gamma: float = 0.99
  lambda_: float = 0.95
  num_actions: int = 4
  batch_size: int = 128
  obs_dim: int = 8

  @classmethod
  def create(cls, **config):
    unknown = set(config) - {f.name for f in dataclasses.fields(cls)}
    if unknown:
      raise TypeError(f"unknown hyperparameters: {sorted(unknown)}")
    return cls(**config)


@dataclasses.dataclass
class ShardingPlan:
  dp: int
  abstract_device: AbstractDevice | None = None
  _ctx: object = dataclasses.field(default=None, init=False, repr=False)

  @property
  def abstract_mesh(self) -> AbstractMesh:
    return AbstractMesh((self.dp,), ("dp",), abstract_device=self.abstract_device)

  def __enter__(self):
    self._ctx = jax.sharding.use_abstract_mesh(self.abstract_mesh)
    self._ctx.__enter__()
    return self

  def __exit__(self, *exc):
    ctx, self._ctx = self._ctx, None
    return ctx.__exit__(*exc)


def make_td_targets(cfg: PQNConfig):
  def td_targets(q_next, rewards, dones):
    q_max = jnp.max(q_next, axis=-1)
    return rewards + cfg.gamma * (1.0 - dones) * q_max
  return td_targets


def main():
  cfg = PQNConfig.create(**CONFIG)
  plan = ShardingPlan(dp=4, abstract_device=AbstractDevice("TPU v5 lite", 1, "tpu"))
  with plan:
    step = jax.jit(make_td_targets(cfg), in_shardings=(P("dp"), P("dp"), P("dp")), out_shardings=P("dp"))
    traced = step.trace(jax.ShapeDtypeStruct((cfg.batch_size, cfg.num_actions), jnp.float32),
                        jax.ShapeDtypeStruct((cfg.batch_size,), jnp.float32),
                        jax.ShapeDtypeStruct((cfg.batch_size,), jnp.float32))
    lowered = traced.lower()
  print(lowered.as_text()[:200])


if __name__ == "__main__":
  main()

"""Lower every agent of a hyperparameter sweep described by a JSON file.

Each sweep entry names an algorithm in the registry (``get_algo``) and its
config; the shared ``aot`` block says which platforms the train step must
lower for.  JSON has no tuples: lists come back as lists.
"""

from __future__ import annotations

import dataclasses
import json

import jax
import jax.numpy as jnp

SWEEP_JSON = """
{
  "aot": {"lowering_platforms": ["cpu"]},
  "runs": [
    {"algo": "dqn", "config": {"learning_rate": 0.0005, "gamma": 0.99, "obs_dim": 4, "num_actions": 2}},
    {"algo": "td3", "config": {"learning_rate": 0.0003, "gamma": 0.98, "obs_dim": 3, "action_dim": 1}}
  ]
}
"""


@dataclasses.dataclass(frozen=True)
class DQN:
  learning_rate: float = 1e-3
  gamma: float = 0.99
  obs_dim: int = 4
  num_actions: int = 2

  @classmethod
  def create(cls, **config):
    return cls(**config)

  def example_batch(self):
    return (jax.ShapeDtypeStruct((self.obs_dim, self.num_actions), jnp.float32),
            jax.ShapeDtypeStruct((64, self.obs_dim), jnp.float32),
            jax.ShapeDtypeStruct((64,), jnp.int32), jax.ShapeDtypeStruct((64,), jnp.float32))

  def train_step(self, w, obs, actions, targets):
    def loss(w):
      q = jnp.take_along_axis(obs @ w, actions[:, None], axis=1)[:, 0]
      return jnp.mean((q - targets) ** 2)
    return w - self.learning_rate * jax.grad(loss)(w)


@dataclasses.dataclass(frozen=True)
class TD3:
  learning_rate: float = 3e-4
  gamma: float = 0.99
  obs_dim: int = 3
  action_dim: int = 1

  @classmethod
  def create(cls, **config):
    return cls(**config)

  def example_batch(self):
    return (jax.ShapeDtypeStruct((self.obs_dim, self.action_dim), jnp.float32),
            jax.ShapeDtypeStruct((64, self.obs_dim), jnp.float32))

  def train_step(self, w, obs):
    def loss(w):
      return -jnp.mean(jnp.tanh(obs @ w))
    return w - self.learning_rate * jax.grad(loss)(w)


_algos = {"dqn": DQN, "td3": TD3}


def get_algo(name: str):
  return _algos[name]


def lower_run(run: dict, aot: dict):
  algo = get_algo(run["algo"]).create(**run["config"])
  traced = jax.jit(algo.train_step).trace(*algo.example_batch())
  return traced.lower(lowering_platforms=tuple(aot["lowering_platforms"]))


def main():
  sweep = json.loads(SWEEP_JSON)
  for run in sweep["runs"]:
    lowered = lower_run(run, sweep["aot"])
    print(run["algo"], "ok", len(lowered.as_text()))


if __name__ == "__main__":
  main()

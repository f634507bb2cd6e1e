"""AOT-compiles every configuration of a PPO hyperparameter sweep for the TPU pod before launch
(agent / HParams shaped like navix.agents: frozen hparams, `.replace(...)` copies, debug logging
through `jax.debug.callback` in the update step)."""
import dataclasses
import itertools
from typing import Dict

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class HParams:
  debug: bool = False
  log_frequency: int = 1
  log_render: bool = False

  def replace(self, **kw):
    return dataclasses.replace(self, **kw)


@dataclasses.dataclass(frozen=True)
class PPOHparams(HParams):
  num_envs: int = 8
  num_steps: int = 16
  lr: float = 2.5e-4
  clip_eps: float = 0.2


@dataclasses.dataclass(frozen=True)
class Experiment:
  name: str
  hparams: PPOHparams
  platform: str = "tpu"


def masked_mean(values, mask, axis=None):
  mask = jnp.asarray(mask, dtype=jnp.bool_)
  return jnp.sum(jnp.where(mask, values, 0), axis=axis) / jnp.sum(mask, axis=axis)


class PPO:
  def __init__(self, hparams: PPOHparams):
    self.hparams = hparams

  def log_to_wandb(self, logs: Dict[str, jax.Array]):
    print({k: float(v) for k, v in logs.items()})

  def update(self, params, rng):
    obs = jax.random.normal(rng, (self.hparams.num_steps, self.hparams.num_envs, params.shape[0]))
    values = obs @ params
    done = values > 0
    logs = {"agent/episode/returns": masked_mean(values, done), "agent/train/lr": jnp.float32(self.hparams.lr)}
    if self.hparams.debug:
      jax.debug.callback(self.log_to_wandb, logs)
    return params - self.hparams.lr * jnp.mean(obs, axis=(0, 1)), logs

  def train(self, rng):
    params = jnp.zeros((4,))
    def step(carry, key):
      params, _ = carry
      params, logs = self.update(params, key)
      return (params, logs["agent/episode/returns"]), None
    (params, ret), _ = jax.lax.scan(step, (params, jnp.float32(0)), jax.random.split(rng, 10))
    return params, ret


BASE = PPOHparams()
SWEEP = {"lr": [2.5e-4, 1e-3], "clip_eps": [0.1, 0.2]}


def experiments():
  keys = sorted(SWEEP)
  for values in itertools.product(*(SWEEP[k] for k in keys)):
    overrides = dict(zip(keys, values))
    # runs on the pod are watched through the metrics service, not host callbacks
    hp = BASE.replace(**overrides)
    yield Experiment(name="ppo-" + "-".join(map(str, values)), hparams=hp)


def precompile(exp: Experiment):
  agent = PPO(exp.hparams)
  traced = jax.jit(agent.train).trace(jax.random.key(0))
  return traced.lower(lowering_platforms=(exp.platform,))


if __name__ == "__main__":
  for exp in experiments():
    lowered = precompile(exp)
    print(exp.name, "lowered")

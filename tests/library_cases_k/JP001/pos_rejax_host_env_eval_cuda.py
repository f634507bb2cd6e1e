"""Ahead-of-time compile the evaluation loop of a PPO agent for the GPU cluster.

Agents are created from a plain config dict (``PPO.create(**config)``), the
environment spec string decides how the environment is built, and the
evaluation closure is stored as a static field of the algorithm object.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any, Callable

import jax
import jax.numpy as jnp

from _envcompat import create

CONFIG = {
    "env": "host/CartPole-v1",
    "num_eval_steps": 64,
    "hidden": 32,
    "gamma": 0.99,
}

AOT_TARGET = "cuda"


@dataclasses.dataclass(frozen=True)
class Algorithm:
  env: Any
  env_params: Any
  eval_callback: Callable
  num_eval_steps: int = 128
  hidden: int = 64
  gamma: float = 0.99

  @classmethod
  def create(cls, **config):
    config = copy.deepcopy(config)
    env, env_params = cls.create_env(config)

    def eval_callback(algo, params, rng):
      return algo.rollout(params, rng)

    return cls(env=env, env_params=env_params, eval_callback=eval_callback, **config)

  @classmethod
  def create_env(cls, config):
    if isinstance(config["env"], str):
      return create(config.pop("env"), **config.pop("env_kwargs", {}))
    return config.pop("env"), config.pop("env_params")


class PPO(Algorithm):

  def init_params(self, rng):
    k1, k2 = jax.random.split(rng)
    return {"w1": jax.random.normal(k1, (4, self.hidden)) * 0.1,
            "w2": jax.random.normal(k2, (self.hidden, self.env.num_actions)) * 0.1}

  def act(self, params, obs):
    return jnp.argmax(jnp.tanh(obs @ params["w1"]) @ params["w2"]).astype(jnp.int32)

  def rollout(self, params, rng):
    rng, rng_reset = jax.random.split(rng)
    obs, state = self.env.reset(rng_reset, self.env_params)

    def body(carry, _):
      obs, state, rng, ret, discount = carry
      rng, rng_step = jax.random.split(rng)
      action = self.act(params, obs)
      obs, state, reward, done = self.env.step(rng_step, state, action, self.env_params)
      ret = ret + discount * reward * (1.0 - done)
      return (obs, state, rng, ret, discount * self.gamma), None

    init = (obs, state, rng, jnp.float32(0.0), jnp.float32(1.0))
    (_, _, _, ret, _), _ = jax.lax.scan(body, init, None, length=self.num_eval_steps)
    return ret

  def evaluate(self, params, rng):
    return self.eval_callback(self, params, rng)


def compile_eval(algo: PPO, target: str):
  params = algo.init_params(jax.random.key(0))
  traced = jax.jit(algo.evaluate).trace(params, jax.random.key(1))
  return traced.lower(lowering_platforms=(target,))


def main():
  algo = PPO.create(**CONFIG)
  lowered = compile_eval(algo, AOT_TARGET)
  print(lowered.as_text()[:200])


if __name__ == "__main__":
  main()

"""Ahead-of-time compiling a DQN agent's action selection for each actor platform.

Agent code follows dopamine's JAX DQN: a module-level ``select_action`` jitted
with ``functools.partial(jax.jit, static_argnums=...)`` (network definition and
schedule constants are static), epsilon-greedy exploration with
``linearly_decaying_epsilon``, and a ``Runner`` built by ``create_runner`` from
gin-style bindings.  Actors run on several kinds of machines, so at checkpoint
time the runner lowers ``select_action`` once per actor platform.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

GIN_BINDINGS = {
    "create_runner.schedule": "continuous_train",
    "Runner.num_iterations": 2,
    "Runner.actor_platforms": ["cpu", "tpu"],
    "JaxDQNAgent.epsilon_train": 0.01,
    "JaxDQNAgent.epsilon_decay_period": 250,
}


def configurable(cls_or_fn):
  scope = cls_or_fn.__name__

  @functools.wraps(cls_or_fn)
  def wrapped(*args, **kwargs):
    for key, value in GIN_BINDINGS.items():
      s, _, name = key.rpartition(".")
      if s == scope:
        kwargs.setdefault(name, value)
    return cls_or_fn(*args, **kwargs)

  return wrapped


class NetworkOutput(NamedTuple):
  q_values: jax.Array


@dataclasses.dataclass(frozen=True)
class NatureDQNNetwork:
  num_actions: int
  hidden: int = 64

  def init(self, rng, obs_dim):
    k1, k2 = jax.random.split(rng)
    return {"w1": jax.random.normal(k1, (obs_dim, self.hidden)) / np.sqrt(obs_dim),
            "w2": jax.random.normal(k2, (self.hidden, self.num_actions)) / np.sqrt(self.hidden)}

  def apply(self, params, x):
    return NetworkOutput(jax.nn.relu(x @ params["w1"]) @ params["w2"])


def linearly_decaying_epsilon(decay_period, step, warmup_steps, epsilon):
  steps_left = decay_period + warmup_steps - step
  bonus = (1.0 - epsilon) * steps_left / decay_period
  bonus = jnp.clip(bonus, 0.0, 1.0 - epsilon)
  return epsilon + bonus


@functools.partial(jax.jit, static_argnums=(0, 4, 5, 6, 7))
def select_action(network_def, params, state, rng, num_actions, eval_mode, epsilon_train,
                  epsilon_decay_period, training_steps):
  epsilon = jnp.where(eval_mode, 0.001,
                      linearly_decaying_epsilon(epsilon_decay_period, training_steps, 0, epsilon_train))
  rng, rng1, rng2 = jax.random.split(rng, num=3)
  p = jax.random.uniform(rng1)
  random_action = jax.random.randint(rng2, (), 0, num_actions)
  greedy_action = jnp.argmax(network_def.apply(params, state).q_values)
  return rng, jnp.where(p <= epsilon, random_action, greedy_action)


@configurable
class JaxDQNAgent:

  def __init__(self, num_actions, obs_dim, epsilon_train=0.01, epsilon_decay_period=250000):
    self.num_actions = num_actions
    self.obs_dim = obs_dim
    self.epsilon_train = epsilon_train
    self.epsilon_decay_period = epsilon_decay_period
    self.network_def = NatureDQNNetwork(num_actions)
    self.online_params = self.network_def.init(jax.random.PRNGKey(0), obs_dim)
    self.training_steps = 0
    self._rng = jax.random.PRNGKey(1)
    self.eval_mode = False

  def select_action_args(self, state):
    return (self.network_def, self.online_params, state, self._rng, self.num_actions, self.eval_mode,
            self.epsilon_train, self.epsilon_decay_period, self.training_steps)

  def step(self, state):
    self._rng, action = select_action(*self.select_action_args(state))
    self.training_steps += 1
    return int(action)


@configurable
class Runner:

  def __init__(self, agent: JaxDQNAgent, num_iterations=200, actor_platforms=("cpu",)):
    self._agent = agent
    self._num_iterations = num_iterations
    self._actor_platforms = actor_platforms
    self._actor_programs = {}

  def _run_one_iteration(self, rng: np.random.Generator):
    state = jnp.asarray(rng.normal(size=(self._agent.obs_dim,)), jnp.float32)
    return self._agent.step(state)

  def _compile_actor_programs(self):
    state = jax.ShapeDtypeStruct((self._agent.obs_dim,), jnp.float32)
    traced = select_action.trace(*self._agent.select_action_args(state))
    for platform in self._actor_platforms:
      self._actor_programs[platform] = traced.lower(lowering_platforms=[platform])

  def run_experiment(self):
    rng = np.random.default_rng(0)
    for iteration in range(self._num_iterations):
      action = self._run_one_iteration(rng)
      print(f"iteration {iteration}: action {action}")
    self._compile_actor_programs()
    return self._actor_programs


@configurable
def create_runner(agent, schedule="continuous_train_and_eval"):
  if schedule in ("continuous_train", "continuous_train_and_eval"):
    return Runner(agent)
  raise ValueError(f"Unknown schedule: {schedule}")


def main():
  agent = JaxDQNAgent(num_actions=4, obs_dim=8)
  runner = create_runner(agent)
  programs = runner.run_experiment()
  print("actor programs:", sorted(programs))


if __name__ == "__main__":
  main()

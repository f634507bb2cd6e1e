"""A DQN agent whose jitted train step pulls its minibatch from a host replay buffer.

Agent code follows dopamine's JAX agents: gin-style configurables
(``create_optimizer(name=...)``, ``create_agent(agent_name=...)``), a module-level
``train`` function jitted with ``functools.partial(jax.jit, static_argnums=...)``
that takes the network definition and optimizer as static arguments, and a
``JaxDQNAgent`` that owns the online/target parameters.  Unlike dopamine, the
replay sample happens inside ``train`` through ``io_callback``, so the whole
update is one compiled call.  Deployment profiles say which mesh and platform
the agent is compiled for.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P

# --------------------------------------------------------------------------
# gin-like configuration
# --------------------------------------------------------------------------

GIN_BINDINGS = {
    "create_optimizer.name": "sgd",
    "create_optimizer.learning_rate": 1e-2,
    "JaxDQNAgent.gamma": 0.99,
    "JaxDQNAgent.batch_size": 32,
    "run.profile": "pod",
}


def configurable(fn):
  prefix = fn.__qualname__.split(".<locals>")[0]

  @functools.wraps(fn)
  def wrapped(*args, **kwargs):
    for key, value in GIN_BINDINGS.items():
      scope, _, name = key.rpartition(".")
      if scope == prefix and name not in kwargs:
        kwargs[name] = value
    return fn(*args, **kwargs)

  return wrapped


# --------------------------------------------------------------------------
# network, optimizer, replay
# --------------------------------------------------------------------------


class NetworkOutput(NamedTuple):
  q_values: jax.Array


@dataclasses.dataclass(frozen=True)
class MLPNetwork:
  num_actions: int
  hidden: int = 64

  def init(self, rng, obs_dim):
    k1, k2 = jax.random.split(rng)
    return {"w1": jax.random.normal(k1, (obs_dim, self.hidden)) / np.sqrt(obs_dim),
            "w2": jax.random.normal(k2, (self.hidden, self.num_actions)) / np.sqrt(self.hidden)}

  def apply(self, params, x):
    return NetworkOutput(jax.nn.relu(x @ params["w1"]) @ params["w2"])


@dataclasses.dataclass(frozen=True)
class SGD:
  learning_rate: float

  def update(self, grads, state):
    return jax.tree.map(lambda g: -self.learning_rate * g, grads), state


@configurable
def create_optimizer(name="adam", learning_rate=6.25e-5):
  if name == "sgd":
    return SGD(learning_rate)
  raise ValueError(f"Unsupported optimizer {name}")


class HostReplayBuffer:

  def __init__(self, capacity: int, obs_dim: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    self.obs = rng.normal(size=(capacity, obs_dim)).astype(np.float32)
    self.next_obs = rng.normal(size=(capacity, obs_dim)).astype(np.float32)
    self.actions = rng.integers(0, 4, size=capacity).astype(np.int32)
    self.rewards = rng.normal(size=capacity).astype(np.float32)
    self.terminals = (rng.random(capacity) < 0.05).astype(np.float32)
    self._rng = rng

  def sample(self, batch_size: int):
    idx = self._rng.integers(0, len(self.rewards), size=batch_size)
    return (self.obs[idx], self.actions[idx], self.next_obs[idx], self.rewards[idx], self.terminals[idx])

  def sample_spec(self, batch_size: int):
    obs_dim = self.obs.shape[1]
    return (jax.ShapeDtypeStruct((batch_size, obs_dim), jnp.float32),
            jax.ShapeDtypeStruct((batch_size,), jnp.int32),
            jax.ShapeDtypeStruct((batch_size, obs_dim), jnp.float32),
            jax.ShapeDtypeStruct((batch_size,), jnp.float32),
            jax.ShapeDtypeStruct((batch_size,), jnp.float32))


# --------------------------------------------------------------------------
# training
# --------------------------------------------------------------------------


@functools.partial(jax.jit, static_argnums=(0, 3, 4, 5))
def train(network_def, online_params, target_params, optimizer, sampler: Callable, batch_size: int,
          gamma):
  sample_shapes, sample_fn = sampler
  states, actions, next_states, rewards, terminals = io_callback(
      sample_fn, sample_shapes, batch_size, ordered=False)
  next_q = jnp.max(network_def.apply(target_params, next_states).q_values, axis=-1)
  target = jax.lax.stop_gradient(rewards + gamma * next_q * (1.0 - terminals))

  def loss_fn(params):
    q = network_def.apply(params, states).q_values
    chosen = jnp.take_along_axis(q, actions[:, None], axis=-1)[:, 0]
    return jnp.mean((target - chosen) ** 2)

  loss, grads = jax.value_and_grad(loss_fn)(online_params)
  updates, _ = optimizer.update(grads, None)
  return jax.tree.map(jnp.add, online_params, updates), loss


@configurable
class JaxDQNAgent:

  def __init__(self, num_actions, obs_dim, replay: HostReplayBuffer, gamma=0.99, batch_size=32):
    self.network_def = MLPNetwork(num_actions)
    self.optimizer = create_optimizer()
    self.gamma = gamma
    self.batch_size = batch_size
    self.online_params = self.network_def.init(jax.random.PRNGKey(0), obs_dim)
    self.target_params = self.online_params
    shapes = replay.sample_spec(batch_size)
    self._sampler = (shapes, replay.sample)

  def _train_step(self):
    self.online_params, loss = train(self.network_def, self.online_params, self.target_params,
                                     self.optimizer, self._sampler, self.batch_size, self.gamma)
    return loss

  def param_specs(self, sharding):
    return jax.tree.map(lambda p: jax.ShapeDtypeStruct(p.shape, p.dtype, sharding=sharding),
                        self.online_params)

  def lower_train(self, sharding, platform: str):
    params = self.param_specs(sharding)
    gamma = jax.ShapeDtypeStruct((), jnp.float32, sharding=sharding)
    traced = train.trace(self.network_def, params, params, self.optimizer, self._sampler,
                         self.batch_size, gamma)
    return traced.lower(lowering_platforms=(platform,))


# --------------------------------------------------------------------------
# runner
# --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Profile:
  mesh_fn: Callable[[], object]
  platform_fn: Callable[[], str]


PROFILES = {
    "pod": Profile(mesh_fn=lambda: AbstractMesh((8,), ("replica",)), platform_fn=lambda: "tpu"),
    "local": Profile(mesh_fn=lambda: jax.make_mesh((jax.device_count(),), ("replica",)),
                     platform_fn=jax.default_backend),
}


@configurable
def run(agent: JaxDQNAgent, profile="local", num_iterations=3):
  for _ in range(num_iterations):
    loss = agent._train_step()
  print("local loss:", float(loss))
  prof = PROFILES[os.environ.get("DQN_PROFILE", profile)]
  replicated = NamedSharding(prof.mesh_fn(), P())
  return agent.lower_train(replicated, prof.platform_fn())


def main():
  replay = HostReplayBuffer(capacity=1000, obs_dim=8)
  agent = JaxDQNAgent(num_actions=4, obs_dim=8, replay=replay)
  lowered = run(agent)
  print("compiled train step:", len(lowered.as_text()))


if __name__ == "__main__":
  main()

"""A feed-forward actor in the style of an RL framework's JAX agents.

Networks and the actor core are plain functions bundled in dataclasses; the
generic actor jits them for a chosen backend (actors live on CPU hosts next to
the environment). The legal-action mask comes from the environment's rules
engine on the host. An experiment config lists the platforms on which the
policy is additionally compiled for the batched inference server.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Generic, Optional, Sequence, Tuple, TypeVar

import jax
import jax.numpy as jnp
import numpy as np

State = TypeVar("State")
Extras = TypeVar("Extras")
NUM_ACTIONS = 6


# --------------------------------------------------------------------------
# environment rules engine (host side)
# --------------------------------------------------------------------------


class RulesEngine:
  """Computes which actions are legal from an observation; pure numpy."""

  def __init__(self, num_actions: int):
    self._num_actions = num_actions

  def legal_actions(self, observation: np.ndarray) -> np.ndarray:
    obs = np.asarray(observation)
    mask = (obs[..., : self._num_actions] > -0.5).astype(np.float32)
    mask[..., 0] = 1.0  # no-op is always legal
    return mask


# --------------------------------------------------------------------------
# networks / actor core
# --------------------------------------------------------------------------


@dataclasses.dataclass
class FeedForwardNetwork:
  init: Callable[[jax.Array], dict]
  apply: Callable[[dict, jax.Array], jax.Array]


@dataclasses.dataclass
class ActorCore(Generic[State, Extras]):
  init: Callable[[jax.Array], State]
  select_action: Callable[[dict, jax.Array, State], Tuple[jax.Array, State]]
  get_extras: Callable[[State], Extras]


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class SimpleActorCoreState:
  rng: jax.Array


def make_policy_network(obs_dim: int, num_actions: int) -> FeedForwardNetwork:
  def init(key):
    k1, k2 = jax.random.split(key)
    return {"w1": jax.random.normal(k1, (obs_dim, 32)) / np.sqrt(obs_dim),
            "w2": jax.random.normal(k2, (32, num_actions)) / np.sqrt(32.0)}

  def apply(params, obs):
    return jax.nn.relu(obs @ params["w1"]) @ params["w2"]

  return FeedForwardNetwork(init=init, apply=apply)


def make_masked_policy(network: FeedForwardNetwork, rules: RulesEngine):
  def policy(params, key, observation):
    logits = network.apply(params, observation)
    mask = jax.pure_callback(rules.legal_actions,
                             jax.ShapeDtypeStruct(logits.shape, jnp.float32), observation,
                             vmap_method="broadcast_all")
    logits = jnp.where(mask > 0, logits, -1e9)
    return jax.random.categorical(key, logits)

  return policy


def batched_feed_forward_to_actor_core(policy) -> ActorCore[SimpleActorCoreState, None]:
  def select_action(params, observation, state):
    rng, policy_rng = jax.random.split(state.rng)
    action = policy(params, policy_rng, observation)
    return action, SimpleActorCoreState(rng)

  return ActorCore(init=SimpleActorCoreState, select_action=select_action,
                   get_extras=lambda state: None)


# --------------------------------------------------------------------------
# actors.py
# --------------------------------------------------------------------------


class GenericActor:

  def __init__(self, actor: ActorCore, params: dict, random_key: jax.Array,
               backend: Optional[str] = "cpu"):
    self._random_key = random_key
    self._params = params
    self._init = jax.jit(actor.init, backend=backend)
    self._policy = jax.jit(actor.select_action, backend=backend)
    self._state = self._init(random_key)

  def select_action(self, observation) -> np.ndarray:
    action, self._state = self._policy(self._params, observation, self._state)
    return np.asarray(action)

  def lower_policy(self, observation_spec, platform: str):
    traced = self._policy.trace(self._params, observation_spec, self._state)
    return traced.lower(lowering_platforms=(platform,))


@dataclasses.dataclass
class ExperimentConfig:
  obs_dim: int = 10
  batch_size: int = 16
  seed: int = 0
  inference_platforms: Sequence[str] = ("tpu",)


def run_experiment(config: ExperimentConfig):
  key = jax.random.key(config.seed)
  network = make_policy_network(config.obs_dim, NUM_ACTIONS)
  policy = make_masked_policy(network, RulesEngine(NUM_ACTIONS))
  actor = GenericActor(batched_feed_forward_to_actor_core(policy), network.init(key), key)

  obs = jax.random.normal(key, (config.batch_size, config.obs_dim))
  print("first actions", actor.select_action(obs))

  obs_spec = jax.ShapeDtypeStruct((config.batch_size, config.obs_dim), jnp.float32)
  return {platform: actor.lower_policy(obs_spec, platform) for platform in config.inference_platforms}


if __name__ == "__main__":
  run_experiment(ExperimentConfig())

"""Batched tree search over a host-side game simulator, MCTS-library style.

A representation network gives the root; `recurrent_fn(params, rng, action,
embedding)` advances the search. Here the environment model is an exact
simulator written in numpy and called from the recurrent function. The search
policy is then lowered once per platform of the fleet.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, NamedTuple, Tuple

import jax
import jax.numpy as jnp
import numpy as np

Params = Any


class RecurrentFnOutput(NamedTuple):
  reward: jax.Array
  discount: jax.Array
  prior_logits: jax.Array
  value: jax.Array


class RootFnOutput(NamedTuple):
  prior_logits: jax.Array
  value: jax.Array
  embedding: Any


class PolicyOutput(NamedTuple):
  action: jax.Array
  action_weights: jax.Array
  search_value: jax.Array


RecurrentFn = Callable[[Params, jax.Array, jax.Array, Any], Tuple[RecurrentFnOutput, Any]]


# --------------------------------------------------------------------------
# search
# --------------------------------------------------------------------------


def _ucb_scores(prior_logits, visit_counts, value_sums, pb_c):
  priors = jax.nn.softmax(prior_logits)
  q = value_sums / jnp.maximum(visit_counts, 1.0)
  total = jnp.sum(visit_counts, axis=-1, keepdims=True)
  return q + pb_c * priors * jnp.sqrt(total + 1.0) / (1.0 + visit_counts)


def one_step_lookahead_policy(params: Params, rng_key: jax.Array, root: RootFnOutput,
                              recurrent_fn: RecurrentFn, num_simulations: int,
                              loop_fn=jax.lax.fori_loop, *, pb_c: float = 1.25,
                              discount: float = 0.99) -> PolicyOutput:
  batch, num_actions = root.prior_logits.shape
  init = (rng_key, jnp.zeros((batch, num_actions)), jnp.zeros((batch, num_actions)))

  def body(_, carry):
    key, visits, value_sums = carry
    key, sim_key, noise_key = jax.random.split(key, 3)
    scores = _ucb_scores(root.prior_logits, visits, value_sums, pb_c)
    scores = scores + 1e-3 * jax.random.gumbel(noise_key, scores.shape)
    action = jnp.argmax(scores, axis=-1)
    out, _ = recurrent_fn(params, sim_key, action, root.embedding)
    ret = out.reward + discount * out.discount * out.value
    onehot = jax.nn.one_hot(action, num_actions)
    return key, visits + onehot, value_sums + onehot * ret[:, None]

  _, visits, value_sums = loop_fn(0, num_simulations, body, init)
  weights = visits / jnp.sum(visits, axis=-1, keepdims=True)
  return PolicyOutput(action=jnp.argmax(visits, axis=-1), action_weights=weights,
                      search_value=jnp.sum(weights * value_sums / jnp.maximum(visits, 1.0), -1))


# --------------------------------------------------------------------------
# environment model
# --------------------------------------------------------------------------


class GridSimulator:
  """Exact transition model of a 1-D grid walk; numpy, runs on the host."""

  def __init__(self, size: int = 9, goal: int = 7):
    self.size, self.goal = size, goal

  def step(self, positions: np.ndarray, actions: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    moves = np.where(np.asarray(actions) == 0, -1, 1)
    new = np.clip(np.asarray(positions) + moves, 0, self.size - 1).astype(np.int32)
    reward = (new == self.goal).astype(np.float32)
    return new, reward


def make_recurrent_fn(simulator: GridSimulator, value_net) -> RecurrentFn:
  def recurrent_fn(params, rng_key, action, embedding):
    del rng_key
    shapes = (jax.ShapeDtypeStruct(embedding.shape, jnp.int32),
              jax.ShapeDtypeStruct(embedding.shape, jnp.float32))
    next_pos, reward = jax.pure_callback(simulator.step, shapes, embedding, action,
                                         vmap_method="sequential")
    logits, value = value_net(params, next_pos)
    return RecurrentFnOutput(reward=reward, discount=jnp.ones_like(reward),
                             prior_logits=logits, value=value), next_pos

  return recurrent_fn


def value_net(params, positions):
  feats = jax.nn.one_hot(positions, params["w"].shape[0])
  return feats @ params["w"], feats @ params["v"]


POLICIES = {"lookahead": one_step_lookahead_policy}


def make_search_fn(policy_name: str, simulator: GridSimulator, num_simulations: int = 16):
  policy = POLICIES[policy_name]
  recurrent_fn = make_recurrent_fn(simulator, value_net)

  def search(params, rng_key, positions):
    logits, value = value_net(params, positions)
    root = RootFnOutput(prior_logits=logits, value=value, embedding=positions)
    return policy(params, rng_key, root, recurrent_fn, num_simulations)

  return search


FLEET_PLATFORMS = ("cpu", "tpu")


def lower_for_fleet(search, params, batch_size: int):
  key_spec = jax.eval_shape(lambda: jax.random.key(0))
  pos_spec = jax.ShapeDtypeStruct((batch_size,), jnp.int32)
  lowered = {}
  for platform in FLEET_PLATFORMS:
    traced = jax.jit(search).trace(params, key_spec, pos_spec)
    lowered[platform] = traced.lower(lowering_platforms=(platform,))
  return lowered


if __name__ == "__main__":
  sim = GridSimulator()
  params = {"w": jnp.zeros((sim.size, 2)), "v": jnp.zeros((sim.size,))}
  search = make_search_fn("lookahead", sim)
  out = jax.jit(search)(params, jax.random.key(1), jnp.arange(4, dtype=jnp.int32))
  print("actions", out.action)
  lower_for_fleet(search, params, batch_size=4)

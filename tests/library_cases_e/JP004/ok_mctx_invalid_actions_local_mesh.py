"""Gumbel search over a board game with legality checked by the game engine.

The search API follows the MCTS-library shape: a root output (prior logits,
value, embedding), a `recurrent_fn`, and an `invalid_actions` mask. The mask
comes from the reference game engine (host Python). Self-play runs with the
batch sharded over the worker's local devices; the search is compiled ahead
of time for them.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, NamedTuple, Optional, Tuple

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

BOARD = 9


class RootFnOutput(NamedTuple):
  prior_logits: jax.Array
  value: jax.Array
  embedding: Any


class RecurrentFnOutput(NamedTuple):
  reward: jax.Array
  discount: jax.Array
  prior_logits: jax.Array
  value: jax.Array


class PolicyOutput(NamedTuple):
  action: jax.Array
  action_weights: jax.Array


def masked_logits(logits, invalid_actions):
  if invalid_actions is None:
    return logits
  return jnp.where(invalid_actions, -jnp.inf, logits)


def gumbel_policy(params, rng_key, root: RootFnOutput, recurrent_fn: Callable,
                  num_simulations: int, invalid_actions: Optional[jax.Array] = None,
                  *, max_num_considered_actions: int = 4, gumbel_scale: float = 1.0) -> PolicyOutput:
  logits = masked_logits(root.prior_logits, invalid_actions)
  gumbel = gumbel_scale * jax.random.gumbel(rng_key, logits.shape)
  _, considered = jax.lax.top_k(logits + gumbel, max_num_considered_actions)

  def simulate(action):
    out, _ = recurrent_fn(params, rng_key, action, root.embedding)
    return out.reward + out.discount * out.value

  q = jax.vmap(simulate, in_axes=1, out_axes=1)(considered)
  completed = jnp.full(logits.shape, -jnp.inf).at[jnp.arange(logits.shape[0])[:, None], considered].set(q)
  scores = logits + gumbel + completed * (num_simulations / max_num_considered_actions)
  return PolicyOutput(action=jnp.argmax(scores, axis=-1), action_weights=jax.nn.softmax(masked_logits(scores, invalid_actions)))


POLICIES = {"gumbel_muzero": gumbel_policy}


class ReferenceEngine:
  """The game's reference rules; plain Python/numpy."""

  def legal_moves(self, boards: np.ndarray) -> np.ndarray:
    return np.asarray(boards) == 0

  def invalid_actions(self, boards):
    legal = jax.pure_callback(self.legal_moves, jax.ShapeDtypeStruct(boards.shape, jnp.bool_), boards,
                              vmap_method="broadcast_all")
    return ~legal


def network(params, boards):
  x = boards.astype(jnp.float32)
  return x @ params["policy"], jnp.tanh(x @ params["value"])


def recurrent_fn(params, rng_key, action, boards):
  del rng_key
  boards = boards.at[jnp.arange(boards.shape[0]), action].set(1)
  logits, value = network(params, -boards)
  return RecurrentFnOutput(reward=jnp.zeros_like(value), discount=-jnp.ones_like(value),
                           prior_logits=logits, value=value), -boards


def make_self_play_step(engine: ReferenceEngine, policy_name: str = "gumbel_muzero", num_simulations: int = 8):
  policy = POLICIES[policy_name]

  def step(params, rng_key, boards):
    logits, value = network(params, boards)
    root = RootFnOutput(prior_logits=logits, value=value, embedding=boards)
    return policy(params, rng_key, root, recurrent_fn, num_simulations,
                  invalid_actions=engine.invalid_actions(boards))

  return step


def compile_for_workers(step, params, batch_size: int, platform: str = "cpu"):
  mesh = jax.make_mesh((len(jax.devices(platform)),), ("batch",), axis_types=(AxisType.Auto,))
  replicated, by_batch = NamedSharding(mesh, P()), NamedSharding(mesh, P("batch"))
  jitted = jax.jit(step, in_shardings=(replicated, replicated, by_batch), out_shardings=by_batch)
  params = jax.tree.map(lambda x: jax.ShapeDtypeStruct(x.shape, x.dtype), params)
  key = jax.eval_shape(lambda: jax.random.key(0))
  boards = jax.ShapeDtypeStruct((batch_size, BOARD), jnp.int32)
  return jitted.trace(params, key, boards).lower(lowering_platforms=(platform,))


if __name__ == "__main__":
  params = {"policy": jnp.zeros((BOARD, BOARD)), "value": jnp.zeros((BOARD,))}
  step = make_self_play_step(ReferenceEngine())
  boards = jnp.zeros((4, BOARD), jnp.int32).at[:, 4].set(1)
  print("local", jax.jit(step)(params, jax.random.key(0), boards).action)
  compile_for_workers(step, params, batch_size=256)

"""A ranking service that pre-compiles its scorer for every list-size bucket.

Scoring and the utilities follow rax (``utils.ranks``, ``utils.sort_by``,
``softmax_loss``-style listwise training).  The service keeps a device mesh for
its replicas; to warm the compilation cache at start-up it lowers the scorer
once per list-size bucket against shape-only specs, with the output placement
expressed on the mesh's abstract description so nothing is pinned while
warming up.
"""

from __future__ import annotations

import argparse
from typing import Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

Array = jax.Array


# --------------------------------------------------------------------------
# ranking utilities
# --------------------------------------------------------------------------


def ranks(scores: Array, *, where=None, axis: int = -1) -> Array:
  if where is not None:
    scores = jnp.where(where, scores, -jnp.inf)
  order = jnp.argsort(-scores, axis=axis)
  return jnp.argsort(order, axis=axis) + 1


def sort_by(scores: Array, tensors: Sequence[Array], *, axis: int = -1):
  order = jnp.argsort(-scores, axis=axis)
  return [jnp.take_along_axis(t, order, axis=axis) for t in tensors]


def softmax_loss(scores: Array, labels: Array, *, where=None) -> Array:
  if where is None:
    where = jnp.ones_like(labels, dtype=bool)
  labels = jnp.where(where, labels, 0.0)
  scores = jnp.where(where, scores, -1e9)
  probs = labels / jnp.maximum(labels.sum(-1, keepdims=True), 1e-9)
  return -jnp.mean(jnp.sum(probs * jax.nn.log_softmax(scores), -1))


# --------------------------------------------------------------------------
# model
# --------------------------------------------------------------------------


def init_params(key, num_features: int, hidden: int):
  k1, k2 = jax.random.split(key)
  return {
      "w1": jax.random.normal(k1, (num_features, hidden)) / np.sqrt(num_features),
      "w2": jax.random.normal(k2, (hidden,)) / np.sqrt(hidden),
  }


def score(params, features):
  return jax.nn.relu(features @ params["w1"]) @ params["w2"]


def score_and_rank(params, features, mask):
  scores = jnp.where(mask, score(params, features), -jnp.inf)
  doc_ids = jnp.broadcast_to(jnp.arange(features.shape[-2]), scores.shape)
  (ranked_ids,) = sort_by(scores, [doc_ids])
  return scores, ranked_ids


@jax.jit
def train_step(params, features, labels, mask):
  loss, grads = jax.value_and_grad(lambda p: softmax_loss(score(p, features), labels, where=mask))(params)
  return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads), loss


# --------------------------------------------------------------------------
# service
# --------------------------------------------------------------------------


class ScoringService:

  def __init__(self, params, num_features: int, num_replicas: int = 1):
    self.params = params
    self.num_features = num_features
    self.mesh = jax.make_mesh((num_replicas,), ("replica",))
    self._lowered = {}

  def _scorer(self):
    replicated = NamedSharding(self.mesh.abstract_mesh, P())
    return jax.jit(score_and_rank, out_shardings=(replicated, replicated))

  def _specs(self, batch: int, list_size: int):
    params = jax.tree.map(lambda p: jax.ShapeDtypeStruct(p.shape, p.dtype), self.params)
    features = jax.ShapeDtypeStruct((batch, list_size, self.num_features), jnp.float32)
    mask = jax.ShapeDtypeStruct((batch, list_size), jnp.bool_)
    return params, features, mask

  def warmup(self, buckets: Sequence[int], batch: int):
    scorer = self._scorer()
    for list_size in buckets:
      self._lowered[list_size] = scorer.trace(*self._specs(batch, list_size)).lower()
    return self._lowered


def parse_args():
  parser = argparse.ArgumentParser()
  parser.add_argument("--buckets", type=int, nargs="+", default=[16, 32, 64])
  parser.add_argument("--serving_batch", type=int, default=8)
  parser.add_argument("--num_features", type=int, default=12)
  return parser.parse_args()


def main():
  args = parse_args()
  rng = np.random.default_rng(0)
  params = init_params(jax.random.PRNGKey(0), args.num_features, 32)
  features = jnp.asarray(rng.normal(size=(16, 16, args.num_features)), jnp.float32)
  labels = jnp.asarray(rng.integers(0, 3, size=(16, 16)), jnp.float32)
  mask = jnp.ones((16, 16), bool)
  for _ in range(3):
    params, loss = train_step(params, features, labels, mask)
  print("trained, loss", float(loss))

  service = ScoringService(params, args.num_features)
  lowered = service.warmup(args.buckets, args.serving_batch)
  print("warmed buckets:", sorted(lowered))


if __name__ == "__main__":
  main()

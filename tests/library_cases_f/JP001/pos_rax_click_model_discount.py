"""Ranking evaluation with a position-bias discount estimated from click logs.

Metric code follows rax: ``dcg_metric``/``ndcg_metric`` take ``gain_fn`` and
``discount_fn`` callables, ranks come from ``utils.ranks``, and losses are made
from metrics with ``approx_t12n``.  The evaluation discount is not the textbook
``1/log2(1+rank)`` but a per-position examination probability estimated from
click logs; the table lives in NumPy on the evaluation host.  The eval step is
compiled ahead of time for the evaluation workers named on the command line.
"""

from __future__ import annotations

import argparse
import functools
import inspect
from typing import Callable, Optional

import jax
import jax.numpy as jnp
import numpy as np

Array = jax.Array


# --------------------------------------------------------------------------
# metrics library
# --------------------------------------------------------------------------


def default_gain_fn(label: Array) -> Array:
  return jnp.power(2.0, label) - 1.0


def default_discount_fn(rank: Array) -> Array:
  return 1.0 / jnp.log2(rank + 1)


def ranks(scores: Array, *, axis: int = -1) -> Array:
  order = jnp.argsort(-scores, axis=axis)
  return jnp.argsort(order, axis=axis) + 1


def approx_ranks(scores: Array, *, step_fn: Callable[[Array], Array] = jax.nn.sigmoid) -> Array:
  score_i = jnp.expand_dims(scores, axis=-1)
  score_j = jnp.expand_dims(scores, axis=-2)
  return jnp.sum(step_fn(score_j - score_i), axis=-1) + 0.5


def dcg_metric(scores: Array, labels: Array, *, where: Optional[Array] = None,
               rank_fn: Callable[..., Array] = ranks,
               gain_fn: Callable[[Array], Array] = default_gain_fn,
               discount_fn: Callable[[Array], Array] = default_discount_fn) -> Array:
  if where is None:
    where = jnp.ones_like(labels, dtype=bool)
  scores = jnp.where(where, scores, -jnp.inf)
  gains = jnp.where(where, gain_fn(labels), 0.0)
  discounts = discount_fn(rank_fn(scores))
  return jnp.mean(jnp.sum(gains * discounts, axis=-1))


def ndcg_metric(scores: Array, labels: Array, **kwargs) -> Array:
  dcg = dcg_metric(scores, labels, **kwargs)
  ideal_kwargs = {k: v for k, v in kwargs.items() if k != "rank_fn"}
  ideal = dcg_metric(labels.astype(scores.dtype), labels, **ideal_kwargs)
  return dcg / jnp.maximum(ideal, 1e-9)


def approx_t12n(metric_fn, temperature: float = 1.0):
  step_fn = lambda x: jax.nn.sigmoid(x / temperature)
  approx_kwargs = {}
  if "rank_fn" in inspect.signature(dcg_metric).parameters:
    approx_kwargs["rank_fn"] = functools.partial(approx_ranks, step_fn=step_fn)

  @functools.wraps(metric_fn)
  def approx_metric_loss(scores, labels, **kwargs):
    return -metric_fn(scores, labels, **{**approx_kwargs, **kwargs})

  return approx_metric_loss


# --------------------------------------------------------------------------
# application
# --------------------------------------------------------------------------


class ClickModel:
  """Examination probabilities per display position, estimated offline."""

  def __init__(self, examination: np.ndarray):
    self._examination = examination.astype(np.float32)

  @classmethod
  def from_click_logs(cls, impressions: np.ndarray, clicks: np.ndarray) -> "ClickModel":
    ctr = clicks.sum(0) / np.maximum(impressions.sum(0), 1)
    return cls(ctr / ctr[0])

  def _lookup(self, rank):
    idx = np.clip(np.asarray(rank) - 1, 0, len(self._examination) - 1)
    return self._examination[idx.astype(np.int64)]

  def discount(self, rank: Array) -> Array:
    out = jax.ShapeDtypeStruct(rank.shape, jnp.float32)
    return jax.pure_callback(self._lookup, out, rank, vmap_method="broadcast_all")


def score_fn(params, features):
  return features @ params["w"] + params["b"]


def make_eval_step(click_model: ClickModel):

  def eval_step(params, batch):
    scores = score_fn(params, batch["features"])
    return {
        "ndcg": ndcg_metric(scores, batch["labels"]),
        "ndcg_click_model": ndcg_metric(scores, batch["labels"], discount_fn=click_model.discount),
    }

  return jax.jit(eval_step)


def make_train_step(learning_rate: float):
  loss_fn = approx_t12n(ndcg_metric)

  @jax.jit
  def train_step(params, batch):
    def objective(p):
      return loss_fn(score_fn(p, batch["features"]), batch["labels"])
    loss, grads = jax.value_and_grad(objective)(params)
    return jax.tree.map(lambda p, g: p - learning_rate * g, params, grads), loss

  return train_step


class EvalWorkerCompiler:
  """Compiles the eval step once for the evaluation workers' platform."""

  def __init__(self, platform: str):
    self.platform = platform

  def compile(self, eval_step, params, batch_size: int, list_size: int, num_features: int):
    specs = (
        jax.tree.map(lambda p: jax.ShapeDtypeStruct(p.shape, p.dtype), params),
        {"features": jax.ShapeDtypeStruct((batch_size, list_size, num_features), jnp.float32),
         "labels": jax.ShapeDtypeStruct((batch_size, list_size), jnp.float32)},
    )
    traced = eval_step.trace(*specs)
    return traced.lower(lowering_platforms=(self.platform,))


def parse_args():
  parser = argparse.ArgumentParser(description=__doc__)
  parser.add_argument("--eval_platform", default="tpu", help="platform of the evaluation workers")
  parser.add_argument("--list_size", type=int, default=10)
  parser.add_argument("--num_features", type=int, default=6)
  parser.add_argument("--train_steps", type=int, default=5)
  return parser.parse_args()


def main():
  args = parse_args()
  rng = np.random.default_rng(0)
  impressions = rng.integers(50, 100, size=(200, args.list_size))
  clicks = (impressions * np.linspace(0.4, 0.05, args.list_size)).astype(np.int64)
  click_model = ClickModel.from_click_logs(impressions, clicks)

  params = {"w": jnp.zeros((args.num_features,)), "b": jnp.zeros(())}
  batch = {
      "features": jnp.asarray(rng.normal(size=(32, args.list_size, args.num_features)), jnp.float32),
      "labels": jnp.asarray(rng.integers(0, 3, size=(32, args.list_size)), jnp.float32),
  }
  train_step = make_train_step(0.1)
  for _ in range(args.train_steps):
    params, loss = train_step(params, batch)
  eval_step = make_eval_step(click_model)
  print("local eval:", jax.device_get(eval_step(params, batch)))

  compiler = EvalWorkerCompiler(args.eval_platform)
  lowered = compiler.compile(eval_step, params, 32, args.list_size, args.num_features)
  print("compiled eval step for", args.eval_platform, len(lowered.as_text()))


if __name__ == "__main__":
  main()

"""A jaxline-style train/eval pair that share a compile manifest via the checkpoint.

Follows jaxline: an experiment class lists the attributes to checkpoint in
``CHECKPOINT_ATTRS``; an ``InMemoryCheckpointer`` keeps named checkpoint series
and ``get_experiment_state``/``save``/``restore``; ``train`` and ``evaluate``
drivers build the experiment for a mode and run it.  The trainer records which
platforms the evaluator must compile for in a small manifest stored with the
checkpoint (strings only, so it can go in the checkpoint's metadata); the
evaluator restores it and lowers its eval function accordingly.
"""

from __future__ import annotations

import copy
import time
from typing import Any, Dict, Optional

import jax
import jax.numpy as jnp
import numpy as np


class ConfigDict(dict):

  def __getattr__(self, name):
    try:
      return self[name]
    except KeyError as e:
      raise AttributeError(name) from e


def get_config():
  return ConfigDict(
      training_steps=4,
      checkpoint_dir="/tmp/unused",
      eval_platforms=("cpu",),
      experiment_kwargs=ConfigDict(learning_rate=0.1, num_features=6, batch_size=32),
  )


class _ExperimentState:
  """Named attributes of the experiment being checkpointed."""

  def __init__(self):
    self.values: Dict[str, Any] = {}


class InMemoryCheckpointer:

  def __init__(self, config, mode: str):
    self._max_checkpoints_to_keep = 2
    self._checkpoints: Dict[str, list] = {}
    self._states: Dict[str, _ExperimentState] = {}

  def get_experiment_state(self, ckpt_series: str) -> _ExperimentState:
    return self._states.setdefault(ckpt_series, _ExperimentState())

  def save(self, ckpt_series: str) -> None:
    series = self._checkpoints.setdefault(ckpt_series, [])
    series.append((time.time(), copy.deepcopy(self._states[ckpt_series].values)))
    del series[:-self._max_checkpoints_to_keep]

  def can_be_restored(self, ckpt_series: str) -> bool:
    return bool(self._checkpoints.get(ckpt_series))

  def restore(self, ckpt_series: str) -> None:
    _, values = self._checkpoints[ckpt_series][-1]
    self._states[ckpt_series].values = copy.deepcopy(values)


class Experiment:
  CHECKPOINT_ATTRS = {"_params": "params", "_compile_manifest": "compile_manifest"}

  def __init__(self, mode: str, init_rng: jax.Array, learning_rate: float, num_features: int,
               batch_size: int):
    self.mode = mode
    self._lr = learning_rate
    self._batch_size = batch_size
    self._num_features = num_features
    self._params = {"w": jnp.zeros((num_features,)), "b": jnp.zeros(())}
    self._compile_manifest: Optional[Dict[str, str]] = None
    self._rng = init_rng
    self._update = jax.jit(self._update_impl)
    self._eval = jax.jit(self._eval_impl)

  def _batch(self, rng):
    x = jax.random.normal(rng, (self._batch_size, self._num_features))
    y = (x @ jnp.arange(self._num_features, dtype=jnp.float32) > 0).astype(jnp.float32)
    return x, y

  def _loss(self, params, x, y):
    logits = x @ params["w"] + params["b"]
    return jnp.mean(jnp.logaddexp(0.0, logits) - y * logits)

  def _update_impl(self, params, x, y):
    loss, grads = jax.value_and_grad(self._loss)(params, x, y)
    return jax.tree.map(lambda p, g: p - self._lr * g, params, grads), loss

  def _eval_impl(self, params, x, y):
    logits = x @ params["w"] + params["b"]
    return {"accuracy": jnp.mean((logits > 0) == (y > 0.5)), "loss": self._loss(params, x, y)}

  def step(self, *, global_step, rng):
    x, y = self._batch(rng)
    self._params, loss = self._update(self._params, x, y)
    return {"loss": np.asarray(loss)}

  def record_compile_manifest(self, eval_platforms):
    self._compile_manifest = {"platforms": ",".join(eval_platforms), "batch_size": str(self._batch_size)}

  def lower_eval(self):
    manifest = self._compile_manifest
    batch = int(manifest["batch_size"])
    specs = (jax.tree.map(lambda p: jax.ShapeDtypeStruct(p.shape, p.dtype), self._params),
             jax.ShapeDtypeStruct((batch, self._num_features), jnp.float32),
             jax.ShapeDtypeStruct((batch,), jnp.float32))
    traced = self._eval.trace(*specs)
    return traced.lower(lowering_platforms=tuple(manifest["platforms"].split(",")))


def _save_state(experiment, checkpointer, series):
  state = checkpointer.get_experiment_state(series)
  for attr, name in experiment.CHECKPOINT_ATTRS.items():
    state.values[name] = getattr(experiment, attr)
  checkpointer.save(series)


def _restore_state(experiment, checkpointer, series):
  checkpointer.restore(series)
  state = checkpointer.get_experiment_state(series)
  for attr, name in experiment.CHECKPOINT_ATTRS.items():
    setattr(experiment, attr, state.values[name])


def train(experiment_class, config, checkpointer):
  rng = jax.random.PRNGKey(0)
  experiment = experiment_class("train", rng, **config.experiment_kwargs)
  experiment.record_compile_manifest(config.eval_platforms)
  for global_step in range(config.training_steps):
    rng, step_rng = jax.random.split(rng)
    scalars = experiment.step(global_step=global_step, rng=step_rng)
    print(f"step {global_step}: loss {float(scalars['loss']):.4f}")
  _save_state(experiment, checkpointer, "latest")


def evaluate(experiment_class, config, checkpointer):
  experiment = experiment_class("eval", jax.random.PRNGKey(1), **config.experiment_kwargs)
  if not checkpointer.can_be_restored("latest"):
    raise RuntimeError("nothing to evaluate")
  _restore_state(experiment, checkpointer, "latest")
  return experiment.lower_eval()


def main():
  config = get_config()
  checkpointer = InMemoryCheckpointer(config, "train_eval")
  train(Experiment, config, checkpointer)
  lowered = evaluate(Experiment, config, checkpointer)
  print("eval lowered:", len(lowered.as_text()))


if __name__ == "__main__":
  main()

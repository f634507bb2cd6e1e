"""A jaxline-style experiment whose scalars are written by the host training loop.

Layout follows jaxline: an ``AbstractExperiment`` with ``step``/``evaluate``,
a ``get_config()`` that nests the experiment's own config under
``experiment_kwargs.config``, a writer protocol for scalars, and a ``main``
that dispatches on a mode.  Before a run is scheduled on the TPU pool the
launcher does an ahead-of-time compile check of the update function.
"""

from __future__ import annotations

import abc
import functools
import os
from typing import Any, Mapping, Optional, Protocol

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback


class ConfigDict(dict):
  """Tiny stand-in for ml_collections.ConfigDict (attribute access)."""

  def __getattr__(self, name):
    try:
      return self[name]
    except KeyError as e:
      raise AttributeError(name) from e

  def __setattr__(self, name, value):
    self[name] = value


def get_config() -> ConfigDict:
  config = ConfigDict()
  config.training_steps = 3
  config.log_train_data_interval = 1
  config.aot_check = ConfigDict(platform="tpu", batch_size=64)
  config.experiment_kwargs = ConfigDict(
      config=ConfigDict(
          model=ConfigDict(hidden_size=32, num_classes=4),
          optimizer=ConfigDict(learning_rate=0.05),
          training=ConfigDict(batch_size=16),
          # Streaming scalars from the device (io_callback in the update) is a
          # debugging aid for hung steps; normal runs log from the host loop.
          stream_scalars_from_device=False,
      ))
  return config


class Writer(Protocol):

  def write_scalars(self, global_step: int, scalars: Mapping[str, Any]):
    ...


class StdoutWriter:

  def write_scalars(self, global_step: int, scalars: Mapping[str, Any]):
    items = ", ".join(f"{k}={float(v):.4f}" for k, v in sorted(scalars.items()))
    print(f"[step {int(global_step)}] {items}")


def kwargs_only(f):
  @functools.wraps(f)
  def wrapped(**kwargs):
    return f(**kwargs)
  return wrapped


class AbstractExperiment(abc.ABC):

  @abc.abstractmethod
  def __init__(self, mode: str, init_rng: Optional[jax.Array] = None):
    ...

  @abc.abstractmethod
  def step(self, *, global_step, rng, writer):
    ...

  @abc.abstractmethod
  def evaluate(self, *, global_step, rng, writer):
    ...


class Experiment(AbstractExperiment):
  """Linear-softmax classifier on a synthetic mixture."""

  def __init__(self, mode: str, init_rng: jax.Array, config: ConfigDict, writer: Writer):
    self.mode = mode
    self.config = config
    self._writer = writer
    hidden, classes = config.model.hidden_size, config.model.num_classes
    k1, k2 = jax.random.split(init_rng)
    self._params = {
        "w1": jax.random.normal(k1, (8, hidden)) * 0.1,
        "w2": jax.random.normal(k2, (hidden, classes)) * 0.1,
    }
    self._update_func = jax.jit(self._update_func_impl)

  def _host_write(self, global_step, loss, accuracy):
    self._writer.write_scalars(int(global_step), {"loss": loss, "accuracy": accuracy})

  def _loss(self, params, batch):
    h = jax.nn.relu(batch["x"] @ params["w1"])
    logits = h @ params["w2"]
    labels = jax.nn.one_hot(batch["y"], logits.shape[-1])
    loss = -jnp.mean(jnp.sum(labels * jax.nn.log_softmax(logits), axis=-1))
    accuracy = jnp.mean(jnp.argmax(logits, -1) == batch["y"])
    return loss, accuracy

  def _update_func_impl(self, params, global_step, batch):
    (loss, accuracy), grads = jax.value_and_grad(self._loss, has_aux=True)(params, batch)
    lr = self.config.optimizer.learning_rate
    params = jax.tree.map(lambda p, g: p - lr * g, params, grads)
    if self.config.stream_scalars_from_device:
      io_callback(self._host_write, None, global_step, loss, accuracy, ordered=False)
    return params, {"loss": loss, "accuracy": accuracy}

  def _build_batch(self, rng, batch_size):
    kx, ky = jax.random.split(rng)
    y = jax.random.randint(ky, (batch_size,), 0, self.config.model.num_classes)
    x = jax.random.normal(kx, (batch_size, 8)) + y[:, None].astype(jnp.float32)
    return {"x": x, "y": y}

  def step(self, *, global_step, rng, writer):
    batch = self._build_batch(rng, self.config.training.batch_size)
    self._params, scalars = self._update_func(self._params, global_step, batch)
    scalars = jax.device_get(scalars)
    if not self.config.stream_scalars_from_device:
      writer.write_scalars(int(global_step), scalars)
    return scalars

  def evaluate(self, *, global_step, rng, writer):
    batch = self._build_batch(rng, 128)
    _, accuracy = self._loss(self._params, batch)
    return {"eval_accuracy": np.asarray(accuracy)}

  def update_input_specs(self, batch_size):
    params = jax.tree.map(lambda p: jax.ShapeDtypeStruct(p.shape, p.dtype), self._params)
    batch = {
        "x": jax.ShapeDtypeStruct((batch_size, 8), jnp.float32),
        "y": jax.ShapeDtypeStruct((batch_size,), jnp.int32),
    }
    return params, jax.ShapeDtypeStruct((), jnp.int32), batch


def train(experiment_class, config, writer):
  rng = jax.random.PRNGKey(0)
  experiment = experiment_class("train", rng, **config.experiment_kwargs, writer=writer)
  step = kwargs_only(experiment.step)
  for global_step in range(config.training_steps):
    rng, step_rng = jax.random.split(rng)
    step(global_step=jnp.int32(global_step), rng=step_rng, writer=writer)
  return experiment


def aot_check(experiment: Experiment, check_config: ConfigDict):
  """Compile the update for the pool the run will be scheduled on."""
  specs = experiment.update_input_specs(check_config.batch_size)
  traced = experiment._update_func.trace(*specs)
  return traced.lower(lowering_platforms=(check_config.platform,))


def main():
  config = get_config()
  mode = os.environ.get("JAXLINE_MODE", "train_then_check")
  writer = StdoutWriter()
  experiment = train(Experiment, config, writer)
  if mode == "train_then_check":
    lowered = aot_check(experiment, config.aot_check)
    print("AOT check passed:", len(lowered.as_text()), "chars of StableHLO")


if __name__ == "__main__":
  main()

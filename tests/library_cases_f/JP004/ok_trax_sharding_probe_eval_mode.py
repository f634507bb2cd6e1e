"""A trax-style language model with sharding probes; its eval step is compiled for a pod slice.

Layers follow trax: each ``Layer`` has ``init_weights(input_shape, rng)`` and
``pure_fn(x, weights)``; combinators (``Serial``, ``Residual``) flatten nested
lists of sublayers; model constructors take a ``mode`` ('train', 'eval',
'predict') and pass it to the layers that care.  ``ShardingProbe`` is a
debugging layer: in training mode it reports how XLA sharded the activation at
that point (``jax.debug.inspect_array_sharding``) to a host-side log.  The
model is trained locally, and the eval-mode model's evaluation step is lowered
for the evaluation slice described by ``SliceSpec``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, List, Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P

SHARDING_LOG: List[tuple[str, str]] = []


class Layer:

  def __init__(self, name=None, mode="train"):
    self.name = name or type(self).__name__
    self.mode = mode

  def init_weights(self, input_shape, rng) -> tuple[Any, tuple]:
    return (), input_shape

  def pure_fn(self, x, weights):
    raise NotImplementedError


def _flatten(layers) -> list:
  out = []
  for layer in layers:
    if isinstance(layer, (list, tuple)):
      out.extend(_flatten(layer))
    elif layer is not None:
      out.append(layer)
  return out


class Serial(Layer):

  def __init__(self, *sublayers, name=None):
    super().__init__(name)
    self.sublayers: Sequence[Layer] = _flatten(sublayers)

  def init_weights(self, input_shape, rng):
    weights = []
    for layer, r in zip(self.sublayers, jax.random.split(rng, max(len(self.sublayers), 1))):
      w, input_shape = layer.init_weights(input_shape, r)
      weights.append(w)
    return tuple(weights), input_shape

  def pure_fn(self, x, weights):
    for layer, w in zip(self.sublayers, weights):
      x = layer.pure_fn(x, w)
    return x


class Residual(Serial):

  def pure_fn(self, x, weights):
    return x + super().pure_fn(x, weights)


class Embedding(Layer):

  def __init__(self, vocab_size, d_feature):
    super().__init__()
    self.vocab_size, self.d_feature = vocab_size, d_feature

  def init_weights(self, input_shape, rng):
    return jax.random.normal(rng, (self.vocab_size, self.d_feature)) * 0.02, input_shape + (self.d_feature,)

  def pure_fn(self, x, weights):
    return jnp.take(weights, x, axis=0)


class Dense(Layer):

  def __init__(self, n_units):
    super().__init__()
    self.n_units = n_units

  def init_weights(self, input_shape, rng):
    w = jax.random.normal(rng, (input_shape[-1], self.n_units)) / np.sqrt(input_shape[-1])
    return (w, jnp.zeros((self.n_units,))), input_shape[:-1] + (self.n_units,)

  def pure_fn(self, x, weights):
    w, b = weights
    return x @ w + b


class Relu(Layer):

  def pure_fn(self, x, weights):
    return jax.nn.relu(x)


class LogSoftmax(Layer):

  def pure_fn(self, x, weights):
    return jax.nn.log_softmax(x)


class ShardingProbe(Layer):
  """Identity that records the activation's sharding (training mode only)."""

  def pure_fn(self, x, weights):
    if self.mode == "train":
      name = self.name
      jax.debug.inspect_array_sharding(x, callback=lambda s: SHARDING_LOG.append((name, str(s))))
    return x


def FeedForward(d_model, d_ff):
  return [Dense(d_ff), Relu(), Dense(d_model)]


def MLPLM(vocab_size=256, d_model=64, d_ff=128, n_layers=2, mode="train"):
  return Serial(
      Embedding(vocab_size, d_model),
      [[Residual(FeedForward(d_model, d_ff)), ShardingProbe(f"block_{i}", mode=mode)] for i in range(n_layers)],
      Dense(vocab_size),
      LogSoftmax(),
  )


# --------------------------------------------------------------------------
# training
# --------------------------------------------------------------------------


def make_train_step(model: Layer):

  def loss_fn(weights, tokens):
    logp = model.pure_fn(tokens[:, :-1], weights)
    targets = jax.nn.one_hot(tokens[:, 1:], logp.shape[-1])
    return -jnp.mean(jnp.sum(targets * logp, -1))

  def train_step(weights, tokens):
    loss, grads = jax.value_and_grad(loss_fn)(weights, tokens)
    return jax.tree.map(lambda w, g: w - 0.01 * g, weights, grads), loss

  return train_step


def make_eval_step(model: Layer):

  def eval_step(weights, tokens):
    logp = model.pure_fn(tokens[:, :-1], weights)
    targets = jax.nn.one_hot(tokens[:, 1:], logp.shape[-1])
    return -jnp.mean(jnp.sum(targets * logp, -1))

  return eval_step


@dataclasses.dataclass(frozen=True)
class SliceSpec:
  num_devices: int = 16
  platform: str = "tpu"

  def mesh(self):
    return AbstractMesh((self.num_devices,), ("batch",))


def lower_for_slice(model: Layer, weights, batch_size: int, seq_len: int, spec: SliceSpec):
  mesh = spec.mesh()
  data = NamedSharding(mesh, P("batch"))
  replicated = jax.tree.map(lambda _: NamedSharding(mesh, P()), weights)
  step = jax.jit(make_eval_step(model), in_shardings=(replicated, data))
  weight_specs = jax.tree.map(lambda w: jax.ShapeDtypeStruct(w.shape, w.dtype), weights)
  token_spec = jax.ShapeDtypeStruct((batch_size, seq_len), jnp.int32)
  return step.trace(weight_specs, token_spec).lower(lowering_platforms=(spec.platform,))


def main():
  model = MLPLM(mode="train")
  weights, _ = model.init_weights((8, 32), jax.random.PRNGKey(0))
  tokens = jax.random.randint(jax.random.PRNGKey(1), (8, 33), 0, 256)
  weights, loss = jax.jit(make_train_step(model))(weights, tokens)
  print("local loss:", float(loss), "probes:", len(SHARDING_LOG))
  eval_model = MLPLM(mode="eval")
  lowered = lower_for_slice(eval_model, weights, batch_size=64, seq_len=33, spec=SliceSpec())
  print("lowered eval step for slice:", len(lowered.as_text()))


if __name__ == "__main__":
  main()

"""A trax-style layer stack whose fused activation reads its kernel settings from
the active fastmath backend.

As in trax, ``fastmath`` keeps a dictionary of backends keyed by name, a
module-level ``override_backend`` that ``use_backend`` sets for a ``with``
block, and ``backend()`` that resolves the active entry lazily (so a config
system can set it after import).  Layers expose ``pure_fn(x, weights, state,
rng)``; ``Serial`` threads the input through its sublayers.  The trainer lowers
the model for the TPU slice it will be scheduled on to check it compiles.
"""

from __future__ import annotations

import contextlib
import enum
from typing import Any, Sequence

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as pltriton


# --------------------------------------------------------------------------
# fastmath
# --------------------------------------------------------------------------


class Backend(enum.Enum):
  JAX_TPU = "jax-tpu"
  JAX_GPU = "jax-gpu"


_backend_dict = {
    Backend.JAX_TPU: {
        "name": "jax-tpu",
        "kernel_params": lambda: pltpu.CompilerParams(dimension_semantics=("parallel",)),
        "block_rows": 8,
    },
    Backend.JAX_GPU: {
        "name": "jax-gpu",
        "kernel_params": lambda: pltriton.CompilerParams(num_warps=4, num_stages=2),
        "block_rows": 16,
    },
}

override_backend = None


def _assert_valid_backend_name(name):
  for backend_ in Backend:
    if backend_.value == name:
      return
  raise ValueError(f"No backend with name {name}")


def _get_backend_from_string(name_str):
  for backend_ in Backend:
    if backend_.value == name_str:
      return _backend_dict[backend_]
  raise ValueError(name_str)


def backend(name="jax-gpu"):
  if override_backend:
    return _get_backend_from_string(override_backend)
  return _get_backend_from_string(name)


@contextlib.contextmanager
def use_backend(name):
  _assert_valid_backend_name(name)
  global override_backend
  prev = override_backend
  override_backend = name
  try:
    yield
  finally:
    override_backend = prev


# --------------------------------------------------------------------------
# layers
# --------------------------------------------------------------------------


class Layer:

  def __init__(self, name=None):
    self.name = name or type(self).__name__

  def init_weights(self, rng, input_shape) -> Any:
    return ()

  def pure_fn(self, x, weights, state, rng):
    raise NotImplementedError


class Dense(Layer):

  def __init__(self, n_units):
    super().__init__()
    self.n_units = n_units

  def init_weights(self, rng, input_shape):
    w = jax.random.normal(rng, (input_shape[-1], self.n_units)) / jnp.sqrt(input_shape[-1])
    return {"w": w, "b": jnp.zeros((self.n_units,))}

  def pure_fn(self, x, weights, state, rng):
    return x @ weights["w"] + weights["b"], state


def _gelu_kernel(x_ref, o_ref):
  x = x_ref[...]
  o_ref[...] = 0.5 * x * (1.0 + jnp.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))


class FusedGelu(Layer):
  """GELU as one Pallas kernel, tiled by rows."""

  def pure_fn(self, x, weights, state, rng):
    cfg = backend()
    rows, cols = x.shape
    block = (cfg["block_rows"], cols)
    y = pl.pallas_call(
        _gelu_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(rows // cfg["block_rows"],),
        in_specs=[pl.BlockSpec(block, lambda i: (i, 0))],
        out_specs=pl.BlockSpec(block, lambda i: (i, 0)),
        compiler_params=cfg["kernel_params"](),
    )(x)
    return y, state


class Serial(Layer):

  def __init__(self, *sublayers: Layer):
    super().__init__()
    self.sublayers: Sequence[Layer] = sublayers

  def init_weights(self, rng, input_shape):
    weights = []
    shape = input_shape
    for layer, layer_rng in zip(self.sublayers, jax.random.split(rng, len(self.sublayers))):
      w = layer.init_weights(layer_rng, shape)
      weights.append(w)
      if isinstance(layer, Dense):
        shape = shape[:-1] + (layer.n_units,)
    return tuple(weights)

  def pure_fn(self, x, weights, state, rng):
    for layer, w in zip(self.sublayers, weights):
      x, state = layer.pure_fn(x, w, state, rng)
    return x, state


def FeedForward(d_model: int, d_ff: int) -> Layer:
  return Serial(Dense(d_ff), FusedGelu(), Dense(d_model))


# --------------------------------------------------------------------------
# trainer
# --------------------------------------------------------------------------


class Trainer:

  def __init__(self, model: Layer, batch_size: int, d_model: int, slice_platform: str = "tpu"):
    self.model = model
    self.batch_size = batch_size
    self.d_model = d_model
    self.slice_platform = slice_platform
    self.weights = model.init_weights(jax.random.PRNGKey(0), (batch_size, d_model))
    self._forward = jax.jit(lambda x, w: model.pure_fn(x, w, (), None)[0])

  def check_compiles(self):
    x = jax.ShapeDtypeStruct((self.batch_size, self.d_model), jnp.float32)
    w = jax.tree.map(lambda a: jax.ShapeDtypeStruct(a.shape, a.dtype), self.weights)
    return self._forward.trace(x, w).lower(lowering_platforms=(self.slice_platform,))


def main():
  model = FeedForward(d_model=128, d_ff=256)
  trainer = Trainer(model, batch_size=32, d_model=128)
  lowered = trainer.check_compiles()
  print("feed-forward lowers for", trainer.slice_platform, len(lowered.as_text()))


if __name__ == "__main__":
  main()

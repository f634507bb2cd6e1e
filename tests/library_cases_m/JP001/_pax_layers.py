"""Feed-forward layers and the overflow-check mixin (the shape of
praxis/layers/linears.py and praxis/layers/quantization/overflow_check.py)."""

from __future__ import annotations

import dataclasses
import logging

import jax
import jax.numpy as jnp

from _pax_base import BaseLayer, instance_field, lecun_normal


@dataclasses.dataclass
class OverflowLimits:
  max_val: float = float(jnp.finfo(jnp.float16).max)
  min_val: float = float(jnp.finfo(jnp.float16).min)


@dataclasses.dataclass
class FeedForward(BaseLayer):
  input_dims: int = 0
  output_dims: int = 0
  activation: str = "relu"

  def init_params(self, key):
    return {"w": lecun_normal(key, (self.input_dims, self.output_dims)),
            "b": jnp.zeros((self.output_dims,), jnp.float32)}

  def __call__(self, params, inputs):
    out = inputs @ params["w"] + params["b"]
    return jax.nn.relu(out) if self.activation == "relu" else out


@dataclasses.dataclass
class OverflowChecker(BaseLayer):
  overflow_limits: OverflowLimits = instance_field(OverflowLimits)

  def check_overflow(self, inputs, class_name, name):
    max_val = jnp.max(inputs)
    min_val = jnp.min(inputs)
    overflow = jnp.logical_or(max_val > self.overflow_limits.max_val,
                              min_val < self.overflow_limits.min_val)

    def log_overflow(max_val, min_val):
      logging.warning("Overflow in: %s, %s, max_val: %s, min_val: %s", class_name, name, max_val, min_val)

    def _true_fn(max_val, min_val):
      jax.debug.callback(log_overflow, max_val, min_val)

    def _false_fn(max_val, min_val):
      del max_val, min_val

    jax.lax.cond(overflow, _true_fn, _false_fn, max_val, min_val)


@dataclasses.dataclass
class FeedForwardOverflowCheck(FeedForward, OverflowChecker):

  def __call__(self, params, inputs):
    out = super().__call__(params, inputs)
    self.check_overflow(out, "FeedForward", self.name)
    return out


@dataclasses.dataclass
class StackedFeedForward(BaseLayer):
  layers: tuple = ()

  def init_params(self, key):
    keys = jax.random.split(key, len(self.layers))
    return [layer.init_params(k) for layer, k in zip(self.layers, keys)]

  def __call__(self, params, inputs):
    for layer, p in zip(self.layers, params):
      inputs = layer(p, inputs)
    return inputs


_OVERFLOW_VARIANTS = {FeedForward: FeedForwardOverflowCheck}


def set_overflow_check(tpl):
  """Swaps every template of a layer that has an overflow-checking variant."""
  tpl.cls = _OVERFLOW_VARIANTS.get(tpl.cls, tpl.cls)
  for v in tpl.fields.values():
    if hasattr(v, "cls"):
      set_overflow_check(v)
    elif isinstance(v, tuple):
      for item in v:
        if hasattr(item, "cls"):
          set_overflow_check(item)
  return tpl

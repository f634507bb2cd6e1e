"""Penzai-shaped model plumbing: layers are frozen dataclasses composed in a
`Sequential`; `select_instances(model, cls).apply(fn)` rebuilds the tree with
every instance of `cls` replaced (penzai's `pz.select(...).at_instances_of(...)`),
and `Jitted` wraps a sub-model so that calling it goes through `jax.jit`."""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Layer:
  def __call__(self, params, x):
    raise NotImplementedError


@dataclasses.dataclass(frozen=True)
class Sequential(Layer):
  sublayers: tuple[Layer, ...]

  def __call__(self, params, x):
    for layer, p in zip(self.sublayers, params):
      x = layer(p, x)
    return x


@dataclasses.dataclass(frozen=True)
class Linear(Layer):
  d_in: int
  d_out: int

  def init(self, key):
    return {"w": jax.random.normal(key, (self.d_in, self.d_out), jnp.float32) / self.d_in ** 0.5}

  def __call__(self, params, x):
    return x @ params["w"]


@dataclasses.dataclass(frozen=True)
class DotProductSoftmax(Layer):
  """Row softmax of attention logits (no parameters)."""

  def init(self, key):
    return {}

  def __call__(self, params, logits):
    return jax.nn.softmax(logits, axis=-1)


@dataclasses.dataclass(frozen=True)
class Jitted(Layer):
  body: Layer

  def __call__(self, params, x):
    return jax.jit(self.body.__call__)(params, x)


class _Selection:
  def __init__(self, tree, cls):
    self.tree, self.cls = tree, cls

  def apply(self, fn: Callable[[Any], Any]):
    def rebuild(node):
      if isinstance(node, self.cls):
        return fn(node)
      if isinstance(node, tuple):
        return tuple(rebuild(n) for n in node)
      if dataclasses.is_dataclass(node) and not isinstance(node, type):
        changes = {f.name: rebuild(getattr(node, f.name)) for f in dataclasses.fields(node)}
        return dataclasses.replace(node, **changes)
      return node
    return rebuild(self.tree)


def select_instances(tree, cls) -> _Selection:
  return _Selection(tree, cls)


def init_params(model: Sequential, key):
  keys = jax.random.split(key, len(model.sublayers))
  return tuple(layer.init(k) for layer, k in zip(model.sublayers, keys))

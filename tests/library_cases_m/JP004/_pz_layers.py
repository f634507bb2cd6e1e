"""Penzai-shaped layers and model rewiring: frozen dataclass layers in a
`Sequential`; `select_instances(model, cls)` with `.insert_after(layer)` and
`.apply(fn)` (penzai's `pz.select(model).at_instances_of(cls)...`), and the
sharding-util layers `ConstrainSharding` and `InspectSharding`."""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import jax


@dataclasses.dataclass(frozen=True)
class Layer:
  def __call__(self, x):
    raise NotImplementedError


@dataclasses.dataclass(frozen=True)
class Sequential(Layer):
  sublayers: tuple

  def __call__(self, x):
    for layer in self.sublayers:
      x = layer(x)
    return x


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Linear(Layer):
  weights: Any
  name: str = dataclasses.field(default="linear", metadata={"static": True})

  def __call__(self, x):
    return x @ self.weights


@dataclasses.dataclass(frozen=True)
class Elementwise(Layer):
  fn: Callable

  def __call__(self, x):
    return self.fn(x)


@dataclasses.dataclass(frozen=True)
class ConstrainSharding(Layer):
  sharding: Any

  def __call__(self, x):
    return jax.lax.with_sharding_constraint(x, self.sharding)


SEEN_SHARDINGS: list = []


@dataclasses.dataclass(frozen=True)
class InspectSharding(Layer):
  tag: str = "activation"

  def __call__(self, x):
    jax.debug.inspect_array_sharding(x, callback=lambda s: SEEN_SHARDINGS.append((self.tag, s)))
    return x


class _Selection:
  def __init__(self, tree, cls):
    self.tree, self.cls = tree, cls

  def _rebuild(self, node, on_match):
    if isinstance(node, Sequential):
      out = []
      for child in node.sublayers:
        out.extend(on_match(child) if isinstance(child, self.cls) else [self._rebuild(child, on_match)])
      return dataclasses.replace(node, sublayers=tuple(out))
    return node

  def insert_after(self, layer):
    return self._rebuild(self.tree, lambda child: [child, layer])

  def apply(self, fn):
    return self._rebuild(self.tree, lambda child: [fn(child)])


def select_instances(tree, cls):
  return _Selection(tree, cls)

"""A few praxis-shaped pieces: layer templates (a pax_fiddle.Config stand-in that
records a class and its fields and instantiates it later), a base layer whose
fields get per-instance defaults, and an experiment registry."""

from __future__ import annotations

import dataclasses
from typing import Any

import jax
import jax.numpy as jnp


def instance_field(factory):
  return dataclasses.field(default_factory=factory)


@dataclasses.dataclass
class BaseLayer:
  name: str = "layer"

  def init_params(self, key) -> dict:
    return {}

  def __call__(self, params, inputs):
    raise NotImplementedError


class Config:
  """Deferred construction: `Config(cls, **fields)`; `.cls` may be swapped later."""

  def __init__(self, cls, **fields):
    self.cls = cls
    self.fields = dict(fields)

  def set(self, **fields) -> "Config":
    self.fields.update(fields)
    return self

  def clone(self) -> "Config":
    return Config(self.cls, **self.fields)

  def instantiate(self) -> Any:
    return self.cls(**{k: _build(v) for k, v in self.fields.items()})


def _build(value):
  if isinstance(value, Config):
    return value.instantiate()
  if isinstance(value, tuple):
    return tuple(_build(v) for v in value)
  return value


_EXPERIMENTS: dict[str, type] = {}


def register(cls):
  _EXPERIMENTS[cls.__name__] = cls
  return cls


def get_experiment(name: str):
  return _EXPERIMENTS[name]()


def lecun_normal(key, shape, dtype=jnp.float32):
  return jax.random.normal(key, shape, dtype) / jnp.sqrt(shape[0]).astype(dtype)

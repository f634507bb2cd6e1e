"""Praxis-shaped serving set-up: normalization layers registered by name,
experiments registered by class name whose class attributes (overridden by
subclasses) choose the norm template and the serving platforms."""

from __future__ import annotations

import dataclasses

import jax.numpy as jnp

NORMS: dict[str, type] = {}
EXPERIMENTS: dict[str, type] = {}


def register_norm(name):
  def deco(cls):
    NORMS[name] = cls
    return cls
  return deco


def register_experiment(cls):
  EXPERIMENTS[cls.__name__] = cls
  return cls


@register_norm("layer_norm")
@dataclasses.dataclass(frozen=True)
class LayerNorm:
  dim: int
  epsilon: float = 1e-6

  def init(self):
    return {"scale": jnp.ones((self.dim,), jnp.float32), "bias": jnp.zeros((self.dim,), jnp.float32)}

  def __call__(self, params, x):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) * jnp.reciprocal(jnp.sqrt(var + self.epsilon)) * params["scale"] + params["bias"]


class ServingExperiment:
  MODEL_DIMS = 256
  NORM_TPL = "layer_norm"
  SERVING_PLATFORMS: tuple[str, ...] = ("cpu",)

  def norm(self):
    return NORMS[self.NORM_TPL](dim=self.MODEL_DIMS)

  def serving_platforms(self) -> tuple[str, ...]:
    return tuple(self.SERVING_PLATFORMS)


def get_experiment(name):
  return EXPERIMENTS[name]()

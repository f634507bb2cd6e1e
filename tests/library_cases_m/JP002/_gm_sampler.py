"""Gemma-shaped sampler configuration: a frozen, keyword-only dataclass whose
strategy fields get their objects from `default_factory`, and a greedy decode
step that runs the logits processor it was given."""

from __future__ import annotations

import dataclasses
from typing import Any

import jax.numpy as jnp


@dataclasses.dataclass(frozen=True, kw_only=True)
class Greedy:
  def get_next_tokens(self, logits, rng):
    del rng
    return jnp.argmax(logits, axis=-1)


@dataclasses.dataclass(frozen=True, kw_only=True)
class SoftCap:
  """`cap * tanh(logits / cap)` in plain XLA."""
  cap: float = 30.0

  def __call__(self, logits):
    return self.cap * jnp.tanh(logits / self.cap)


def decode_step(sampler: Any, embed, hidden, rng):
  logits = hidden @ embed.T
  logits = sampler.logits_processor(logits)
  return sampler.sampling.get_next_tokens(logits, rng), logits


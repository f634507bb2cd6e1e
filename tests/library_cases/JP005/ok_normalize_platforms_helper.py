"""Staged compilation wrapper that accepts one platform name or several for a quantized matmul layer."""

import dataclasses
from collections.abc import Sequence

import jax
import jax.numpy as jnp

TARGET_PLATFORM = "tpu"


def canonical_platforms(platforms: str | Sequence[str] | None) -> tuple[str, ...] | None:
  if platforms is None:
    return None
  if isinstance(platforms, str):
    return (platforms,)
  return tuple(platforms)


@dataclasses.dataclass(frozen=True, slots=True)
class Traced:
  traced: jax.stages.Traced

  def lower(self, *, lowering_platforms: str | Sequence[str] | None = None):
    return self.traced.lower(lowering_platforms=canonical_platforms(lowering_platforms))


def quantize(w, bits=8):
  scale = jnp.max(jnp.abs(w), axis=0, keepdims=True) / (2 ** (bits - 1) - 1)
  return jnp.round(w / scale).astype(jnp.int8), scale


def qdense(w, x):
  qw, scale = quantize(w)
  return (x @ qw.astype(x.dtype)) * scale


if __name__ == "__main__":
  traced = Traced(jax.jit(qdense).trace(jax.ShapeDtypeStruct((256, 128), jnp.float32), jax.ShapeDtypeStruct((16, 256), jnp.float32)))
  lowered = traced.lower(lowering_platforms=TARGET_PLATFORM)
  print(lowered.as_text()[:80])

"""Staged compilation wrapper whose lower() forwards the target platform of a quantized matmul layer."""

import dataclasses

import jax
import jax.numpy as jnp

TARGET_PLATFORM = "tpu"


@dataclasses.dataclass(frozen=True, slots=True)
class Traced:
  traced: jax.stages.Traced

  def lower(self, *, lowering_platforms: tuple[str, ...] | None = None):
    return self.traced.lower(lowering_platforms=lowering_platforms)


def quantize(w, bits=8):
  scale = jnp.max(jnp.abs(w), axis=0, keepdims=True) / (2 ** (bits - 1) - 1)
  return jnp.round(w / scale).astype(jnp.int8), scale


def qdense(w, x):
  qw, scale = quantize(w)
  return (x @ qw.astype(x.dtype)) * scale


def trace(fn, *specs) -> Traced:
  return Traced(jax.jit(fn).trace(*specs))


if __name__ == "__main__":
  traced = trace(qdense, jax.ShapeDtypeStruct((256, 128), jnp.float32), jax.ShapeDtypeStruct((16, 256), jnp.float32))
  lowered = traced.lower(lowering_platforms=TARGET_PLATFORM)
  print(lowered.as_text()[:80])

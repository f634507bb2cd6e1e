"""Ahead-of-time build of a halo-exchange stencil step; the target platform comes from the
runtime's environment settings (mpi4jax-style module of environment switches)."""
import jax
import jax.numpy as jnp

import _runtime


def halo_exchange(field):
  # single-rank stand-in for sendrecv with the neighbours: periodic wrap
  return jnp.concatenate([field[-1:], field, field[:1]], axis=0)


def stencil_step(field, dt):
  padded = halo_exchange(field)
  lap = padded[2:] - 2.0 * padded[1:-1] + padded[:-2]
  return field + dt * lap


def build(field_spec):
  traced = jax.jit(stencil_step).trace(field_spec, jnp.float32(0.1))
  return traced.lower(lowering_platforms=_runtime.LOWERING_TARGET)


if __name__ == "__main__":
  lowered = build(jax.ShapeDtypeStruct((128, 64), jnp.float32))
  print(lowered.as_text()[:60])

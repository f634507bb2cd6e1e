"""Lowers an ensemble of Lorenz-system solves, sharded over ensemble members,
for the TPU pod slice it will run on. Progress reporting is chosen by the
environment, as the launch scripts do."""

import os

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

from _dfx_progress import progress_meter

PROGRESS = os.environ.get("DFX_PROGRESS", "text")


def lorenz(t, y, args):
  sigma, rho, beta = args
  x, yy, z = y[..., 0], y[..., 1], y[..., 2]
  return jnp.stack([sigma * (yy - x), x * (rho - z) - yy, x * yy - beta * z], axis=-1)


def diffeqsolve(vector_field, t0, t1, dt, y0, args, meter):
  n_steps = int(round((t1 - t0) / dt))

  def body(i, carry):
    y, state = carry
    t = t0 + i * dt
    k1 = vector_field(t, y, args)
    k2 = vector_field(t + dt, y + dt * k1, args)
    y = y + 0.5 * dt * (k1 + k2)
    state = meter.step(state, (i + 1) / n_steps)
    return y, state

  y1, state = jax.lax.fori_loop(0, n_steps, body, (y0, meter.init()))
  meter.close(state)
  return y1


def lower_ensemble(members=1024, slice_devices=8):
  meter = progress_meter(PROGRESS)
  mesh = AbstractMesh((slice_devices,), ("ensemble",), axis_types=(AxisType.Auto,))
  members_sharding = NamedSharding(mesh, P("ensemble"))

  @jax.jit
  def solve(y0):
    return diffeqsolve(lorenz, 0.0, 2.0, 0.01, y0, (10.0, 28.0, 8.0 / 3.0), meter)

  y0 = jax.ShapeDtypeStruct((members, 3), jnp.float32, sharding=members_sharding)
  return solve.trace(y0).lower(lowering_platforms=("tpu",))


if __name__ == "__main__":
  print(lower_ensemble().as_text()[:120])

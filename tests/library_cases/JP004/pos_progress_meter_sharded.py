"""Data-parallel fixed-point solver reporting iterations to a host meter; exported for a described mesh."""

import threading

import jax
import jax.numpy as jnp
from jax.experimental import io_callback
from jax.sharding import NamedSharding, PartitionSpec as P


class ProgressMeter:
  def __init__(self):
    self.lock = threading.Lock()
    self.steps = []

  def step(self, progress):
    def _step(p):
      with self.lock:
        self.steps.append(float(p))

    io_callback(_step, None, progress, ordered=False)


METER = ProgressMeter()


def fixed_point(a, b, num_iters=16):
  def body(i, x):
    METER.step(i / num_iters)
    return 0.5 * (x + b / (a + 1.0))

  return jax.lax.fori_loop(0, num_iters, body, jnp.zeros_like(b))


def export_solver(mesh_shape=(8,), batch=64, dim=128):
  mesh = jax.sharding.AbstractMesh(mesh_shape, ("batch",))
  rows = NamedSharding(mesh, P("batch"))
  a = jax.ShapeDtypeStruct((batch, dim), jnp.float32, sharding=rows)
  b = jax.ShapeDtypeStruct((batch, dim), jnp.float32, sharding=rows)
  return jax.export.export(jax.jit(fixed_point, static_argnames="num_iters"))(a, b)


if __name__ == "__main__":
  exported = export_solver()
  print(exported.platforms, exported.nr_devices)

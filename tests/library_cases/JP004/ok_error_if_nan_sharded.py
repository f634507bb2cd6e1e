"""Sharded training step whose finiteness check yields NaNs in the artifact; exported for a described mesh."""

import functools

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

from _hostops import error_if

EXPORT_ON_ERROR = "nan"


def loss_fn(params, x):
  return jnp.mean(jnp.tanh(x @ params["w"]) ** 2)


def train_step(params, x, *, on_error):
  loss, grads = jax.value_and_grad(loss_fn)(params, x)
  loss = error_if(loss, ~jnp.isfinite(loss), "loss is not finite", on_error=on_error)
  return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads), loss


def export_step(mesh_shape=(4, 2), dim=128, batch=32):
  mesh = jax.sharding.AbstractMesh(mesh_shape, ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
  params = {"w": jax.ShapeDtypeStruct((dim, dim), jnp.float32, sharding=NamedSharding(mesh, P(None, "model")))}
  x = jax.ShapeDtypeStruct((batch, dim), jnp.float32, sharding=NamedSharding(mesh, P("data")))
  step = jax.jit(functools.partial(train_step, on_error=EXPORT_ON_ERROR))
  return jax.export.export(step, platforms=("tpu",))(params, x)


if __name__ == "__main__":
  exported = export_step()
  print(exported.platforms, exported.nr_devices)

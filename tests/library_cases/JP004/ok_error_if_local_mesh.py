"""Sharded training step with a runtime finiteness check, compiled and run on this host's devices."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

from _hostops import error_if


def loss_fn(params, x):
  return jnp.mean(jnp.tanh(x @ params["w"]) ** 2)


def train_step(params, x):
  loss, grads = jax.value_and_grad(loss_fn)(params, x)
  loss = error_if(loss, ~jnp.isfinite(loss), "loss is not finite")
  return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads), loss


def build(mesh, dim=128, batch=32):
  param_sharding = {"w": NamedSharding(mesh, P(None, "model"))}
  data_sharding = NamedSharding(mesh, P("data"))
  jitted = jax.jit(train_step, in_shardings=(param_sharding, data_sharding), out_shardings=(param_sharding, None))
  params = {"w": jax.ShapeDtypeStruct((dim, dim), jnp.float32)}
  x = jax.ShapeDtypeStruct((batch, dim), jnp.float32)
  return jitted.trace(params, x).lower().compile()


if __name__ == "__main__":
  mesh = jax.make_mesh((len(jax.devices()), 1), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
  step = build(mesh)
  params, loss = step({"w": jnp.eye(128)}, jnp.ones((32, 128)))
  print(float(loss))

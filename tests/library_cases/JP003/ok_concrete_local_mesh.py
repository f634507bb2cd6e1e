"""Initializes model state into its sharding on the devices of this host and runs one step."""

import functools

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


def create_device_mesh(axis_names=("data", "model")):
  n = len(jax.devices())
  return jax.make_mesh((n, 1), axis_names, axis_types=(jax.sharding.AxisType.Auto,) * 2)


def init_state_fn(key, dim):
  k1, k2 = jax.random.split(key)
  return {"wi": jax.random.normal(k1, (dim, 4 * dim)), "wo": jax.random.normal(k2, (4 * dim, dim))}


def train_step(state, x):
  def loss_fn(p):
    return jnp.mean((jax.nn.relu(x @ p["wi"]) @ p["wo"] - x) ** 2)

  loss, grads = jax.value_and_grad(loss_fn)(state)
  return jax.tree.map(lambda p, g: p - 1e-3 * g, state, grads), loss


if __name__ == "__main__":
  mesh = create_device_mesh()
  shardings = {"wi": NamedSharding(mesh, P(None, "model")), "wo": NamedSharding(mesh, P("model", None))}
  with jax.set_mesh(mesh):
    init = functools.partial(jax.jit, out_shardings=shardings, static_argnums=1)(init_state_fn)
    lowered = init.trace(jax.random.key(0), 64).lower()
    state = lowered.compile()(jax.random.key(0))
    state, loss = jax.jit(train_step).trace(state, jnp.ones((8, 64))).lower().compile()(state, jnp.ones((8, 64)))
  print(float(loss))

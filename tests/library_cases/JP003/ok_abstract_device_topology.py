"""Lowers a sharded MLP for a TPU topology described by device kind, from a host without TPUs."""

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

TOPOLOGIES = {
    "v5e-8": ("TPU v5 lite", (2, 4)),
    "v6e-8": ("TPU v6 lite", (2, 4)),
}


def get_topology_mesh(name):
  device_kind, shape = TOPOLOGIES[name]
  device = jax.sharding.AbstractDevice(device_kind=device_kind, num_cores=1, platform="tpu")
  return jax.sharding.AbstractMesh(shape, ("data", "model"), abstract_device=device)


def mlp(params, x):
  h = jax.nn.relu(jnp.einsum("bd,df->bf", x, params["wi"]))
  return jnp.einsum("bf,fd->bd", h, params["wo"])


def lower_for_topology(name):
  with jax.sharding.use_abstract_mesh(get_topology_mesh(name)):
    params = {
        "wi": jax.ShapeDtypeStruct((256, 1024), jnp.bfloat16),
        "wo": jax.ShapeDtypeStruct((1024, 256), jnp.bfloat16),
    }
    x = jax.ShapeDtypeStruct((32, 256), jnp.bfloat16)
    jitted = jax.jit(mlp, in_shardings=({"wi": P(None, "model"), "wo": P("model", None)}, P("data")))
    return jitted.trace(params, x).lower()


if __name__ == "__main__":
  lowered = lower_for_topology("v5e-8")
  print(lowered.as_text()[:80])

import math

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

BASE_YML = """
compile_topology: v5p-16
ici_data_parallelism: 4
ici_fsdp_parallelism: 2
per_device_batch_size: 2
emb_dim: 256
"""

MESH_AXES = ("data", "fsdp")


class Config:
    def __init__(self, text):
        for line in text.strip().splitlines():
            k, v = (s.strip() for s in line.split(":", 1))
            setattr(self, k, int(v) if v.isdigit() else v)


def get_topology_mesh(config):
    shape = tuple(getattr(config, f"ici_{axis}_parallelism") for axis in MESH_AXES)
    return AbstractMesh(shape, MESH_AXES, axis_types=(AxisType.Auto,) * len(shape))


def get_shaped_inputs(config, mesh):
    batch = config.per_device_batch_size * math.prod(mesh.axis_sizes)
    sharding = NamedSharding(mesh, P(MESH_AXES, None))
    x = jax.ShapeDtypeStruct((batch, config.emb_dim), jnp.float32, sharding=sharding)
    w = jax.ShapeDtypeStruct((config.emb_dim, config.emb_dim), jnp.float32,
                             sharding=NamedSharding(mesh, P()))
    return x, w


def train_step(x, w):
    def loss(w):
        return jnp.mean(jnp.tanh(x @ w) ** 2)

    g = jax.grad(loss)(w)
    return w - 1e-3 * g


def jit_and_compile(fn, args):
    jitted = jax.jit(fn, donate_argnums=(1,))
    lowered = jitted.trace(*args).lower()
    return lowered


if __name__ == "__main__":
    config = Config(BASE_YML)
    mesh = get_topology_mesh(config)
    lowered = jit_and_compile(train_step, get_shaped_inputs(config, mesh))
    print(lowered.as_text()[:80])

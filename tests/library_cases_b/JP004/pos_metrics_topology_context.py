import contextlib

import jax
import jax.numpy as jnp
from jax.experimental import io_callback
from jax.sharding import AbstractDevice, AbstractMesh, NamedSharding, PartitionSpec as P

ACCELERATORS = {
    "v5litepod-8": (AbstractDevice("TPU v5 lite", 1, "tpu"), (8,)),
    "v6e-4": (AbstractDevice("TPU v6 lite", 1, "tpu"), (4,)),
}


@contextlib.contextmanager
def compile_topology(name):
    device, shape = ACCELERATORS[name]
    mesh = AbstractMesh(shape, ("data",), abstract_device=device)
    with jax.sharding.use_abstract_mesh(mesh):
        yield mesh


def _push_metrics(loss):
    print(f"loss={float(loss):.4f}")


def train_step(params, batch):
    preds = batch @ params
    loss = jnp.mean(preds ** 2)
    io_callback(_push_metrics, None, loss)
    return params - 1e-3 * loss


def compile_for(name):
    with compile_topology(name) as mesh:
        jitted = jax.jit(train_step, in_shardings=(NamedSharding(mesh, P()), NamedSharding(mesh, P("data"))))
        traced = jitted.trace(jax.ShapeDtypeStruct((128, 16), jnp.float32),
                              jax.ShapeDtypeStruct((256, 128), jnp.float32))
        return traced.lower()


if __name__ == "__main__":
    print(compile_for("v5litepod-8").as_text()[:80])

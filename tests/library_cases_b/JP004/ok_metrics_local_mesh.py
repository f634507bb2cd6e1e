import contextlib

import jax
import jax.numpy as jnp
from jax.experimental import io_callback
from jax.sharding import NamedSharding, PartitionSpec as P

LOCAL_TOPOLOGIES = {"cpu-1": (1,), "cpu-debug": (1,)}


@contextlib.contextmanager
def compile_topology(name):
    shape = LOCAL_TOPOLOGIES[name]
    mesh = jax.make_mesh(shape, ("data",))
    with jax.set_mesh(mesh):
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
    print(compile_for("cpu-1").as_text()[:80])

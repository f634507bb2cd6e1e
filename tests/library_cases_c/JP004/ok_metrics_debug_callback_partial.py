import functools

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

MESH = AbstractMesh((2, 2), ("data", "model"), axis_types=(AxisType.Auto, AxisType.Auto))
BATCH = NamedSharding(MESH, P("data"))
REPLICATED = NamedSharding(MESH, P())


def _write_scalar(prefix, step, value):
    print(f"{prefix}/loss step={int(step)} value={float(value):.4f}")


class MetricWriter:
    def __init__(self, prefix):
        self.sink = jax.tree_util.Partial(_write_scalar, prefix)

    def scalar(self, step, value):
        jax.debug.callback(self.sink, step, value)


writer = MetricWriter("train")


@functools.partial(jax.jit, in_shardings=(REPLICATED, BATCH, BATCH, REPLICATED), out_shardings=REPLICATED)
def sgd_step(w, x, y, step):
    def loss_fn(w):
        return jnp.mean((x @ w - y) ** 2)

    loss, g = jax.value_and_grad(loss_fn)(w)
    writer.scalar(step, loss)
    return w - 0.01 * g


if __name__ == "__main__":
    args = (
        jax.ShapeDtypeStruct((32, 1), jnp.float32),
        jax.ShapeDtypeStruct((64, 32), jnp.float32),
        jax.ShapeDtypeStruct((64, 1), jnp.float32),
        jax.ShapeDtypeStruct((), jnp.int32),
    )
    lowered = sgd_step.trace(*args).lower(lowering_platforms=("cpu",))
    print(lowered.as_text()[:80])

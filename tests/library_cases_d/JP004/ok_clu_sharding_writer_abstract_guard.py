"""Compile-time sharding report for a classifier train step (clu metric-writer style).

A ``ShardingWriter`` writes the sharding of tagged activations. The step is
lowered ahead of time for the slice described by absl-style flags; the report
is only wired in when the mesh has devices.
"""
import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

from _flags import FLAGS


class ShardingWriter:
    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.records = {}

    def _write(self, tag):
        def callback(sharding):
            self.records[tag] = sharding
            print(f"{tag}: {sharding}")

        return callback

    def tag(self, name, x):
        if self.enabled:
            jax.debug.inspect_array_sharding(x, callback=self._write(name))
        return x


def make_train_step(writer: ShardingWriter, lr=1e-2):
    def loss_fn(params, images, labels):
        hidden = writer.tag("hidden", jax.nn.relu(images @ params["w1"]))
        logits = writer.tag("logits", hidden @ params["w2"])
        onehot = jax.nn.one_hot(labels, logits.shape[-1])
        return -jnp.mean(jnp.sum(onehot * jax.nn.log_softmax(logits), axis=-1))

    def train_step(params, images, labels):
        loss, grads = jax.value_and_grad(loss_fn)(params, images, labels)
        return jax.tree.map(lambda p, g: p - lr * g, params, grads), loss

    return train_step


def lower_train_step():
    mesh = AbstractMesh((FLAGS.data_parallelism,), ("data",), axis_types=(AxisType.Auto,))
    data, repl = NamedSharding(mesh, P("data")), NamedSharding(mesh, P())
    params = {"w1": jax.ShapeDtypeStruct((784, 256), jnp.float32, sharding=repl),
              "w2": jax.ShapeDtypeStruct((256, 10), jnp.float32, sharding=repl)}
    images = jax.ShapeDtypeStruct((128, 784), jnp.float32, sharding=data)
    labels = jax.ShapeDtypeStruct((128,), jnp.int32, sharding=data)
    # inspect_array_sharding needs real devices; a described slice has none.
    writer = ShardingWriter(enabled=FLAGS.log_shardings and not isinstance(mesh, AbstractMesh))
    traced = jax.jit(make_train_step(writer)).trace(params, images, labels)
    return traced.lower(lowering_platforms=(FLAGS.target_platform,))


if __name__ == "__main__":
    print(lower_train_step().as_text()[:100])

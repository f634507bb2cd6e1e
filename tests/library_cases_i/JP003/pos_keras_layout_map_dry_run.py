"""Dry-run compilation of a two-layer model under a Keras-style ModelParallel layout map
before the slice is provisioned: the device mesh has no devices yet."""

import jax
import jax.numpy as jnp

from _keras_distribution import DeviceMesh, LayoutMap, ModelParallel

VARIABLES = {
    "dense_1/kernel": (64, 256),
    "dense_1/bias": (256,),
    "dense_2/kernel": (256, 64),
    "dense_2/bias": (64,),
}


def make_distribution(devices=None):
    mesh = DeviceMesh((2, 4), ["batch", "model"], devices=devices)
    layout_map = LayoutMap(mesh)
    layout_map[".*dense.*kernel"] = (None, "model")
    layout_map[".*dense.*bias"] = ("model",)
    return ModelParallel(layout_map=layout_map, batch_dim_name="batch")


def train_step(variables, x, y):
    def loss_fn(v):
        h = jax.nn.relu(x @ v["dense_1/kernel"] + v["dense_1/bias"])
        return jnp.mean((h @ v["dense_2/kernel"] + v["dense_2/bias"] - y) ** 2)
    loss, grads = jax.value_and_grad(loss_fn)(variables)
    return jax.tree.map(lambda p, g: p - 1e-3 * g, variables, grads), loss


def dry_run(distribution, batch=32):
    var_shardings = {
        path: distribution.get_variable_layout(path, len(shape)).backend_layout
        for path, shape in VARIABLES.items()
    }
    data_sharding = distribution.get_data_layout((batch, 64)).backend_layout
    specs = {p: jax.ShapeDtypeStruct(s, jnp.float32) for p, s in VARIABLES.items()}
    data = jax.ShapeDtypeStruct((batch, 64), jnp.float32)
    step = jax.jit(train_step, in_shardings=(var_shardings, data_sharding, data_sharding),
                   out_shardings=(var_shardings, None))
    traced = step.trace(specs, data, data)
    lowered = traced.lower()
    return lowered


if __name__ == "__main__":
    lowered = dry_run(make_distribution())
    print(lowered.as_text().count("sharding"))

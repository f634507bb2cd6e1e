"""Ahead-of-time lowering of a Keras-style JAX trainer's step under DataParallel with a
sharding-report callback, on the local host before the job is scheduled."""

import jax
import jax.numpy as jnp

from _keras_trainer import DataParallel, DeviceMesh, History, JAXTrainer, ShardingReport, distribution, set_distribution

SLICES = {"v5e-8": ("tpu", 8), "local": ("cpu", 1)}


def mse(params, x, y):
    return jnp.mean((jnp.tanh(x @ params["w1"]) @ params["w2"] - y) ** 2)


def lower_train_step(trainer, slice_name, batch=64):
    platform, _ = SLICES[slice_name]
    dist = distribution()
    params = {"w1": jax.ShapeDtypeStruct((32, 64), jnp.float32), "w2": jax.ShapeDtypeStruct((64, 4), jnp.float32)}
    x = jax.ShapeDtypeStruct((batch, 32), jnp.float32, sharding=dist.data_sharding(2))
    y = jax.ShapeDtypeStruct((batch, 4), jnp.float32, sharding=dist.data_sharding(2))
    traced = trainer.make_train_function().trace(params, x, y)
    return traced.lower(lowering_platforms=(platform,))


def setup(slice_name, devices=None):
    _, n = SLICES[slice_name]
    set_distribution(DataParallel(DeviceMesh((n,), ("batch",), devices=devices)))
    return JAXTrainer(mse, callbacks=[History(), ShardingReport()])


if __name__ == "__main__":
    trainer = setup("local", devices=jax.devices()[:1])
    lowered = lower_train_step(trainer, "local")
    print(lowered.as_text()[:80])

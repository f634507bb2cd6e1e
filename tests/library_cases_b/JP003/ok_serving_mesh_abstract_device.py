import contextlib

import jax
import jax.numpy as jnp
from jax.sharding import AbstractDevice, AbstractMesh, PartitionSpec as P

SERVING_DEVICE = AbstractDevice(device_kind="TPU v5 lite", num_cores=1, platform="tpu")


@contextlib.contextmanager
def serving_mesh(shape, axis_names, device=SERVING_DEVICE):
    mesh = AbstractMesh(shape, axis_names, abstract_device=device)
    with jax.sharding.use_abstract_mesh(mesh):
        yield mesh


def prefill(tokens, embed):
    h = jnp.take(embed, tokens, axis=0)
    return jnp.cumsum(h, axis=1)


class PrefillCompiler:
    def __init__(self, mesh_shape=(8,), axis_names=("data",)):
        self.mesh_shape = mesh_shape
        self.axis_names = axis_names

    def compile_bucket(self, batch, seq_len, vocab=32000, hidden=256):
        tokens = jax.ShapeDtypeStruct((batch, seq_len), jnp.int32)
        embed = jax.ShapeDtypeStruct((vocab, hidden), jnp.float32)
        with serving_mesh(self.mesh_shape, self.axis_names):
            jitted = jax.jit(prefill, in_shardings=(P("data"), P()))
            lowered = jitted.trace(tokens, embed).lower()
        return lowered


if __name__ == "__main__":
    compiler = PrefillCompiler()
    for bucket in (128, 256):
        compiler.compile_bucket(batch=16, seq_len=bucket)

"""A Keras-style layer with a fused Pallas RMS norm, picked by the configured kernel target,
written out through an export archive for the same target."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as pltriton

import _keras_runtime as keras_config
from _keras_runtime import ExportArchive

KERNEL_PARAMS = {
    "tpu": lambda: pltpu.CompilerParams(dimension_semantics=("parallel",), vmem_limit_bytes=32 * 1024 * 1024),
    "cuda": lambda: pltriton.CompilerParams(num_warps=4),
}


def _rms_kernel(x_ref, g_ref, o_ref, *, eps):
    x = x_ref[...]
    inv = jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + eps)
    o_ref[...] = x * inv * g_ref[...]


class FusedRMSNorm:
    def __init__(self, dim, epsilon=1e-6, block_rows=8):
        self.dim, self.epsilon, self.block_rows = dim, epsilon, block_rows
        self.target = keras_config.kernel_target()
        self.gamma = jnp.ones((1, dim), jnp.float32)

    def call(self, x):
        if self.target not in KERNEL_PARAMS:
            x32 = x.astype(jnp.float32)
            return x32 * jax.lax.rsqrt(jnp.mean(x32**2, -1, keepdims=True) + self.epsilon) * self.gamma
        rows = x.shape[0]
        return pl.pallas_call(
            functools.partial(_rms_kernel, eps=self.epsilon),
            grid=(rows // self.block_rows,),
            in_specs=[pl.BlockSpec((self.block_rows, self.dim), lambda i: (i, 0)),
                      pl.BlockSpec((1, self.dim), lambda i: (0, 0))],
            out_specs=pl.BlockSpec((self.block_rows, self.dim), lambda i: (i, 0)),
            out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
            compiler_params=KERNEL_PARAMS[self.target](),
        )(x, self.gamma)


def build_serving_archive(layer, batch):
    archive = ExportArchive()
    archive.track(layer)
    archive.add_endpoint("serve", layer.call, input_signature=[jax.ShapeDtypeStruct((batch, layer.dim), jnp.float32)])
    return archive


if __name__ == "__main__":
    keras_config.set_kernel_target("TPU")
    norm = FusedRMSNorm(256)
    archive = build_serving_archive(norm, batch=32)
    artifacts = archive.write_out(platforms=[keras_config.kernel_target()])
    print({k: v.platforms for k, v in artifacts.items()})

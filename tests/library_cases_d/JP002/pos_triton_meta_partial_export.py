"""Fused row softmax written as a Pallas kernel, exported for the serving fleet.

Mirrors jax-triton's ``triton_call`` usage: the kernel function takes its launch
meta-parameters as keyword arguments, and the model binds the tuned values with
``functools.partial`` before it is jitted and exported.
"""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plt

from _serving import BLOCK_ROWS, KERNEL_META, SERVING_PLATFORMS


def _softmax_kernel(x_ref, o_ref):
    x = x_ref[...]
    x = x - jnp.max(x, axis=-1, keepdims=True)
    e = jnp.exp(x)
    o_ref[...] = e / jnp.sum(e, axis=-1, keepdims=True)


def fused_softmax(x, *, block_rows=BLOCK_ROWS, num_warps=4, num_stages=3):
    rows, cols = x.shape
    spec = pl.BlockSpec((block_rows, cols), lambda i: (i, 0))
    return pl.pallas_call(
        _softmax_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(rows // block_rows,),
        in_specs=[spec],
        out_specs=spec,
        compiler_params=plt.CompilerParams(num_warps=num_warps, num_stages=num_stages),
    )(x)


softmax = functools.partial(fused_softmax, **KERNEL_META["softmax"])


def attention_probs(q, k):
    scores = q @ k.T / jnp.sqrt(q.shape[-1]).astype(q.dtype)
    return softmax(scores)


def export_model(platforms=SERVING_PLATFORMS):
    q = jax.ShapeDtypeStruct((128, 64), jnp.float32)
    k = jax.ShapeDtypeStruct((128, 64), jnp.float32)
    return jax.export.export(jax.jit(attention_probs), platforms=platforms)(q, k)


if __name__ == "__main__":
    exported = export_model()
    print(exported.platforms, exported.out_avals)

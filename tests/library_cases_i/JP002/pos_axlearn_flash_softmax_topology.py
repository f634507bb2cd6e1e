"""Attention layer whose flash implementation comes from a backend-keyed factory; compiled
ahead of time for a TPU topology (axlearn flash_attention + aot_compilation layout)."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as pltriton

from _axlearn_aot import USER_FACING_NAME_TO_SYSTEM_CHARACTERISTICS, config_for_function


def _scaled_softmax_kernel(s_ref, o_ref, *, scale):
    s = s_ref[...] * scale
    s = s - jnp.max(s, axis=-1, keepdims=True)
    e = jnp.exp(s)
    o_ref[...] = e / jnp.sum(e, axis=-1, keepdims=True)


def _pallas_softmax(scores, *, scale, block_rows, compiler_params):
    rows, cols = scores.shape
    return pl.pallas_call(
        functools.partial(_scaled_softmax_kernel, scale=scale),
        grid=(rows // block_rows,),
        in_specs=[pl.BlockSpec((block_rows, cols), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((block_rows, cols), lambda i: (i, 0)),
        out_shape=jax.ShapeDtypeStruct(scores.shape, scores.dtype),
        compiler_params=compiler_params,
    )(scores)


def flash_softmax_implementation(backend, softmax_scale, block_size=8):
    if backend == "tpu":
        params = pltpu.CompilerParams(dimension_semantics=("parallel",))
    elif backend == "gpu":
        params = pltriton.CompilerParams(num_warps=4, num_stages=2)
    else:
        return lambda s: jax.nn.softmax(s * softmax_scale, axis=-1)
    return functools.partial(_pallas_softmax, scale=softmax_scale, block_rows=block_size, compiler_params=params)


class FlashAttention:
    def __init__(self, impl_cfg):
        self.softmax = impl_cfg.instantiate()

    def __call__(self, q, k, v):
        return self.softmax(q @ k.T) @ v


def attention_config(backend):
    return config_for_function(flash_softmax_implementation).set(backend=backend, softmax_scale=0.125)


def compile_for_topology(layer_cfg, topology, seq=64, dim=128):
    system = USER_FACING_NAME_TO_SYSTEM_CHARACTERISTICS[topology]
    layer = FlashAttention(layer_cfg)
    spec = jax.ShapeDtypeStruct((seq, dim), jnp.float32)
    traced = jax.jit(layer).trace(spec, spec, spec)
    return traced.lower(lowering_platforms=(system.platform,))


if __name__ == "__main__":
    base = attention_config("gpu")
    lowered = compile_for_topology(base.clone(block_size=16), "v5e-16")
    print(lowered.as_text()[:100])

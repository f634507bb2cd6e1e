import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

from _kernel_defaults import BLOCK_ROWS, GPU_PARAMS

_tiled_call = functools.partial(pl.pallas_call, compiler_params=GPU_PARAMS)


class HyperParameters:
    def __init__(self, raw):
        object.__setattr__(self, "_flat", dict(raw))

    def __getattr__(self, name):
        try:
            return object.__getattribute__(self, "_flat")[name]
        except KeyError as e:
            raise AttributeError(name) from e

    def __setattr__(self, name, value):
        raise ValueError("config is read-only")


def initialize(argv, **defaults):
    raw = dict(defaults)
    for arg in argv:
        key, _, value = arg.partition("=")
        raw[key] = value
    return HyperParameters(raw)


def _swiglu_kernel(g_ref, u_ref, o_ref):
    g = g_ref[...]
    o_ref[...] = g * jax.nn.sigmoid(g) * u_ref[...]


def swiglu(gate, up):
    spec = pl.BlockSpec((BLOCK_ROWS, gate.shape[1]), lambda i: (i, 0))
    return _tiled_call(
        _swiglu_kernel,
        grid=(gate.shape[0] // BLOCK_ROWS,),
        in_specs=[spec, spec],
        out_specs=spec,
        out_shape=jax.ShapeDtypeStruct(gate.shape, gate.dtype),
    )(gate, up)


if __name__ == "__main__":
    config = initialize(["hardware=tpu", "per_device_batch_size=4"], hardware="gpu", mlp_dim=512)
    shape = (int(config.per_device_batch_size) * 16, config.mlp_dim)
    spec = jax.ShapeDtypeStruct(shape, jnp.float32)
    traced = jax.jit(swiglu).trace(spec, spec)
    lowered = traced.lower(lowering_platforms=(config.hardware,))
    print(lowered.as_text()[:80])

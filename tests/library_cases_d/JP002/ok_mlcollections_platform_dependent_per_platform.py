"""Export a normalisation head once for every platform in the config.

The head picks its implementation with ``lax.platform_dependent``: the Mosaic
TPU kernel for ``tpu`` and a plain ``jnp`` reference everywhere else. Config
values come from an ml_collections-style ``get_config()``.
"""
import functools

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

from _ml_config import get_config


def _rms_norm_kernel(x_ref, o_ref):
    x = x_ref[...]
    o_ref[...] = x * lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6)


def rms_norm_reference(x):
    return x * lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6)


def rms_norm_tpu(x, *, block_rows, vmem_limit_mib):
    spec = pl.BlockSpec((block_rows, x.shape[1]), lambda i: (i, 0))
    return pl.pallas_call(
        _rms_norm_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(x.shape[0] // block_rows,),
        in_specs=[spec],
        out_specs=spec,
        compiler_params=pltpu.CompilerParams(
            dimension_semantics=("parallel",), vmem_limit_bytes=vmem_limit_mib << 20
        ),
    )(x)


def make_head(config):
    kernel = functools.partial(
        rms_norm_tpu,
        block_rows=config.model.block_rows,
        vmem_limit_mib=config.kernel.vmem_limit_mib,
    )

    def head(x, w):
        if config.kernel.use_pallas:
            x = lax.platform_dependent(x, tpu=kernel, default=rms_norm_reference)
        else:
            x = rms_norm_reference(x)
        return x @ w

    return head


def export_head(config):
    head = make_head(config)
    x = jax.ShapeDtypeStruct((64, config.model.width), jnp.float32)
    w = jax.ShapeDtypeStruct((config.model.width, 32), jnp.float32)
    artifacts = {}
    for platform in config.export.platforms:
        exported = jax.export.export(jax.jit(head), platforms=(platform,))(x, w)
        artifacts[f"{config.export.name}_{platform}"] = exported
    return artifacts


if __name__ == "__main__":
    artifacts = export_head(get_config())
    print({k: v.platforms for k, v in artifacts.items()})

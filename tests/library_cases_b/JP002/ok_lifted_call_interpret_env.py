import os

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as pltriton

INTERPRET = os.environ.get("PALLAS_INTERPRET", "1") == "1"


def lifted_pallas_call(kernel, *, out_shape, grid, in_specs, out_specs, **kwargs):
    def wrapper(*args):
        scales = [a[1] for a in args if isinstance(a, tuple)]
        values = [a[0] if isinstance(a, tuple) else a for a in args]
        out = pl.pallas_call(kernel, out_shape=out_shape, grid=grid,
                             in_specs=in_specs, out_specs=out_specs, **kwargs)(*values)
        for s in scales:
            out = out * s
        return out

    return wrapper


def _add_kernel(a_ref, b_ref, o_ref):
    o_ref[...] = a_ref[...].astype(jnp.float32) + b_ref[...]


def quantized_residual(x_q, x_scale, residual):
    rows, cols = residual.shape
    spec = pl.BlockSpec((32, cols), lambda i: (i, 0))
    call = lifted_pallas_call(
        _add_kernel,
        out_shape=jax.ShapeDtypeStruct((rows, cols), jnp.float32),
        grid=(rows // 32,),
        in_specs=[spec, spec],
        out_specs=spec,
        compiler_params=pltriton.CompilerParams(num_warps=8),
        interpret=INTERPRET,
    )
    return call((x_q, x_scale), residual)


if __name__ == "__main__":
    target = os.environ.get("QUANT_EXPORT_TARGET", "tpu")
    specs = (jax.ShapeDtypeStruct((128, 256), jnp.int8),
             jax.ShapeDtypeStruct((), jnp.float32),
             jax.ShapeDtypeStruct((128, 256), jnp.float32))
    lowered = jax.jit(quantized_residual).trace(*specs).lower(lowering_platforms=(target,))
    print(lowered.as_text()[:100])

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

BLOCK_ROWS, BLOCK_COLS = 8, 128


def _dequant_kernel(w_ref, s_ref, o_ref):
    o_ref[...] = w_ref[...].astype(jnp.float32) * s_ref[...]


def make_dequantize(rows, cols, vmem_limit_bytes=32 * 1024 * 1024):
    spec = pl.BlockSpec((BLOCK_ROWS, BLOCK_COLS), lambda i, j: (i, j))
    call = functools.partial(pl.pallas_call,
        grid=(rows // BLOCK_ROWS, cols // BLOCK_COLS),
        in_specs=[spec, spec],
        out_specs=spec,
        compiler_params=pltpu.CompilerParams(
            dimension_semantics=("parallel", "parallel"),
            vmem_limit_bytes=vmem_limit_bytes,
        ),
    )

    def dequantize(w_q, scales):
        out_shape = jax.ShapeDtypeStruct((rows, cols), jnp.float32)
        return call(_dequant_kernel, out_shape=out_shape)(w_q, scales)

    return dequantize


def export_for(fn, specs, platforms):
    return jax.export.export(jax.jit(fn), platforms=platforms)(*specs)


if __name__ == "__main__":
    rows, cols = 64, 256
    fn = make_dequantize(rows, cols)
    specs = (jax.ShapeDtypeStruct((rows, cols), jnp.int8),
             jax.ShapeDtypeStruct((rows, cols), jnp.float32))
    for accelerator in ("cuda",):
        exported = export_for(fn, specs, platforms=[accelerator])
        print(accelerator, exported.platforms)

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

FLEET = [
    {"name": "v5e-pod", "platform": "tpu", "enabled": True},
    {"name": "h100-pool", "platform": "cuda", "enabled": True},
    {"name": "mi300-pool", "platform": "rocm", "enabled": False},
]


def _softcap_kernel(x_ref, o_ref, *, cap):
    o_ref[...] = cap * jnp.tanh(x_ref[...] / cap)


def softcap_tpu(x, cap=30.0):
    def kernel(x_ref, o_ref):
        _softcap_kernel(x_ref, o_ref, cap=cap)

    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params=pltpu.CompilerParams(allow_input_fusion=(True,)),
    )(x)


def softcap_reference(x, cap=30.0):
    return cap * jnp.tanh(x / cap)


def logits_head(h, w):
    logits = h @ w
    return jax.lax.platform_dependent(logits, tpu=softcap_tpu, default=softcap_reference)


def export_for_fleet(fn, *specs):
    platforms = tuple(pool["platform"] for pool in FLEET if pool["enabled"])
    return jax.export.export(jax.jit(fn), platforms=platforms)(*specs)


if __name__ == "__main__":
    h = jax.ShapeDtypeStruct((8, 64), jnp.float32)
    w = jax.ShapeDtypeStruct((64, 256), jnp.float32)
    exported = export_for_fleet(logits_head, h, w)
    print(exported.platforms)

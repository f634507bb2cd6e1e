import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as pltriton


def _rms_norm_kernel(x_ref, w_ref, o_ref, *, eps):
    x = x_ref[...].astype(jnp.float32)
    inv = jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + eps)
    o_ref[...] = (x * inv * w_ref[...]).astype(o_ref.dtype)


class RmsNormOp:
    compiler_params = None

    def __init__(self, eps=1e-6):
        self.eps = eps

    def __call__(self, x, w):
        kernel = functools.partial(_rms_norm_kernel, eps=self.eps)
        return pl.pallas_call(
            kernel,
            out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
            compiler_params=self.compiler_params,
        )(x, w)


class MosaicTpuRmsNorm(RmsNormOp):
    compiler_params = pltpu.CompilerParams(vmem_limit_bytes=32 * 1024 * 1024)


class TritonRmsNorm(RmsNormOp):
    compiler_params = pltriton.CompilerParams(num_warps=4, num_stages=1)


class XlaRmsNorm(RmsNormOp):
    def __call__(self, x, w):
        return x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + self.eps) * w


IMPLEMENTATIONS = {"mosaic": MosaicTpuRmsNorm, "triton": TritonRmsNorm, "xla": XlaRmsNorm}


class NormConfig:
    implementation = "triton"
    eps = 1e-5
    platforms = ("tpu",)


def rms_norm(x, w, *, config=NormConfig):
    impl = IMPLEMENTATIONS[getattr(config, "implementation")]
    return impl(eps=getattr(config, "eps"))(x, w)


if __name__ == "__main__":
    x = jax.ShapeDtypeStruct((16, 256), jnp.bfloat16)
    w = jax.ShapeDtypeStruct((1, 256), jnp.bfloat16)
    exported = jax.export.export(jax.jit(rms_norm), platforms=NormConfig.platforms)(x, w)
    print(exported.platforms)

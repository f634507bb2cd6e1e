import dataclasses

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as pltriton


def _rms_kernel(x_ref, w_ref, o_ref):
    x = x_ref[...]
    inv = jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6)
    o_ref[...] = x * inv * w_ref[...]


def rms_norm_fused(x, w):
    rows, cols = x.shape
    return pl.pallas_call(
        _rms_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(rows // 16,),
        in_specs=[pl.BlockSpec((16, cols), lambda i: (i, 0)), pl.BlockSpec((1, cols), lambda i: (0, 0))],
        out_specs=pl.BlockSpec((16, cols), lambda i: (i, 0)),
        compiler_params=pltriton.CompilerParams(num_warps=4, num_stages=1),
    )(x, w)


def rms_norm_xla(x, w):
    return x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6) * w


NORM_IMPLS = {"fused": rms_norm_fused, "xla": rms_norm_xla}


@dataclasses.dataclass(frozen=True)
class EngineConfig:
    target: str = "tpu"
    norm_impl: str = "fused"
    hidden: int = 512


class Engine:
    def __init__(self, config):
        self.config = config
        self._norm = NORM_IMPLS[config.norm_impl]

    def block(self, x, w, proj):
        return self._norm(x, w) @ proj

    def lower(self, batch):
        h = self.config.hidden
        specs = (jax.ShapeDtypeStruct((batch, h), jnp.float32),
                 jax.ShapeDtypeStruct((1, h), jnp.float32),
                 jax.ShapeDtypeStruct((h, h), jnp.float32))
        return jax.jit(self.block).trace(*specs).lower(lowering_platforms=(self.config.target,))


if __name__ == "__main__":
    print(Engine(EngineConfig()).lower(batch=64).as_text()[:100])

"""RMS normalization with an implementation registry (Pallas-Triton first, XLA fallback), exported for serving."""

import dataclasses
from typing import ClassVar

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as pltriton

SERVING_PLATFORMS = ("tpu",)


@dataclasses.dataclass(frozen=True, kw_only=True)
class Config:
  block_m: int = 16
  num_warps: int = 4
  num_stages: int = 2


@dataclasses.dataclass(frozen=True)
class Normalization:
  """Reference implementation."""

  epsilon: float = 1e-6

  def __call__(self, x, scale):
    var = jnp.mean(x * x, axis=-1, keepdims=True)
    return x * jax.lax.rsqrt(var + self.epsilon) * scale


@dataclasses.dataclass(frozen=True)
class PallasTritonNormalization(Normalization):
  config_cls: ClassVar[type] = Config
  config: Config = Config()

  def __call__(self, x, scale):
    cfg, eps = self.config, self.epsilon

    def kernel(x_ref, s_ref, o_ref):
      v = x_ref[...]
      o_ref[...] = v * jax.lax.rsqrt(jnp.mean(v * v, axis=-1, keepdims=True) + eps) * s_ref[...]

    spec = pl.BlockSpec((cfg.block_m, x.shape[1]), lambda i: (i, 0))
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(x.shape[0] // cfg.block_m,),
        in_specs=[spec, pl.BlockSpec((1, x.shape[1]), lambda i: (0, 0))],
        out_specs=spec,
        compiler_params=pltriton.CompilerParams(num_warps=cfg.num_warps, num_stages=cfg.num_stages),
    )(x, scale[None, :])


IMPLEMENTATIONS = {"xla": Normalization(), "triton": PallasTritonNormalization()}
_DEFAULT_IMPLEMENTATIONS = ("triton", "xla")


def rms_norm(x, scale, *, implementation=None):
  if implementation is None:
    implementation = _DEFAULT_IMPLEMENTATIONS
  elif isinstance(implementation, str):
    implementation = (implementation,)
  return IMPLEMENTATIONS[implementation[0]](x, scale)


if __name__ == "__main__":
  x = jax.ShapeDtypeStruct((128, 256), jnp.float32)
  scale = jax.ShapeDtypeStruct((256,), jnp.float32)
  exported = jax.export.export(jax.jit(rms_norm), platforms=SERVING_PLATFORMS)(x, scale)
  print(exported.platforms)

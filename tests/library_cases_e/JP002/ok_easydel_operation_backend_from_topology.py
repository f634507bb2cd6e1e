"""RMSNorm as a registered operation with per-backend implementations.

Operations subclass `BaseOperation` and are created by name from an
`OperationRegistry`; `__call__` dispatches on the backend recorded in the
operation's metadata, which is filled from the model config. For serving,
the model is rebuilt with the config's backend set to the platform of the TPU
slice it is compiled for.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import logging
import typing as tp
from abc import ABC, abstractmethod

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as pltriton

logger = logging.getLogger("operations")


class EasyBackends(str, enum.Enum):
  CPU = "cpu"
  GPU = "gpu"
  TPU = "tpu"


@dataclasses.dataclass
class OperationMetadata:
  runtime_dtype: jnp.dtype = jnp.float32
  backend: EasyBackends = EasyBackends.GPU
  eps: float = 1e-6

  @classmethod
  def from_config(cls, config: "ModelConfig") -> "OperationMetadata":
    return cls(runtime_dtype=config.dtype, backend=EasyBackends(config.backend), eps=config.rms_norm_eps)


class BaseOperation(ABC):
  metadata: OperationMetadata

  def __init__(self, metadata: OperationMetadata):
    self.metadata = metadata

  @classmethod
  @abstractmethod
  def get_impl_name(cls) -> str | tuple[str, ...]:
    ...

  @abstractmethod
  def forward_native(self, *args, **kwargs):
    ...

  def forward_tpu(self, *args, **kwargs):
    return self.forward_native(*args, **kwargs)

  def forward_gpu(self, *args, **kwargs):
    return self.forward_native(*args, **kwargs)

  def __call__(self, *args, **kwargs):
    match self.metadata.backend:
      case EasyBackends.TPU:
        return self.forward_tpu(*args, **kwargs)
      case EasyBackends.GPU:
        return self.forward_gpu(*args, **kwargs)
      case EasyBackends.CPU:
        return self.forward_native(*args, **kwargs)
      case _:
        raise RuntimeError(f"unknown backend {self.metadata.backend}")


class OperationRegistry:
  _registry: tp.ClassVar[dict[str, type[BaseOperation]]] = {}

  @classmethod
  def register(cls, impl_cls):
    names = impl_cls.get_impl_name()
    for name in (names if isinstance(names, tuple) else (names,)):
      if name in cls._registry:
        logger.warning("operation %s already registered, overwriting", name)
      cls._registry[name] = impl_cls
    return impl_cls

  @classmethod
  def create(cls, impl_name: str, metadata: OperationMetadata) -> BaseOperation:
    if impl_name not in cls._registry:
      raise ValueError(f"{impl_name!r} not found; available: {list(cls._registry)}")
    return cls._registry[impl_name](metadata)


def _rms_norm_kernel(x_ref, w_ref, o_ref, *, eps):
  x = x_ref[...].astype(jnp.float32)
  var = jnp.mean(x * x, axis=-1, keepdims=True)
  o_ref[...] = (x * jax.lax.rsqrt(var + eps) * w_ref[...]).astype(o_ref.dtype)


def _rms_norm_pallas(x, weight, *, eps, block_rows, compiler_params):
  rows, hidden = x.shape
  return pl.pallas_call(
      functools.partial(_rms_norm_kernel, eps=eps),
      out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
      grid=(rows // block_rows,),
      in_specs=[pl.BlockSpec((block_rows, hidden), lambda i: (i, 0)),
                pl.BlockSpec((1, hidden), lambda i: (0, 0))],
      out_specs=pl.BlockSpec((block_rows, hidden), lambda i: (i, 0)),
      compiler_params=compiler_params,
  )(x, weight.reshape(1, hidden))


@OperationRegistry.register
class RMSNormOperation(BaseOperation):

  @classmethod
  def get_impl_name(cls):
    return ("rms_norm", "rmsnorm")

  def forward_native(self, x, weight):
    var = jnp.mean(jnp.square(x.astype(jnp.float32)), axis=-1, keepdims=True)
    return (x * jax.lax.rsqrt(var + self.metadata.eps) * weight).astype(x.dtype)

  def forward_tpu(self, x, weight):
    params = pltpu.CompilerParams(dimension_semantics=("parallel",))
    return _rms_norm_pallas(x, weight, eps=self.metadata.eps, block_rows=8, compiler_params=params)

  def forward_gpu(self, x, weight):
    params = pltriton.CompilerParams(num_warps=4, num_stages=1)
    return _rms_norm_pallas(x, weight, eps=self.metadata.eps, block_rows=16, compiler_params=params)


@dataclasses.dataclass
class ModelConfig:
  hidden_size: int = 256
  num_layers: int = 2
  dtype: tp.Any = jnp.float32
  rms_norm_eps: float = 1e-6
  backend: str = "gpu"
  attn_mechanism: str = "vanilla"


class TinyResidualModel:

  def __init__(self, config: ModelConfig):
    self.config = config
    self.norm = OperationRegistry.create("rms_norm", OperationMetadata.from_config(config))

  def init(self, key):
    keys = jax.random.split(key, self.config.num_layers)
    h = self.config.hidden_size
    return [{"w": jax.random.normal(k, (h, h)) / jnp.sqrt(h), "scale": jnp.ones((h,))} for k in keys]

  def __call__(self, params, x):
    for layer in params:
      x = x + jax.nn.gelu(self.norm(x, layer["scale"]) @ layer["w"])
    return x


def compile_for_serving(config: ModelConfig, batch_tokens: int, topology_platform: str = "tpu"):
  model = TinyResidualModel(dataclasses.replace(config, backend=topology_platform))
  params = jax.eval_shape(model.init, jax.random.key(0))
  x = jax.ShapeDtypeStruct((batch_tokens, model.config.hidden_size), model.config.dtype)
  traced = jax.jit(model.__call__).trace(params, x)
  return traced.lower(lowering_platforms=(topology_platform,))


if __name__ == "__main__":
  lowered = compile_for_serving(ModelConfig(), batch_tokens=64)
  print(lowered.as_text()[:120])

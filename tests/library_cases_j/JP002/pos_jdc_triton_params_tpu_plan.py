"""Plans the RMS-norm step of a model for a TPU slice before the slice exists: a TPU abstract
device on the planning mesh makes `.lower()` pick the platform. Kernel options travel in a
jax_dataclasses-style pytree config whose static fields hold the launch parameters."""
import dataclasses
from typing import Annotated, Any

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as pltriton
from jax.sharding import AbstractDevice, AbstractMesh

STATIC = "__static__"


def pytree_dataclass(cls):
  cls = dataclasses.dataclass(frozen=True)(cls)
  hints = cls.__annotations__
  meta = [n for n, h in hints.items() if STATIC in getattr(h, "__metadata__", ())]
  data = [n for n in hints if n not in meta]
  return jax.tree_util.register_dataclass(cls, data_fields=data, meta_fields=meta)


@pytree_dataclass
class NormConfig:
  eps: jax.Array
  launch: Annotated[Any, STATIC] = pltriton.CompilerParams(num_warps=4, num_stages=1)


def _rms_kernel(x_ref, eps_ref, o_ref):
  x = x_ref[...]
  o_ref[...] = x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + eps_ref[...])


def rms_norm(x, cfg: NormConfig):
  eps = jnp.broadcast_to(cfg.eps, x.shape)
  return pl.pallas_call(
      _rms_kernel,
      out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
      compiler_params=cfg.launch,
  )(x, eps)


PLANNING_MESH = AbstractMesh((1,), ("data",),
                             abstract_device=AbstractDevice(device_kind="TPU v5 lite", num_cores=1, platform="tpu"))

if __name__ == "__main__":
  cfg = NormConfig(eps=jnp.float32(1e-6))
  with jax.sharding.use_abstract_mesh(PLANNING_MESH):
    traced = jax.jit(rms_norm).trace(jax.ShapeDtypeStruct((8, 128), jnp.float32), cfg)
    lowered = traced.lower()
  print("planned")

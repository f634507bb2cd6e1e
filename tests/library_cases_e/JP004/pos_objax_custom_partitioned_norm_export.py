"""An object-style transformer block whose RMSNorm is a custom-partitioned op.

Modules own `TrainVar`s and expose `vars()`; the norm is written with
`custom_partitioning` so that under data parallelism each shard normalises
its own rows without gathering the batch. The block is exported for a
data-parallel serving slice described only by its shape.
"""

from __future__ import annotations

from typing import Dict, List

import jax
import jax.numpy as jnp
from jax.experimental.custom_partitioning import custom_partitioning
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P


class TrainVar:

  def __init__(self, value):
    self.value = value


class VarCollection(Dict[str, TrainVar]):

  def tensors(self) -> List[jax.Array]:
    return [v.value for v in self.values()]

  def shardings(self, mesh) -> List[NamedSharding]:
    return [NamedSharding(mesh, P()) for _ in self.values()]


class Module:

  def vars(self, scope: str = "") -> VarCollection:
    vc = VarCollection()
    scope += type(self).__name__ + "."
    for name, value in self.__dict__.items():
      if isinstance(value, TrainVar):
        vc[scope + name] = value
      elif isinstance(value, Module):
        vc.update(value.vars(scope=scope + name + "."))
    return vc


# --------------------------------------------------------------------------
# custom-partitioned RMSNorm
# --------------------------------------------------------------------------


def _rms_norm_impl(x, scale):
  var = jnp.mean(jnp.square(x), axis=-1, keepdims=True)
  return x * jax.lax.rsqrt(var + 1e-6) * scale


@custom_partitioning
def rms_norm(x, scale):
  return _rms_norm_impl(x, scale)


def _row_sharding(mesh, sharding):
  spec = sharding.spec if isinstance(sharding, NamedSharding) else P()
  return NamedSharding(mesh, P(spec[0] if len(spec) else None, None))


def _infer_sharding(mesh, arg_shapes, result_shape):
  del result_shape
  return _row_sharding(mesh, arg_shapes[0].sharding)


def _partition(mesh, arg_shapes, result_shape):
  del result_shape
  x_sharding = _row_sharding(mesh, arg_shapes[0].sharding)
  return mesh, _rms_norm_impl, x_sharding, (x_sharding, NamedSharding(mesh, P(None)))


rms_norm.def_partition(infer_sharding_from_operands=_infer_sharding, partition=_partition,
                       sharding_rule="b d, d -> b d")


# --------------------------------------------------------------------------
# modules
# --------------------------------------------------------------------------


class RMSNorm(Module):

  def __init__(self, dim: int):
    self.scale = TrainVar(jnp.ones((dim,)))

  def __call__(self, x):
    return rms_norm(x, self.scale.value)


class Linear(Module):

  def __init__(self, nin: int, nout: int, seed: int):
    self.w = TrainVar(jax.random.normal(jax.random.key(seed), (nin, nout)) / jnp.sqrt(nin))

  def __call__(self, x):
    return x @ self.w.value


class MlpBlock(Module):

  def __init__(self, dim: int, hidden: int):
    self.norm = RMSNorm(dim)
    self.up = Linear(dim, hidden, seed=1)
    self.down = Linear(hidden, dim, seed=2)

  def __call__(self, x):
    return x + self.down(jax.nn.gelu(self.up(self.norm(x))))


def functional(module: Module):
  """Turns a module into f(tensors, *args), swapping its variables in and out."""
  vc = module.vars()

  def f(tensors, *args):
    saved = vc.tensors()
    try:
      for var, t in zip(vc.values(), tensors):
        var.value = t
      return module(*args)
    finally:
      for var, t in zip(vc.values(), saved):
        var.value = t

  return f, vc


def export_block(module: Module, batch: int, dim: int, data_parallel: int = 8):
  mesh = AbstractMesh((data_parallel,), ("data",), axis_types=(AxisType.Explicit,))
  f, vc = functional(module)
  tensors = [jax.ShapeDtypeStruct(t.shape, t.dtype) for t in vc.tensors()]
  x = jax.ShapeDtypeStruct((batch, dim), jnp.float32)
  jitted = jax.jit(f, in_shardings=(vc.shardings(mesh), NamedSharding(mesh, P("data"))),
                   out_shardings=NamedSharding(mesh, P("data")))
  return jax.export.export(jitted)(tensors, x)


if __name__ == "__main__":
  block = MlpBlock(dim=128, hidden=512)
  f, vc = functional(block)
  print("local", jax.jit(f)(vc.tensors(), jnp.ones((4, 128))).shape)
  exported = export_block(block, batch=64, dim=128)
  print(exported.platforms)

"""An object-oriented MLP whose dense layers are Pallas kernels.

Modules hold their parameters in `TrainVar`s collected by `vars()`; `Jit`
compiles a module by threading its variable collection through a jitted
function. The dense layer's kernel parameters come from an overridable
method, with a subclass per accelerator family. The serving binary is
compiled for the platform named in the environment (GPU by default).
"""

from __future__ import annotations

import os
from typing import Callable, Dict, List, Optional, Tuple

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as pltriton


# --------------------------------------------------------------------------
# variables / modules
# --------------------------------------------------------------------------


class TrainVar:

  def __init__(self, tensor: jax.Array):
    self._value = tensor

  @property
  def value(self) -> jax.Array:
    return self._value

  def assign(self, tensor: jax.Array):
    self._value = tensor


class VarCollection(Dict[str, TrainVar]):

  def tensors(self) -> List[jax.Array]:
    return [v.value for v in self.values()]

  def assign(self, tensors: List[jax.Array]):
    for var, t in zip(self.values(), tensors):
      var.assign(t)


class Module:

  def vars(self, scope: str = "") -> VarCollection:
    vc = VarCollection()
    scope += type(self).__name__ + "."
    for name, value in self.__dict__.items():
      if isinstance(value, TrainVar):
        vc[scope + name] = value
      elif isinstance(value, Module):
        vc.update(value.vars(scope=scope + name + "."))
      elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
          if isinstance(item, Module):
            vc.update(item.vars(scope=f"{scope}{name}[{i}]."))
    return vc

  def __call__(self, *args, **kwargs):
    raise NotImplementedError


class Jit(Module):

  def __init__(self, f: Module, vc: Optional[VarCollection] = None,
               static_argnums: Optional[Tuple[int, ...]] = None):
    self.vc = f.vars() if vc is None else vc

    def jit(tensor_list, kwargs, *args):
      original = self.vc.tensors()
      try:
        self.vc.assign(tensor_list)
        return f(*args, **kwargs)
      finally:
        self.vc.assign(original)

    self._call = jax.jit(jit, static_argnums=tuple(x + 2 for x in sorted(static_argnums or ())))
    self.__wrapped__ = f

  def __call__(self, *args, **kwargs):
    return self._call(self.vc.tensors(), kwargs, *args)

  def lower(self, *args, platforms: Tuple[str, ...]):
    return self._call.trace(self.vc.tensors(), {}, *args).lower(lowering_platforms=platforms)


# --------------------------------------------------------------------------
# layers
# --------------------------------------------------------------------------


def _dense_kernel(x_ref, w_ref, b_ref, o_ref, *, activation):
  y = jnp.dot(x_ref[...], w_ref[...], preferred_element_type=jnp.float32) + b_ref[...]
  o_ref[...] = activation(y).astype(o_ref.dtype)


class PallasDense(Module):
  """Dense layer as one Pallas kernel; tuned for the Mosaic (TPU) compiler."""

  block_rows = 8

  def __init__(self, nin: int, nout: int, activation: Callable = lambda y: y, *, seed: int = 0):
    key = jax.random.key(seed)
    self.w = TrainVar(jax.random.normal(key, (nin, nout)) / jnp.sqrt(nin))
    self.b = TrainVar(jnp.zeros((1, nout)))
    self.activation = activation

  def compiler_params(self):
    return pltpu.CompilerParams(dimension_semantics=("parallel",))

  def __call__(self, x):
    rows, nin = x.shape
    nout = self.w.value.shape[1]
    kernel = lambda *refs: _dense_kernel(*refs, activation=self.activation)
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct((rows, nout), x.dtype),
        grid=(rows // self.block_rows,),
        in_specs=[pl.BlockSpec((self.block_rows, nin), lambda i: (i, 0)),
                  pl.BlockSpec((nin, nout), lambda i: (0, 0)),
                  pl.BlockSpec((1, nout), lambda i: (0, 0))],
        out_specs=pl.BlockSpec((self.block_rows, nout), lambda i: (i, 0)),
        compiler_params=self.compiler_params(),
    )(x, self.w.value, self.b.value)


class TritonDense(PallasDense):
  """Same layer, launched through Triton on NVIDIA/AMD GPUs."""

  block_rows = 16

  def compiler_params(self):
    return pltriton.CompilerParams(num_warps=4, num_stages=2)


class MLP(Module):

  def __init__(self, sizes: List[int], dense_cls: type[PallasDense] = PallasDense):
    self.layers = [dense_cls(a, b, activation=jax.nn.relu if i < len(sizes) - 2 else (lambda y: y), seed=i)
                   for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:]))]

  def __call__(self, x):
    for layer in self.layers:
      x = layer(x)
    return x


SERVE_PLATFORM = os.environ.get("SERVE_PLATFORM", "cuda")


def build_serving_binary(model: Module, batch: int, width: int):
  jitted = Jit(model)
  spec = jax.ShapeDtypeStruct((batch, width), jnp.float32)
  return jitted.lower(spec, platforms=(SERVE_PLATFORM,))


if __name__ == "__main__":
  model = MLP([128, 256, 128])
  print("variables:", list(model.vars()))
  build_serving_binary(model, batch=64, width=128)

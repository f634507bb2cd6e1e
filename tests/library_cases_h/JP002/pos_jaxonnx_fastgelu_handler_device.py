"""An ONNX-to-JAX runtime with a Pallas kernel behind one op handler.

Handlers are classes registered per ONNX op type; each has `version_N`
classmethods and the runtime picks the newest one not newer than the model's
opset.  A global config object (options defined with defaults, updated by the
user) says which Pallas kernel family the fused ops use.  The backend takes the
ONNX device string ("CPU", "CUDA", "TPU") and lowers the model for it.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


class Config:

  def __init__(self):
    self.values: dict[str, Any] = {}

  def define_string_state(self, name: str, default: str) -> None:
    self.values[name] = default

  def update(self, name: str, val: Any) -> None:
    if name not in self.values:
      raise AttributeError(f"Unrecognized config option: {name}")
    self.values[name] = val

  def __getattr__(self, name):
    try:
      return self.__dict__["values"][name]
    except KeyError as e:
      raise AttributeError(name) from e


config = Config()
config.define_string_state("jaxort_pallas_family", "none")
config.define_string_state("jaxort_block_rows", "8")


_HANDLERS: dict[str, type] = {}


def register_op(op_type: str):
  def deco(cls):
    _HANDLERS[op_type] = cls
    return cls
  return deco


class Handler:

  @classmethod
  def get_since_version(cls, version: int) -> int:
    versions = [int(n.split("_")[1]) for n in dir(cls) if n.startswith("version_")]
    return max(v for v in versions if v <= version)

  @classmethod
  def handle(cls, inputs: Sequence[jax.Array], opset: int) -> jax.Array:
    impl = getattr(cls, f"version_{cls.get_since_version(opset)}")
    return impl(inputs)


def _gelu_kernel(x_ref, o_ref):
  x = x_ref[...]
  o_ref[...] = 0.5 * x * (1.0 + jnp.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))


def _mosaic_gelu(x: jax.Array, rows: int) -> jax.Array:
  spec = pl.BlockSpec((rows, x.shape[1]), lambda i: (i, 0))
  return pl.pallas_call(
      _gelu_kernel,
      out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
      grid=(x.shape[0] // rows,),
      in_specs=[spec],
      out_specs=spec,
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
  )(x)


@register_op("FastGelu")
class FastGelu(Handler):

  @classmethod
  def version_1(cls, inputs):
    (x,) = inputs
    if config.jaxort_pallas_family == "mosaic":
      return _mosaic_gelu(x, int(config.jaxort_block_rows))
    return jax.nn.gelu(x, approximate=True)


@register_op("MatMul")
class MatMul(Handler):

  @classmethod
  def version_1(cls, inputs):
    a, b = inputs
    return a @ b


def call_onnx_graph(nodes: Sequence[tuple[str, tuple[str, ...], str]], opset: int) -> Callable:
  def model_func(weights: dict[str, jax.Array], x: jax.Array):
    env = dict(weights, input=x)
    for op_type, ins, out in nodes:
      env[out] = _HANDLERS[op_type].handle([env[i] for i in ins], opset)
    return env[nodes[-1][2]]
  return model_func


class Backend:

  @classmethod
  def prepare(cls, nodes, weights, x_spec, device: str = "CPU", opset: int = 13):
    fn = jax.jit(call_onnx_graph(nodes, opset))
    platform = device.lower()
    return fn.trace(weights, x_spec).lower(lowering_platforms=(platform,))


GRAPH = (
    ("MatMul", ("input", "w0"), "h0"),
    ("FastGelu", ("h0",), "h1"),
    ("MatMul", ("h1", "w1"), "output"),
)


if __name__ == "__main__":
  config.update("jaxort_pallas_family", "mosaic")
  weights = {"w0": jnp.zeros((128, 256)), "w1": jnp.zeros((256, 128))}
  x_spec = jax.ShapeDtypeStruct((64, 128), jnp.float32)
  rep = Backend.prepare(GRAPH, weights, x_spec, device="CUDA")
  print(rep.as_text()[:100])

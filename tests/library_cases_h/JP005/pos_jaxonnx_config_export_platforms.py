"""Exporting an ONNX graph converted to JAX as a serialized artifact.

The runtime keeps its options in a config object after jaxonnxruntime's
`config_class`: options are defined with a default and a type, may be updated
by the user, and run an update hook when they change.  One string option names
the platforms the exported model must run on.  Each ONNX node is executed by a
handler picked from a registry by op type.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

import jax
import jax.numpy as jnp


class Config:

  def __init__(self):
    self.values: dict[str, Any] = {}
    self.meta: dict[str, tuple[type, str]] = {}
    self._update_hooks: dict[str, Callable[[Any], None]] = {}

  def add_option(self, name, default, opt_type, help_str, update_hook: Optional[Callable] = None):
    if name in self.values:
      raise Exception(f"Config option {name} already defined")
    self.values[name] = default
    self.meta[name] = (opt_type, help_str)
    if update_hook:
      self._update_hooks[name] = update_hook
      update_hook(default)

  def define_string_state(self, name, default, help_str="", update_hook=None):
    self.add_option(name, default, str, help_str, update_hook)

  def define_bool_state(self, name, default, help_str="", update_hook=None):
    self.add_option(name, default, bool, help_str, update_hook)

  def update(self, name, val):
    if name not in self.values:
      raise Exception(f"Unrecognized config option: {name}")
    opt_type, _ = self.meta[name]
    if not isinstance(val, opt_type):
      raise TypeError(f"{name} expects {opt_type.__name__}, got {val!r}")
    self.values[name] = val
    hook = self._update_hooks.get(name)
    if hook:
      hook(val)

  def read(self, name):
    return self.values[name]


config = Config()
config.define_bool_state("jaxort_only_allow_initializers_as_static_args", True)
config.define_string_state(
    "jaxort_export_platforms", "cpu",
    help_str="Platforms the exported model is lowered for, e.g. 'cpu' or 'tpu'.")


_HANDLERS: dict[str, Callable] = {}


def register_op(op_type: str):
  def deco(fn):
    _HANDLERS[op_type] = fn
    return fn
  return deco


@register_op("Gemm")
def gemm(a, b, c, alpha=1.0, beta=1.0):
  return alpha * (a @ b) + beta * c


@register_op("Relu")
def relu(x):
  return jnp.maximum(x, 0)


@register_op("Softmax")
def softmax(x):
  return jax.nn.softmax(x, axis=-1)


Node = tuple[str, Sequence[str], str]


def call_onnx_graph(nodes: Sequence[Node]):
  def model_func(initializers: dict[str, jax.Array], x: jax.Array):
    env = dict(initializers, input=x)
    for op_type, inputs, output in nodes:
      env[output] = _HANDLERS[op_type](*[env[i] for i in inputs])
    return env[nodes[-1][2]]
  return model_func


def export_model(nodes, initializers, input_shape):
  fn = jax.jit(call_onnx_graph(nodes))
  platforms = config.read("jaxort_export_platforms")
  spec = jax.ShapeDtypeStruct(input_shape, jnp.float32)
  return jax.export.export(fn, platforms=platforms)(initializers, spec)


MLP = (
    ("Gemm", ("input", "w0", "b0"), "h0"),
    ("Relu", ("h0",), "h1"),
    ("Gemm", ("h1", "w1", "b1"), "logits"),
    ("Softmax", ("logits",), "probs"),
)


if __name__ == "__main__":
  config.update("jaxort_export_platforms", "tpu")
  inits = {
      "w0": jnp.zeros((16, 32)), "b0": jnp.zeros((32,)),
      "w1": jnp.zeros((32, 4)), "b1": jnp.zeros((4,)),
  }
  exp = export_model(MLP, inits, (8, 16))
  print(exp.platforms)

"""Vision MLP head whose matmul kernel is chosen by a registry lookup string.

Ops register under dotted names and configs refer to them with call strings
such as "kernels.tiled_matmul(block=128)", parsed with `ast` and bound with
`functools.partial`. The config also names the compile-only topology used to
check that the eval step fits before an evaluation job is launched.
"""

from __future__ import annotations

import ast
import functools
from typing import Any

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as pltriton


# --------------------------------------------------------------------------
# registry.py
# --------------------------------------------------------------------------


def parse_name(string_to_parse: str):
  expr = ast.parse(string_to_parse, mode="eval").body
  if isinstance(expr, (ast.Name, ast.Attribute)):
    return string_to_parse, (), {}
  if not isinstance(expr, ast.Call):
    raise ValueError(f"expected a name or a call, got {string_to_parse!r}")

  def dotted(node):
    if isinstance(node, ast.Attribute):
      return dotted(node.value) + "." + node.attr
    return node.id

  args = tuple(ast.literal_eval(a) for a in expr.args)
  kwargs = {kw.arg: ast.literal_eval(kw.value) for kw in expr.keywords}
  return dotted(expr.func), args, kwargs


class Registry:
  _GLOBAL_REGISTRY: dict[str, Any] = {}

  @staticmethod
  def register(name, replace=False):
    def _register(item):
      if name in Registry._GLOBAL_REGISTRY and not replace:
        raise KeyError(f"{name!r} already registered")
      Registry._GLOBAL_REGISTRY[name] = item
      return item
    return _register

  @staticmethod
  def lookup(lookup_string, kwargs_extra=None):
    name, args, kwargs = parse_name(lookup_string)
    if kwargs_extra:
      kwargs.update(kwargs_extra)
    return functools.partial(Registry._GLOBAL_REGISTRY[name], *args, **kwargs)


class ConfigDict(dict):
  def __getattr__(self, k):
    try:
      return self[k]
    except KeyError:
      raise AttributeError(k) from None

  def __setattr__(self, k, v):
    self[k] = v


# --------------------------------------------------------------------------
# kernels
# --------------------------------------------------------------------------


_BACKEND_PARAMS = {
    "mosaic": lambda: pltpu.CompilerParams(dimension_semantics=("parallel", "parallel", "arbitrary")),
    "triton": lambda: pltriton.CompilerParams(num_warps=8, num_stages=3),
}


def _matmul_kernel(a_ref, b_ref, o_ref):
  @pl.when(pl.program_id(2) == 0)
  def _init():
    o_ref[...] = jnp.zeros_like(o_ref)

  o_ref[...] += jnp.dot(a_ref[...], b_ref[...], preferred_element_type=jnp.float32)


@Registry.register("kernels.tiled_matmul")
def tiled_matmul(a, b, *, block=128, backend="mosaic"):
  m, k = a.shape
  _, n = b.shape
  return pl.pallas_call(
      _matmul_kernel,
      out_shape=jax.ShapeDtypeStruct((m, n), jnp.float32),
      grid=(m // block, n // block, k // block),
      in_specs=[pl.BlockSpec((block, block), lambda i, j, kk: (i, kk)),
                pl.BlockSpec((block, block), lambda i, j, kk: (kk, j))],
      out_specs=pl.BlockSpec((block, block), lambda i, j, kk: (i, j)),
      compiler_params=_BACKEND_PARAMS[backend](),
  )(a, b)


@Registry.register("kernels.xla_matmul")
def xla_matmul(a, b):
  return jnp.dot(a, b, preferred_element_type=jnp.float32)


# --------------------------------------------------------------------------
# model + config
# --------------------------------------------------------------------------


def get_config(arg=None):
  config = ConfigDict()
  config.batch_size = 256
  config.width = 256
  config.num_classes = 128
  config.model = ConfigDict(matmul="kernels.tiled_matmul(block=128, backend='mosaic')")
  config.topology = ConfigDict(platform="tpu", name="v5e-8")
  return config


def make_head(config):
  matmul = Registry.lookup(config.model.matmul)

  def init(key):
    k1, k2 = jax.random.split(key)
    return {"hidden": jax.random.normal(k1, (config.width, config.width)) * 0.02,
            "head": jax.random.normal(k2, (config.width, config.num_classes)) * 0.02}

  def apply(params, feats):
    return matmul(jax.nn.gelu(matmul(feats, params["hidden"])), params["head"])

  return init, apply


def main(config):
  init, apply = make_head(config)

  @jax.jit
  def eval_fn(params, feats, labels):
    logits = apply(params, feats)
    loss = -jnp.sum(jax.nn.log_softmax(logits) * labels, axis=-1)
    correct = jnp.argmax(logits, axis=-1) == jnp.argmax(labels, axis=-1)
    return {"loss": jnp.mean(loss), "prec@1": jnp.mean(correct)}

  params = jax.eval_shape(init, jax.random.key(0))
  feats = jax.ShapeDtypeStruct((config.batch_size, config.width), jnp.float32)
  labels = jax.ShapeDtypeStruct((config.batch_size, config.num_classes), jnp.float32)
  lowered = eval_fn.trace(params, feats, labels).lower(lowering_platforms=(config.topology.platform,))
  print("eval step fits", config.topology.name, len(lowered.as_text()))


if __name__ == "__main__":
  main(get_config())

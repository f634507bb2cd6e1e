"""A decode kernel described by a mutable config graph and built at launch.

The experiment is a tree of `Config` objects (callable + arguments) that is
built bottom-up by `build()`; fixtures return configs and launchers mutate
them before building. The serving exporter produces one artifact covering
every platform the serving fleet runs on.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
from typing import Any, Callable, Generic, Sequence, TypeVar

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

T = TypeVar("T")


# --------------------------------------------------------------------------
# a minimal config-graph library
# --------------------------------------------------------------------------


class Buildable(Generic[T]):

  def __init__(self, fn_or_cls: Callable[..., T], /, **arguments):
    object.__setattr__(self, "__fn_or_cls__", fn_or_cls)
    object.__setattr__(self, "__arguments__", dict(arguments))

  def __getattr__(self, name):
    if name.startswith("__"):
      raise AttributeError(name)
    try:
      return self.__arguments__[name]
    except KeyError:
      raise AttributeError(name) from None

  def __setattr__(self, name, value):
    self.__arguments__[name] = value

  def __repr__(self):
    args = ", ".join(f"{k}={v!r}" for k, v in self.__arguments__.items())
    return f"<{type(self).__name__}[{self.__fn_or_cls__.__name__}({args})]>"


class Config(Buildable[T]):
  """Builds to `fn_or_cls(**arguments)`."""


class Partial(Buildable[T]):
  """Builds to `functools.partial(fn_or_cls, **arguments)`."""


def build(value: Any, memo: dict | None = None) -> Any:
  memo = {} if memo is None else memo
  if id(value) in memo:
    return memo[id(value)]
  if isinstance(value, Buildable):
    kwargs = {k: build(v, memo) for k, v in value.__arguments__.items()}
    if isinstance(value, Partial):
      out = functools.partial(value.__fn_or_cls__, **kwargs)
    else:
      out = value.__fn_or_cls__(**kwargs)
  elif isinstance(value, (list, tuple)):
    out = type(value)(build(v, memo) for v in value)
  elif isinstance(value, dict):
    out = {k: build(v, memo) for k, v in value.items()}
  else:
    out = value
  memo[id(value)] = out
  return out


# --------------------------------------------------------------------------
# kernel and exporter
# --------------------------------------------------------------------------


def _decode_attention_kernel(q_ref, k_ref, v_ref, o_ref, *, scale):
  q = q_ref[...] * scale
  s = jnp.dot(q, k_ref[...].T, preferred_element_type=jnp.float32)
  p = jnp.exp(s - jnp.max(s, axis=-1, keepdims=True))
  p = p / jnp.sum(p, axis=-1, keepdims=True)
  o_ref[...] = jnp.dot(p, v_ref[...], preferred_element_type=jnp.float32).astype(o_ref.dtype)


@dataclasses.dataclass(frozen=True)
class DecodeAttention:
  head_dim: int = 128
  block_q: int = 8
  compiler_params: Any = None

  def __call__(self, q, k, v):
    num_q, head_dim = q.shape
    kv_len = k.shape[0]
    kernel = functools.partial(_decode_attention_kernel, scale=head_dim ** -0.5)
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct(q.shape, q.dtype),
        grid=(num_q // self.block_q,),
        in_specs=[pl.BlockSpec((self.block_q, head_dim), lambda i: (i, 0)),
                  pl.BlockSpec((kv_len, head_dim), lambda i: (0, 0)),
                  pl.BlockSpec((kv_len, head_dim), lambda i: (0, 0))],
        out_specs=pl.BlockSpec((self.block_q, head_dim), lambda i: (i, 0)),
        compiler_params=self.compiler_params,
    )(q, k, v)


@dataclasses.dataclass
class ServingExporter:
  kernel: DecodeAttention
  platforms: Sequence[str]
  num_queries: int = 32
  kv_len: int = 128

  def input_specs(self):
    q = jax.ShapeDtypeStruct((self.num_queries, self.kernel.head_dim), jnp.float32)
    kv = jax.ShapeDtypeStruct((self.kv_len, self.kernel.head_dim), jnp.float32)
    return q, kv, kv

  def export(self):
    return jax.export.export(jax.jit(self.kernel), platforms=self.platforms)(*self.input_specs())


# --------------------------------------------------------------------------
# fixtures (what a launcher would select by name)
# --------------------------------------------------------------------------


def decode_kernel_fixture() -> Config[DecodeAttention]:
  return Config(DecodeAttention, head_dim=128, block_q=8,
                compiler_params=Config(pltpu.CompilerParams, dimension_semantics=("parallel",)))


def serving_fixture() -> Config[ServingExporter]:
  return Config(ServingExporter, kernel=decode_kernel_fixture(), platforms=("tpu", "cuda"))


FIXTURES = {"serving": serving_fixture}


def main(fixture_name: str = "serving", overrides: dict | None = None):
  cfg = FIXTURES[fixture_name]()
  for path, value in (overrides or {}).items():
    target = cfg
    *parents, leaf = path.split(".")
    for p in parents:
      target = getattr(target, p)
    setattr(target, leaf, value)
  exporter = build(copy.deepcopy(cfg))
  exported = exporter.export()
  print("exported for", exported.platforms)


if __name__ == "__main__":
  main(overrides={"num_queries": 64})

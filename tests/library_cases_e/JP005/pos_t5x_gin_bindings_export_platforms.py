"""Export entry point whose arguments come from dependency-injection bindings.

Functions marked `@configurable` take their unspecified keyword arguments
from bindings such as `save.batch_size = 8`, parsed from a bindings file
(here a string with the binary's defaults) plus command-line overrides.
"""

from __future__ import annotations

import ast
import functools
import inspect
import logging
import sys
from typing import Any, Callable, Optional, Sequence

import jax
import jax.numpy as jnp

# --------------------------------------------------------------------------
# a minimal binding library
# --------------------------------------------------------------------------

_REGISTRY: dict[str, Callable] = {}
_BINDINGS: dict[tuple[str, str], Any] = {}


class REQUIRED:
  pass


def configurable(fn):
  name = fn.__name__
  _REGISTRY[name] = fn
  sig = inspect.signature(fn)

  @functools.wraps(fn)
  def wrapper(*args, **kwargs):
    bound = sig.bind_partial(*args, **kwargs)
    for param in sig.parameters:
      if param not in bound.arguments and (name, param) in _BINDINGS:
        kwargs[param] = _BINDINGS[(name, param)]
    missing = [p for p, spec in sig.parameters.items()
               if spec.default is REQUIRED and p not in bound.arguments and p not in kwargs]
    if missing:
      raise ValueError(f"{name}: required bindings missing: {missing}")
    return fn(*args, **kwargs)

  return wrapper


def parse_config(bindings: str | Sequence[str]) -> None:
  lines = bindings.splitlines() if isinstance(bindings, str) else list(bindings)
  for line in lines:
    line = line.split("#", 1)[0].strip()
    if not line:
      continue
    target, value = (s.strip() for s in line.split("=", 1))
    fn_name, param = target.rsplit(".", 1)
    if fn_name not in _REGISTRY:
      raise ValueError(f"no configurable named {fn_name!r}")
    _BINDINGS[(fn_name, param)] = ast.literal_eval(value)


def parse_flags(argv: Sequence[str]) -> list[str]:
  return [a[len("--gin.") :] for a in argv if a.startswith("--gin.")]


# --------------------------------------------------------------------------
# model + export
# --------------------------------------------------------------------------


def score_fn(params, tokens):
  emb = params["embedding"][tokens]
  return jnp.einsum("bld,d->bl", jnp.tanh(emb), params["head"]).sum(-1)


@configurable
def save(*, model_name: str = REQUIRED, batch_size: int = 1, seq_len: int = 16,
         vocab_size: int = 128, emb_dim: int = 32,
         native_lowering_platforms: Optional[Sequence[str]] = None):
  if not native_lowering_platforms:
    # Default keeps the exported model runnable on CPU as well as TPU.
    native_lowering_platforms = ["cpu", "tpu"]
  params = {"embedding": jax.ShapeDtypeStruct((vocab_size, emb_dim), jnp.float32),
            "head": jax.ShapeDtypeStruct((emb_dim,), jnp.float32)}
  tokens = jax.ShapeDtypeStruct((batch_size, seq_len), jnp.int32)
  exported = jax.export.export(jax.jit(score_fn), platforms=native_lowering_platforms)(params, tokens)
  logging.info("%s exported for %s", model_name, exported.platforms)
  return exported


DEFAULT_BINDINGS = """
save.model_name = 'toy-scorer'
save.batch_size = 8
save.seq_len = 32
# The serving fleet is TPU only.
save.native_lowering_platforms = ('tpu')
"""


def main(argv):
  parse_config(DEFAULT_BINDINGS)
  parse_config(parse_flags(argv[1:]))
  save()


if __name__ == "__main__":
  main(sys.argv)

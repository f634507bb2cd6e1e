"""Evaluator built from a declarative config with command-line overrides.

The config is a tree of plain dicts; a dict with a `__qualname__` key
stands for "call this class with the remaining keys" and is turned into
objects by `resolve`. Any field can be overridden from the command line
with `--cfg.path.to.field=<python literal>`; the launcher's default flags
are used when none are given.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import sys
from typing import Any, Optional, Sequence

import jax
import jax.numpy as jnp


# --------------------------------------------------------------------------
# konfig-like helpers
# --------------------------------------------------------------------------


def resolve(cfg: Any, namespace: dict) -> Any:
  if isinstance(cfg, dict):
    kwargs = {k: resolve(v, namespace) for k, v in cfg.items() if k != "__qualname__"}
    if "__qualname__" in cfg:
      return namespace[cfg["__qualname__"].split(":")[-1]](**kwargs)
    return kwargs
  if isinstance(cfg, list):
    return [resolve(v, namespace) for v in cfg]
  return cfg


def apply_flag_overrides(cfg: dict, flags: Sequence[str]) -> dict:
  cfg = copy.deepcopy(cfg)
  for flag in flags:
    if not flag.startswith("--cfg."):
      continue
    path, raw = flag[len("--cfg."):].split("=", 1)
    *parents, leaf = path.split(".")
    node = cfg
    for p in parents:
      node = node[p]
    try:
      node[leaf] = ast.literal_eval(raw)
    except (ValueError, SyntaxError):
      node[leaf] = raw
  return cfg


# --------------------------------------------------------------------------
# evaluator
# --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Accuracy:
  name: str = "accuracy"

  def __call__(self, logits, labels):
    return jnp.mean(jnp.argmax(logits, -1) == labels)


@dataclasses.dataclass(frozen=True)
class AotSpec:
  platforms: Optional[Sequence[str]] = None
  batch_size: int = 32


@dataclasses.dataclass(frozen=True)
class Evaluator:
  num_features: int
  num_classes: int
  metrics: Sequence[Any]
  aot: AotSpec

  def eval_step(self, params, x, y):
    logits = x @ params["w"]
    return {m.name: m(logits, y) for m in self.metrics}

  def compile(self):
    params = {"w": jax.ShapeDtypeStruct((self.num_features, self.num_classes), jnp.float32)}
    x = jax.ShapeDtypeStruct((self.aot.batch_size, self.num_features), jnp.float32)
    y = jax.ShapeDtypeStruct((self.aot.batch_size,), jnp.int32)
    traced = jax.jit(self.eval_step).trace(params, x, y)
    return traced.lower(lowering_platforms=self.aot.platforms)


def get_config() -> dict:
  return {
      "__qualname__": "kd_eval:Evaluator",
      "num_features": 16,
      "num_classes": 4,
      "metrics": [{"__qualname__": "kd_eval:Accuracy"}],
      "aot": {"__qualname__": "kd_eval:AotSpec", "platforms": None, "batch_size": 32},
  }


DEFAULT_FLAGS = ['--cfg.aot.platforms=["cpu"]', "--cfg.aot.batch_size=64"]


def main(argv):
  flags = argv[1:] or DEFAULT_FLAGS
  cfg = apply_flag_overrides(get_config(), flags)
  evaluator = resolve(cfg, globals())
  lowered = evaluator.compile()
  print("compiled eval for", evaluator.aot.platforms, len(lowered.as_text()))


if __name__ == "__main__":
  main(sys.argv)

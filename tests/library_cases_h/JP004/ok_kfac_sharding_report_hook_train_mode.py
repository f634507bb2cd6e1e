"""A curvature-preconditioned optimizer step with pluggable step hooks.

Hooks are objects with a `__call__(name, tree)` that the optimizer invokes on
the gradients and the preconditioned updates inside the jitted step.  The list
of hooks is built up from the run mode: in "debug" mode a sharding report is
added that prints how each leaf is laid out on the mesh
(`jax.debug.inspect_array_sharding`).  The step is compiled ahead of time
for a pod described only by an abstract mesh.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P


class StepHook:

  def __call__(self, name: str, tree) -> None:
    raise NotImplementedError


class NormLogger(StepHook):

  def __init__(self):
    self.norms: dict[str, jax.Array] = {}

  def __call__(self, name, tree):
    self.norms[name] = jnp.sqrt(sum(jnp.sum(x * x) for x in jax.tree.leaves(tree)))


class ShardingReport(StepHook):

  def __init__(self, printer: Callable[[str], None] = print):
    self.printer = printer

  def __call__(self, name, tree):
    for path, leaf in jax.tree_util.tree_leaves_with_path(tree):
      label = f"{name}{jax.tree_util.keystr(path)}"
      jax.debug.inspect_array_sharding(
          leaf, callback=lambda s, label=label: self.printer(f"{label}: {s}"))


@dataclasses.dataclass
class RunConfig:
  mode: str = "train"
  num_chips: int = 8
  axis: str = "data"
  learning_rate: float = 1e-2
  damping: float = 1e-3
  platform: str = "tpu"


def build_hooks(cfg: RunConfig) -> list[StepHook]:
  hooks: list[StepHook] = [NormLogger()]
  if cfg.mode == "debug":
    hooks.append(ShardingReport())
  return hooks


def loss_fn(params, x, y):
  return jnp.mean((jnp.tanh(x @ params["w"]) + params["b"] - y) ** 2)


class Optimizer:

  def __init__(self, cfg: RunConfig, hooks: list[StepHook]):
    self.cfg = cfg
    self.hooks = hooks

  def _run_hooks(self, name, tree):
    for hook in self.hooks:
      hook(name, tree)

  def step(self, params, x, y):
    grads = jax.grad(loss_fn)(params, x, y)
    self._run_hooks("grads", grads)
    updates = jax.tree.map(lambda g: -self.cfg.learning_rate * g / (jnp.abs(g) + self.cfg.damping), grads)
    self._run_hooks("updates", updates)
    return jax.tree.map(jnp.add, params, updates)


def compile_for_pod(cfg: RunConfig):
  mesh = AbstractMesh((cfg.num_chips,), (cfg.axis,), axis_types=(jax.sharding.AxisType.Auto,))
  rep = NamedSharding(mesh, P())
  data = NamedSharding(mesh, P(cfg.axis))
  opt = Optimizer(cfg, build_hooks(cfg))
  step = jax.jit(opt.step, in_shardings=(rep, data, data), out_shardings=rep)
  params = {"w": jax.ShapeDtypeStruct((32, 8), jnp.float32), "b": jax.ShapeDtypeStruct((8,), jnp.float32)}
  x = jax.ShapeDtypeStruct((128, 32), jnp.float32)
  y = jax.ShapeDtypeStruct((128, 8), jnp.float32)
  return step.trace(params, x, y).lower(lowering_platforms=(cfg.platform,))


if __name__ == "__main__":
  # The report is for interactive runs on real devices; the pod plan is a train run.
  lowered = compile_for_pod(RunConfig(mode="train"))
  print(lowered.as_text()[:100])

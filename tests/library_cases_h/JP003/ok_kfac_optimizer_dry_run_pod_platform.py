"""Dry-run compilation of a K-FAC style optimizer step for a pod that is not
attached to this host.

The optimizer keeps its parallelism settings in a config restored from a dict;
a small `parallel` helper layer builds the mesh and the replicated / batch
shardings from it.  In dry-run mode the mesh is abstract (only shapes and axis
names), so the whole step can be checked without the pod's devices.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, Mapping

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P


# ----------------------------------------------------------------- parallel.py
def make_mesh(num_devices: int, axis_name: str, abstract: bool):
  if abstract:
    return AbstractMesh((num_devices,), (axis_name,))
  return jax.make_mesh((num_devices,), (axis_name,))


def replicated_sharding(mesh) -> NamedSharding:
  return NamedSharding(mesh, P())


def batch_sharding(mesh, axis_name: str) -> NamedSharding:
  return NamedSharding(mesh, P(axis_name))


# ---------------------------------------------------------------- optimizer.py
@dataclasses.dataclass
class OptimizerConfig:
  learning_rate: float = 1e-3
  damping: float = 1e-3
  multi_device: bool = True
  num_devices: int = 8
  pmap_axis_name: str = "kfac_axis"
  dry_run: bool = False

  @classmethod
  def from_dict(cls, d: Mapping[str, Any]) -> "OptimizerConfig":
    known = {f.name for f in dataclasses.fields(cls)}
    return cls(**{k: v for k, v in d.items() if k in known})


def loss_fn(params, batch):
  x, y = batch
  h = jnp.tanh(x @ params["w0"])
  pred = h @ params["w1"]
  return jnp.mean((pred - y) ** 2)


class Optimizer:

  def __init__(self, config: OptimizerConfig):
    self.config = config
    self.mesh = make_mesh(config.num_devices, config.pmap_axis_name, abstract=config.dry_run)

  def _step(self, params, batch):
    loss, grads = jax.value_and_grad(loss_fn)(params, batch)
    precond = jax.tree.map(lambda g: g / (jnp.mean(g * g) + self.config.damping), grads)
    new_params = jax.tree.map(lambda p, g: p - self.config.learning_rate * g, params, precond)
    return new_params, loss

  @functools.cached_property
  def step(self):
    rep = replicated_sharding(self.mesh)
    data = batch_sharding(self.mesh, self.config.pmap_axis_name)
    return jax.jit(self._step, in_shardings=(rep, (data, data)), out_shardings=(rep, rep))


def param_specs(d_in, d_hidden, d_out):
  return {
      "w0": jax.ShapeDtypeStruct((d_in, d_hidden), jnp.float32),
      "w1": jax.ShapeDtypeStruct((d_hidden, d_out), jnp.float32),
  }


def dry_run(restored: Mapping[str, Any], global_batch: int = 256, platform: str = "tpu"):
  opt = Optimizer(OptimizerConfig.from_dict(restored))
  params = param_specs(64, 128, 16)
  batch = (
      jax.ShapeDtypeStruct((global_batch, 64), jnp.float32),
      jax.ShapeDtypeStruct((global_batch, 16), jnp.float32),
  )
  traced = opt.step.trace(params, batch)
  lowered = traced.lower(lowering_platforms=(platform,))
  return lowered


if __name__ == "__main__":
  restored = {"learning_rate": 3e-4, "num_devices": 8, "dry_run": True, "momentum": 0.9}
  print(dry_run(restored).as_text()[:120])

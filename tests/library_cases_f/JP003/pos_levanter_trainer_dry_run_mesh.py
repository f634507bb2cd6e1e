"""Dry-run sizing of a training step for a slice that is not attached.

Follows levanter's trainer: a ``TrainerConfig`` dataclass holds the
partitioning knobs (``batch_axis``, ``fsdp_axis``, ``tensor_parallel_axes``,
``model_axis_size``) and derives ``compute_axis_mapping`` /
``parameter_axis_mapping`` from logical axis names to the physical
``ResourceAxis`` names; ``device_mesh`` is a cached property; ``named_jit``
turns logical-axis annotations into shardings.  For a dry run the mesh is built
with the slice's shape instead of from ``jax.devices()``.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from typing import Dict, List, Mapping, Optional, Union

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AbstractMesh, AxisType, Mesh, NamedSharding, PartitionSpec


class ResourceAxis(str, enum.Enum):
  DATA = "data"
  MODEL = "model"


ResourceMapping = Mapping[str, Union[str, ResourceAxis]]


@dataclasses.dataclass
class TrainerConfig:
  seed: int = 0
  batch_axis: Optional[str] = "batch"
  fsdp_axis: Optional[Union[str, List[str]]] = "embed"
  tensor_parallel_axes: Optional[List[str]] = dataclasses.field(default_factory=lambda: ["mlp"])
  axis_resources: Dict[str, str] = dataclasses.field(default_factory=dict)
  model_axis_size: int = 2
  train_batch_size: int = 64
  # When set, size the mesh for this many devices instead of the local ones.
  dry_run_num_devices: Optional[int] = 16

  @functools.cached_property
  def device_mesh(self) -> Union[Mesh, AbstractMesh]:
    if self.dry_run_num_devices:
      shape = (self.dry_run_num_devices // self.model_axis_size, self.model_axis_size)
      return AbstractMesh(shape, (ResourceAxis.DATA.value, ResourceAxis.MODEL.value),
                          axis_types=(AxisType.Auto, AxisType.Auto))
    devices = np.array(jax.devices()).reshape(-1, self.model_axis_size)
    return Mesh(devices, (ResourceAxis.DATA.value, ResourceAxis.MODEL.value))

  @functools.cached_property
  def compute_axis_mapping(self) -> ResourceMapping:
    axes = dict(self.axis_resources)
    for axis in self.tensor_parallel_axes or []:
      axes[axis] = ResourceAxis.MODEL.value
    if self.batch_axis is not None:
      axes[self.batch_axis] = ResourceAxis.DATA.value
    return axes

  @functools.cached_property
  def parameter_axis_mapping(self) -> ResourceMapping:
    mapping = dict(self.compute_axis_mapping)
    fsdp = [self.fsdp_axis] if isinstance(self.fsdp_axis, str) else (self.fsdp_axis or [])
    for axis in fsdp:
      mapping[axis] = ResourceAxis.DATA.value
    return mapping


def logical_to_sharding(axes: tuple[Optional[str], ...], mapping: ResourceMapping, mesh) -> NamedSharding:
  return NamedSharding(mesh, PartitionSpec(*(mapping.get(a) if a else None for a in axes)))


def named_jit(fn, *, in_axes, out_axes, mapping: ResourceMapping, mesh):
  to_sharding = lambda axes: logical_to_sharding(axes, mapping, mesh)
  is_axes = lambda x: isinstance(x, tuple) and all(a is None or isinstance(a, str) for a in x)
  return jax.jit(
      fn,
      in_shardings=jax.tree.map(to_sharding, in_axes, is_leaf=is_axes),
      out_shardings=jax.tree.map(to_sharding, out_axes, is_leaf=is_axes),
  )


# --------------------------------------------------------------------------
# model
# --------------------------------------------------------------------------

PARAM_AXES = {
    "w_up": ("embed", "mlp"),
    "w_down": ("mlp", "embed"),
}
BATCH_AXES = ("batch", None)


def init_params(key, embed: int, mlp: int):
  k1, k2 = jax.random.split(key)
  return {
      "w_up": jax.random.normal(k1, (embed, mlp)) / np.sqrt(embed),
      "w_down": jax.random.normal(k2, (mlp, embed)) / np.sqrt(mlp),
  }


def loss_fn(params, x):
  h = jax.nn.gelu(x @ params["w_up"])
  return jnp.mean((h @ params["w_down"] - x) ** 2)


def train_step(params, x):
  loss, grads = jax.value_and_grad(loss_fn)(params, x)
  params = jax.tree.map(lambda p, g: p - 1e-3 * g, params, grads)
  return params, loss


class Trainer:

  def __init__(self, config: TrainerConfig, embed: int = 256, mlp: int = 1024):
    self.config = config
    self.embed, self.mlp = embed, mlp
    self._train_step = named_jit(
        train_step,
        in_axes=(PARAM_AXES, BATCH_AXES),
        out_axes=(PARAM_AXES, ()),
        mapping=config.parameter_axis_mapping,
        mesh=config.device_mesh,
    )

  def shapes(self):
    params = jax.eval_shape(lambda: init_params(jax.random.PRNGKey(0), self.embed, self.mlp))
    batch = jax.ShapeDtypeStruct((self.config.train_batch_size, self.embed), jnp.float32)
    return params, batch

  def compile_train_step(self):
    params, batch = self.shapes()
    traced = self._train_step.trace(params, batch)
    lowered = traced.lower()
    return lowered


def main():
  config = TrainerConfig()
  trainer = Trainer(config)
  lowered = trainer.compile_train_step()
  print("mesh", dict(config.device_mesh.shape), "->", len(lowered.as_text()), "chars")


if __name__ == "__main__":
  main()

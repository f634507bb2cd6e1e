"""Logical-axis sharding rules and mesh construction shared by the programs in this directory."""

import dataclasses

import jax
from jax.sharding import AxisType, PartitionSpec as P

LOGICAL_AXIS_RULES = (
    ("activation_batch", ("data", "fsdp")),
    ("embed", "fsdp"),
    ("mlp", "tensor"),
    ("vocab", "tensor"),
)
MESH_AXES = ("data", "fsdp", "tensor")


@dataclasses.dataclass(frozen=True)
class HyperParameters:
  ici_data_parallelism: int = 2
  ici_fsdp_parallelism: int = 2
  ici_tensor_parallelism: int = 2
  shard_mode: str = "auto"
  emb_dim: int = 256
  mlp_dim: int = 1024
  vocab_size: int = 512
  per_device_batch_size: int = 2
  max_target_length: int = 128
  compile_platform: str = "tpu"

  @property
  def mesh_shape(self):
    return (self.ici_data_parallelism, self.ici_fsdp_parallelism, self.ici_tensor_parallelism)

  @property
  def global_batch_size(self):
    n = self.ici_data_parallelism * self.ici_fsdp_parallelism * self.ici_tensor_parallelism
    return self.per_device_batch_size * n


def logical_to_mesh_axes(logical_names, rules=LOGICAL_AXIS_RULES):
  table = dict(rules)
  return P(*(table.get(name) for name in logical_names))


def axis_types(config: HyperParameters):
  kind = AxisType.Explicit if config.shard_mode == "explicit" else AxisType.Auto
  return (kind,) * len(MESH_AXES)


def abstract_mesh(config: HyperParameters):
  return jax.sharding.AbstractMesh(config.mesh_shape, MESH_AXES, axis_types=axis_types(config))

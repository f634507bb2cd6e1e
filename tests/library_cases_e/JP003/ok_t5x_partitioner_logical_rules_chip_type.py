"""Partitioning of a dense encoder with logical axis names, seq2seq-library style.

Parameters and activations carry logical axis names ("batch", "embed",
"mlp"); `standard_logical_axis_rules` maps them to mesh axes ("data",
"model"). A partitioner owns the mesh and wraps jitted functions so they
run (and lower) inside it. For capacity planning the partitioner is built on
the target slice's shape and chip type, without devices.
"""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Any, Callable, Optional, Sequence, Tuple

import jax
import jax.numpy as jnp
from jax.sharding import AbstractDevice, AbstractMesh, PartitionSpec

LogicalAxisRules = Sequence[Tuple[str, Optional[str]]]


def standard_logical_axis_rules(activation_partitioning_dims: int = 1,
                                parameter_partitioning_dims: int = 1) -> LogicalAxisRules:
  rules = [("batch", "data"), ("vocab", "model"), ("mlp", "model"), ("heads", "model"),
           ("kv", None), ("joined_kv", "model"), ("length", None)]
  if activation_partitioning_dims == 2:
    rules.append(("embed", "model"))
  elif parameter_partitioning_dims == 2:
    rules.append(("embed", "data"))
  else:
    rules.append(("embed", None))
  return rules


def logical_to_mesh_axes(names: Sequence[Optional[str]], rules: LogicalAxisRules) -> PartitionSpec:
  table = dict(rules)
  used, out = set(), []
  for name in names:
    axis = table.get(name) if name is not None else None
    if axis in used:
      axis = None
    used.add(axis)
    out.append(axis)
  return PartitionSpec(*out)


class PjittedFnWithContext:
  """A jitted function that always runs and lowers inside the partitioner's mesh."""

  def __init__(self, pjitted_fn, mesh, logical_axis_rules):
    self._pjitted_fn = pjitted_fn
    self._mesh = mesh
    self._logical_axis_rules = logical_axis_rules

  @contextlib.contextmanager
  def _context(self):
    with jax.sharding.use_abstract_mesh(self._mesh):
      yield

  def __call__(self, *args):
    with self._context():
      return self._pjitted_fn(*args)

  def lower(self, *args):
    with self._context():
      return self._pjitted_fn.trace(*args).lower()


class BasePartitioner:

  def __init__(self, num_partitions: Optional[int] = None,
               model_parallel_submesh: Optional[Tuple[int, ...]] = None):
    if not num_partitions and not model_parallel_submesh:
      raise ValueError("set num_partitions or model_parallel_submesh")
    self._num_partitions = num_partitions
    self._model_parallel_submesh = model_parallel_submesh

  @property
  def mesh(self):
    raise NotImplementedError


CHIP_TYPES = {
    "v5e": AbstractDevice(device_kind="TPU v5 lite", num_cores=1, platform="tpu"),
    "v5p": AbstractDevice(device_kind="TPU v5", num_cores=2, platform="tpu"),
}


class AotPjitPartitioner(BasePartitioner):
  """Partitioner for ahead-of-time work: the mesh has a shape and a chip type but no devices."""

  def __init__(self, *, num_devices: int, num_partitions: int, chip_type: str = "v5e",
               logical_axis_rules: Optional[LogicalAxisRules] = None):
    super().__init__(num_partitions=num_partitions)
    self._num_devices = num_devices
    self._chip = CHIP_TYPES[chip_type]
    self._logical_axis_rules = tuple(logical_axis_rules or standard_logical_axis_rules())

  @property
  def mesh(self):
    data = self._num_devices // self._num_partitions
    return AbstractMesh((data, self._num_partitions), ("data", "model"), abstract_device=self._chip)

  def partition(self, fn: Callable, in_axis_resources, out_axis_resources) -> PjittedFnWithContext:
    pjitted = jax.jit(fn, in_shardings=in_axis_resources, out_shardings=out_axis_resources)
    return PjittedFnWithContext(pjitted, self.mesh, self._logical_axis_rules)

  def logical_to_mesh_axes(self, tree):
    return jax.tree.map(lambda names: logical_to_mesh_axes(names, self._logical_axis_rules), tree,
                        is_leaf=lambda x: isinstance(x, tuple))


@dataclasses.dataclass(frozen=True)
class EncoderConfig:
  vocab_size: int = 512
  emb_dim: int = 128
  mlp_dim: int = 512


PARAM_AXES = {"embedding": ("vocab", "embed"), "wi": ("embed", "mlp"), "wo": ("mlp", "embed")}


def encode(params, tokens):
  x = params["embedding"][tokens]
  h = jax.nn.relu(x @ params["wi"])
  return (h @ params["wo"]).mean(axis=1)


def main(num_devices: int = 64, num_partitions: int = 4, batch: int = 128, length: int = 32):
  cfg = EncoderConfig()
  partitioner = AotPjitPartitioner(num_devices=num_devices, num_partitions=num_partitions)
  param_specs = partitioner.logical_to_mesh_axes(PARAM_AXES)
  tokens_spec = logical_to_mesh_axes(("batch", "length"), partitioner._logical_axis_rules)
  out_spec = logical_to_mesh_axes(("batch", "embed"), partitioner._logical_axis_rules)
  partitioned = partitioner.partition(encode, (param_specs, tokens_spec), out_spec)

  params = {"embedding": jax.ShapeDtypeStruct((cfg.vocab_size, cfg.emb_dim), jnp.float32),
            "wi": jax.ShapeDtypeStruct((cfg.emb_dim, cfg.mlp_dim), jnp.float32),
            "wo": jax.ShapeDtypeStruct((cfg.mlp_dim, cfg.emb_dim), jnp.float32)}
  tokens = jax.ShapeDtypeStruct((batch, length), jnp.int32)
  lowered = partitioned.lower(params, tokens)
  print(lowered.as_text()[:100])


if __name__ == "__main__":
  main()

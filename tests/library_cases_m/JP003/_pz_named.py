"""Penzai-shaped named arrays and name-based sharding: a NamedArray carries an
ordered mapping of axis names to sizes next to its data array, and
`name_to_name_sharding` turns a tree of them into NamedShardings (or, with
`as_shape_dtype_struct=True`, into ShapeDtypeStructs that carry them)."""

from __future__ import annotations

import collections
import dataclasses
import re

import jax
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class NamedArray:
  named_axes: collections.OrderedDict = dataclasses.field(metadata={"static": True})
  data_array: object = None


def wrap(array, *names) -> NamedArray:
  return NamedArray(collections.OrderedDict(zip(names, array.shape)), array)


def is_namedarray(x) -> bool:
  return isinstance(x, NamedArray)


def name_to_name_sharding(tree, mesh, axis_name_to_mesh_name=None, as_shape_dtype_struct=False):
  if axis_name_to_mesh_name is None:
    axis_name_to_mesh_name = {name: name for name in mesh.axis_names}

  def sharding_for_leaf(leaf):
    if not isinstance(leaf, NamedArray):
      raise ValueError(f"Cannot infer a name-based sharding for non-NamedArray leaf {leaf}.")
    spec = PartitionSpec(*(axis_name_to_mesh_name.get(n) for n in leaf.named_axes))
    sharding = NamedSharding(mesh, spec)
    if as_shape_dtype_struct:
      sharding = jax.ShapeDtypeStruct(leaf.data_array.shape, leaf.data_array.dtype, sharding=sharding)
    return dataclasses.replace(leaf, data_array=sharding)

  return jax.tree_util.tree_map(sharding_for_leaf, tree, is_leaf=is_namedarray)


def parse_topology(topology: str, axis_names=("data", "model")) -> AbstractMesh:
  """'2x4' -> an AbstractMesh with axes (data=2, model=4); no devices needed."""
  dims = tuple(int(d) for d in re.split(r"[x*]", topology))
  return AbstractMesh(dims, axis_names[: len(dims)], axis_types=(AxisType.Auto,) * len(dims))

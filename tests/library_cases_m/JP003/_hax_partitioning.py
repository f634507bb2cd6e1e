"""Haliax-shaped named-axis partitioning: named arrays (a pytree whose axes are
static), a thread-local axis mapping set by a context manager, a thread-local
mesh, and `named_jit`, a wrapper whose `__call__` and `lower` infer
`in_shardings`/`out_shardings` from the axis names of the arguments."""

from __future__ import annotations

import contextlib
import dataclasses
import threading
from typing import Callable, Mapping

import jax
import numpy as np
from jax.sharding import AbstractMesh, AxisType, Mesh, NamedSharding, PartitionSpec


@dataclasses.dataclass(frozen=True)
class Axis:
  name: str
  size: int


@jax.tree_util.register_pytree_node_class
class NamedArray:
  def __init__(self, array, axes: tuple[Axis, ...]):
    self.array = array
    self.axes = tuple(axes)

  def tree_flatten(self):
    return (self.array,), self.axes

  @classmethod
  def tree_unflatten(cls, axes, children):
    return cls(children[0], axes)


def named_spec(axes, dtype=np.float32) -> NamedArray:
  return NamedArray(jax.ShapeDtypeStruct(tuple(a.size for a in axes), dtype), axes)


class _Holder(threading.local):
  def __init__(self):
    self.mapping = None
    self.mesh = None


_holder = _Holder()


@contextlib.contextmanager
def axis_mapping(mapping: Mapping[str, str], **kwargs):
  old = _holder.mapping
  mapping = dict(mapping)
  mapping.update(kwargs)
  _holder.mapping = mapping
  try:
    yield
  finally:
    _holder.mapping = old


@contextlib.contextmanager
def mesh_context(mesh):
  old = _holder.mesh
  _holder.mesh = mesh
  try:
    yield
  finally:
    _holder.mesh = old


def make_mesh(axis_shapes: Mapping[str, int], devices=None):
  """A mesh over `devices`; without devices, an AbstractMesh of the same shape (for planning)."""
  names = tuple(axis_shapes)
  shape = tuple(axis_shapes[n] for n in names)
  types = (AxisType.Auto,) * len(names)
  if devices is None:
    return AbstractMesh(shape, names, axis_types=types)
  return Mesh(np.asarray(devices[: int(np.prod(shape))]).reshape(shape), names, axis_types=types)


def pspec_for_axes(axes, mapping) -> PartitionSpec:
  return PartitionSpec(*(mapping.get(a.name) for a in axes))


def infer_resource_partitions(tree, mapping, mesh):
  def sharding_for(leaf):
    if isinstance(leaf, NamedArray):
      return NamedArray(NamedSharding(mesh, pspec_for_axes(leaf.axes, mapping)), leaf.axes)
    return NamedSharding(mesh, PartitionSpec())
  return jax.tree_util.tree_map(sharding_for, tree, is_leaf=lambda x: isinstance(x, NamedArray))


class _NamedJitWrapper:
  def __init__(self, fn: Callable, axis_resources=None, out_axis_resources=None):
    self._fn = fn
    self._axis_resources = axis_resources
    self._out_axis_resources = out_axis_resources

  def _jitted(self, args):
    mapping = self._axis_resources or _holder.mapping
    mesh = _holder.mesh
    if mapping is None or mesh is None:
      return jax.jit(self._fn)
    in_shardings = infer_resource_partitions(args, mapping, mesh)
    out_shape = jax.eval_shape(self._fn, *args)
    out_shardings = infer_resource_partitions(out_shape, self._out_axis_resources or mapping, mesh)
    return jax.jit(self._fn, in_shardings=in_shardings, out_shardings=out_shardings)

  def __call__(self, *args):
    return self._jitted(args)(*args)

  def lower(self, *args) -> jax.stages.Lowered:
    return self._jitted(args).lower(*args)


def named_jit(fn=None, *, axis_resources=None, out_axis_resources=None):
  if fn is None:
    return lambda f: _NamedJitWrapper(f, axis_resources, out_axis_resources)
  return _NamedJitWrapper(fn, axis_resources, out_axis_resources)

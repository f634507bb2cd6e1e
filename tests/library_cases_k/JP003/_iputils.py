"""Small utilities shared by the interpolators."""

from __future__ import annotations

import functools

import jax
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P


def wrap_jit(*args, **kwargs):
  """``jax.jit`` with options, keeping the docstring and signature of the function."""

  def wrapper(fun):
    foo = jax.jit(fun, *args, **kwargs)
    foo = functools.wraps(fun)(foo)
    return foo

  return wrapper


def query_sharding(num_shards: int, devices=None) -> NamedSharding:
  """Sharding of the query points along their only axis.

  Without devices the mesh is abstract: shapes of the plan only, to be
  bound to devices when the program is compiled.
  """
  if devices is None:
    mesh = AbstractMesh((num_shards,), ("q",), axis_types=(AxisType.Explicit,))
  else:
    mesh = jax.make_mesh((num_shards,), ("q",), axis_types=(AxisType.Explicit,), devices=devices)
  return NamedSharding(mesh, P("q"))

"""Praxis-shaped mesh creation: `create_device_mesh(ici_mesh_shape,
dcn_mesh_shape)` over this process's devices, and for a dry run on a machine
with fewer devices than the mesh needs, an AbstractMesh of the same shape (its
axis types chosen by the caller). `mesh_context` enters whichever it got."""

from __future__ import annotations

import contextlib
import math
from typing import Sequence

import jax
import numpy as np
from jax.sharding import AbstractMesh, AxisType, Mesh


def create_device_mesh(ici_mesh_shape: Sequence[int], dcn_mesh_shape: Sequence[int] | None = None,
                       *, axis_names: Sequence[str], explicit_axes: bool = False):
  shape = tuple(ici_mesh_shape)
  if dcn_mesh_shape is not None:
    shape = tuple(int(a) * int(b) for a, b in zip(ici_mesh_shape, dcn_mesh_shape))
  kind = AxisType.Explicit if explicit_axes else AxisType.Auto
  types = (kind,) * len(shape)
  devices = jax.devices()
  if math.prod(shape) > len(devices):
    # dry run: plan the layout without the devices
    return AbstractMesh(shape, tuple(axis_names), axis_types=types)
  return Mesh(np.asarray(devices[: math.prod(shape)]).reshape(shape), tuple(axis_names), axis_types=types)


@contextlib.contextmanager
def mesh_context(mesh):
  if isinstance(mesh, AbstractMesh):
    with jax.sharding.use_abstract_mesh(mesh):
      yield mesh
  else:
    with jax.set_mesh(mesh):
      yield mesh

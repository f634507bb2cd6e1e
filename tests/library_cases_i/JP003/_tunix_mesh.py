"""Mesh config parsing and mesh creation, after tunix's cli/config.py (parse_mesh_config)
and utils/mesh.py."""

import collections.abc
import os

import jax
import numpy as np
from jax.sharding import AbstractMesh, AxisType, Mesh


def parse_mesh_config(config, model_key):
    mesh_config = config[model_key].get("mesh")
    if not isinstance(mesh_config, collections.abc.Mapping):
        raise ValueError("The 'mesh' configuration must be a dictionary-like object")
    shape, names = mesh_config.get("shape"), mesh_config.get("axis_names")
    if len(shape) != len(names):
        raise ValueError("mesh shape and axis_names differ in length")
    return tuple(int(s) for s in shape), tuple(str(n) for n in names)


def _plan_only_default():
    return os.environ.get("TUNIX_PLAN_ONLY", "1") not in ("0", "false", "False")


def create_mesh(shape, axis_names, *, plan_only=None):
    if plan_only is None:
        plan_only = _plan_only_default()
    axis_types = (AxisType.Auto,) * len(shape)
    if plan_only:
        return AbstractMesh(shape, axis_names, axis_types=axis_types)
    devices = np.asarray(jax.devices()[: int(np.prod(shape))]).reshape(shape)
    return Mesh(devices, axis_names, axis_types=axis_types)

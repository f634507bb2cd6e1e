"""DeviceMesh / TensorLayout / LayoutMap / ModelParallel in the manner of keras's
src/distribution/distribution_lib.py and its JAX backend."""

import collections
import re

import jax
import numpy as np
from jax.sharding import AbstractMesh, AxisType, Mesh, NamedSharding, PartitionSpec


class DeviceMesh:
    def __init__(self, shape, axis_names, devices=None):
        self._shape, self._axis_names, self._devices = tuple(shape), list(axis_names), devices

    @property
    def shape(self):
        return self._shape

    @property
    def axis_names(self):
        return self._axis_names

    @property
    def backend_mesh(self):
        auto = (AxisType.Auto,) * len(self._shape)
        if self._devices is None:
            return AbstractMesh(self._shape, tuple(self._axis_names), axis_types=auto)
        devices = np.asarray(self._devices).reshape(self._shape)
        return Mesh(devices, tuple(self._axis_names), axis_types=auto)


class TensorLayout:
    def __init__(self, axes, device_mesh=None):
        self.axes, self.device_mesh = tuple(axes), device_mesh

    @property
    def backend_layout(self):
        return NamedSharding(self.device_mesh.backend_mesh, PartitionSpec(*self.axes))


class LayoutMap(collections.abc.MutableMapping):
    def __init__(self, device_mesh):
        self._layout_map = collections.OrderedDict()
        self.device_mesh = device_mesh

    def __getitem__(self, key):
        if key in self._layout_map:
            return self._layout_map[key]
        matches = [p for p in self._layout_map if re.fullmatch(p, key)]
        if len(matches) > 1:
            raise ValueError(f"{key} matches {matches}")
        return self._layout_map[matches[0]] if matches else None

    def __setitem__(self, key, layout):
        if isinstance(layout, tuple):
            layout = TensorLayout(layout)
        if layout.device_mesh is None:
            layout.device_mesh = self.device_mesh
        self._layout_map[key] = layout

    def __delitem__(self, key):
        return self._layout_map.pop(key)

    def __len__(self):
        return len(self._layout_map)

    def __iter__(self):
        return iter(self._layout_map)


class ModelParallel:
    def __init__(self, *, layout_map, batch_dim_name=None):
        self._layout_map = layout_map
        self.device_mesh = layout_map.device_mesh
        self.batch_dim_name = batch_dim_name or self.device_mesh.axis_names[0]

    def get_data_layout(self, data_shape):
        axes = [None] * len(data_shape)
        axes[0] = self.batch_dim_name
        return TensorLayout(axes, self.device_mesh)

    def get_variable_layout(self, path, ndim):
        layout = self._layout_map[path]
        return layout if layout is not None else TensorLayout([None] * ndim, self.device_mesh)

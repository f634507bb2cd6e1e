"""How one array type is spread over devices.

A `Placement` is a device list, the axis of the array type that is split over
those devices, and a 1-D mesh over them.  For planning a run on a machine we
are not on, `Placement.planned(n, ...)` builds the same thing over an abstract
mesh of `n` devices: shapes and shardings without devices.
"""

from __future__ import annotations

import numpy as np
import jax
from jax.sharding import AbstractMesh, AxisType, Mesh, NamedSharding, PartitionSpec


class Placement:
    def __init__(self, devices=None, axis: int = 0, axis_name: str = "devices",
                 num_shards: int | None = None):
        self.axis = axis
        self.axis_name = axis_name
        if devices is not None:
            self.devices = list(devices)
            self.mesh = Mesh(np.array(self.devices), (axis_name,), axis_types=(AxisType.Auto,))
        else:
            if num_shards is None:
                raise ValueError("a placement without devices needs num_shards")
            self.devices = None
            self.mesh = AbstractMesh((num_shards,), (axis_name,), axis_types=(AxisType.Auto,))

    @classmethod
    def planned(cls, num_devices: int, axis: int, axis_name: str = "devices"):
        return cls(devices=None, axis=axis, axis_name=axis_name, num_shards=num_devices)

    @property
    def n_devices(self) -> int:
        return self.mesh.shape[self.axis_name]

    def shard_structure(self, ndim: int) -> NamedSharding:
        axis = self.axis % ndim
        spec = [None] * ndim
        spec[axis] = self.axis_name
        return NamedSharding(self.mesh, PartitionSpec(*spec))

"""Grids of a lattice-Boltzmann toolkit: a field layout and its sharding.

Fields are (q, nx, ny) arrays split over devices along x.  `grid_factory`
builds the grid over this machine's devices, or, given `target_devices`, over
an abstract mesh of that many devices, to plan the partitioning of a run on a
larger machine.
"""

from __future__ import annotations

import jax
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P


class JaxGrid:
    def __init__(self, shape: tuple[int, int], target_devices: int | None = None):
        self.shape = shape
        self.dim = len(shape)
        self.target_devices = target_devices
        self._initialize_backend()

    def _initialize_backend(self):
        axis_names = ("cardinality", "x", "y")
        auto = (AxisType.Auto,) * 3
        if self.target_devices is None:
            self.nDevices = jax.device_count()
            self.global_mesh = jax.make_mesh((1, self.nDevices, 1), axis_names, axis_types=auto)
        else:
            self.nDevices = self.target_devices
            self.global_mesh = AbstractMesh((1, self.nDevices, 1), axis_names, axis_types=auto)
        self.sharding = NamedSharding(self.global_mesh, P("cardinality", "x", "y"))

    def field_spec(self, cardinality: int, dtype):
        return jax.ShapeDtypeStruct((cardinality, *self.shape), dtype)


def grid_factory(shape, target_devices: int | None = None) -> JaxGrid:
    if shape[0] % (target_devices or jax.device_count()):
        raise ValueError(f"x extent {shape[0]} does not split over the devices")
    return JaxGrid(shape, target_devices)

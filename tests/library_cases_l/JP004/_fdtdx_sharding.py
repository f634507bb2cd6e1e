"""Sharding helpers for FDTD field arrays.

Field arrays are split over devices along one spatial axis.  The helpers
build that sharding for this machine's devices, or, given `planned_devices`,
for an abstract mesh of that many devices (to check a layout ahead of a run),
and can log how an array is actually laid out when debug logging is on.
"""

from __future__ import annotations

import logging

import jax
from jax.sharding import AbstractMesh, AxisType, Mesh, NamedSharding, PartitionSpec

SHARD_STR = "shard"
logger = logging.getLogger("fdtdx.sharding")


def get_named_sharding_from_shape(shape, sharding_axis: int, backend: str | None = None,
                                  planned_devices: int | None = None) -> NamedSharding:
    spec = PartitionSpec(*(SHARD_STR if i == sharding_axis else None for i in range(len(shape))))
    if planned_devices is not None:
        mesh = AbstractMesh((planned_devices,), (SHARD_STR,), axis_types=(AxisType.Auto,))
    else:
        devices = jax.devices(backend)
        mesh = Mesh(devices, (SHARD_STR,), axis_types=(AxisType.Auto,))
    return NamedSharding(mesh, spec)


def log_sharding(x, label: str):
    """Log the sharding XLA chose for `x` (only when debug logging is on)."""
    if not logger.isEnabledFor(logging.DEBUG):
        return
    jax.debug.inspect_array_sharding(
        x, callback=lambda s: logger.debug("%s: %s", label, s))

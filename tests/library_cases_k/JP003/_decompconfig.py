"""Configuration state of the distributed-FFT library.

One global object, changed with ``config.update(key, value)``; unknown keys
are rejected.  ``dry_run`` makes mesh construction abstract (planning on a
machine without the target devices); ``lowering_platforms`` is what the AOT
helpers pass to ``Traced.lower``.
"""

from __future__ import annotations

import dataclasses

from jax.sharding import AbstractMesh, AxisType


@dataclasses.dataclass
class DecompConfig:
  halo_comm_backend: str = "NCCL"
  transpose_comm_backend: str = "NCCL"
  transpose_axis_contiguous: bool = True
  dry_run: bool = True
  lowering_platforms: tuple[str, ...] | None = None

  def update(self, key, value):
    if not hasattr(self, key):
      raise ValueError(f"key {key} is not a valid configuration key")
    setattr(self, key, value)


config = DecompConfig()


def make_pencil_mesh(pdims: tuple[int, int], devices=None):
  """A (x, y) process grid; abstract when planning."""
  import jax

  if config.dry_run or devices is None:
    return AbstractMesh(pdims, ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))
  return jax.make_mesh(pdims, ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto), devices=devices)

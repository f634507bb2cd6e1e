"""Estimate the memory of a sharded back projection before booking a GPU node.

Shaped after mbirjax: a tomography model whose sinogram is split over views
and whose reconstruction is split over slices, each described by a
`Placement`; `memory_plan()` lowers the back projector with the placements'
shardings to read off the buffer sizes.  Planning options come from a
dataclass whose default describes the 4-GPU node the job will run on.
"""

from __future__ import annotations

import dataclasses
import functools

import jax
import jax.numpy as jnp
import numpy as np

from _mbir_placement import Placement


@dataclasses.dataclass(frozen=True)
class PlanOptions:
    num_devices: int | None = 4   # None: plan on the devices of this machine
    num_views: int = 128
    recon_side: int = 32
    num_slices: int = 16


class ParallelBeamModel:
    def __init__(self, options: PlanOptions):
        self.options = options
        self.angles = np.linspace(0.0, np.pi, options.num_views, endpoint=False, dtype=np.float32)
        side = options.recon_side
        ii, jj = np.meshgrid(np.arange(side), np.arange(side), indexing="ij")
        self.pixel_xy = np.stack([ii.ravel(), jj.ravel()], 1).astype(np.float32) - side / 2

    def _placement(self, axis: int, axis_name: str) -> Placement:
        n = self.options.num_devices
        if n is None:
            return Placement(jax.devices(), axis=axis, axis_name=axis_name)
        return Placement.planned(n, axis=axis, axis_name=axis_name)

    @functools.cached_property
    def sino_placement(self) -> Placement:
        return self._placement(axis=0, axis_name="views")

    @functools.cached_property
    def recon_placement(self) -> Placement:
        return self._placement(axis=-1, axis_name="slices")

    def back_project(self, sinogram):
        cos, sin = jnp.cos(self.angles), jnp.sin(self.angles)
        n_p = cos[:, None] * self.pixel_xy[None, :, 0] + sin[:, None] * self.pixel_xy[None, :, 1]
        weights = jnp.clip(1.0 - jnp.abs(n_p - jnp.round(n_p)), 0.0, 1.0)
        return jnp.einsum("vp,vs->ps", weights, sinogram)

    def memory_plan(self):
        o = self.options
        sino = jax.ShapeDtypeStruct((o.num_views, o.num_slices), jnp.float32)
        back = jax.jit(
            self.back_project,
            in_shardings=(self.sino_placement.shard_structure(2),),
            out_shardings=self.recon_placement.shard_structure(2),
        )
        lowered = back.trace(sino).lower()
        return lowered.as_text().count("sharding")


if __name__ == "__main__":
    model = ParallelBeamModel(PlanOptions())
    print("sharding annotations:", model.memory_plan())

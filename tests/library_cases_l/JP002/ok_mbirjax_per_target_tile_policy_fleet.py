"""Plan the forward projector for every node type of the reconstruction fleet.

Shaped after mbirjax: a `ParallelBeamModel` whose tile policy (read for the
current target device) decides whether the forward projector runs the Triton Pallas kernel or
the XLA path, and a planning loop that re-targets one model at each abstract
device of the fleet and lowers under that device's abstract mesh.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as pltriton
from jax.sharding import AbstractDevice, AbstractMesh

from _mbir_policy import select_tile_policy

FWD_NUM_WARPS = 2


def _fwd_body(w_ref, r_ref, o_ref):
    o_ref[...] = jnp.dot(w_ref[...], r_ref[...])


class ParallelBeamModel:
    def __init__(self, num_views: int, recon_side: int, num_rows: int):
        self.angles = np.linspace(0.0, np.pi, num_views, endpoint=False, dtype=np.float32)
        ii, jj = np.meshgrid(np.arange(recon_side), np.arange(recon_side), indexing="ij")
        self.pixel_xy = np.stack([ii.ravel(), jj.ravel()], 1).astype(np.float32) - recon_side / 2
        self.num_rows = num_rows
        self.target_device = None

    @property
    def tiles(self):
        # re-read per access: planning re-targets one model at several devices
        return select_tile_policy(self.target_device)

    def _view_weights(self):
        cos, sin = jnp.cos(self.angles), jnp.sin(self.angles)
        n_p = cos[:, None] * self.pixel_xy[None, :, 0] + sin[:, None] * self.pixel_xy[None, :, 1]
        return jnp.clip(1.0 - jnp.abs(n_p - jnp.round(n_p)), 0.0, 1.0)

    def _pallas_forward_project(self, weights, recon):
        num_views, num_pixels = weights.shape
        bv = self.tiles.view_batch
        return pl.pallas_call(
            _fwd_body,
            out_shape=jax.ShapeDtypeStruct((num_views, self.num_rows), jnp.float32),
            grid=(num_views // bv,),
            in_specs=[pl.BlockSpec((bv, num_pixels), lambda i: (i, 0)),
                      pl.BlockSpec((num_pixels, self.num_rows), lambda i: (0, 0))],
            out_specs=pl.BlockSpec((bv, self.num_rows), lambda i: (i, 0)),
            compiler_params=pltriton.CompilerParams(num_warps=FWD_NUM_WARPS),
        )(weights, recon)

    def forward_project(self, recon):
        weights = self._view_weights()
        if self.tiles.fwd_pallas:
            return self._pallas_forward_project(weights, recon)
        return jnp.einsum("vp,pr->vr", weights, recon)


FLEET = {
    "h100-node": AbstractDevice(device_kind="NVIDIA H100 80GB HBM3", num_cores=132, platform="cuda"),
    "v5e-slice": AbstractDevice(device_kind="TPU v5 lite", num_cores=1, platform="tpu"),
}


def plan_fleet(model: ParallelBeamModel):
    recon = jax.ShapeDtypeStruct((model.pixel_xy.shape[0], model.num_rows), jnp.float32)
    plans = {}
    for name, device in FLEET.items():
        model.target_device = device
        mesh = AbstractMesh((1,), ("views",), abstract_device=device)
        with jax.sharding.use_abstract_mesh(mesh):
            lowered = jax.jit(model.forward_project).trace(recon).lower()
        plans[name] = (model.tiles.reason, len(lowered.as_text()))
    return plans


if __name__ == "__main__":
    for name, plan in plan_fleet(ParallelBeamModel(num_views=64, recon_side=16, num_rows=32)).items():
        print(name, plan)

"""Tile policies for the projectors: which kernels a device gets.

The custom (Pallas/Triton) projector kernels were measured on a few GPU
architectures only; everything else takes the XLA path.  `MBIR_DISABLE_PALLAS=1`
forces the XLA path everywhere.
"""

from __future__ import annotations

import dataclasses
import os

_ARCH_ALLOWLIST = ("H100", "H200", "A100")
_GPU_PLATFORMS = ("gpu", "cuda", "rocm")


@dataclasses.dataclass(frozen=True)
class TilePolicy:
    fwd_pallas: bool
    view_batch: int
    reason: str


def availability(device) -> tuple[bool, str]:
    if os.environ.get("MBIR_DISABLE_PALLAS", "0") == "1":
        return False, "disabled by MBIR_DISABLE_PALLAS=1"
    if device.platform not in _GPU_PLATFORMS:
        return False, f"not a GPU platform ({device.platform})"
    if not any(arch in device.device_kind for arch in _ARCH_ALLOWLIST):
        return False, f"device kind {device.device_kind!r} not in the measured allowlist"
    return True, f"available ({device.device_kind})"


def select_tile_policy(device) -> TilePolicy:
    usable, reason = availability(device)
    return TilePolicy(fwd_pallas=usable, view_batch=16 if usable else 64, reason=reason)

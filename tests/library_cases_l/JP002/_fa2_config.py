"""Configuration of the multi-backend flash attention.

`backend` is the device family the kernels are written for; `platform` is the
kernel language.  Both may be given as strings; a missing backend is taken
from the process's default JAX backend, a missing platform from the backend.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Optional

import jax


class Backend(str, enum.Enum):
    GPU = "gpu"
    TPU = "tpu"
    CPU = "cpu"


class Platform(str, enum.Enum):
    TRITON = "triton"
    PALLAS = "pallas"
    JAX = "jax"


_DEFAULT_PLATFORM = {Backend.GPU: Platform.TRITON, Backend.TPU: Platform.PALLAS, Backend.CPU: Platform.JAX}

VALID_COMBINATIONS = {
    (Backend.GPU, Platform.TRITON), (Backend.GPU, Platform.PALLAS), (Backend.GPU, Platform.JAX),
    (Backend.TPU, Platform.PALLAS), (Backend.TPU, Platform.JAX),
    (Backend.CPU, Platform.JAX),
}


@dataclasses.dataclass
class AttentionConfig:
    blocksize_q: int = 128
    blocksize_k: int = 128
    softmax_scale: Optional[float] = None
    backend: Optional[Backend] = None
    platform: Optional[Platform] = None

    def __post_init__(self):
        if isinstance(self.backend, str):
            self.backend = Backend(self.backend)
        if isinstance(self.platform, str):
            self.platform = Platform(self.platform)
        if self.backend is None:
            self.backend = Backend(jax.default_backend())
        if self.platform is None:
            self.platform = _DEFAULT_PLATFORM[self.backend]
        if (self.backend, self.platform) not in VALID_COMBINATIONS:
            raise ValueError(f"invalid backend/platform: {self.backend.value}/{self.platform.value}")

"""Kernel registry: several implementations of one algorithm, keyed by
implementation platform (triton / pallas / xla) and hardware backend.

    @kernel_registry.register("rms_norm", Platform.TRITON, Backend.GPU)
    def rms_norm_triton(x, w, *, eps): ...

    impl = kernel_registry.get("rms_norm", platform="triton", backend="gpu")
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from enum import StrEnum
from typing import Any

import jax


class Platform(StrEnum):
  TRITON = "triton"
  PALLAS = "pallas"
  XLA = "xla"


class Backend(StrEnum):
  GPU = "gpu"
  TPU = "tpu"
  CPU = "cpu"
  ANY = "any"


@dataclasses.dataclass(frozen=True)
class KernelSpec:
  platform: Platform
  backend: Backend
  algorithm: str
  implementation: Callable[..., Any]
  priority: int = 0


class KernelRegistry:

  def __init__(self) -> None:
    self._registry: dict[str, list[KernelSpec]] = {}

  def register(self, algorithm: str, platform: Platform | str, backend: Backend | str, priority: int = 0):
    def decorator(func):
      key = algorithm.lower()
      plat = Platform(platform) if isinstance(platform, str) else platform
      back = Backend(backend) if isinstance(backend, str) else backend

      @functools.wraps(func)
      def _wrapped(*args, **kwargs):
        return func(*args, **kwargs)

      self._registry.setdefault(key, []).append(
          KernelSpec(plat, back, algorithm, _wrapped, priority))
      self._registry[key].sort(key=lambda s: s.priority, reverse=True)
      return _wrapped
    return decorator

  def list_implementations(self, algorithm: str) -> list[KernelSpec]:
    return list(self._registry.get(algorithm.lower(), []))

  def get(self, algorithm: str, platform: Platform | str, backend: Backend | str = Backend.ANY):
    plat = Platform(platform)
    back = Backend(backend)
    for spec in self.list_implementations(algorithm):
      if spec.platform != plat:
        continue
      if back == Backend.ANY or spec.backend in (back, Backend.ANY):
        return spec.implementation
    raise ValueError(f"no {algorithm} implementation for platform={plat} backend={back}")


kernel_registry = KernelRegistry()


def detect_platform(algorithm: str, platform: Platform | str | None = "auto") -> Platform:
  """An explicit request wins; "auto" picks from the backend JAX runs on."""
  if platform not in ("auto", None):
    return Platform(platform)
  backend = jax.default_backend()
  specs = kernel_registry.list_implementations(algorithm)
  if backend == "tpu" and any(s.platform == Platform.PALLAS for s in specs):
    return Platform.PALLAS
  if backend == "gpu" and any(s.platform == Platform.TRITON for s in specs):
    return Platform.TRITON
  return Platform.XLA

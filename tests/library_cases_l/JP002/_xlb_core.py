"""Core of a lattice-Boltzmann toolkit: global defaults and the operator base.

`init(...)` stores the velocity set and the default compute backend on
`DefaultConfig`; every `Operator` built afterwards takes them from there.
Implementations are registered per (operator class, backend) with the
`Operator.register_backend(backend)` decorator and picked when called.
"""

from __future__ import annotations

import enum
import inspect

import numpy as np


class ComputeBackend(enum.Enum):
    JAX = enum.auto()
    PALLAS = enum.auto()


class DefaultConfig:
    velocity_set = None
    default_backend = None


def init(velocity_set, default_backend: ComputeBackend):
    if not isinstance(default_backend, ComputeBackend):
        raise ValueError(f"unsupported compute backend: {default_backend}")
    DefaultConfig.velocity_set = velocity_set
    DefaultConfig.default_backend = default_backend


class D2Q9:
    d = 2
    q = 9

    def __init__(self):
        self.c = np.array([[0, 1, 0, -1, 0, 1, -1, -1, 1],
                           [0, 0, 1, 0, -1, 1, 1, -1, -1]], dtype=np.int32)
        self.w = np.array([4 / 9] + [1 / 9] * 4 + [1 / 36] * 4, dtype=np.float32)


class Operator:
    _backends: dict = {}

    def __init__(self, velocity_set=None, compute_backend=None):
        self.velocity_set = velocity_set or DefaultConfig.velocity_set
        self.compute_backend = compute_backend or DefaultConfig.default_backend
        if self.compute_backend not in ComputeBackend:
            raise ValueError(f"compute backend {self.compute_backend} is not supported")

    @classmethod
    def register_backend(cls, backend: ComputeBackend):
        def decorator(func):
            owner = func.__qualname__.split(".")[0]
            cls._backends[(owner, backend)] = func
            return func

        return decorator

    def __call__(self, *args, **kwargs):
        impl = self._backends.get((type(self).__name__, self.compute_backend))
        if impl is None:
            supported = [b.name for (name, b) in self._backends if name == type(self).__name__]
            raise NotImplementedError(
                f"{type(self).__name__} has no {self.compute_backend.name} implementation; "
                f"available: {supported}")
        inspect.signature(impl).bind(self, *args, **kwargs)
        return impl(self, *args, **kwargs)

"""Custom primitives with one registered kernel per (platform, backend).

`XLACustomKernel` owns a JAX primitive.  Kernels are registered with
`def_kernel(backend, platform, kg)`, where `kg(**params)` builds the kernel
callable for the primitive's parameters; the first kernel registered for a
platform installs that platform's lowering, which picks the default backend
for the platform at lowering time and lowers the kernel with `mlir.lower_fun`.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Callable, Sequence

import jax
from jax._src import dispatch
from jax.extend.core import Primitive
from jax.interpreters import mlir


def pallas_triton_params() -> dict:
    from jax.experimental.pallas import triton as pltriton
    return dict(compiler_params=pltriton.CompilerParams(num_warps=4))


def pallas_mosaic_tpu_params() -> dict:
    from jax.experimental.pallas import tpu as pltpu
    return dict(compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)))


PALLAS_PARAMS: dict[str, Callable[[], dict]] = {
    "gpu": pallas_triton_params,
    "tpu": pallas_mosaic_tpu_params,
}


@dataclasses.dataclass
class KernelEntry:
    backend: str
    platform: str
    kernel_generator: Callable


class XLACustomKernel:
    def __init__(self, name: str):
        self.name = name
        self.primitive = Primitive(name)
        self.primitive.multiple_results = True
        self.primitive.def_impl(functools.partial(dispatch.apply_primitive, self.primitive))
        self.primitive.def_abstract_eval(self._abstract_eval)
        self._kernels: dict[str, dict[str, KernelEntry]] = {}
        self._defaults: dict[str, str] = {}
        self._registered_platforms: set[str] = set()

    @staticmethod
    def _abstract_eval(*ins, outs: Sequence[jax.ShapeDtypeStruct], **kwargs):
        return [jax.core.ShapedArray(o.shape, o.dtype) for o in outs]

    def def_kernel(self, backend: str, platform: str, kg: Callable, asdefault: bool = False):
        self._kernels.setdefault(platform, {})[backend] = KernelEntry(backend, platform, kg)
        if asdefault or platform not in self._defaults:
            self._defaults[platform] = backend
        if platform not in self._registered_platforms:
            self._register_lowering(platform)
            self._registered_platforms.add(platform)

    def def_pallas_kernel(self, platform: str, kg: Callable, asdefault: bool = False):
        if platform not in ("gpu", "tpu"):
            raise ValueError(f"Pallas kernels target gpu or tpu, not {platform}")
        self.def_kernel("pallas", platform, kg, asdefault)

    def set_default(self, platform: str, backend: str):
        if backend not in self._kernels.get(platform, {}):
            raise ValueError(f"{backend} is not registered for {platform} in {self.name}")
        self._defaults[platform] = backend

    def _register_lowering(self, platform: str):
        def kernel_fn(*args, outs, **params):
            kernels = self._kernels[platform]
            backend = params.pop("backend", None) or self._defaults[platform]
            kernel = kernels[backend].kernel_generator(outs=outs, **params)
            return kernel(*args)

        mlir.register_lowering(self.primitive, mlir.lower_fun(kernel_fn, multiple_results=True),
                               platform=platform)

    def __call__(self, *ins, outs: Sequence[jax.ShapeDtypeStruct], **params):
        return self.primitive.bind(*ins, outs=tuple(outs), **params)

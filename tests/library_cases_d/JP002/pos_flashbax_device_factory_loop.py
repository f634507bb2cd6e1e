"""Prioritised replay helpers built by a device-aware factory (flashbax style).

``make_priority_buffer(device=...)`` returns a frozen dataclass of pure
functions bound with ``functools.partial``; the priority transform uses a
Pallas kernel whose compiler params are picked from ``device``. A release
script then lowers the buffer functions for each platform in the fleet.
"""
import functools
from dataclasses import dataclass
from typing import Callable

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as plt

_DEVICE_PARAMS = {
    "tpu": lambda: pltpu.CompilerParams(dimension_semantics=("parallel",)),
    "gpu": lambda: plt.CompilerParams(num_warps=4),
}


def _priority_kernel(p_ref, o_ref, *, exponent):
    o_ref[...] = jnp.power(jnp.maximum(p_ref[...], 1e-6), exponent)


def _transform_priorities(priorities, *, exponent, device, block=(8, 128)):
    spec = pl.BlockSpec(block, lambda i: (i, 0))
    return pl.pallas_call(
        functools.partial(_priority_kernel, exponent=exponent),
        out_shape=jax.ShapeDtypeStruct(priorities.shape, priorities.dtype),
        grid=(priorities.shape[0] // block[0],),
        in_specs=[spec],
        out_specs=spec,
        compiler_params=_DEVICE_PARAMS[device](),
    )(priorities)


def _sample_probs(priorities, *, transform):
    scaled = transform(priorities)
    return scaled / jnp.sum(scaled)


@dataclass(frozen=True)
class PriorityBuffer:
    transform: Callable
    sample_probs: Callable


def make_priority_buffer(priority_exponent: float = 0.6, device: str = "tpu") -> PriorityBuffer:
    if device not in _DEVICE_PARAMS:
        raise ValueError(f"unsupported device {device!r}")
    transform = functools.partial(_transform_priorities, exponent=priority_exponent, device=device)
    return PriorityBuffer(
        transform=transform,
        sample_probs=functools.partial(_sample_probs, transform=transform),
    )


def build_release(platforms=("tpu", "cuda")):
    buffer = make_priority_buffer(priority_exponent=0.7)
    spec = jax.ShapeDtypeStruct((64, 128), jnp.float32)
    lowered = {}
    for platform in platforms:
        traced = jax.jit(buffer.sample_probs).trace(spec)
        lowered[platform] = traced.lower(lowering_platforms=(platform,))
    return lowered


if __name__ == "__main__":
    print(sorted(build_release()))

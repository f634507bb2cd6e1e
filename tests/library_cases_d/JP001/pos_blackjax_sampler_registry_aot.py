"""AOT-lower every registered sampler's step (blackjax ``SamplingAlgorithm`` style).

Each sampler is a factory returning an ``(init, step)`` pair; the factories
are collected in a registry by a decorator and lowered for the platforms
listed in an ``AOTSpec``.
"""
import dataclasses
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp

from _host_density import student_t_logdensity

SAMPLERS: dict[str, Callable] = {}


def register(name):
    def wrap(factory):
        SAMPLERS[name] = factory
        return factory

    return wrap


class SamplingAlgorithm(NamedTuple):
    init: Callable
    step: Callable


class MHState(NamedTuple):
    position: jax.Array
    logdensity: jax.Array


def _mh_step(logdensity_fn, propose):
    def step(key, state):
        k_prop, k_acc = jax.random.split(key)
        new_pos = propose(k_prop, state.position)
        new_ld = logdensity_fn(new_pos)
        accept = jnp.log(jax.random.uniform(k_acc)) < new_ld - state.logdensity
        pos = jnp.where(accept, new_pos, state.position)
        return MHState(pos, jnp.where(accept, new_ld, state.logdensity))

    return step


@register("rmh")
def build_rmh(logdensity_fn, step_size):
    propose = lambda k, x: x + step_size * jax.random.normal(k, x.shape)
    return SamplingAlgorithm(lambda x: MHState(x, logdensity_fn(x)), _mh_step(logdensity_fn, propose))


@register("independent_mh")
def build_independent(logdensity_fn, step_size):
    propose = lambda k, x: step_size * jax.random.normal(k, x.shape)
    return SamplingAlgorithm(lambda x: MHState(x, logdensity_fn(x)), _mh_step(logdensity_fn, propose))


@dataclasses.dataclass(frozen=True)
class AOTSpec:
    samplers: tuple[str, ...] = ("rmh", "independent_mh")
    platforms: tuple[str, ...] = ("cuda",)
    dim: int = 8
    step_size: float = 0.5


def lower_all(spec: AOTSpec, logdensity_fn):
    key = jax.ShapeDtypeStruct((2,), jnp.uint32)
    state = MHState(jax.ShapeDtypeStruct((spec.dim,), jnp.float32),
                    jax.ShapeDtypeStruct((), jnp.float32))
    lowered = {}
    for name in spec.samplers:
        algorithm = SAMPLERS[name](logdensity_fn, spec.step_size)
        traced = jax.jit(algorithm.step).trace(key, state)
        lowered[name] = traced.lower(lowering_platforms=spec.platforms)
    return lowered


if __name__ == "__main__":
    artifacts = lower_all(AOTSpec(), student_t_logdensity(df=3.0))
    print(sorted(artifacts))

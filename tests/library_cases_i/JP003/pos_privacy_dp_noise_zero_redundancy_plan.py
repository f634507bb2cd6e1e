"""Memory planning of DP-SGD noise addition with zero-redundancy flattened noise state
(jax_privacy noise_addition + sharding_utils layout), on the production mesh shape."""

import dataclasses
import functools

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, PartitionSpec

from _privacy_sharding import abstract_params, flatten_with_zero_redundancy

PARAM_SHAPES = {"embed": (1000, 64), "proj": (64, 64), "head": (64, 10)}


@dataclasses.dataclass(frozen=True)
class PrivacyConfig:
    noise_multiplier: float = 1.1
    l2_clip_norm: float = 1.0
    mesh_shape: tuple = (4, 2)
    mesh_axes: tuple = ("replica", "fsdp")


def _fsdp_spec(name, shape):
    return PartitionSpec("fsdp", None) if shape[0] % 2 == 0 else PartitionSpec()


def privatize(flat_grads, noise_state, key, *, stddev):
    keys = jax.random.split(key, len(flat_grads))
    out = {}
    for k, (name, g) in zip(keys, sorted(flat_grads.items())):
        fresh = jax.random.normal(k, g.shape, g.dtype) * stddev
        out[name] = g + fresh - 0.5 * noise_state[name]
    return out, {name: out[name] - flat_grads[name] for name in out}


def plan(config: PrivacyConfig):
    mesh = AbstractMesh(config.mesh_shape, config.mesh_axes)
    params = abstract_params(PARAM_SHAPES, mesh, _fsdp_spec)
    flat = {name: flatten_with_zero_redundancy(p) for name, p in params.items()}
    stddev = config.noise_multiplier * config.l2_clip_norm
    step = jax.jit(functools.partial(privatize, stddev=stddev))
    key = jax.ShapeDtypeStruct((), jax.random.key(0).dtype)
    return step.trace(flat, flat, key).lower()


if __name__ == "__main__":
    lowered = plan(PrivacyConfig())
    print(len(lowered.as_text()))

"""Row-normalised sampling probabilities with a custom SPMD partitioning rule.

A flashbax-style buffer keeps priorities as ``(add_batch, time)``; the
normalisation is a ``custom_partitioning`` op so each shard normalises its own
rows. The buffer functions are bundled by a factory and AOT-lowered for each
target platform against the learner's abstract mesh.
"""
from dataclasses import dataclass
from typing import Callable

import jax
import jax.numpy as jnp
from jax.experimental.custom_partitioning import custom_partitioning
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P


def _row_normalise(p):
    return p / jnp.sum(p, axis=-1, keepdims=True)


@custom_partitioning
def row_normalise(p):
    return _row_normalise(p)


def _partition(mesh, arg_shapes, result_shape):
    sharding = arg_shapes[0].sharding
    return mesh, _row_normalise, sharding, (sharding,)


def _infer(mesh, arg_shapes, result_shape):
    return arg_shapes[0].sharding


row_normalise.def_partition(
    partition=_partition, infer_sharding_from_operands=_infer, sharding_rule="b t -> b t"
)


@dataclass(frozen=True)
class PriorityFns:
    probabilities: Callable


def make_priority_fns(priority_exponent: float = 0.6) -> PriorityFns:
    def probabilities(priorities):
        return row_normalise(jnp.power(priorities + 1e-6, priority_exponent))

    return PriorityFns(probabilities=probabilities)


LEARNER_MESH = AbstractMesh((4,), ("batch",), axis_types=(AxisType.Auto,))


def aot_lower(fns: PriorityFns, platforms=("tpu", "cuda"), add_batch=64, max_time=128):
    sharding = NamedSharding(LEARNER_MESH, P("batch"))
    spec = jax.ShapeDtypeStruct((add_batch, max_time), jnp.float32, sharding=sharding)
    jitted = jax.jit(fns.probabilities, out_shardings=sharding)
    traced = jitted.trace(spec)
    return {platform: traced.lower(lowering_platforms=(platform,)) for platform in platforms}


if __name__ == "__main__":
    print(sorted(aot_lower(make_priority_fns())))

import functools

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P

TRAIN_MESH = AbstractMesh((2, 4), ("fsdp", "tensor"))


class DenseState:
    shardings = {
        "kernel": NamedSharding(TRAIN_MESH, P("fsdp", "tensor")),
        "bias": NamedSharding(TRAIN_MESH, P("tensor")),
        "step": NamedSharding(TRAIN_MESH, P()),
    }

    @staticmethod
    @functools.partial(jax.jit, out_shardings=shardings)
    def init(key):
        return {
            "kernel": jax.random.normal(key, (256, 1024), jnp.float32) * 0.02,
            "bias": jnp.zeros((1024,), jnp.float32),
            "step": jnp.zeros((), jnp.int32),
        }


def lower_init(state_cls, key, **lower_kwargs):
    traced = state_cls.init.trace(key)
    return traced.lower(**lower_kwargs)


def get_abstract_state(state_cls):
    key = jax.ShapeDtypeStruct((2,), jnp.uint32)
    lowered = lower_init(state_cls, key)
    return lowered.out_info


if __name__ == "__main__":
    print(jax.tree.map(lambda s: s.shape, get_abstract_state(DenseState)))

"""Ahead-of-time lowering of a sharded model for a TPU pod, from a CPU-only build host.

The pod is described with an AbstractMesh (no devices here). Contains JP003 and
JP004 mistakes on purpose, next to correct code.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AbstractDevice
from jax.sharding import AbstractMesh as AM
from jax.sharding import NamedSharding, PartitionSpec as P

POD = AM((4, 2), ("dp", "tp"))
POD_PLATFORMS = ("tpu",)
V5E = AbstractDevice(device_kind="TPU v5 lite", num_cores=1, platform="tpu")

BATCH = NamedSharding(POD, P("dp", None))
COLUMNS = NamedSharding(POD, P(None, "tp"))


@partial(jax.jit, in_shardings=(BATCH, COLUMNS), out_shardings=BATCH)
def forward(x, w):
    h = jnp.einsum("bd,df->bf", x, w)
    return jax.nn.relu(h).sum(axis=-1, keepdims=True) * jnp.ones_like(x)


def _host_topk(scores):
    return np.argsort(scores, axis=-1)[..., -5:].astype(np.int32)


def rerank(x):
    scores = x.sum(axis=-1, keepdims=True) * x
    idx = jax.pure_callback(
        _host_topk, jax.ShapeDtypeStruct(scores.shape[:-1] + (5,), jnp.int32), scores
    )
    return idx


def specs():
    x = jax.ShapeDtypeStruct((64, 128), jnp.bfloat16)
    w = jax.ShapeDtypeStruct((128, 128), jnp.bfloat16)
    return x, w


class PodCompiler:
    def __init__(self, platforms=POD_PLATFORMS):
        self.platforms = platforms

    def lower_forward(self):
        # Fine: lowering platforms given for an AbstractMesh-only computation.
        return forward.trace(*specs()).lower(lowering_platforms=self.platforms)

    def lower_forward_quick(self):
        # Mistake (JP003): no lowering_platforms and only an AbstractMesh in sight. JAX
        # raises "Passing lowering_platforms via jax.export or
        # jit(f).trace(*args).lower(lowering_platforms=...) is required when only
        # AbstractMesh exists in a jitted computation. Got context mesh: Mesh()".
        return forward.trace(*specs()).lower()

    def export_forward(self):
        # Fine: jax.export always supplies platforms.
        return jax.export.export(forward, platforms=self.platforms)(*specs())

    def lower_rerank(self):
        f = jax.jit(rerank, in_shardings=BATCH)
        # Mistake (JP004): pure_callback needs devices during lowering, an AbstractMesh
        # has none: "AbstractMesh cannot be used when jaxpr contains primitives that
        # require devices to be present during lowering."
        return f.trace(specs()[0]).lower(lowering_platforms=("cpu",))

    def lower_with_context(self):
        # Fine: the context mesh has an abstract TPU device, so .lower() infers ("tpu",).
        with jax.sharding.use_abstract_mesh(AM((4, 2), ("dp", "tp"), abstract_device=V5E)):
            f = jax.jit(lambda x: x * 2, in_shardings=P("dp"))
            return f.trace(specs()[0]).lower()

    def warm_cache(self):
        with jax.sharding.use_abstract_mesh(POD):
            # Mistake (JP003): an eager op under use_abstract_mesh runs a computation
            # with only an AbstractMesh and raises the same "Passing lowering_platforms
            # ... is required when only AbstractMesh exists" error.
            return jnp.zeros((64, 128), jnp.bfloat16)


def local_rerank(x):
    # Fine: a concrete mesh has devices, so the callback can be lowered.
    mesh = jax.make_mesh((1,), ("dp",))
    f = jax.jit(rerank, in_shardings=NamedSharding(mesh, P("dp", None)))
    return f.trace(x).lower().compile()(x)


if __name__ == "__main__":
    pc = PodCompiler()
    print(pc.lower_forward().as_text().splitlines()[0][:60])
    print(pc.export_forward().platforms)
    print(pc.lower_with_context().as_text().splitlines()[0][:60])
    print(local_rerank(jnp.ones((8, 16))).shape)

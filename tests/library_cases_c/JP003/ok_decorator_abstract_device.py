import contextlib
import functools

import jax
import jax.numpy as jnp
from jax.sharding import AbstractDevice, AbstractMesh, PartitionSpec as P

DP, TP = 4, 2
TPU_V5E = AbstractDevice(device_kind="TPU v5 lite", num_cores=1, platform="tpu")


@contextlib.contextmanager
def topology(dp, tp, device=None):
    mesh = AbstractMesh((dp, tp), ("dp", "tp"), abstract_device=device)
    with jax.sharding.use_abstract_mesh(mesh):
        yield mesh


def under_topology(**topo):
    def wrap(fn):
        @functools.wraps(fn)
        def inner(*args, **kwargs):
            with topology(**topo):
                return fn(*args, **kwargs)

        return inner

    return wrap


def attention_scores(q, k):
    scale = q.shape[-1] ** -0.5
    return jax.nn.softmax(jnp.einsum("bhqd,bhkd->bhqk", q, k) * scale, axis=-1)


@under_topology(dp=DP, tp=TP, device=TPU_V5E)
def lower_scores(batch, heads, seq, dim):
    spec = jax.ShapeDtypeStruct((batch, heads, seq, dim), jnp.bfloat16)
    jitted = jax.jit(attention_scores, in_shardings=(P("dp", "tp"), P("dp", "tp")))
    return jitted.trace(spec, spec).lower()


if __name__ == "__main__":
    lowered = lower_scores(8, 4, 128, 64)
    print(lowered.as_text()[:80])

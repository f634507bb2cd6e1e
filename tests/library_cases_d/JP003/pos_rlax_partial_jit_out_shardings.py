"""Batched TD(lambda) value loss, jitted with fixed output shardings.

Per-example losses follow rlax's functional style (``td_lambda`` on one
trajectory, ``jax.vmap`` over the batch). The jitted entry point is declared
with ``functools.partial(jax.jit, out_shardings=...)`` against a mesh that is
described, not instantiated, so a pre-flight check can run anywhere.
"""
import functools

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

LEARNER_MESH = AbstractMesh((4,), ("batch",), axis_types=(AxisType.Auto,))
REPLICATED = NamedSharding(LEARNER_MESH, P())
BATCH_SHARDED = NamedSharding(LEARNER_MESH, P("batch"))


def lambda_returns(r_t, discount_t, v_t, lambda_=0.9):
    def step(acc, xs):
        r, d, v = xs
        acc = r + d * ((1 - lambda_) * v + lambda_ * acc)
        return acc, acc

    _, returns = lax.scan(step, v_t[-1], (r_t, discount_t, v_t), reverse=True)
    return returns


def td_lambda(v_tm1, r_t, discount_t, v_t, lambda_=0.9):
    target = lax.stop_gradient(lambda_returns(r_t, discount_t, v_t, lambda_))
    return 0.5 * jnp.mean((target - v_tm1) ** 2)


@functools.partial(jax.jit, out_shardings=REPLICATED, static_argnames="lambda_")
def batched_value_loss(v_tm1, r_t, discount_t, v_t, lambda_=0.9):
    per_example = jax.vmap(functools.partial(td_lambda, lambda_=lambda_))(v_tm1, r_t, discount_t, v_t)
    return jnp.mean(per_example)


def preflight(batch_size=64, unroll=20):
    spec = jax.ShapeDtypeStruct((batch_size, unroll), jnp.float32, sharding=BATCH_SHARDED)
    traced = batched_value_loss.trace(spec, spec, spec, spec, lambda_=0.95)
    return traced.lower()


if __name__ == "__main__":
    lowered = preflight()
    print(lowered.as_text()[:120])

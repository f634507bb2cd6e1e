from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P


class MomentumState(NamedTuple):
  count: jax.Array
  trace: dict


def init_momentum(params):
  return MomentumState(jnp.zeros([], jnp.int32), jax.tree_util.tree_map(jnp.zeros_like, params))


def update_momentum(grads, state, decay=0.9, lr=1e-2):
  trace = jax.tree_util.tree_map(lambda t, g: decay * t + g, state.trace, grads)
  updates = jax.tree_util.tree_map(lambda t: -lr * t, trace)
  return updates, MomentumState(state.count + 1, trace)


def with_sharding(tree, mesh, spec_fn):
  return jax.tree_util.tree_map(
      lambda s: jax.ShapeDtypeStruct(s.shape, s.dtype, sharding=NamedSharding(mesh, spec_fn(s))), tree)


def fsdp_spec(s):
  return P("fsdp") if s.ndim and s.shape[0] % 4 == 0 else P()


def lower_update(update_fn, grads, state, *, platforms=None):
  traced = jax.jit(update_fn).trace(grads, state)
  return traced.lower(lowering_platforms=platforms)


if __name__ == "__main__":
  mesh = AbstractMesh((4,), ("fsdp",), axis_types=(AxisType.Auto,))
  params = {"dense": {"kernel": jnp.zeros((512, 128)), "bias": jnp.zeros((128,))}}
  abstract_params = jax.eval_shape(lambda: params)
  abstract_state = jax.eval_shape(init_momentum, abstract_params)
  grads = with_sharding(abstract_params, mesh, fsdp_spec)
  state = with_sharding(abstract_state, mesh, fsdp_spec)
  lowered = lower_update(update_momentum, grads, state)
  print(lowered.as_text()[:100])

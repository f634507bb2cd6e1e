"""Derives optimizer-state shapes for a described mesh, then lowers the update step for the compile platform."""

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

import _sharding_rules as rules


def zeros_like_tree(shapes):
  return {k: jnp.zeros(s, jnp.float32) for k, s in shapes.items()}


def adam_init(param_shapes):
  return {"mu": zeros_like_tree(param_shapes), "nu": zeros_like_tree(param_shapes), "count": jnp.zeros((), jnp.int32)}


def update(params, opt_state, grads):
  mu = jax.tree.map(lambda m, g: 0.9 * m + 0.1 * g, opt_state["mu"], grads)
  nu = jax.tree.map(lambda n, g: 0.999 * n + 0.001 * g * g, opt_state["nu"], grads)
  new = jax.tree.map(lambda p, m, n: p - 1e-3 * m / (jnp.sqrt(n) + 1e-8), params, mu, nu)
  return new, {"mu": mu, "nu": nu, "count": opt_state["count"] + 1}


if __name__ == "__main__":
  config = rules.HyperParameters(shard_mode="explicit")
  shapes = {"wi": (config.emb_dim, config.mlp_dim), "wo": (config.mlp_dim, config.emb_dim)}
  with jax.sharding.use_abstract_mesh(rules.abstract_mesh(config)):
    opt_state = jax.eval_shape(lambda: adam_init(shapes))
    params = {k: jax.ShapeDtypeStruct(s, jnp.float32) for k, s in shapes.items()}
    traced = jax.jit(update, in_shardings=P()).trace(params, opt_state, params)
    lowered = traced.lower(lowering_platforms=(config.compile_platform,))
  print(len(lowered.as_text()))

"""Transformer MLP whose activations are constrained with logical sharding names; lowered on this host."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding

import _sharding_rules as rules


def maybe_shard_with_logical(x, logical_names, mesh, shard_mode):
  if shard_mode != "auto":
    return x
  return jax.lax.with_sharding_constraint(x, NamedSharding(mesh, rules.logical_to_mesh_axes(logical_names)))


def make_mlp_block(config):
  mesh = rules.abstract_mesh(config)

  def mlp_block(params, x):
    h = jnp.dot(x, params["wi"])
    h = maybe_shard_with_logical(h, ("activation_batch", "mlp"), mesh, config.shard_mode)
    out = jnp.dot(jax.nn.gelu(h), params["wo"])
    return maybe_shard_with_logical(out, ("activation_batch", "activation_embed"), mesh, config.shard_mode)

  return mlp_block


if __name__ == "__main__":
  config = rules.HyperParameters()
  params = {
      "wi": jax.ShapeDtypeStruct((config.emb_dim, config.mlp_dim), jnp.float32),
      "wo": jax.ShapeDtypeStruct((config.mlp_dim, config.emb_dim), jnp.float32),
  }
  x = jax.ShapeDtypeStruct((config.global_batch_size, config.emb_dim), jnp.float32)
  lowered = jax.jit(make_mlp_block(config)).trace(params, x).lower()
  print(len(lowered.as_text()))

"""Initializes model state directly into its target sharding, lowered to check the init program."""

import functools

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding

import _sharding_rules as rules

PARAM_LOGICAL_AXES = {"embedding": ("vocab", "embed"), "wi": ("embed", "mlp"), "wo": ("mlp", "embed")}


def init_state_fn(key, config):
  k1, k2, k3 = jax.random.split(key, 3)
  return {
      "embedding": jax.random.normal(k1, (config.vocab_size, config.emb_dim)),
      "wi": jax.random.normal(k2, (config.emb_dim, config.mlp_dim)),
      "wo": jax.random.normal(k3, (config.mlp_dim, config.emb_dim)),
  }


def get_state_shardings(config, mesh):
  return {k: NamedSharding(mesh, rules.logical_to_mesh_axes(v)) for k, v in PARAM_LOGICAL_AXES.items()}


def setup_initial_state(config):
  mesh = rules.abstract_mesh(config)
  state_mesh_shardings = get_state_shardings(config, mesh)
  init = functools.partial(init_state_fn, config=config)
  jit_init = functools.partial(jax.jit, out_shardings=state_mesh_shardings)(init)
  key = jax.ShapeDtypeStruct((), jax.random.key(0).dtype)
  return jit_init.trace(key).lower()


if __name__ == "__main__":
  lowered = setup_initial_state(rules.HyperParameters(vocab_size=1024))
  print(len(lowered.as_text()))

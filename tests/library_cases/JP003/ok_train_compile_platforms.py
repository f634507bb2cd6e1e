"""Ahead-of-time lowering of a transformer MLP train step for the configured compile platform."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding

import _sharding_rules as rules

PARAM_AXES = {"wi": ("embed", "mlp"), "wo": ("mlp", "embed"), "embedding": ("vocab", "embed")}


def get_abstract_state(config, mesh):
  shapes = {
      "wi": (config.emb_dim, config.mlp_dim),
      "wo": (config.mlp_dim, config.emb_dim),
      "embedding": (config.vocab_size, config.emb_dim),
  }
  shardings = {k: NamedSharding(mesh, rules.logical_to_mesh_axes(PARAM_AXES[k])) for k in shapes}
  state = {k: jax.ShapeDtypeStruct(s, jnp.float32, sharding=shardings[k]) for k, s in shapes.items()}
  return state, shardings


def train_step(state, tokens):
  def loss_fn(params):
    h = params["embedding"][tokens]
    h = jax.nn.relu(h @ params["wi"]) @ params["wo"]
    return jnp.mean(h ** 2)

  loss, grads = jax.value_and_grad(loss_fn)(state)
  return jax.tree.map(lambda p, g: p - 1e-3 * g, state, grads), loss


def jit_and_lower(func, func_input_args, in_shardings, out_shardings, platform):
  jitted = jax.jit(func, in_shardings=in_shardings, out_shardings=out_shardings, donate_argnums=0)
  return jitted.trace(*func_input_args).lower(lowering_platforms=(platform,))


def main(config=rules.HyperParameters()):
  mesh = rules.abstract_mesh(config)
  state, state_shardings = get_abstract_state(config, mesh)
  data_sharding = NamedSharding(mesh, rules.logical_to_mesh_axes(("activation_batch", None)))
  tokens = jax.ShapeDtypeStruct((config.global_batch_size, config.max_target_length), jnp.int32)
  lowered = jit_and_lower(
      train_step, (state, tokens), (state_shardings, data_sharding), (state_shardings, None), config.compile_platform
  )
  print(len(lowered.as_text()))


if __name__ == "__main__":
  main()

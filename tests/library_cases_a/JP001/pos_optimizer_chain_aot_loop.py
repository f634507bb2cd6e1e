from typing import Any, Callable, NamedTuple

import jax
import jax.numpy as jnp

from _deploy import DEFAULT_LEARNING_RATE, DEPLOY_PLATFORMS


class GradientTransformation(NamedTuple):
  init: Callable[[Any], Any]
  update: Callable[..., Any]


class ScaleByAdamState(NamedTuple):
  count: jax.Array
  mu: Any
  nu: Any


def scale_by_adam(b1=0.9, b2=0.999, eps=1e-8):
  def init(params):
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    return ScaleByAdamState(jnp.zeros([], jnp.int32), zeros, zeros)

  def update(updates, state, params=None):
    mu = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, state.mu, updates)
    nu = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, state.nu, updates)
    count = state.count + 1
    out = jax.tree_util.tree_map(lambda m, v: m / (jnp.sqrt(v) + eps), mu, nu)
    return out, ScaleByAdamState(count, mu, nu)

  return GradientTransformation(init, update)


def print_global_norm(prefix="grad_norm"):
  def update(updates, state, params=None):
    norm = jnp.sqrt(sum(jnp.sum(u * u) for u in jax.tree_util.tree_leaves(updates)))
    jax.debug.print(prefix + " = {n}", n=norm)
    return updates, state

  return GradientTransformation(lambda params: (), update)


def scale(step_size):
  return GradientTransformation(
      lambda params: (),
      lambda updates, state, params=None: (jax.tree_util.tree_map(lambda u: step_size * u, updates), state))


def chain(*transforms):
  def init(params):
    return tuple(t.init(params) for t in transforms)

  def update(updates, state, params=None):
    new_state = []
    for t, s in zip(transforms, state):
      updates, s = t.update(updates, s, params)
      new_state.append(s)
    return updates, tuple(new_state)

  return GradientTransformation(init, update)


if __name__ == "__main__":
  params = {"kernel": jnp.ones((8, 8)), "bias": jnp.zeros((8,))}
  opt = chain(print_global_norm(), scale_by_adam(), scale(-DEFAULT_LEARNING_RATE))
  state = opt.init(params)
  artifacts = {}
  for platform in DEPLOY_PLATFORMS:
    traced = jax.jit(opt.update).trace(params, state, params)
    artifacts[platform] = traced.lower(lowering_platforms=(platform,))
  print(sorted(artifacts))

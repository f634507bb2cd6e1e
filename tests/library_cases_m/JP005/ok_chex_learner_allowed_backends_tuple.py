"""An actor/learner set-up checks, ahead of time, that every program lowers for
the platforms it is allowed to use: the actor's for the CPU, the learner's for
the TPU."""

import jax
import jax.numpy as jnp

from _chex_backends import aot_lower, restrict_backends

ACTOR_BACKENDS = ("cpu",)
LEARNER_BACKENDS = ("tpu",)


def policy(params, obs):
  return jnp.argmax(obs @ params["w"], axis=-1)


def td_update(params, obs, actions, targets):
  def loss(p):
    q = obs @ p["w"]
    q_a = jnp.take_along_axis(q, actions[:, None], axis=-1)[:, 0]
    return jnp.mean((q_a - targets) ** 2)
  grads = jax.grad(loss)(params)
  return jax.tree.map(lambda p, g: p - 1e-3 * g, params, grads)


def check_programs():
  params = {"w": jax.ShapeDtypeStruct((16, 4), jnp.float32)}
  obs = jax.ShapeDtypeStruct((128, 16), jnp.float32)
  actions = jax.ShapeDtypeStruct((128,), jnp.int32)
  targets = jax.ShapeDtypeStruct((128,), jnp.float32)
  with restrict_backends(allowed=ACTOR_BACKENDS):
    actor = aot_lower(policy, params, obs)
  with restrict_backends(allowed=LEARNER_BACKENDS):
    learner = aot_lower(td_update, params, obs, actions, targets)
  return actor, learner


if __name__ == "__main__":
  for lowered in check_programs():
    print(lowered.as_text()[:80])

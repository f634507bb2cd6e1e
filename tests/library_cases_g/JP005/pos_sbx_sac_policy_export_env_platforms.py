"""Export a trained SAC actor's deterministic policy for the robot controllers.

Shaped like a jax port of a stable-baselines style library: a policy class
with ``build(key, ...)`` that creates an actor train state, jitted static
``select_action``/``sample_action`` helpers on the base policy, a squashed
Gaussian whose ``mode()`` goes through a tanh bijector, and ``_predict``. The
export script takes its target platforms from the environment, as the
launcher sets them.
"""

import dataclasses
import os
from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as np


@dataclasses.dataclass
class TanhSquashedGaussian:
    loc: jax.Array
    scale: jax.Array

    def mode(self):
        return jnp.tanh(self.loc)

    def sample(self, seed):
        return jnp.tanh(self.loc + self.scale * jax.random.normal(seed, self.loc.shape))


@dataclasses.dataclass
class TrainState:
    apply_fn: Callable
    params: Any
    step: int = 0

    @classmethod
    def create(cls, *, apply_fn, params):
        return cls(apply_fn=apply_fn, params=params)


def init_mlp(key, sizes: Sequence[int]):
    params = []
    for k, (n_in, n_out) in zip(jax.random.split(key, len(sizes) - 1), zip(sizes[:-1], sizes[1:])):
        params.append({"w": jax.random.normal(k, (n_in, n_out)) / np.sqrt(n_in), "b": jnp.zeros(n_out)})
    return params


class Actor:
    def __init__(self, action_dim: int, net_arch: Sequence[int] = (256, 256),
                 log_std_min: float = -20.0, log_std_max: float = 2.0):
        self.action_dim, self.net_arch = action_dim, tuple(net_arch)
        self.log_std_min, self.log_std_max = log_std_min, log_std_max

    def init(self, key, obs_dim):
        return init_mlp(key, (obs_dim,) + self.net_arch + (2 * self.action_dim,))

    def apply(self, params, x):
        for layer in params[:-1]:
            x = jax.nn.relu(x @ layer["w"] + layer["b"])
        out = x @ params[-1]["w"] + params[-1]["b"]
        mean, log_std = jnp.split(out, 2, axis=-1)
        log_std = jnp.clip(log_std, self.log_std_min, self.log_std_max)
        return TanhSquashedGaussian(mean, jnp.exp(log_std))


class BaseJaxPolicy:
    @staticmethod
    @jax.jit
    def sample_action(actor_state, observations, key):
        return actor_state.apply_fn(actor_state.params, observations).sample(seed=key)

    @staticmethod
    def select_action(actor_state, observations):
        return actor_state.apply_fn(actor_state.params, observations).mode()


class SACPolicy(BaseJaxPolicy):
    def __init__(self, obs_dim: int, action_dim: int, net_arch=(256, 256)):
        self.obs_dim, self.action_dim = obs_dim, action_dim
        self.actor = Actor(action_dim, net_arch)
        self.actor_state = None

    def build(self, key):
        key, actor_key = jax.random.split(key)
        self.actor_state = TrainState.create(apply_fn=self.actor.apply,
                                             params=self.actor.init(actor_key, self.obs_dim))
        return key

    def _predict(self, observation, deterministic=True):
        if deterministic:
            return BaseJaxPolicy.select_action(self.actor_state, observation)
        return BaseJaxPolicy.sample_action(self.actor_state, observation, jax.random.key(0))


def export_policy(policy: SACPolicy, batch_size: int = 1,
                  platforms=os.environ.get("SBX_EXPORT_PLATFORMS", "cpu")):
    params = policy.actor_state.params
    apply_fn = policy.actor_state.apply_fn

    def act(params, obs):
        return BaseJaxPolicy.select_action(TrainState(apply_fn, params), obs)

    obs_spec = jax.ShapeDtypeStruct((batch_size, policy.obs_dim), jnp.float32)
    param_spec = jax.tree.map(lambda x: jax.ShapeDtypeStruct(x.shape, x.dtype), params)
    return jax.export.export(jax.jit(act), platforms=platforms)(param_spec, obs_spec)


if __name__ == "__main__":
    policy = SACPolicy(obs_dim=17, action_dim=6)
    policy.build(jax.random.key(42))
    exported = export_policy(policy, batch_size=1)
    print(exported.platforms, exported.out_avals)

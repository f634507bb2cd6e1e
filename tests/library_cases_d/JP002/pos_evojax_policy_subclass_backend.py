"""Neuro-evolution trainer that AOT-lowers the population's forward pass.

Class layout follows evojax: an abstract ``PolicyNetwork`` with a
``get_actions`` method, a concrete MLP policy whose hidden layer is a Pallas
kernel, and a ``Trainer`` that owns a config and lowers the policy for its
``backend``.
"""
from abc import ABC, abstractmethod
from dataclasses import dataclass

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


class PolicyNetwork(ABC):
    num_params: int

    def kernel_params(self):
        return None

    @abstractmethod
    def get_actions(self, obs, params):
        raise NotImplementedError


def _dense_tanh_kernel(x_ref, w_ref, o_ref):
    o_ref[...] = jnp.tanh(jnp.dot(x_ref[...], w_ref[...], preferred_element_type=jnp.float32))


class PallasMLPPolicy(PolicyNetwork):
    def __init__(self, obs_dim=128, hidden=128, act_dim=8):
        self.obs_dim, self.hidden, self.act_dim = obs_dim, hidden, act_dim
        self.num_params = obs_dim * hidden + hidden * act_dim

    def kernel_params(self):
        return pltpu.CompilerParams(vmem_limit_bytes=32 * 1024 * 1024)

    def _hidden(self, obs, w1):
        return pl.pallas_call(
            _dense_tanh_kernel,
            out_shape=jax.ShapeDtypeStruct((obs.shape[0], self.hidden), jnp.float32),
            compiler_params=self.kernel_params(),
        )(obs, w1)

    def get_actions(self, obs, params):
        split = self.obs_dim * self.hidden
        w1 = params[:split].reshape(self.obs_dim, self.hidden)
        w2 = params[split:].reshape(self.hidden, self.act_dim)
        return self._hidden(obs, w1) @ w2


@dataclass
class TrainerConfig:
    pop_size: int = 16
    num_envs: int = 8
    backend: str = "cuda"


class Trainer:
    def __init__(self, policy: PolicyNetwork, config: TrainerConfig):
        self.policy = policy
        self.config = config

    @property
    def backend(self):
        return self.config.backend

    def lower_population_step(self):
        obs = jax.ShapeDtypeStruct((self.config.num_envs, self.policy.obs_dim), jnp.float32)
        params = jax.ShapeDtypeStruct((self.config.pop_size, self.policy.num_params), jnp.float32)
        step = jax.vmap(self.policy.get_actions, in_axes=(None, 0))
        return jax.jit(step).trace(obs, params).lower(lowering_platforms=(self.backend,))


if __name__ == "__main__":
    trainer = Trainer(PallasMLPPolicy(), TrainerConfig())
    lowered = trainer.lower_population_step()
    print(lowered.as_text()[:120])

"""Export the evaluation rollout of a trained CartPole policy for the eval farm.

Structure after a jax-native RL environment suite: environments built by id
from a registry of factories, ``(env, env_params)`` pairs, a ``LogWrapper`` that
tracks episode returns, and a training-script style ``make_eval(config)`` whose
``DEBUG`` switch streams metrics to the host with ``jax.debug.callback``.
"""

import dataclasses
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp


@partial(jax.tree_util.register_dataclass)
@dataclasses.dataclass
class EnvState:
    x: jax.Array
    x_dot: jax.Array
    theta: jax.Array
    theta_dot: jax.Array
    time: jax.Array


@dataclasses.dataclass(frozen=True)
class EnvParams:
    gravity: float = 9.8
    masspole: float = 0.1
    total_mass: float = 1.1
    length: float = 0.5
    force_mag: float = 10.0
    tau: float = 0.02
    max_steps_in_episode: int = 500


class CartPole:
    @property
    def default_params(self) -> EnvParams:
        return EnvParams()

    def reset(self, key, params):
        init = jax.random.uniform(key, minval=-0.05, maxval=0.05, shape=(4,))
        state = EnvState(init[0], init[1], init[2], init[3], jnp.array(0))
        return self.get_obs(state), state

    def step(self, key, state, action, params):
        force = params.force_mag * (2.0 * action - 1.0)
        costh, sinth = jnp.cos(state.theta), jnp.sin(state.theta)
        pml = params.masspole * params.length
        temp = (force + pml * state.theta_dot**2 * sinth) / params.total_mass
        thetaacc = (params.gravity * sinth - costh * temp) / (
            params.length * (4.0 / 3.0 - params.masspole * costh**2 / params.total_mass))
        xacc = temp - pml * thetaacc * costh / params.total_mass
        state = EnvState(state.x + params.tau * state.x_dot, state.x_dot + params.tau * xacc,
                         state.theta + params.tau * state.theta_dot,
                         state.theta_dot + params.tau * thetaacc, state.time + 1)
        done = (jnp.abs(state.x) > 2.4) | (jnp.abs(state.theta) > 0.2095) | (
            state.time >= params.max_steps_in_episode)
        obs_re, state_re = self.reset(key, params)
        state = jax.tree.map(lambda a, b: jnp.where(done, a, b), state_re, state)
        return self.get_obs(state), state, jnp.float32(1.0), done, {}

    def get_obs(self, state):
        return jnp.array([state.x, state.x_dot, state.theta, state.theta_dot])


_registry = {"CartPole-v1": CartPole}


def make(env_id: str, **env_kwargs):
    if env_id not in _registry:
        raise ValueError(f"{env_id} is not in registered environments.")
    env = _registry[env_id](**env_kwargs)
    return env, env.default_params


@partial(jax.tree_util.register_dataclass)
@dataclasses.dataclass
class LogEnvState:
    env_state: EnvState
    episode_returns: jax.Array
    returned_episode_returns: jax.Array


class LogWrapper:
    def __init__(self, env):
        self._env = env

    def __getattr__(self, name):
        return getattr(self._env, name)

    def reset(self, key, params):
        obs, env_state = self._env.reset(key, params)
        return obs, LogEnvState(env_state, jnp.float32(0), jnp.float32(0))

    def step(self, key, state, action, params):
        obs, env_state, reward, done, info = self._env.step(key, state.env_state, action, params)
        ret = state.episode_returns + reward
        state = LogEnvState(env_state, ret * (1 - done),
                            state.returned_episode_returns * (1 - done) + ret * done)
        info["returned_episode_returns"] = state.returned_episode_returns
        info["returned_episode"] = done
        return obs, state, reward, done, info


def make_eval(config: dict[str, Any]):
    env, env_params = make(config["ENV_NAME"])
    env = LogWrapper(env)

    def policy(params, obs):
        return (obs @ params["w"] + params["b"] > 0).astype(jnp.int32)

    def evaluate(params, rng):
        rng, reset_rng = jax.random.split(rng)
        obs, state = env.reset(reset_rng, env_params)

        def _env_step(carry, _):
            obs, state, rng = carry
            rng, step_rng = jax.random.split(rng)
            obs, state, reward, done, info = env.step(step_rng, state, policy(params, obs), env_params)
            if config.get("DEBUG"):
                def callback(info):
                    if info["returned_episode"]:
                        print(f"episodic return={float(info['returned_episode_returns']):.1f}")
                jax.debug.callback(callback, info)
            return (obs, state, rng), info["returned_episode_returns"]

        _, returns = jax.lax.scan(_env_step, (obs, state, rng), None, config["NUM_STEPS"])
        return returns.max()

    return evaluate


CONFIG = {
    "ENV_NAME": "CartPole-v1",
    "NUM_STEPS": 1000,
    "DEBUG": True,
    "EXPORT_PLATFORMS": ["cuda"],
}


if __name__ == "__main__":
    evaluate = jax.jit(make_eval(CONFIG))
    param_specs = {"w": jax.ShapeDtypeStruct((4,), jnp.float32), "b": jax.ShapeDtypeStruct((), jnp.float32)}
    key_spec = jax.ShapeDtypeStruct((2,), jnp.uint32)
    exported = jax.export.export(evaluate, platforms=CONFIG["EXPORT_PLATFORMS"])(param_specs, key_spec)
    print(exported.platforms)

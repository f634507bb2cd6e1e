"""Example launcher: lower a CMA-style population evaluation for target platforms.

Written like evojax's ``examples/train_*.py`` scripts: an ``argparse`` parser
holds every knob and a ``main(config)`` builds the policy and task.
"""
import argparse

import jax
import jax.numpy as jnp


def parse_args(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--pop-size", type=int, default=64, help="ES population size.")
    parser.add_argument("--hidden-size", type=int, default=32, help="Policy hidden size.")
    parser.add_argument("--num-tests", type=int, default=16, help="Rollouts per member.")
    parser.add_argument("--platforms", nargs="+", default="cpu", help="Platforms to lower for.")
    parser.add_argument("--debug", action="store_true", help="Print the lowered module.")
    config, _ = parser.parse_known_args(argv)
    return config


def mlp_policy(params, obs, hidden_size, obs_dim=4, act_dim=1):
    split = obs_dim * hidden_size
    w1 = params[:split].reshape(obs_dim, hidden_size)
    w2 = params[split:split + hidden_size * act_dim].reshape(hidden_size, act_dim)
    return jnp.tanh(jnp.tanh(obs @ w1) @ w2)


def cartpole_score(params, obs, hidden_size):
    actions = mlp_policy(params, obs, hidden_size)
    return -jnp.mean((obs[:, 2:3] + 0.1 * actions) ** 2)


def main(config):
    num_params = 4 * config.hidden_size + config.hidden_size
    evaluate = jax.vmap(cartpole_score, in_axes=(0, None, None))
    jitted = jax.jit(evaluate, static_argnums=2)
    params = jax.ShapeDtypeStruct((config.pop_size, num_params), jnp.float32)
    obs = jax.ShapeDtypeStruct((config.num_tests, 4), jnp.float32)
    traced = jitted.trace(params, obs, config.hidden_size)
    lowered = traced.lower(lowering_platforms=tuple(config.platforms))
    if config.debug:
        print(lowered.as_text())
    return lowered


if __name__ == "__main__":
    import sys

    main(parse_args(sys.argv[1:]))
    print("lowered")

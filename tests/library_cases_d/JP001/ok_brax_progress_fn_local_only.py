"""Build a PPO-style training step and lower it for the deployment accelerator.

Shaped like brax's ``ppo.train``: hyper-parameters are keyword arguments, the
caller hands in a ``progress_fn`` (here a ``functools.partial``), and the
compiled step is produced ahead of time for the platform given on the CLI;
progress reporting is only wired in when that platform is the local one.
"""
import argparse
import functools
from typing import Callable, Optional

import jax
import jax.numpy as jnp


def _print_progress(step, metrics, *, prefix, every):
    if int(step) % every == 0:
        print(f"{prefix} step={int(step)} reward={float(metrics['reward']):.3f}")


def make_train_step(
    obs_size: int,
    action_size: int,
    learning_rate: float = 3e-4,
    entropy_cost: float = 1e-3,
    progress_fn: Optional[Callable] = None,
):
    def policy(params, obs):
        logits = obs @ params["w"]
        return jax.nn.log_softmax(logits)

    def loss(params, obs, actions, advantages):
        logp = policy(params, obs)
        chosen = jnp.take_along_axis(logp, actions[:, None], axis=-1)[:, 0]
        entropy = -jnp.sum(jnp.exp(logp) * logp, axis=-1)
        return -jnp.mean(chosen * advantages) - entropy_cost * jnp.mean(entropy)

    def training_step(state, obs, actions, advantages):
        params, step = state
        value, grads = jax.value_and_grad(loss)(params, obs, actions, advantages)
        params = jax.tree.map(lambda p, g: p - learning_rate * g, params, grads)
        metrics = {"loss": value, "reward": jnp.mean(advantages)}
        if progress_fn is not None:
            jax.debug.callback(progress_fn, step, metrics)
        return (params, step + 1), metrics

    def init(key):
        return {"w": 0.01 * jax.random.normal(key, (obs_size, action_size))}, jnp.zeros((), jnp.int32)

    return init, training_step


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--num_envs", type=int, default=64)
    parser.add_argument("--log_every", type=int, default=10)
    parser.add_argument("--deploy_platform", default="tpu", choices=["cpu", "cuda", "rocm", "tpu"])
    return parser.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    progress = functools.partial(_print_progress, prefix="ppo", every=args.log_every)
    if args.deploy_platform != jax.default_backend():
        # A cross-compiled step cannot call back into this Python process.
        progress = None
    init, training_step = make_train_step(obs_size=17, action_size=6, progress_fn=progress)
    state = init(jax.random.PRNGKey(0))
    obs = jax.ShapeDtypeStruct((args.num_envs, 17), jnp.float32)
    actions = jax.ShapeDtypeStruct((args.num_envs,), jnp.int32)
    adv = jax.ShapeDtypeStruct((args.num_envs,), jnp.float32)
    traced = jax.jit(training_step).trace(state, obs, actions, adv)
    lowered = traced.lower(lowering_platforms=(args.deploy_platform,))
    print(lowered.as_text()[:120])


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])

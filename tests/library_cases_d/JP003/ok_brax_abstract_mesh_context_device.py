"""Ahead-of-time shape check of a vectorised environment step.

Like brax's training loops, the environment state is batched over
``num_envs`` and split across devices. The trainer object enters an abstract
mesh via a context-manager method so the check runs on a laptop; the mesh
carries an abstract TPU device, which names the platform to lower for.
"""
import argparse
import contextlib
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax.sharding import AbstractDevice, AbstractMesh, PartitionSpec as P


class EnvState(NamedTuple):
    pos: jax.Array
    vel: jax.Array
    reward: jax.Array


def pendulum_step(state: EnvState, action: jax.Array, dt: float = 0.05) -> EnvState:
    acc = -9.81 * jnp.sin(state.pos) + jnp.clip(action, -2.0, 2.0)
    vel = state.vel + dt * acc
    pos = state.pos + dt * vel
    reward = -(pos ** 2 + 0.1 * vel ** 2 + 0.001 * action ** 2)
    return EnvState(pos, vel, reward)


class ShardedEnvRunner:
    def __init__(self, num_envs: int, num_devices: int, device_kind: str, axis: str = "envs"):
        self.num_envs = num_envs
        self.axis = axis
        device = AbstractDevice(device_kind=device_kind, num_cores=1, platform="tpu")
        self.mesh = AbstractMesh((num_devices,), (axis,), abstract_device=device)

    @contextlib.contextmanager
    def mesh_context(self):
        with jax.sharding.use_abstract_mesh(self.mesh):
            yield self.mesh

    def state_spec(self):
        leaf = jax.ShapeDtypeStruct((self.num_envs,), jnp.float32)
        return EnvState(leaf, leaf, leaf)

    def lower_step(self):
        env_sharding = P(self.axis)
        step = jax.jit(
            jax.vmap(pendulum_step),
            in_shardings=(EnvState(env_sharding, env_sharding, env_sharding), env_sharding),
        )
        action = jax.ShapeDtypeStruct((self.num_envs,), jnp.float32)
        with self.mesh_context():
            return step.trace(self.state_spec(), action).lower()


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--num_envs", type=int, default=2048)
    parser.add_argument("--num_devices", type=int, default=4)
    parser.add_argument("--device_kind", default="TPU v5 lite")
    args = parser.parse_args(argv)
    runner = ShardedEnvRunner(args.num_envs, args.num_devices, args.device_kind)
    print(runner.lower_step().as_text()[:120])


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])

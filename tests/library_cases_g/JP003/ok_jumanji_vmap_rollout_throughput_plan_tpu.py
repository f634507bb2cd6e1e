"""Plan the sharded random-policy rollout used for environment throughput benchmarks.

Modelled on a jax RL environment suite: environments registered by versioned id
with a ``"module:Class"`` entry point and default kwargs, ``make(id, **kwargs)``
that loads the entry point, a ``TimeStep`` pytree with ``restart``/``transition``
helpers, and ``VmapWrapper``/``AutoResetWrapper`` layered over an environment.
The benchmark topology comes from a table of named meshes.
"""

import dataclasses
import importlib
import re
from functools import partial
from typing import Any, Dict

import jax
import jax.numpy as jnp
from jax.sharding import AbstractDevice, AbstractMesh, AxisType, NamedSharding, PartitionSpec as P


@partial(jax.tree_util.register_dataclass)
@dataclasses.dataclass
class TimeStep:
    step_type: jax.Array
    reward: jax.Array
    discount: jax.Array
    observation: jax.Array


def restart(observation):
    return TimeStep(jnp.int8(0), jnp.float32(0), jnp.float32(1), observation)


def transition(reward, observation, done):
    return TimeStep(jnp.where(done, jnp.int8(2), jnp.int8(1)), reward,
                    jnp.where(done, 0.0, 1.0).astype(jnp.float32), observation)


@partial(jax.tree_util.register_dataclass)
@dataclasses.dataclass
class State:
    position: jax.Array
    goal: jax.Array
    step_count: jax.Array
    key: jax.Array


class Maze:
    def __init__(self, size: int = 10, time_limit: int = 100):
        self.size, self.time_limit = size, time_limit

    def _obs(self, state):
        idx = jnp.arange(self.size)
        cell = lambda p: ((idx[:, None] == p[0]) & (idx[None, :] == p[1])).astype(jnp.float32)
        return (cell(state.position) - cell(state.goal)).reshape(-1)

    def reset(self, key):
        key, k1, k2 = jax.random.split(key, 3)
        state = State(jax.random.randint(k1, (2,), 0, self.size), jax.random.randint(k2, (2,), 0, self.size),
                      jnp.int32(0), key)
        return state, restart(self._obs(state))

    def step(self, state, action):
        move = jnp.stack([(action == 1).astype(jnp.int32) - (action == 3),
                          (action == 0).astype(jnp.int32) - (action == 2)])
        pos = jnp.clip(state.position + move, 0, self.size - 1)
        state = dataclasses.replace(state, position=pos, step_count=state.step_count + 1)
        at_goal = jnp.all(pos == state.goal)
        done = at_goal | (state.step_count >= self.time_limit)
        return state, transition(at_goal.astype(jnp.float32), self._obs(state), done)


_REGISTRY: Dict[str, Dict[str, Any]] = {}


def register(id: str, entry_point: str, **kwargs):
    if not re.fullmatch(r"[A-Za-z0-9]+-v\d+", id):
        raise ValueError(f"Malformed environment ID: {id}.")
    if id in _REGISTRY:
        raise ValueError(f"Trying to override the registered environment {id}.")
    _REGISTRY[id] = {"entry_point": entry_point, "kwargs": kwargs}


def make(id: str, **kwargs):
    spec = _REGISTRY[id]
    mod_name, cls_name = spec["entry_point"].split(":")
    env_cls = getattr(importlib.import_module(mod_name), cls_name)
    return env_cls(**{**spec["kwargs"], **kwargs})


register("Maze-v0", entry_point=f"{__name__}:Maze", size=10, time_limit=100)


def _shard_batch(tree):
    """Keeps every batched leaf laid out along the context mesh's ``envs`` axis."""
    mesh = jax.sharding.get_abstract_mesh()
    if mesh.empty or "envs" not in mesh.axis_names:
        return tree
    return jax.tree.map(lambda x: jax.sharding.reshard(x, P("envs")), tree)


class VmapWrapper:
    def __init__(self, env):
        self._env = env

    def reset(self, key):
        return _shard_batch(jax.vmap(self._env.reset)(key))

    def step(self, state, action):
        return _shard_batch(jax.vmap(self._env.step)(state, _shard_batch(action)))


class AutoResetWrapper(VmapWrapper):
    def step(self, state, action):
        state, timestep = super().step(state, action)
        reset_state, reset_ts = _shard_batch(jax.vmap(self._env.reset)(state.key))
        done = timestep.step_type == 2
        pick = lambda a, b: jnp.where(done.reshape(done.shape + (1,) * (a.ndim - 1)), a, b)
        state = jax.tree.map(pick, reset_state, state)
        timestep = dataclasses.replace(timestep, observation=pick(reset_ts.observation, timestep.observation))
        return state, timestep


BENCH_TOPOLOGIES = {
    "cpu-farm-32": {"mesh_shape": (32,), "axis_names": ("envs",)},
    "v4-8": {"mesh_shape": (4,), "axis_names": ("envs",), "device_kind": "TPU v4", "platform": "tpu"},
}


def topology_mesh(name: str) -> AbstractMesh:
    topo = BENCH_TOPOLOGIES[name]
    device = None
    if "platform" in topo:
        device = AbstractDevice(topo["device_kind"], 1, topo["platform"])
    return AbstractMesh(topo["mesh_shape"], topo["axis_names"],
                        axis_types=(AxisType.Explicit,), abstract_device=device)


def make_rollout(env, num_steps: int):
    def rollout(keys):
        state, timestep = env.reset(keys)

        def body(carry, _):
            state, ret = carry
            k = jax.vmap(lambda s: jax.random.fold_in(s, 1))(state.key)
            action = jax.vmap(lambda kk: jax.random.randint(kk, (), 0, 4))(k)
            state, ts = env.step(dataclasses.replace(state, key=k), action)
            return (state, ret + ts.reward), None

        (_, returns), _ = jax.lax.scan(body, (state, timestep.reward), None, num_steps)
        return returns

    return rollout


def plan_benchmark(topology: str, envs_per_device: int = 128, num_steps: int = 256):
    mesh = topology_mesh(topology)
    env = AutoResetWrapper(make("Maze-v0"))
    num_envs = mesh.shape["envs"] * envs_per_device
    with jax.sharding.use_abstract_mesh(mesh):
        keys = jax.ShapeDtypeStruct((num_envs, 2), jnp.uint32, sharding=NamedSharding(mesh, P("envs")))
        rollout = jax.jit(make_rollout(env, num_steps))
        return rollout.trace(keys).lower()


if __name__ == "__main__":
    lowered = plan_benchmark("v4-8")
    print(lowered.as_text()[:160])

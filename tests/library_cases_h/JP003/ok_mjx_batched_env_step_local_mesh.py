"""Planning the memory of a batched MJX-style environment step.

The physics data is a pytree of arrays (`Data`); a batch of environments is
made by adding a leading axis to every leaf.  The training topology is
described by a small dataclass whose `mesh()` is abstract when the job is only
being planned on a workstation.  Batched specs are built with `jax.tree.map`
over a template `Data`, each leaf carrying the batch sharding.
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Model:
  nq: int = dataclasses.field(metadata=dict(static=True))
  opt_timestep: jax.Array
  dof_damping: jax.Array
  body_mass: jax.Array


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Data:
  qpos: jax.Array
  qvel: jax.Array
  ctrl: jax.Array
  time: jax.Array


def make_model(nq: int) -> Model:
  return Model(
      nq=nq,
      opt_timestep=np.float32(0.002),
      dof_damping=np.full((nq,), 0.05, np.float32),
      body_mass=np.ones((nq,), np.float32),
  )


def make_data(m: Model) -> Data:
  return Data(
      qpos=np.zeros((m.nq,), np.float32),
      qvel=np.zeros((m.nq,), np.float32),
      ctrl=np.zeros((m.nq,), np.float32),
      time=np.zeros((), np.float32),
  )


def step(m: Model, d: Data) -> Data:
  qacc = (d.ctrl - m.dof_damping * d.qvel) / m.body_mass
  qvel = d.qvel + m.opt_timestep * qacc
  qpos = d.qpos + m.opt_timestep * qvel
  return dataclasses.replace(d, qpos=qpos, qvel=qvel, time=d.time + m.opt_timestep)


def env_step(m: Model, d: Data, action: jax.Array, n_substeps: int = 4) -> Data:
  d = dataclasses.replace(d, ctrl=action)
  for _ in range(n_substeps):
    d = step(m, d)
  return d


@dataclasses.dataclass(frozen=True)
class Topology:
  num_envs: int
  num_chips: int
  planning_only: bool = True

  def mesh(self):
    if self.planning_only:
      return AbstractMesh((self.num_chips,), ("envs",))
    return jax.make_mesh((self.num_chips,), ("envs",))

  def batch_sharding(self):
    return NamedSharding(self.mesh(), P("envs"))


def batched_specs(template, topo: Topology):
  sharding = topo.batch_sharding()
  return jax.tree.map(
      lambda x: jax.ShapeDtypeStruct((topo.num_envs,) + np.shape(x), np.asarray(x).dtype,
                                     sharding=sharding),
      template,
  )


def plan(topo: Topology, nq: int = 12):
  m = make_model(nq)
  d_specs = batched_specs(make_data(m), topo)
  a_spec = jax.ShapeDtypeStruct((topo.num_envs, nq), jnp.float32, sharding=topo.batch_sharding())
  batched = jax.vmap(env_step, in_axes=(None, 0, 0))
  lowered = jax.jit(batched).trace(m, d_specs, a_spec).lower()
  return lowered


if __name__ == "__main__":
  # A local smoke test: one chip, the real device of this machine.
  lowered = plan(Topology(num_envs=2048, num_chips=1, planning_only=False))
  print(lowered.as_text()[:120])

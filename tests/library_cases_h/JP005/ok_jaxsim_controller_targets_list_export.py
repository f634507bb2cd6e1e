"""Precompiling a whole-body controller for every robot in the lab.

Structure after jaxsim's API: a model built from a description (`JaxSimModel`
with static joint names and link parameters as arrays), a `JaxSimModelData`
state pytree, functional `api` helpers (`forward_kinematics`,
`generalized_gravity`) and a PD controller with gravity compensation.  Each
robot entry in the lab registry names the compute module on board; the list of
platforms is collected from the registry and every controller is exported for it.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

import jax
import jax.numpy as jnp
import numpy as np


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class JaxSimModel:
  joint_names: tuple[str, ...] = dataclasses.field(metadata=dict(static=True))
  link_masses: jax.Array
  link_lengths: jax.Array

  @classmethod
  def build_from_description(cls, description: dict) -> "JaxSimModel":
    joints = tuple(j["name"] for j in description["joints"])
    masses = np.array([j["mass"] for j in description["joints"]], np.float32)
    lengths = np.array([j["length"] for j in description["joints"]], np.float32)
    return cls(joints, masses, lengths)

  def dofs(self) -> int:
    return len(self.joint_names)


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class JaxSimModelData:
  joint_positions: jax.Array
  joint_velocities: jax.Array


def forward_kinematics(model: JaxSimModel, data: JaxSimModelData) -> jax.Array:
  angles = jnp.cumsum(data.joint_positions)
  return jnp.cumsum(model.link_lengths * jnp.stack([jnp.cos(angles), jnp.sin(angles)], -1).T, axis=1)


def generalized_gravity(model: JaxSimModel, data: JaxSimModelData) -> jax.Array:
  angles = jnp.cumsum(data.joint_positions)
  moment = model.link_masses * model.link_lengths * jnp.cos(angles) * 9.81
  return jnp.cumsum(moment[::-1])[::-1]


@dataclasses.dataclass(frozen=True)
class PDGains:
  kp: float = 200.0
  kd: float = 10.0


def pd_controller(model, data, q_ref, gains: PDGains):
  tau = gains.kp * (q_ref - data.joint_positions) - gains.kd * data.joint_velocities
  return tau + generalized_gravity(model, data)


ARM = {"joints": [{"name": f"j{i}", "mass": 1.0 - 0.1 * i, "length": 0.3} for i in range(6)]}

LAB = {
    "arm_left": {"description": ARM, "compute": "cpu"},
    "arm_right": {"description": ARM, "compute": "cpu"},
    "arm_sim": {"description": ARM, "compute": "cuda"},
}


def collect_platforms(lab: dict) -> list[str]:
  platforms: list[str] = []
  for entry in lab.values():
    if entry["compute"] not in platforms:
      platforms.append(entry["compute"])
  return platforms


def export_controller(model: JaxSimModel, platforms: Sequence[str], gains=PDGains()):
  n = model.dofs()
  data = JaxSimModelData(jax.ShapeDtypeStruct((n,), jnp.float32), jax.ShapeDtypeStruct((n,), jnp.float32))
  q_ref = jax.ShapeDtypeStruct((n,), jnp.float32)
  fn = jax.jit(lambda m, d, q: pd_controller(m, d, q, gains))
  return jax.export.export(fn, platforms=platforms)(model, data, q_ref)


if __name__ == "__main__":
  platforms = collect_platforms(LAB)
  model = JaxSimModel.build_from_description(ARM)
  exported = export_controller(model, platforms)
  print(exported.platforms)

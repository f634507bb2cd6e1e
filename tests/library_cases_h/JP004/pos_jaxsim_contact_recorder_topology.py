"""Batched rigid-body simulation with a host-side contact recorder, compiled
for a TPU slice described by a named topology.

As in jaxsim, the model is built once from a description and the contact model
is a pluggable object; here the soft-contact model can be wrapped by a
recorder that streams the deepest penetration of each step to a host buffer
with `io_callback`.  Topologies are looked up by name and entered as the
context mesh (with an abstract device, so lowering infers the platform).
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback
from jax.sharding import AbstractDevice, AbstractMesh, PartitionSpec as P


@dataclasses.dataclass(frozen=True)
class SoftContacts:
  stiffness: float = 1e5
  damping: float = 1e2

  def forces(self, height, vel):
    depth = jnp.maximum(-height, 0.0)
    return self.stiffness * depth - self.damping * vel * (depth > 0)


class ContactRecorder:
  """Wraps a contact model and records penetration depths on the host."""

  def __init__(self, inner):
    self.inner = inner
    self.buffer: list[np.ndarray] = []

  def _store(self, depth):
    self.buffer.append(np.asarray(depth))
    return np.zeros((), np.int32)

  def forces(self, height, vel):
    depth = jnp.max(jnp.maximum(-height, 0.0))
    io_callback(self._store, jax.ShapeDtypeStruct((), jnp.int32), depth)
    return self.inner.forces(height, vel)


@dataclasses.dataclass
class JaxSimModel:
  n_bodies: int
  dt: float
  contact_model: object

  @classmethod
  def build(cls, n_bodies=4, dt=1e-3, contact_model=None, record_contacts=True):
    contact_model = contact_model or SoftContacts()
    if record_contacts:
      contact_model = ContactRecorder(contact_model)
    return cls(n_bodies, dt, contact_model)

  def step(self, height, vel):
    f = self.contact_model.forces(height, vel)
    vel = vel + self.dt * (f - 9.81)
    return height + self.dt * vel, vel


TOPOLOGIES = {
    "v5e-8": AbstractMesh((8,), ("envs",),
                          abstract_device=AbstractDevice("TPU v5 lite", 1, "tpu")),
    "v5e-16": AbstractMesh((16,), ("envs",),
                           abstract_device=AbstractDevice("TPU v5 lite", 1, "tpu")),
}


def rollout(model: JaxSimModel, height, vel, steps: int):
  def body(carry, _):
    return model.step(*carry), None
  (height, vel), _ = jax.lax.scan(body, (height, vel), None, length=steps)
  return height, vel


def compile_rollout(model: JaxSimModel, topology: str, num_envs=1024, steps=20):
  spec = jax.ShapeDtypeStruct((num_envs, model.n_bodies), jnp.float32)
  with jax.sharding.use_abstract_mesh(TOPOLOGIES[topology]):
    fn = jax.jit(lambda h, v: rollout(model, h, v, steps),
                 in_shardings=(P("envs"), P("envs")), out_shardings=(P("envs"), P("envs")))
    lowered = fn.trace(spec, spec).lower()
  return lowered


if __name__ == "__main__":
  model = JaxSimModel.build(n_bodies=4, record_contacts=True)
  print(compile_rollout(model, "v5e-8").as_text()[:100])

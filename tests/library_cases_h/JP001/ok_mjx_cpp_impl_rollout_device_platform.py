"""Batched rollouts with a C++-backed physics implementation.

Following the MJX layout: an `Impl` enum names the implementation, a device is
resolved from the implementation (the C++ one lives on the host), the model and
data are put on that device, and the C++ data handle is created inside the
traced function through an `io_callback` that returns the native pointer split
in two 32-bit halves.  The rollout is compiled ahead of time for the platform
of the device the implementation resolved to.
"""

from __future__ import annotations

import dataclasses
import enum
import functools

import jax
import jax.numpy as jnp
import numpy as np


class Impl(str, enum.Enum):
  JAX = "jax"
  CPP = "cpp"

  @classmethod
  def _missing_(cls, value):
    for member in cls:
      if member.value == str(value).lower():
        return member
    return None


def _resolve_device(impl: Impl) -> jax.Device:
  impl = Impl(impl)
  if impl == Impl.CPP:
    return jax.devices("cpu")[0]
  return jax.devices()[0]


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Model:
  body_mass: jax.Array
  dof_damping: jax.Array


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Data:
  qpos: jax.Array
  qvel: jax.Array


_NATIVE: dict[int, np.ndarray] = {}


def _native_handle(dummy):
  buf = np.zeros(4, np.float64)
  addr = id(buf)
  _NATIVE[addr] = buf
  return np.array(addr & 0xFFFFFFFF, np.uint32), np.array(addr >> 32, np.uint32)


def make_native_data(dummy):
  return jax.experimental.io_callback(
      _native_handle,
      (jax.ShapeDtypeStruct((), jnp.uint32), jax.ShapeDtypeStruct((), jnp.uint32)),
      dummy,
  )


def put_model(nbody: int, impl: Impl, device=None) -> Model:
  device = device or _resolve_device(impl)
  m = Model(body_mass=np.ones(nbody, np.float32), dof_damping=np.full(nbody, 0.1, np.float32))
  return jax.device_put(m, device=device)


def put_data(nbody: int, impl: Impl, device=None) -> Data:
  device = device or _resolve_device(impl)
  d = Data(qpos=np.zeros(nbody, np.float32), qvel=np.zeros(nbody, np.float32))
  return jax.device_put(d, device=device)


def step(m: Model, d: Data, ctrl: jax.Array, impl: Impl) -> Data:
  if impl == Impl.CPP:
    lo, hi = make_native_data(ctrl[0])
    ctrl = ctrl + (lo.astype(jnp.float32) * 0 + hi.astype(jnp.float32) * 0)
  qacc = (ctrl - m.dof_damping * d.qvel) / m.body_mass
  qvel = d.qvel + 0.002 * qacc
  return Data(qpos=d.qpos + 0.002 * qvel, qvel=qvel)


def rollout(m, d, ctrls, impl):
  def body(d, ctrl):
    d = step(m, d, ctrl, impl)
    return d, d.qpos
  return jax.lax.scan(body, d, ctrls)


@dataclasses.dataclass
class DeployConfig:
  impl: str = "CPP"
  nbody: int = 6
  horizon: int = 16


def compile_rollout(cfg: DeployConfig):
  impl = Impl(cfg.impl)
  device = _resolve_device(impl)
  m = put_model(cfg.nbody, impl, device)
  d = put_data(cfg.nbody, impl, device)
  ctrls = jax.device_put(jnp.zeros((cfg.horizon, cfg.nbody)), device)
  fn = jax.jit(functools.partial(rollout, impl=impl))
  # The C++ implementation runs where its data lives.
  return fn.trace(m, d, ctrls).lower(lowering_platforms=(device.platform,))


if __name__ == "__main__":
  lowered = compile_rollout(DeployConfig())
  print(lowered.as_text()[:120])

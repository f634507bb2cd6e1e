"""A rigid-body step function with jit-safe runtime checks, exported for TPU
with the checks compiled out.

The checks follow the `raise_if` pattern: a `jax.debug.callback` behind a
`lax.cond`, so the host is only contacted when the condition holds.  Whether
the checks are compiled in is decided by a module-level settings object that
the simulator reads at trace time; the integrator is picked from a registry by
the name stored in the model's config.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class _Settings:
  enable_exceptions: bool = False


SETTINGS = _Settings()


def enable_exceptions(flag: bool = True) -> None:
  SETTINGS.enable_exceptions = flag


@contextlib.contextmanager
def exceptions_disabled():
  """Serving artifacts cannot call back into Python: compile the checks out."""
  saved = SETTINGS.enable_exceptions
  SETTINGS.enable_exceptions = False
  try:
    yield
  finally:
    SETTINGS.enable_exceptions = saved


def raise_if(condition, exception: type, msg: str, *args) -> None:
  if not SETTINGS.enable_exceptions:
    return

  def _raise(cond, *vals):
    if cond:
      raise exception(msg.format(*vals))

  jax.lax.cond(
      condition,
      lambda vals: jax.debug.callback(_raise, condition, *vals),
      lambda vals: None,
      args,
  )


def raise_value_error_if(condition, msg: str, *args) -> None:
  return raise_if(condition, ValueError, msg, *args)


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class JaxSimModelData:
  joint_positions: jax.Array
  joint_velocities: jax.Array
  time: jax.Array


@dataclasses.dataclass(frozen=True)
class ModelConfig:
  dofs: int = 7
  dt: float = 1e-3
  integrator: str = "semi_implicit_euler"
  max_velocity: float = 50.0


def semi_implicit_euler(data, accel, dt):
  v = data.joint_velocities + dt * accel
  q = data.joint_positions + dt * v
  return dataclasses.replace(data, joint_positions=q, joint_velocities=v, time=data.time + dt)


def rk2(data, accel, dt):
  v_half = data.joint_velocities + 0.5 * dt * accel
  q = data.joint_positions + dt * v_half
  v = data.joint_velocities + dt * accel
  return dataclasses.replace(data, joint_positions=q, joint_velocities=v, time=data.time + dt)


INTEGRATORS = {"semi_implicit_euler": semi_implicit_euler, "rk2": rk2}


def forward_dynamics(config: ModelConfig, data, torques):
  damping = 0.1 * data.joint_velocities
  gravity = 9.81 * jnp.sin(data.joint_positions)
  return torques - damping - gravity


def step(config: ModelConfig, data: JaxSimModelData, torques: jax.Array) -> JaxSimModelData:
  accel = forward_dynamics(config, data, torques)
  raise_value_error_if(
      jnp.any(jnp.abs(data.joint_velocities) > config.max_velocity),
      "joint velocity exceeded {} rad/s", config.max_velocity,
  )
  integrate = INTEGRATORS[config.integrator]
  return integrate(data, accel, config.dt)


def export_step(config: ModelConfig, platforms=("tpu",)):
  data_spec = JaxSimModelData(
      joint_positions=jax.ShapeDtypeStruct((config.dofs,), jnp.float32),
      joint_velocities=jax.ShapeDtypeStruct((config.dofs,), jnp.float32),
      time=jax.ShapeDtypeStruct((), jnp.float32),
  )
  tau_spec = jax.ShapeDtypeStruct((config.dofs,), jnp.float32)
  fn = jax.jit(functools.partial(step, config))
  with exceptions_disabled():
    return jax.export.export(fn, platforms=platforms)(data_spec, tau_spec)


if __name__ == "__main__":
  # The robotics team keeps the checks on while validating new controllers.
  enable_exceptions()
  exported = export_step(ModelConfig(integrator="rk2"))
  print(exported.platforms)

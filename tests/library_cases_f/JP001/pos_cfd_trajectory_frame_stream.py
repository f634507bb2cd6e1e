"""Passive scalar on a periodic grid, rolled out with a jax-cfd-style trajectory.

Structure follows jax-cfd: a ``Grid`` describing the domain, finite-difference
operators, an explicit step function built by a factory, and
``funcutils.trajectory(step_fn, steps, post_process)`` that scans the step and
applies ``post_process`` to every frame.  Here ``post_process`` also streams
frame statistics to a host-side monitor.  The rollout is pre-compiled for every
simulation pool listed in ``DEPLOYMENTS``.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import jax
import jax.numpy as jnp
import numpy as np


# --------------------------------------------------------------------------
# grids and operators
# --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Grid:
  shape: tuple[int, int]
  domain: tuple[tuple[float, float], tuple[float, float]] = ((0.0, 2 * np.pi), (0.0, 2 * np.pi))

  @property
  def step(self) -> tuple[float, float]:
    return tuple((hi - lo) / n for (lo, hi), n in zip(self.domain, self.shape))

  def mesh(self):
    axes = [lo + (np.arange(n) + 0.5) * d for (lo, _), n, d in zip(self.domain, self.shape, self.step)]
    return np.meshgrid(*axes, indexing="ij")


def central_difference(u, axis, dx):
  return (jnp.roll(u, -1, axis) - jnp.roll(u, 1, axis)) / (2 * dx)


def laplacian(u, grid: Grid):
  dx, dy = grid.step
  return ((jnp.roll(u, -1, 0) - 2 * u + jnp.roll(u, 1, 0)) / dx**2 +
          (jnp.roll(u, -1, 1) - 2 * u + jnp.roll(u, 1, 1)) / dy**2)


def advection_diffusion_step(grid: Grid, velocity, diffusivity: float, dt: float) -> Callable:
  vx, vy = velocity
  dx, dy = grid.step

  def step_fn(c):
    adv = vx * central_difference(c, 0, dx) + vy * central_difference(c, 1, dy)
    return c + dt * (diffusivity * laplacian(c, grid) - adv)

  return step_fn


# --------------------------------------------------------------------------
# funcutils
# --------------------------------------------------------------------------


def _identity(x):
  return x


def trajectory(step_fn: Callable, steps: int, post_process: Callable = _identity, *,
               start_with_input: bool = False) -> Callable:

  def step(carry_in, _):
    carry_out = step_fn(carry_in)
    frame = post_process(carry_in if start_with_input else carry_out)
    return carry_out, frame

  def multistep(values):
    return jax.lax.scan(step, values, xs=None, length=steps)

  return multistep


# --------------------------------------------------------------------------
# monitoring
# --------------------------------------------------------------------------


class FrameMonitor:
  """Keeps running statistics of the rollout on the host."""

  def __init__(self):
    self.history: list[tuple[float, float]] = []

  def record(self, total_mass, peak):
    self.history.append((float(total_mass), float(peak)))


class FrameStreamer:
  """``post_process`` that downsamples a frame and reports it to a monitor."""

  def __init__(self, monitor: FrameMonitor, stride: int = 4):
    self.monitor = monitor
    self.stride = stride

  def __call__(self, c):
    jax.debug.callback(self.monitor.record, jnp.sum(c), jnp.max(c))
    return c[::self.stride, ::self.stride]


# --------------------------------------------------------------------------
# application
# --------------------------------------------------------------------------

DEPLOYMENTS = {
    "workstation": "cpu",
    "a100-pool": "cuda",
}


def build_rollout(grid: Grid, steps: int, monitor: FrameMonitor):
  x, y = grid.mesh()
  velocity = (jnp.asarray(np.sin(y)), jnp.asarray(np.cos(x)))
  step_fn = advection_diffusion_step(grid, velocity, diffusivity=0.05, dt=0.01)
  return jax.jit(trajectory(step_fn, steps, post_process=FrameStreamer(monitor)))


def initial_condition(grid: Grid):
  x, y = grid.mesh()
  c0 = np.exp(-((x - np.pi) ** 2 + (y - np.pi) ** 2) / 0.5).astype(np.float32)
  # Keep the initial field on the host device; it is read back from disk there.
  return jax.device_put(c0, jax.devices("cpu")[0])


def precompile(rollout, c0, deployments: dict[str, str]):
  lowered = {}
  for name, platform in deployments.items():
    lowered[name] = rollout.trace(c0).lower(lowering_platforms=(platform,))
  return lowered


def main():
  grid = Grid((64, 64))
  monitor = FrameMonitor()
  rollout = build_rollout(grid, steps=20, monitor=monitor)
  c0 = initial_condition(grid)
  final, frames = rollout(c0)
  jax.block_until_ready(frames)
  print("frames:", frames.shape, "mass drift:", monitor.history[-1][0] - monitor.history[0][0])
  artifacts = precompile(rollout, c0, DEPLOYMENTS)
  print("precompiled for", sorted(artifacts))


if __name__ == "__main__":
  main()

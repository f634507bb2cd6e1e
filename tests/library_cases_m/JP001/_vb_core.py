"""Pieces of a vbjax-shaped package: the host platform probed once at import
(`platform`, `is_cpu`, `is_gpu` as module attributes), an SDE integrator factory
returning `(step, loop)`, and monitors. On a CPU host the temporal-average
monitor streams each window to host memory with `io_callback` instead of
keeping the windows on the device."""

from __future__ import annotations

import jax
import numpy as np
from jax.experimental import io_callback

platform = jax.local_devices()[0].platform
is_gpu = platform == "gpu"
is_cpu = platform == "cpu"


def heun_step(x, dfun, dt, *args, add=0.0):
  d1 = dfun(x, *args)
  xi = x + dt * d1 + add
  d2 = dfun(xi, *args)
  return x + dt * 0.5 * (d1 + d2) + add


def make_sde(dt, dfun, gfun, unroll=4):
  sqrt_dt = np.sqrt(dt)
  if not callable(gfun):
    sig = gfun
    gfun = lambda *_: sig

  def step(x, z_t, p):
    return heun_step(x, dfun, dt, p, add=sqrt_dt * gfun(x, p) * z_t)

  def loop(x0, zs, p):
    def op(x, z):
      x = step(x, z, p)
      return x, x
    _, xs = jax.lax.scan(op, x0, zs, unroll=unroll)
    return xs

  return step, loop


class _HostWindows:
  def __init__(self):
    self.windows = []

  def append(self, window):
    self.windows.append(np.asarray(window))


def make_tavg_monitor(window: int):
  """Returns `monitor(xs) -> tavg`; on a CPU host it also streams each window out."""
  sink = _HostWindows()

  def monitor(xs):
    nt = xs.shape[0] // window
    tavg = xs[: nt * window].reshape((nt, window) + xs.shape[1:]).mean(axis=1)
    if is_cpu:
      io_callback(sink.append, None, tavg, ordered=False)
    return tavg

  monitor.sink = sink
  return monitor

"""vbjax-shaped integrators: `make_ode(dt, dfun, method=...)` returns `(step, loop)`,
the loop a `lax.scan` over time points."""

from __future__ import annotations

import jax


def euler_step(x, dfun, dt, *args):
  return x + dt * dfun(x, *args)


def heun_step(x, dfun, dt, *args):
  d1 = dfun(x, *args)
  d2 = dfun(x + dt * d1, *args)
  return x + dt * 0.5 * (d1 + d2)


def rk4_step(x, dfun, dt, *args):
  k1 = dfun(x, *args)
  k2 = dfun(x + dt * 0.5 * k1, *args)
  k3 = dfun(x + dt * 0.5 * k2, *args)
  k4 = dfun(x + dt * k3, *args)
  return x + dt * (k1 + 2 * k2 + 2 * k3 + k4) / 6


METHODS = {"euler": euler_step, "heun": heun_step, "rk4": rk4_step}


def make_ode(dt, dfun, method="heun"):
  step_fn = METHODS[method]

  def step(x, t, p):
    return step_fn(x, dfun, dt, p)

  def loop(x0, ts, p):
    def op(x, t):
      x = step(x, t, p)
      return x, x
    return jax.lax.scan(op, x0, ts)[1]

  return step, loop

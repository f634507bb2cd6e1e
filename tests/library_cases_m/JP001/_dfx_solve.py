"""A tiny `diffeqsolve`: Heun's method with an embedded Euler error estimate,
driven by whatever controller it is given, in a bounded `while_loop`."""

from __future__ import annotations

import jax
import jax.numpy as jnp


def heun_step(vector_field, t0, t1, y0, args):
  dt = t1 - t0
  k1 = vector_field(t0, y0, args)
  y_euler = y0 + dt * k1
  k2 = vector_field(t1, y_euler, args)
  y1 = y0 + 0.5 * dt * (k1 + k2)
  return y1, y1 - y_euler


def diffeqsolve(vector_field, t0, t1, dt0, y0, args, controller, max_steps=256):
  def cond_fn(state):
    t, _, _, n = state
    return (t < t1) & (n < max_steps)

  def body_fn(state):
    t, dt, y, n = state
    tnext = jnp.minimum(t + dt, t1)
    y1, y_err = heun_step(vector_field, t, tnext, y, args)
    keep, next_t0, next_t1 = controller.adapt_step_size(t, tnext, y, y1, y_err, 2)
    y = jnp.where(keep, y1, y)
    return next_t0, next_t1 - next_t0, y, n + 1

  t0 = jnp.asarray(t0, jnp.float32)
  state = (t0, jnp.asarray(dt0, jnp.float32), y0, jnp.asarray(0, jnp.int32))
  _, _, y1, steps = jax.lax.while_loop(cond_fn, body_fn, state)
  return y1, steps

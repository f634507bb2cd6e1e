"""Step-size controllers in the shape of diffrax's: an adaptive controller, and a
clipping controller that wraps another one, stepping exactly to `step_ts` and
optionally reporting each rejected step to the host (`_callback_on_reject`,
diffrax's testing hook, run through `jax.pure_callback`)."""

from __future__ import annotations

import dataclasses
from typing import Callable

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class PIDController:
  rtol: float
  atol: float
  safety: float = 0.9
  factormin: float = 0.2
  factormax: float = 10.0

  def adapt_step_size(self, t0, t1, y0, y1_candidate, y_error, error_order):
    scale = self.atol + self.rtol * jnp.maximum(jnp.abs(y0), jnp.abs(y1_candidate))
    err = jnp.sqrt(jnp.mean((y_error / scale) ** 2))
    keep_step = err <= 1.0
    factor = jnp.clip(self.safety * err ** (-1.0 / error_order), self.factormin, self.factormax)
    factor = jnp.where(err == 0, self.factormax, factor)
    dt = (t1 - t0) * factor
    next_t0 = jnp.where(keep_step, t1, t0)
    return keep_step, next_t0, next_t0 + dt


@dataclasses.dataclass(frozen=True)
class ClipStepSizeController:
  controller: PIDController
  step_ts: tuple[float, ...] | None = None
  callback_on_reject: Callable | None = None

  def adapt_step_size(self, t0, t1, y0, y1_candidate, y_error, error_order):
    keep_step, next_t0, next_t1 = self.controller.adapt_step_size(
        t0, t1, y0, y1_candidate, y_error, error_order)

    callback_on_reject = self.callback_on_reject
    if callback_on_reject is not None:

      def callback(_keep_step, _t1):
        callback_on_reject(_keep_step, _t1)
        return _keep_step

      keep_step = jax.pure_callback(callback, jax.ShapeDtypeStruct((), jnp.bool_), keep_step, t1)

    if self.step_ts is not None:
      ts = jnp.asarray(self.step_ts, dtype=jnp.result_type(t0))
      later = jnp.where(ts > next_t0, ts, jnp.inf)
      next_t1 = jnp.minimum(next_t1, jnp.min(later))
    return keep_step, next_t0, next_t1


class RejectLog:
  def __init__(self):
    self.rejected = []

  def record(self, keep_step, t1):
    if not bool(keep_step):
      self.rejected.append(float(t1))


def make_controller(rtol, atol, step_ts=None, log_rejects=False):
  """Builds the controller a run asks for; wraps it only when something needs the wrapper."""
  controller = PIDController(rtol=rtol, atol=atol)
  if step_ts is None and not log_rejects:
    return controller
  hook = RejectLog().record if log_rejects else None
  return ClipStepSizeController(controller, step_ts=step_ts, callback_on_reject=hook)

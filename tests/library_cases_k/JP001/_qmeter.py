"""Progress meters for the time-stepping solvers and the global default one.

A meter is resolved when the solver options are initialised (outside of any
trace): ``None`` means "whatever the global setting says", ``True``/``False``
pick the text meter or no meter at all.
"""

from __future__ import annotations

import sys
import time

import jax
import jax.numpy as jnp

__all__ = [
    "AbstractProgressMeter",
    "NoProgressMeter",
    "TextProgressMeter",
    "get_progress_meter",
    "resolve_progress_meter",
    "set_progress_meter",
]


class AbstractProgressMeter:
  """Base class: `update` is called from inside the traced time loop."""

  def update(self, t, step):
    return step

  def __repr__(self) -> str:
    return f"{type(self).__name__}()"


class NoProgressMeter(AbstractProgressMeter):
  """Produces no output (and adds nothing to the traced program)."""


class TextProgressMeter(AbstractProgressMeter):
  """Plain-text meter: reports the current time from the host."""

  def __init__(self, stream=None, min_interval_s: float = 0.5):
    self.stream = stream if stream is not None else sys.stderr
    self.min_interval_s = min_interval_s
    self._last = 0.0

  def _report(self, t, step):
    now = time.monotonic()
    if now - self._last >= self.min_interval_s:
      self._last = now
      print(f"  t={float(t):.4f} (step {int(step)})", file=self.stream)

  def update(self, t, step):
    jax.debug.callback(self._report, t, step)
    return step + jnp.ones_like(step)


_DEFAULT_PROGRESS_METER: AbstractProgressMeter = TextProgressMeter()


def set_progress_meter(meter: AbstractProgressMeter | bool) -> None:
  """Configure the meter used when a solver is given ``progress_meter=None``."""
  global _DEFAULT_PROGRESS_METER
  if meter is True:
    meter = TextProgressMeter()
  elif meter is False:
    meter = NoProgressMeter()
  _DEFAULT_PROGRESS_METER = meter


def get_progress_meter() -> AbstractProgressMeter:
  return _DEFAULT_PROGRESS_METER


def resolve_progress_meter(value: AbstractProgressMeter | bool | None) -> AbstractProgressMeter:
  if value is None:
    return get_progress_meter()
  if value is True:
    return TextProgressMeter()
  if value is False:
    return NoProgressMeter()
  return value

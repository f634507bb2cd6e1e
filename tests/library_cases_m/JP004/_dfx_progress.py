"""Progress meters in the shape of diffrax/_progress_meter.py: an abstract base
with `init`/`step`/`close`, a meter that does nothing, and a text meter whose
state lives on the host and is updated through `io_callback` (not
`pure_callback`: it is not a function of its inputs). Meters are found by name."""

from __future__ import annotations

import abc

import jax
import jax.numpy as jnp
from jax.experimental import io_callback


class AbstractProgressMeter(abc.ABC):
  @abc.abstractmethod
  def init(self):
    ...

  @abc.abstractmethod
  def step(self, state, progress):
    ...

  @abc.abstractmethod
  def close(self, state):
    ...


class NoProgressMeter(AbstractProgressMeter):
  def init(self):
    return jnp.int32(0)

  def step(self, state, progress):
    return state

  def close(self, state):
    return state


class _Bars:
  def __init__(self):
    self.bars = []

  def new(self):
    self.bars.append(0.0)
    return jnp.int32(len(self.bars) - 1)

  def update(self, progress, idx):
    self.bars[int(idx)] = float(progress)
    return jnp.int32(idx)


_BARS = _Bars()


class TextProgressMeter(AbstractProgressMeter):
  minimum_increase: float = 0.02

  def init(self):
    return io_callback(_BARS.new, jax.ShapeDtypeStruct((), jnp.int32))

  def step(self, state, progress):
    return io_callback(_BARS.update, jax.ShapeDtypeStruct((), jnp.int32), progress, state)

  def close(self, state):
    return io_callback(_BARS.update, jax.ShapeDtypeStruct((), jnp.int32), jnp.float32(1.0), state)


PROGRESS_METERS = {"none": NoProgressMeter, "text": TextProgressMeter}


def progress_meter(name: str) -> AbstractProgressMeter:
  return PROGRESS_METERS[name]()

"""Chex-shaped backend restriction: `restrict_backends(allowed=..., forbidden=...)`
is a context manager that records which platforms code inside it may be
compiled for (normalised with `tuple(...)`, as chex does), and `aot_lower`
lowers a jitted function for exactly the allowed platforms."""

from __future__ import annotations

import contextlib
import threading
from typing import Sequence

import jax


class RestrictedBackendError(RuntimeError):
  pass


class _State(threading.local):
  def __init__(self):
    self.allowed = None
    self.forbidden = None


_state = _State()


@contextlib.contextmanager
def restrict_backends(*, allowed: Sequence[str] | None = None, forbidden: Sequence[str] | None = None):
  allowed = tuple(allowed) if allowed is not None else None
  forbidden = tuple(forbidden) if forbidden is not None else None
  if allowed is None and forbidden is None:
    raise ValueError("No restrictions specified.")
  contradictions = set(allowed or ()) & set(forbidden or ())
  if contradictions:
    raise ValueError(f"Backends {contradictions} can't be both allowed and forbidden.")
  old = (_state.allowed, _state.forbidden)
  _state.allowed, _state.forbidden = allowed, forbidden
  try:
    yield
  finally:
    _state.allowed, _state.forbidden = old


def aot_lower(fn, *args):
  """Lowers `jax.jit(fn)` for the platforms the enclosing restriction allows."""
  if _state.allowed is None:
    raise RestrictedBackendError("aot_lower needs an explicit allow-list of platforms")
  return jax.jit(fn).trace(*args).lower(lowering_platforms=_state.allowed)

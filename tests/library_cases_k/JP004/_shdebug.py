"""Opt-in sharding diagnostics for the distributed transforms.

``with sharding_report(enabled=True):`` makes every ``report_sharding(x, name)``
traced inside the block record the sharding XLA chose for ``x``; outside the
block (or with ``enabled=False``) it is the identity and adds nothing.
"""

from __future__ import annotations

import contextlib
import contextvars

import jax

_ACTIVE: contextvars.ContextVar[list | None] = contextvars.ContextVar("sharding_report", default=None)


@contextlib.contextmanager
def sharding_report(enabled: bool = True):
  records: list = []
  token = _ACTIVE.set(records if enabled else None)
  try:
    yield records
  finally:
    _ACTIVE.reset(token)


def report_sharding(x, name: str):
  records = _ACTIVE.get()
  if records is None:
    return x
  jax.debug.inspect_array_sharding(x, callback=lambda s: records.append((name, s)))
  return x

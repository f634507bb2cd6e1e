"""Partition manager (shaped like eformer.escale.partition.manager.PartitionManager: a context
manager that constrains arrays by semantic axes, with a debug mode that reports shardings)."""
import contextlib
import dataclasses
import threading

import jax
from jax.sharding import NamedSharding, PartitionSpec as P

_STATE = threading.local()


@dataclasses.dataclass(frozen=True)
class PartitionManager:
  mesh: object
  rules: dict
  debug: bool = False

  def __enter__(self):
    _STATE.manager = self
    return self

  def __exit__(self, *exc):
    _STATE.manager = None


def _report(name):
  def cb(sharding):
    print(f"[partition] {name}: {sharding}")
  return cb


def apply_logical_sharding(x, semantic, name="array"):
  pm = getattr(_STATE, "manager", None)
  if pm is None:
    return x
  spec = P(*(pm.rules.get(s) for s in semantic))
  x = jax.lax.with_sharding_constraint(x, NamedSharding(pm.mesh, spec))
  if pm.debug:
    jax.debug.inspect_array_sharding(x, callback=_report(name))
  return x

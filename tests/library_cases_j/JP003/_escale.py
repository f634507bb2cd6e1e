"""Mesh creation and semantic partition rules (shaped like eformer.escale: create_mesh with a
backend default, PartitionAxis resolving semantic axes to mesh axes, PartitionManager)."""
import dataclasses
import os

import jax
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P

DRY_RUN = os.environ.get("ESCALE_DRY_RUN", "1") == "1"


def create_mesh(axis_dims=(1, -1, 1), axis_names=("dp", "fsdp", "tp"), backend=None, dry_run=DRY_RUN,
                planned_devices=8):
  backend = backend or jax.default_backend()
  n = planned_devices if dry_run else len(jax.devices(backend))
  dims = list(axis_dims)
  if -1 in dims:
    known = 1
    for d in dims:
      known *= d if d != -1 else 1
    dims[dims.index(-1)] = n // known
  if dry_run:
    return AbstractMesh(tuple(dims), tuple(axis_names))
  return jax.make_mesh(tuple(dims), tuple(axis_names))


@dataclasses.dataclass(frozen=True)
class PartitionAxis:
  batch_axis: tuple = ("dp", "fsdp")
  hidden_axis: str = "tp"
  sequence_axis: str | None = None

  def resolve_spec(self, semantic):
    table = {"batch": self.batch_axis, "hidden": self.hidden_axis, "seq": self.sequence_axis, None: None}
    return P(*(table[s] for s in semantic))


def shardings_for(mesh, paxis: PartitionAxis, semantics):
  return tuple(NamedSharding(mesh, paxis.resolve_spec(s)) for s in semantics)

"""SPMD building blocks: a decorator class that turns a per-shard function into
an op with its own partitioning rule (``custom_partitioning`` underneath),
and the process-grid factory used by the distributed solvers.
"""

from __future__ import annotations

import math
import os

import jax
from jax.experimental.custom_partitioning import custom_partitioning
from jax.sharding import AbstractMesh, AxisType, NamedSharding

DRY_RUN = os.environ.get("SPMD_DRY_RUN", "0") == "1"


class custom_spmd_rule:
  """``@custom_spmd_rule(sharding_rule="x y z -> x y z")`` over a per-shard function.

  The op is elementwise in its sharding: every shard is computed locally and
  the result keeps the operand's sharding.
  """

  def __init__(self, sharding_rule: str, static_argnums=()):
    self.sharding_rule = sharding_rule
    self.static_argnums = static_argnums

  def __call__(self, fun):
    op = custom_partitioning(fun, static_argnums=self.static_argnums)

    def infer_sharding_from_operands(*args):
      mesh, arg_shapes, result_shape = args[-3:]
      return arg_shapes[0].sharding

    def partition(*args):
      mesh, arg_shapes, result_shape = args[-3:]
      static = args[:-3]
      arg_shardings = tuple(a.sharding for a in arg_shapes)

      def lower_fn(*xs):
        return fun(*static, *xs)

      return mesh, lower_fn, arg_shapes[0].sharding, arg_shardings

    op.def_partition(
        infer_sharding_from_operands=infer_sharding_from_operands,
        partition=partition,
        sharding_rule=self.sharding_rule,
    )
    return op


def make_process_grid(pdims: tuple[int, ...], names: tuple[str, ...], dry_run: bool | None = None):
  """A concrete mesh of the host CPU devices, or an abstract one when planning."""
  dry_run = DRY_RUN if dry_run is None else dry_run
  types = (AxisType.Auto,) * len(pdims)
  if dry_run:
    return AbstractMesh(pdims, names, axis_types=types)
  devices = jax.devices("cpu")[: math.prod(pdims)]
  return jax.make_mesh(pdims, names, axis_types=types, devices=devices)


def pencil_sharding(mesh, spec) -> NamedSharding:
  return NamedSharding(mesh, spec)

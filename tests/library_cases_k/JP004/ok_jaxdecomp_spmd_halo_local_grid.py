"""Lower one step of a particle-mesh solver with a custom-partitioned halo op.

The local (per-shard) operation is declared with an SPMD rule decorator;
``plan_step`` builds the process grid from the run options and lowers the
step for the CPU backend used by the integration tests.
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from _spmdops import custom_spmd_rule, make_process_grid, pencil_sharding


@dataclasses.dataclass(frozen=True)
class RunOptions:
  mesh_shape: tuple[int, int, int] = (32, 32, 32)
  pdims: tuple[int, int] = (1, 1)
  halo_size: int = 2
  dry_run: bool = False


@custom_spmd_rule(sharding_rule="x y z -> x y z")
def halo_smooth(field):
  """Periodic 3-point smoothing of the local slab along z."""
  return (jnp.roll(field, 1, axis=-1) + field + jnp.roll(field, -1, axis=-1)) / 3.0


def pm_step(density):
  smoothed = halo_smooth(density)
  kfield = jnp.fft.rfftn(smoothed)
  return jnp.fft.irfftn(kfield * 0.5, s=density.shape)


def plan_step(opts: RunOptions):
  mesh = make_process_grid(opts.pdims, ("x", "y"), dry_run=opts.dry_run)
  sharding = pencil_sharding(mesh, P("x", "y"))
  fn = jax.jit(pm_step, in_shardings=sharding, out_shardings=sharding)
  traced = fn.trace(jax.ShapeDtypeStruct(opts.mesh_shape, jnp.float32))
  return traced.lower(lowering_platforms=("cpu",))


def main():
  lowered = plan_step(RunOptions())
  print(lowered.as_text()[:200])


if __name__ == "__main__":
  main()

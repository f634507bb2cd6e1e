"""Plan a pencil-decomposed 3-D FFT for a 2x2 process grid on a workstation.

The distributed-FFT library keeps its settings in a global ``config`` object;
in dry-run mode its mesh factory returns an abstract mesh, and the planning
helper lowers the FFT with the configured lowering platforms.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

from _decompconfig import config, make_pencil_mesh

PDIMS = (2, 2)
GLOBAL_SHAPE = (64, 64, 64)


def get_output_specs(spec: P) -> P:
  """X-pencils in, Z-pencils (transposed axes) out."""
  return P(spec[1], spec[0]) if config.transpose_axis_contiguous else spec


def pfft3d(x):
  return jnp.fft.fftn(x, axes=(0, 1, 2))


def power_spectrum(x):
  k = pfft3d(x)
  return jnp.abs(k) ** 2


def plan(pdims, global_shape):
  mesh = make_pencil_mesh(pdims)
  in_spec = P("x", "y")
  fn = jax.jit(power_spectrum,
               in_shardings=NamedSharding(mesh, in_spec),
               out_shardings=NamedSharding(mesh, get_output_specs(in_spec)))
  traced = fn.trace(jax.ShapeDtypeStruct(global_shape, jnp.float32))
  return traced.lower(lowering_platforms=config.lowering_platforms)


def main():
  config.update("transpose_axis_contiguous", True)
  lowered = plan(PDIMS, GLOBAL_SHAPE)
  print(lowered.as_text()[:300])


if __name__ == "__main__":
  main()

"""Plan the edge-embedding stage of an equivariant interatomic potential.

Edge vectors are sharded over the ``atoms`` axis of the planning slice
(an abstract mesh); the lowering helper takes its default platforms from the
repo's AOT defaults module.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P

import _aotdefaults


def spherical_harmonics(lmax: int, vectors, normalize: bool = True):
  """Real spherical harmonics up to l=2 in the 'component' normalization."""
  if normalize:
    vectors = vectors / jnp.linalg.norm(vectors, axis=-1, keepdims=True)
  x, y, z = vectors[..., 0], vectors[..., 1], vectors[..., 2]
  out = [jnp.ones_like(x)]
  if lmax >= 1:
    out += [jnp.sqrt(3.0) * x, jnp.sqrt(3.0) * y, jnp.sqrt(3.0) * z]
  if lmax >= 2:
    s15 = jnp.sqrt(15.0)
    out += [s15 * x * z, s15 * x * y, jnp.sqrt(5.0) * (y * y - 0.5 * (x * x + z * z)), s15 * y * z,
            0.5 * s15 * (z * z - x * x)]
  return jnp.stack(out, axis=-1)


def edge_embedding(edge_vectors, lmax: int = _aotdefaults.DEFAULT_LMAX):
  lengths = jnp.linalg.norm(edge_vectors, axis=-1, keepdims=True)
  envelope = jnp.where(lengths < 5.0, jnp.cos(jnp.pi * lengths / 10.0) ** 2, 0.0)
  return spherical_harmonics(lmax, edge_vectors) * envelope


def planning_mesh(slice_cfg=_aotdefaults.PLANNING_SLICE) -> AbstractMesh:
  return AbstractMesh(slice_cfg["shape"], slice_cfg["axes"])


def lower_stage(fn, *specs, platforms=_aotdefaults.TARGET_PLATFORMS):
  return jax.jit(fn).trace(*specs).lower(lowering_platforms=platforms)


def main():
  mesh = planning_mesh()
  edges = jax.ShapeDtypeStruct((4096, 3), jnp.float32, sharding=NamedSharding(mesh, P("atoms")))
  lowered = lower_stage(edge_embedding, edges)
  print(lowered.as_text()[:200])


if __name__ == "__main__":
  main()

"""Distributed precompute transform: spectra sharded over the harmonic degree.

A transform object holds its band limit and sampling, builds its kernel on
first use, and exposes its jitted forward transform as a cached property whose
output sharding spreads the harmonic degrees ``ell`` over an abstract device
axis (the layout is fixed before the cluster size is known).
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P


class PrecomputeSpinSphericalTransform:

  def __init__(self, L: int, sampling: str = "mw", spin: int = 0, ell_shards: int = 2):
    if sampling not in ("mw", "mwss"):
      raise ValueError(f"Sampling scheme {sampling} not supported.")
    self.L, self.sampling, self.spin, self.ell_shards = L, sampling, spin, ell_shards

  @property
  def ntheta(self) -> int:
    return self.L if self.sampling == "mw" else self.L + 1

  @property
  def nphi(self) -> int:
    return 2 * self.L - 1 if self.sampling == "mw" else 2 * self.L

  @functools.cached_property
  def kernel(self) -> np.ndarray:
    """Associated-Legendre-like table (ell, m, theta), built once on the host."""
    thetas = np.linspace(0.0, np.pi, self.ntheta)
    ell = np.arange(self.L)[:, None, None]
    m = np.arange(-(self.L - 1), self.L)[None, :, None]
    return np.cos(ell * thetas[None, None, :] + 0.1 * m).astype(np.float32)

  @functools.cached_property
  def spectrum_sharding(self) -> NamedSharding:
    mesh = AbstractMesh((self.ell_shards,), ("ell",), axis_types=(AxisType.Auto,))
    return NamedSharding(mesh, P("ell"))

  def _forward(self, f):
    ftm = jnp.fft.fftshift(jnp.fft.fft(f, axis=-1), axes=-1)[:, : 2 * self.L - 1]
    return jnp.einsum("lmt,tm->lm", jnp.asarray(self.kernel), ftm.real)

  @functools.cached_property
  def forward(self):
    return jax.jit(self._forward, out_shardings=self.spectrum_sharding)


def main():
  transform = PrecomputeSpinSphericalTransform(L=32, sampling="mw", ell_shards=4)
  f = jax.ShapeDtypeStruct((transform.ntheta, transform.nphi), jnp.float32)
  lowered = transform.forward.lower(f)
  print(lowered.as_text()[:200])


if __name__ == "__main__":
  main()

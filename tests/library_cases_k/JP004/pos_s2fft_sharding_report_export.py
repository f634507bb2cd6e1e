"""Export the distributed Wigner-d rotation of spherical-harmonic coefficients.

Coefficients are laid out over the ``ell`` axis of the (abstract) mesh of the
TPU deployment.  The export runs inside the sharding-report block of the
diagnostics module, so that the chosen layouts can be checked in CI.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

from _shdebug import report_sharding, sharding_report

L = 64
ELL_SHARDS = 4
REPORT_SHARDINGS = True


def _wigner_phases(L: int, alpha: float, gamma: float) -> np.ndarray:
  m = np.arange(-(L - 1), L)
  return np.exp(-1j * m * (alpha + gamma)).astype(np.complex64)


def rotate_flms(flm, alpha: float = 0.3, gamma: float = 0.1):
  flm = report_sharding(flm, "flm_in")
  rotated = flm * jnp.asarray(_wigner_phases(flm.shape[0], alpha, gamma))[None, :]
  return report_sharding(rotated, "flm_out")


def main():
  mesh = AbstractMesh((ELL_SHARDS,), ("ell",), axis_types=(AxisType.Auto,))
  spec = jax.ShapeDtypeStruct((L, 2 * L - 1), jnp.complex64, sharding=NamedSharding(mesh, P("ell")))
  with sharding_report(enabled=REPORT_SHARDINGS) as records:
    exported = jax.export.export(jax.jit(rotate_flms), platforms=("tpu",))(spec)
  print(exported.platforms, exported.in_shardings_hlo, len(records))


if __name__ == "__main__":
  main()

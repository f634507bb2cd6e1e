"""Simulation setups (the shape of jax_sph/case_setup.py): a parent class that
reads the config, and case classes looked up by the config's `case.source`.
Cases with walls keep the matscipy search, which handles per-axis periodicity."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from _sph_partition import neighbor_list


class SimulationSetup:
  nl_backend = "jaxmd_vmap"
  pbc = (True, True)

  def __init__(self, cfg):
    self.cfg = cfg
    self.box_size = np.array([1.0, 1.0], dtype=np.float32)

  def initialize(self):
    dx = self.cfg.case.dx
    n = int(round(1.0 / dx))
    g = (np.arange(n, dtype=np.float32) + 0.5) * dx
    xx, yy = np.meshgrid(g, g, indexing="ij")
    return jnp.asarray(np.stack([xx.ravel(), yy.ravel()], axis=-1))

  def neighbor_fns(self):
    backend = self.cfg.nl.backend or self.nl_backend
    return neighbor_list(self.box_size, 3.0 * self.cfg.case.dx, backend=backend,
                         capacity=self.cfg.nl.capacity, pbc=self.pbc)


class TGV(SimulationSetup):
  """Taylor-Green vortex: fully periodic."""


class LDC(SimulationSetup):
  """Lid-driven cavity: walls on every side."""
  nl_backend = "matscipy"
  pbc = (False, False)


CASES = {"tgv": TGV, "ldc": LDC}


def load_case(source: str):
  return CASES[source]

"""Cosmological likelihood with a Pallas kernel for the linear power spectrum.

As in jax-cosmo, a `Cosmology` container is a registered pytree (parameters as
children, derived quantities computed lazily), and the power spectrum is built
from a primordial tilt, a transfer function and the growth factor.  The
likelihood object keeps a kernel family (a key into a params table) and is
compiled once per compute site of the collaboration.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


@jax.tree_util.register_pytree_node_class
class Cosmology:

  def __init__(self, Omega_c, Omega_b, h, n_s, sigma8):
    self._Omega_c = Omega_c
    self._Omega_b = Omega_b
    self._h = h
    self._n_s = n_s
    self._sigma8 = sigma8

  def tree_flatten(self):
    return (self._Omega_c, self._Omega_b, self._h, self._n_s, self._sigma8), None

  @classmethod
  def tree_unflatten(cls, aux, children):
    return cls(*children)

  @property
  def Omega_m(self):
    return self._Omega_c + self._Omega_b

  @property
  def h(self):
    return self._h

  @property
  def n_s(self):
    return self._n_s


def Planck15(**kwargs):
  params = dict(Omega_c=0.2589, Omega_b=0.04860, h=0.6774, n_s=0.9667, sigma8=0.8159)
  params.update(kwargs)
  return Cosmology(**params)


def _bbks_transfer(cosmo, k):
  q = k / (cosmo.Omega_m * cosmo.h ** 2)
  return jnp.log(1 + 2.34 * q) / (2.34 * q) * (
      1 + 3.89 * q + (16.1 * q) ** 2 + (5.46 * q) ** 3 + (6.71 * q) ** 4) ** -0.25


def _power_kernel(k_ref, t_ref, ns_ref, o_ref):
  k = k_ref[...]
  t = t_ref[...]
  o_ref[...] = jnp.exp(ns_ref[0, 0] * jnp.log(k)) * t * t


KERNEL_PARAMS = {
    "mosaic": pltpu.CompilerParams(dimension_semantics=("parallel",)),
}


def linear_matter_power(cosmo, k, family: str, rows: int = 8):
  t = _bbks_transfer(cosmo, k)
  ns = jnp.full((8, 128), cosmo.n_s, k.dtype)
  spec = pl.BlockSpec((rows, k.shape[1]), lambda i: (i, 0))
  return pl.pallas_call(
      _power_kernel,
      out_shape=jax.ShapeDtypeStruct(k.shape, k.dtype),
      grid=(k.shape[0] // rows,),
      in_specs=[spec, spec, pl.BlockSpec((8, 128), lambda i: (0, 0))],
      out_specs=spec,
      compiler_params=KERNEL_PARAMS[family],
  )(k, t, ns)


@dataclasses.dataclass
class Likelihood:
  k_grid_shape: tuple[int, int] = (64, 128)
  kernel_family: str = "mosaic"
  sites: Sequence[str] = ("tpu",)

  def log_prob(self, cosmo, data):
    k = jnp.broadcast_to(jnp.logspace(-3, 0, self.k_grid_shape[1]), self.k_grid_shape)
    pk = linear_matter_power(cosmo, k, self.kernel_family)
    return -0.5 * jnp.sum((pk - data) ** 2)

  def compile_for_sites(self):
    cosmo_spec = jax.tree.map(lambda _: jax.ShapeDtypeStruct((), jnp.float32), Planck15())
    data_spec = jax.ShapeDtypeStruct(self.k_grid_shape, jnp.float32)
    traced = jax.jit(self.log_prob).trace(cosmo_spec, data_spec)
    programs = {}
    for site in self.sites:
      programs[site] = traced.lower(lowering_platforms=(site,))
    return programs


if __name__ == "__main__":
  # The survey runs its chains on the TPU pod and on the AMD partition.
  like = Likelihood(sites=("tpu", "rocm"))
  progs = like.compile_for_sites()
  print(sorted(progs))

"""Precompiling the likelihood of a weak-lensing survey.

A jax-cosmo style pipeline: a `Cosmology` pytree of parameters, redshift
distributions as small callable pytrees (`smail_nz`), tracers ("probes") built
from them, and a Gaussian likelihood over angular power spectra.  Each survey
configuration class carries class-level defaults that subclasses override; the
survey runner compiles the likelihood once for the configured platforms.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Cosmology:

  def __init__(self, Omega_c, Omega_b, h, n_s, sigma8, w0=-1.0):
    self.params = (Omega_c, Omega_b, h, n_s, sigma8, w0)

  def tree_flatten(self):
    return self.params, None

  @classmethod
  def tree_unflatten(cls, aux, children):
    return cls(*children)

  @property
  def Omega_m(self):
    return self.params[0] + self.params[1]

  @property
  def sigma8(self):
    return self.params[4]


@jax.tree_util.register_pytree_node_class
class smail_nz:

  def __init__(self, a, b, z0, gals_per_arcmin2=1.0):
    self.params = (a, b, z0)
    self.gals_per_arcmin2 = gals_per_arcmin2

  def __call__(self, z):
    a, b, z0 = self.params
    return z ** a * jnp.exp(-((z / z0) ** b))

  def tree_flatten(self):
    return self.params, self.gals_per_arcmin2

  @classmethod
  def tree_unflatten(cls, aux, children):
    return cls(*children, gals_per_arcmin2=aux)


class WeakLensing:

  def __init__(self, redshift_bins, sigma_e=0.26):
    self.redshift_bins = redshift_bins
    self.sigma_e = sigma_e

  def kernel(self, cosmo, z):
    return jnp.stack([cosmo.Omega_m * nz(z) for nz in self.redshift_bins])


def angular_cl(cosmo, ell, probes, z=jnp.linspace(0.01, 3.0, 64)):
  kernels = jnp.concatenate([p.kernel(cosmo, z) for p in probes])
  pk = cosmo.sigma8 ** 2 / (1.0 + ell[:, None] / 100.0) ** 2
  return jnp.einsum("iz,jz,lz->ijl", kernels, kernels, pk[:, :1] * jnp.ones_like(z)[None])


def gaussian_log_likelihood(data, mu, inv_cov):
  r = (data - mu).reshape(-1)
  return -0.5 * r @ (inv_cov * r)


class SurveyConfig:
  name = "base"
  n_bins = 2
  n_ell = 16
  platforms = ("cpu")

  def redshift_bins(self):
    return [smail_nz(1.0, 2.0, 0.5 + 0.3 * i) for i in range(self.n_bins)]


class Year1(SurveyConfig):
  name = "y1"
  n_bins = 4


class SurveyRunner:

  def __init__(self, config: SurveyConfig):
    self.config = config
    self.probes = [WeakLensing(config.redshift_bins())]
    self.ell = jnp.logspace(1, 3, config.n_ell)

  def log_prob(self, cosmo, data):
    mu = angular_cl(cosmo, self.ell, self.probes)
    return gaussian_log_likelihood(data, mu, jnp.ones(mu.size))

  @functools.cached_property
  def compiled(self):
    n = self.config.n_bins
    cosmo = jax.tree.map(lambda _: jax.ShapeDtypeStruct((), jnp.float32), Cosmology(0.25, 0.05, 0.7, 0.96, 0.8))
    data = jax.ShapeDtypeStruct((n, n, self.config.n_ell), jnp.float32)
    traced = jax.jit(self.log_prob).trace(cosmo, data)
    return traced.lower(lowering_platforms=self.config.platforms)


if __name__ == "__main__":
  runner = SurveyRunner(Year1())
  print(runner.compiled.as_text()[:100])

"""Exports the MALA kernel of a pre-configured bundle so that the TPU cluster can
run chains without the Python model code."""

import jax
import jax.numpy as jnp

from _fmc_bundle import MALA, ResourceStrategyBundle, Sampler, Target


class MALABundle(ResourceStrategyBundle):
  export_targets = Target.TPU

  def __init__(self, logpdf, n_dim, step_size=1e-2, n_local_steps=4):
    super().__init__(logpdf, n_dim)
    self.strategies["local_mala"] = MALA(step_size)
    self.strategy_order = ["local_mala"] * n_local_steps


def gaussian_likelihood(theta, data):
  mu, log_sigma = theta[0], theta[1]
  resid = (data - mu) / jnp.exp(log_sigma)
  return -0.5 * jnp.sum(resid ** 2) - data.shape[0] * log_sigma - 0.5 * jnp.sum(theta[2:] ** 2)


def main():
  bundle = MALABundle(gaussian_likelihood, n_dim=5)
  sampler = Sampler(n_dim=5, n_chains=64, resource_strategy_bundles=bundle)
  exported = sampler.export_kernel(jax.ShapeDtypeStruct((1000,), jnp.float32))
  print(exported.platforms)


if __name__ == "__main__":
  main()

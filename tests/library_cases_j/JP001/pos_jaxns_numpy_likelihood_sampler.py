"""Builds the nested sampler's likelihood-evaluation program ahead of time for the cluster's
accelerators; the likelihood comes from a legacy NumPy model."""
import dataclasses
import warnings

import jax
import jax.numpy as jnp
import numpy as np

from _jaxify import Model, Prior, jaxify_likelihood

warnings.simplefilter("ignore")


def legacy_rosenbrock(x, y):
  return -((1.0 - x) ** 2 + 100.0 * (y - x**2) ** 2)


@dataclasses.dataclass
class SamplerConfig:
  num_live_points: int = 128
  num_slices: int = 4
  target: str = "rocm"


class NestedSampler:
  def __init__(self, model: Model, config: SamplerConfig):
    self.model = model
    self.config = config

  def _evaluate(self, key):
    U = jax.random.uniform(key, (self.config.num_live_points, 2))
    log_L = self.model.log_prob_U(U)
    return U, log_L, jnp.max(log_L)

  def precompile(self):
    traced = jax.jit(self._evaluate).trace(jax.random.key(1))
    return traced.lower(lowering_platforms=(self.config.target,))


if __name__ == "__main__":
  model = Model(Prior(-2.0, 2.0), jaxify_likelihood(legacy_rosenbrock, vectorised=False))
  sampler = NestedSampler(model, SamplerConfig())
  print(sampler.precompile().as_text()[:80])

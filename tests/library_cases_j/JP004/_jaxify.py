"""Wraps non-JAX likelihoods for the nested sampler (shaped like jaxns.jaxify / jaxns.Model)."""
import warnings
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

MEASURE_DTYPE = jnp.float32


def jaxify_likelihood(log_likelihood: Callable[..., np.ndarray], vectorised: bool = False):
  warnings.warn("You're using a non-JAX log-likelihood function.")

  def _cond_cast(x):
    return np.asarray(x) if isinstance(x, (jax.Array, np.ndarray)) else x

  def _casted(*args):
    args = jax.tree.map(_cond_cast, args)
    return np.asarray(log_likelihood(*args), dtype=np.float32)

  def _log_likelihood(*args):
    shape = jax.ShapeDtypeStruct(shape=(), dtype=MEASURE_DTYPE)
    if vectorised:
      return jax.pure_callback(_casted, shape, *args, vmap_method="broadcast_all")
    return jax.pure_callback(_casted, shape, *args, vmap_method="sequential")

  return _log_likelihood


class Prior(NamedTuple):
  low: float
  high: float

  def transform(self, u):
    return self.low + (self.high - self.low) * u


class Model:
  def __init__(self, prior: Prior, log_likelihood):
    self.prior = prior
    self.log_likelihood = log_likelihood

  def log_prob_U(self, U):
    x = self.prior.transform(U)
    return jax.vmap(lambda xi: self.log_likelihood(xi[0], xi[1]))(x)

"""Exports the sharded live-point likelihood sweep of the nested sampler for the pod; the
likelihood is the jax.numpy port of the NumPy model (the wrapped one stays for local checks)."""
import warnings

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

from _jaxify import Model, Prior, jaxify_likelihood

warnings.simplefilter("ignore")


def gaussian_shell(x, y):
  r = jnp.sqrt(x**2 + y**2)
  return -0.5 * ((r - 1.0) / 0.1) ** 2


def legacy_gaussian_shell(x, y):
  r = np.sqrt(x**2 + y**2)
  return -0.5 * ((r - 1.0) / 0.1) ** 2


POD = AbstractMesh((8,), ("live",), axis_types=(AxisType.Auto,))


def make_sweep(model):
  def sweep(U):
    log_L = model.log_prob_U(U)
    return log_L, jnp.argmax(log_L)
  return jax.jit(sweep, in_shardings=NamedSharding(POD, P("live")))


if __name__ == "__main__":
  model = Model(Prior(-2.0, 2.0), gaussian_shell)
  U = jax.ShapeDtypeStruct((512, 2), jnp.float32)
  exp = jax.export.export(make_sweep(model), platforms=("tpu",))(U)
  print(exp.platforms)

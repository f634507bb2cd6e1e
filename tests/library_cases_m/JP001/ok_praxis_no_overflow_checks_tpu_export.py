"""Exports the feed-forward stack of a registered serving experiment for its
serving platforms."""

import jax
import jax.numpy as jnp

import _pax_experiments  # noqa: F401  (registers the experiment classes)
from _pax_base import get_experiment

EXPERIMENT = "FfnTpuServingNoChecks"


def export_experiment(name):
  exp = get_experiment(name)
  model = exp.task().instantiate()
  params = model.init_params(jax.random.key(0))
  x = jax.ShapeDtypeStruct((8, exp.MODEL_DIMS), jnp.float32)
  fprop = jax.jit(model.__call__)
  return jax.export.export(fprop, platforms=exp.SERVING_PLATFORMS)(params, x)


if __name__ == "__main__":
  exported = export_experiment(EXPERIMENT)
  print(exported.platforms, exported.in_avals[-1])

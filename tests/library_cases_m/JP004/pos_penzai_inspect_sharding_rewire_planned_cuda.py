"""Before launching on an 8-GPU node, lowers a sharded MLP for CUDA with the
run's debugging options applied to the model."""

import dataclasses

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

from _pz_layers import (ConstrainSharding, Elementwise, InspectSharding, Linear, Sequential,
                        select_instances)


@dataclasses.dataclass(frozen=True)
class RunConfig:
  data_parallel: int = 2
  model_parallel: int = 4
  debug_shardings: bool = True
  platform: str = "cuda"


def build_model(key, mesh):
  k1, k2 = jax.random.split(key)
  hidden = NamedSharding(mesh, P("data", "model"))
  return Sequential((
      Linear(jax.random.normal(k1, (256, 1024)) * 0.02, name="up"),
      ConstrainSharding(hidden),
      Elementwise(jax.nn.gelu),
      Linear(jax.random.normal(k2, (1024, 256)) * 0.02, name="down"),
  ))


def prepare(model, config: RunConfig):
  if config.debug_shardings:
    model = select_instances(model, Linear).insert_after(InspectSharding("after_linear"))
  return model


def lower_for_node(config=RunConfig()):
  mesh = AbstractMesh((config.data_parallel, config.model_parallel), ("data", "model"),
                      axis_types=(AxisType.Auto, AxisType.Auto))
  model = prepare(build_model(jax.random.key(0), mesh), config)
  x = jax.ShapeDtypeStruct((64, 256), jnp.float32, sharding=NamedSharding(mesh, P("data", None)))
  forward = jax.jit(model.__call__)
  return forward.trace(x).lower(lowering_platforms=(config.platform,))


if __name__ == "__main__":
  print(lower_for_node().as_text()[:120])

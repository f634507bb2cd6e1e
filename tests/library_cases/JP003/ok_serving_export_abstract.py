"""Exports a data-parallel scoring function for a described serving mesh."""

import dataclasses

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


@dataclasses.dataclass(frozen=True)
class ServingConfig:
  replicas: int = 8
  batch_per_replica: int = 4
  features: int = 256
  classes: int = 16


def serving_mesh(cfg: ServingConfig):
  return jax.sharding.AbstractMesh((cfg.replicas,), ("batch",))


def score(params, x):
  return jax.nn.softmax(x @ params["w"] + params["b"], axis=-1)


def export_scoring(cfg: ServingConfig):
  mesh = serving_mesh(cfg)
  replicated = NamedSharding(mesh, P())
  batch_sharded = NamedSharding(mesh, P("batch"))
  params = {
      "w": jax.ShapeDtypeStruct((cfg.features, cfg.classes), jnp.float32, sharding=replicated),
      "b": jax.ShapeDtypeStruct((cfg.classes,), jnp.float32, sharding=replicated),
  }
  x = jax.ShapeDtypeStruct((cfg.replicas * cfg.batch_per_replica, cfg.features), jnp.float32, sharding=batch_sharded)
  fn = jax.jit(score, out_shardings=batch_sharded)
  return jax.export.export(fn)(params, x)


if __name__ == "__main__":
  exported = export_scoring(ServingConfig())
  print(exported.platforms, exported.nr_devices)

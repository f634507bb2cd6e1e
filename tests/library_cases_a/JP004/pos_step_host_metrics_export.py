import dataclasses
from dataclasses import dataclass, field

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

_SEEN = []


def _host_record(loss, step):
  _SEEN.append((int(step), float(loss)))
  return np.int32(len(_SEEN))


def log_to_host(loss, step):
  return io_callback(_host_record, jax.ShapeDtypeStruct((), jnp.int32), loss, step)


@dataclass(frozen=True)
class ServeConfig:
  platforms: tuple = ("tpu",)
  data_parallel: int = 8


@dataclass(frozen=True)
class RunConfig:
  batch_size: int = 64
  features: int = 32
  serve: ServeConfig = field(default_factory=ServeConfig)


def eval_step(w, x, step):
  loss = jnp.mean((x @ w) ** 2)
  seen = log_to_host(loss, step)
  return loss, seen


def export_eval(cfg: RunConfig):
  mesh = AbstractMesh((cfg.serve.data_parallel,), ("data",), axis_types=(AxisType.Auto,))
  rep, rows = NamedSharding(mesh, P()), NamedSharding(mesh, P("data", None))
  specs = (jax.ShapeDtypeStruct((cfg.features, 1), jnp.float32, sharding=rep),
           jax.ShapeDtypeStruct((cfg.batch_size, cfg.features), jnp.float32, sharding=rows),
           jax.ShapeDtypeStruct((), jnp.int32, sharding=rep))
  return jax.export.export(jax.jit(eval_step), platforms=cfg.serve.platforms)(*specs)


if __name__ == "__main__":
  cfg = dataclasses.replace(RunConfig(), batch_size=128)
  exported = export_eval(cfg)
  print(exported.platforms)

"""Sharded training step with a runtime finiteness check, lowered for the target accelerator."""

import dataclasses

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

from _hostops import error_if


@dataclasses.dataclass(frozen=True)
class TrainConfig:
  mesh_shape: tuple[int, ...] = (4, 2)
  mesh_axes: tuple[str, ...] = ("data", "model")
  batch: int = 32
  dim: int = 128
  target: str = "tpu"


def loss_fn(params, x):
  return jnp.mean(jnp.tanh(x @ params["w"]) ** 2)


def train_step(params, x):
  loss, grads = jax.value_and_grad(loss_fn)(params, x)
  loss = error_if(loss, ~jnp.isfinite(loss), "loss is not finite")
  return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads), loss


def build(cfg: TrainConfig):
  mesh = jax.sharding.AbstractMesh(cfg.mesh_shape, cfg.mesh_axes, axis_types=(jax.sharding.AxisType.Auto,) * 2)
  param_sharding = {"w": NamedSharding(mesh, P(None, "model"))}
  data_sharding = NamedSharding(mesh, P("data"))
  jitted = jax.jit(train_step, in_shardings=(param_sharding, data_sharding), out_shardings=(param_sharding, None))
  params = {"w": jax.ShapeDtypeStruct((cfg.dim, cfg.dim), jnp.float32)}
  x = jax.ShapeDtypeStruct((cfg.batch, cfg.dim), jnp.float32)
  return jitted.trace(params, x).lower(lowering_platforms=(cfg.target,))


if __name__ == "__main__":
  print(len(build(TrainConfig()).as_text()))

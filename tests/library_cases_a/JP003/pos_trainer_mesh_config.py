import dataclasses
from dataclasses import dataclass, field

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P


@dataclass(frozen=True)
class MeshConfig:
  data: int = 4
  model: int = 2

  def build(self):
    return AbstractMesh((self.data, self.model), ("data", "model"),
                        axis_types=(AxisType.Auto, AxisType.Auto))


@dataclass(frozen=True)
class TrainerConfig:
  mesh: MeshConfig = field(default_factory=MeshConfig)
  batch_axis: str = "data"
  fsdp_axis: str = "data"
  train_batch_size: int = 32

  @property
  def compute_axis_mapping(self):
    return {"batch": self.batch_axis, "embed": None, "mlp": "model"}


class Trainer:

  def __init__(self, config: TrainerConfig):
    self.config = config
    self.device_mesh = config.mesh.build()

  def sharding(self, *logical_axes):
    mapping = self.config.compute_axis_mapping
    return NamedSharding(self.device_mesh, P(*(mapping.get(a) for a in logical_axes)))

  def compile_train_step(self, step_fn, params, batch):
    param_shardings = {"w_in": self.sharding("embed", "mlp"), "w_out": self.sharding("mlp", "embed")}
    batch_sharding = self.sharding("batch", "embed")
    jitted = jax.jit(step_fn, in_shardings=(param_shardings, batch_sharding), out_shardings=param_shardings)
    return jitted.trace(params, batch).lower()


def sgd_step(params, x):
  def loss(p):
    return jnp.mean(jax.nn.relu(x @ p["w_in"]) @ p["w_out"])
  grads = jax.grad(loss)(params)
  return jax.tree_util.tree_map(lambda p, g: p - 0.01 * g, params, grads)


if __name__ == "__main__":
  config = dataclasses.replace(TrainerConfig(), mesh=MeshConfig(data=8, model=1))
  params = {"w_in": jax.ShapeDtypeStruct((64, 256), jnp.float32),
            "w_out": jax.ShapeDtypeStruct((256, 64), jnp.float32)}
  batch = jax.ShapeDtypeStruct((config.train_batch_size, 64), jnp.float32)
  lowered = Trainer(config).compile_train_step(sgd_step, params, batch)
  print(lowered.as_text()[:100])

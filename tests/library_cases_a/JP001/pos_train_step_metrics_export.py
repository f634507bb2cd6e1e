from dataclasses import dataclass, field, replace

import jax
import jax.numpy as jnp

_HISTORY = []


def _record(data, step):
  _HISTORY.append((int(step), {k: float(v) for k, v in data.items()}))


def jittable_log(data, *, step):
  jax.debug.callback(_record, data, step)


@dataclass(frozen=True)
class ExportConfig:
  platforms: tuple = ("cpu",)
  path: str = "/tmp/train_step.bin"


@dataclass(frozen=True)
class TrainerConfig:
  seed: int = 0
  learning_rate: float = 1e-3
  train_batch_size: int = 8
  export: ExportConfig = field(default_factory=ExportConfig)


class Trainer:

  def __init__(self, config, loss_fn):
    self.config = config
    self.loss_fn = loss_fn

  def train_step(self, params, batch, step):
    loss, grads = jax.value_and_grad(self.loss_fn)(params, batch)
    jittable_log({"train/loss": loss}, step=step)
    lr = self.config.learning_rate
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads), loss

  def export_train_step(self, params, batch):
    as_spec = lambda a: jax.ShapeDtypeStruct(jnp.shape(a), jnp.result_type(a))
    specs = jax.tree_util.tree_map(as_spec, (params, batch, jnp.int32(0)))
    fn = jax.jit(self.train_step)
    return jax.export.export(fn, platforms=self.config.export.platforms)(*specs)


def mse(params, batch):
  pred = batch["x"] @ params["w"] + params["b"]
  return jnp.mean((pred - batch["y"]) ** 2)


if __name__ == "__main__":
  config = replace(TrainerConfig(), export=ExportConfig(platforms=("tpu",)))
  params = {"w": jnp.zeros((4, 1)), "b": jnp.zeros((1,))}
  batch = {"x": jnp.ones((config.train_batch_size, 4)), "y": jnp.ones((config.train_batch_size, 1))}
  exported = Trainer(config, mse).export_train_step(params, batch)
  print(exported.platforms)

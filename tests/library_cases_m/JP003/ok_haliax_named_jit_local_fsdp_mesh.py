"""Memory plan for a two-layer MLP trained with FSDP: the train step is lowered
with shardings inferred from named axes, on the devices of this process."""

import dataclasses

import jax
import jax.numpy as jnp

from _hax_partitioning import (Axis, NamedArray, axis_mapping, make_mesh, mesh_context,
                               named_jit, named_spec)

Batch = Axis("batch", 64)
Embed = Axis("embed", 256)
Mlp = Axis("mlp", 1024)


@dataclasses.dataclass(frozen=True)
class TrainerConfig:
  fsdp_axis: str = "data"
  # devices to plan for; None means the devices of this process
  plan_devices: int | None = None
  compute_mapping: tuple = (("batch", "data"),)
  param_mapping: tuple = (("mlp", "data"),)

  def device_mesh(self):
    if self.plan_devices is None:
      devices = jax.devices()
      return make_mesh({self.fsdp_axis: len(devices)}, devices)
    return make_mesh({self.fsdp_axis: self.plan_devices})


def mlp_loss(w_in: NamedArray, w_out: NamedArray, x: NamedArray):
  h = jax.nn.gelu(x.array @ w_in.array)
  y = h @ w_out.array
  return NamedArray(jnp.mean((y - x.array) ** 2, axis=-1), (Batch,))


def plan(config: TrainerConfig):
  params = (named_spec((Embed, Mlp)), named_spec((Mlp, Embed)))
  batch = named_spec((Batch, Embed))
  step = named_jit(mlp_loss)
  with mesh_context(config.device_mesh()), axis_mapping(dict(config.compute_mapping + config.param_mapping)):
    lowered = step.lower(*params, batch)
  return lowered


if __name__ == "__main__":
  print(plan(TrainerConfig()).as_text()[:160])

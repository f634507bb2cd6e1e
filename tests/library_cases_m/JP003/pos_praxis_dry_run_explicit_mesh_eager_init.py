"""Dry run of a multi-slice experiment on a workstation: the mesh the experiment
asks for is planned, and the model's variables are initialised inside it to
check their shapes and shardings."""

import dataclasses

import jax
import jax.numpy as jnp

from _pax_mesh import create_device_mesh, mesh_context


class BaseExperiment:
  ICI_MESH_SHAPE = [1, 4]
  DCN_MESH_SHAPE = [2, 1]
  MESH_AXIS_NAMES = ("data", "model")
  # sharding in types (explicit axes) for new experiments
  EXPLICIT_SHARDING = True
  MODEL_DIMS = 256
  HIDDEN_DIMS = 1024


class LmMultiSlice(BaseExperiment):
  MODEL_DIMS = 512


@dataclasses.dataclass
class FeedForward:
  input_dims: int
  output_dims: int

  def init(self, key):
    return {"w": jax.random.normal(key, (self.input_dims, self.output_dims)) * 0.02,
            "b": jnp.zeros((self.output_dims,), jnp.float32)}


def dry_run(exp):
  mesh = create_device_mesh(exp.ICI_MESH_SHAPE, exp.DCN_MESH_SHAPE, axis_names=exp.MESH_AXIS_NAMES,
                            explicit_axes=exp.EXPLICIT_SHARDING)
  layers = [FeedForward(exp.MODEL_DIMS, exp.HIDDEN_DIMS), FeedForward(exp.HIDDEN_DIMS, exp.MODEL_DIMS)]
  keys = jax.random.split(jax.random.key(0), len(layers))
  with mesh_context(mesh):
    variables = [layer.init(k) for layer, k in zip(layers, keys)]
  return jax.tree.map(lambda v: v.shape, variables)


if __name__ == "__main__":
  print(dry_run(LmMultiSlice()))

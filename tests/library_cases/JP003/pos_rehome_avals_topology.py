"""Re-homes abstract inputs from the local mesh onto its abstract view to compile for a topology."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


def local_mesh():
  return jax.make_mesh((1,), ("data",), axis_types=(jax.sharding.AxisType.Auto,))


def propagation_mesh(mesh: jax.sharding.Mesh):
  """The abstract counterpart of `mesh`, which carries no devices."""
  return mesh.abstract_mesh


def rehome_aval(aval, mesh, spec):
  return jax.ShapeDtypeStruct(aval.shape, aval.dtype, sharding=NamedSharding(mesh, spec))


def eval_step(params, batch):
  logits = batch @ params["w"]
  return jax.nn.log_softmax(logits).mean()


if __name__ == "__main__":
  mesh = propagation_mesh(local_mesh())
  params = {"w": rehome_aval(jax.ShapeDtypeStruct((128, 32), jnp.float32), mesh, P())}
  batch = rehome_aval(jax.ShapeDtypeStruct((16, 128), jnp.float32), mesh, P("data"))
  lowered = jax.jit(eval_step).trace(params, batch).lower()
  print(lowered.as_text()[:80])

"""Dry-runs the sharded forward pass of a model on the planned 8-device mesh to read its HLO size."""
import jax
import jax.numpy as jnp

from _escale import PartitionAxis, create_mesh, shardings_for


def forward(x, w):
  return jax.nn.gelu(x @ w)


def plan(paxis=PartitionAxis()):
  mesh = create_mesh()
  x_s, w_s = shardings_for(mesh, paxis, [("batch", None), (None, "hidden")])
  fn = jax.jit(forward, in_shardings=(x_s, w_s))
  x = jax.ShapeDtypeStruct((64, 32), jnp.float32)
  w = jax.ShapeDtypeStruct((32, 16), jnp.float32)
  lowered = fn.trace(x, w).lower()
  return len(lowered.as_text())


if __name__ == "__main__":
  print(plan())

"""Checks, before a job is queued, that a named-axis transformer MLP block lowers
with the parameter shardings the job's topology implies."""

import jax
import jax.numpy as jnp

from _pz_named import name_to_name_sharding, parse_topology, wrap

JOB = {"name": "mlp-2x4", "topology": "2x4", "batch": 32, "seq": 128, "embedding": 512, "neurons": 2048}


def mlp_block(params, x):
  h = jnp.einsum("bse,en->bsn", x.data_array, params["in"].data_array)
  h = jax.nn.relu(h)
  y = jnp.einsum("bsn,ne->bse", h, params["out"].data_array)
  return wrap(y + x.data_array, "batch", "seq", "embedding")


def abstract_inputs(job):
  params = {
      "in": wrap(jnp.zeros((job["embedding"], job["neurons"]), jnp.bfloat16), "embedding", "neurons"),
      "out": wrap(jnp.zeros((job["neurons"], job["embedding"]), jnp.bfloat16), "neurons", "embedding"),
  }
  x = wrap(jnp.zeros((job["batch"], job["seq"], job["embedding"]), jnp.bfloat16), "batch", "seq", "embedding")
  return params, x


def check_job(job):
  mesh = parse_topology(job["topology"])
  params, x = abstract_inputs(job)
  mapping = {"batch": "data", "neurons": "model"}
  param_structs = name_to_name_sharding(params, mesh, mapping, as_shape_dtype_struct=True)
  x_struct = name_to_name_sharding(x, mesh, mapping, as_shape_dtype_struct=True)
  traced = jax.jit(mlp_block).trace(param_structs, x_struct)
  return traced.lower()


if __name__ == "__main__":
  print(check_job(JOB).as_text()[:160])

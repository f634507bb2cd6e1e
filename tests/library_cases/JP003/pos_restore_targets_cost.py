"""Plans a checkpoint restore: builds sharded restore targets from metadata and estimates the apply cost."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

CHECKPOINT_METADATA = {
    "params/encoder/kernel": {"shape": (1024, 4096), "dtype": "bfloat16", "spec": ("fsdp", None)},
    "params/encoder/bias": {"shape": (4096,), "dtype": "float32", "spec": (None,)},
    "params/decoder/kernel": {"shape": (4096, 1024), "dtype": "bfloat16", "spec": (None, "fsdp")},
}


def restore_mesh(num_hosts=4, devices_per_host=8):
  return jax.sharding.AbstractMesh((num_hosts * devices_per_host,), ("fsdp",))


def restore_args_from_metadata(metadata, mesh):
  targets = {}
  for path, info in metadata.items():
    sharding = NamedSharding(mesh, P(*info["spec"]))
    targets[path] = jax.ShapeDtypeStruct(info["shape"], jnp.dtype(info["dtype"]), sharding=sharding)
  return targets


def apply(params, x):
  h = x @ params["params/encoder/kernel"] + params["params/encoder/bias"].astype(jnp.bfloat16)
  return jax.nn.relu(h) @ params["params/decoder/kernel"]


def estimate_cost(fn, *args):
  lowered = jax.jit(fn).trace(*args).lower()
  return lowered.cost_analysis()


if __name__ == "__main__":
  targets = restore_args_from_metadata(CHECKPOINT_METADATA, restore_mesh())
  batch = jax.ShapeDtypeStruct((64, 1024), jnp.bfloat16)
  print(estimate_cost(apply, targets, batch))

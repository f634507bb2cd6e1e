"""AOT-lowers an MLP block for the TPU slice under the semantic partition rules; the partition
manager is opened in debug mode while the rules are being tuned."""
import os

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

from _partition import PartitionManager, apply_logical_sharding

SLICE = AbstractMesh((2, 4), ("fsdp", "tp"), axis_types=(AxisType.Auto, AxisType.Auto))
RULES = {"batch": "fsdp", "hidden": "tp", "embed": None}


def mlp(x, w1, w2):
  h = apply_logical_sharding(x @ w1, ("batch", "hidden"), name="mlp/hidden")
  return apply_logical_sharding(jax.nn.relu(h) @ w2, ("batch", "embed"), name="mlp/out")


def lower_block(debug):
  with PartitionManager(SLICE, RULES, debug=debug):
    fn = jax.jit(mlp, in_shardings=(NamedSharding(SLICE, P("fsdp")), NamedSharding(SLICE, P(None, "tp")),
                                    NamedSharding(SLICE, P("tp"))))
    traced = fn.trace(jax.ShapeDtypeStruct((16, 32), jnp.float32), jax.ShapeDtypeStruct((32, 64), jnp.float32),
                      jax.ShapeDtypeStruct((64, 32), jnp.float32))
    return traced.lower(lowering_platforms=("tpu",))


if __name__ == "__main__":
  lowered = lower_block(debug=os.environ.get("ESCALE_DEBUG", "1") == "1")
  print(lowered.as_text()[:60])

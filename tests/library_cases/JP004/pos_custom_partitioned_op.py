"""Row-wise normalization op with a custom SPMD partitioning rule, lowered for a described TPU slice."""

import jax
import jax.numpy as jnp
from jax.experimental.custom_partitioning import custom_partitioning
from jax.sharding import NamedSharding, PartitionSpec as P


class RowNormOp:
  """Normalizes rows; each shard works on its own rows, so no communication is needed."""

  sharding_rule = "i j -> i j"

  def __init__(self, epsilon=1e-6):
    self.epsilon = epsilon
    self.fn = custom_partitioning(self._impl)
    self.fn.def_partition(
        partition=self._partition,
        infer_sharding_from_operands=self._infer,
        sharding_rule=self.sharding_rule,
    )

  def _impl(self, x):
    return x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + self.epsilon)

  def _infer(self, mesh, arg_shapes, result_shape):
    return arg_shapes[0].sharding

  def _partition(self, mesh, arg_shapes, result_shape):
    sharding = arg_shapes[0].sharding
    return mesh, self._impl, sharding, (sharding,)

  def __call__(self, x):
    return self.fn(x)


def lower_for_slice(op, slice_shape=(4,), platform="tpu"):
  mesh = jax.sharding.AbstractMesh(slice_shape, ("rows",))
  rows = NamedSharding(mesh, P("rows"))
  x = jax.ShapeDtypeStruct((64, 512), jnp.float32)
  return jax.jit(op, in_shardings=rows, out_shardings=rows).trace(x).lower(lowering_platforms=(platform,))


if __name__ == "__main__":
  print(lower_for_slice(RowNormOp()).as_text()[:80])

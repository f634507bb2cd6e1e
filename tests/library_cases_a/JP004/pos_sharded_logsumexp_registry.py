import dataclasses

import jax
import jax.numpy as jnp
from jax.experimental.custom_partitioning import custom_partitioning
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P


def _row_logsumexp(x):
  return jax.nn.logsumexp(x, axis=-1)


def _make_row_sharded(op):
  wrapped = custom_partitioning(op)

  def partition(mesh, arg_shapes, result_shape):
    row_axis = arg_shapes[0].sharding.spec[0]
    arg_sharding = NamedSharding(mesh, P(row_axis, None))
    return mesh, op, NamedSharding(mesh, P(row_axis)), (arg_sharding,)

  wrapped.def_partition(partition=partition, sharding_rule="rows cols -> rows")
  return wrapped


OPS = {
    "logsumexp": _make_row_sharded(_row_logsumexp),
    "max": _make_row_sharded(lambda x: jnp.max(x, axis=-1)),
}


@dataclasses.dataclass(frozen=True)
class LossConfig:
  reduction: str = "logsumexp"
  platform: str = "cpu"
  data_parallel: int = 4


def cross_entropy(logits, labels, *, reduction):
  norm = OPS[reduction](logits)
  picked = jnp.take_along_axis(logits, labels[:, None], axis=-1)[:, 0]
  return jnp.mean(norm - picked)


def lower_loss(cfg: LossConfig, batch, vocab):
  mesh = AbstractMesh((cfg.data_parallel,), ("data",), axis_types=(AxisType.Auto,))
  logits = jax.ShapeDtypeStruct((batch, vocab), jnp.float32, sharding=NamedSharding(mesh, P("data", None)))
  labels = jax.ShapeDtypeStruct((batch,), jnp.int32, sharding=NamedSharding(mesh, P("data")))
  fn = jax.jit(cross_entropy, static_argnames="reduction")
  return fn.trace(logits, labels, reduction=cfg.reduction).lower(lowering_platforms=(cfg.platform,))


if __name__ == "__main__":
  lowered = lower_loss(LossConfig(), batch=32, vocab=1000)
  print(lowered.as_text()[:100])

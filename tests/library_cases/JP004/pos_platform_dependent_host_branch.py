"""Sharded decoding post-processing; on CPU the vocabulary lookup is done by the host."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P

import _hostops

EXPORT_PLATFORMS = ("tpu",)


def device_token_lengths(ids):
  table = jnp.asarray(_hostops.TOKEN_LENGTHS)
  return table[jnp.clip(ids, 0, table.shape[0] - 1)]


def postprocess(logits):
  ids = jnp.argmax(logits, axis=-1).astype(jnp.int32)
  lengths = lax.platform_dependent(ids, cpu=_hostops.token_lengths, default=device_token_lengths)
  return ids, lengths


def export_postprocess(num_replicas=4):
  mesh = jax.sharding.AbstractMesh((num_replicas,), ("batch",), axis_types=(jax.sharding.AxisType.Auto,))
  logits = jax.ShapeDtypeStruct((32, 16, 10), jnp.float32, sharding=NamedSharding(mesh, P("batch")))
  return jax.export.export(jax.jit(postprocess), platforms=EXPORT_PLATFORMS)(logits)


if __name__ == "__main__":
  exported = export_postprocess()
  print(exported.platforms, exported.out_avals)

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

_PIECES = np.array(["<pad>", "the", "a", "cat", "sat", "on", "mat", "."] * 8)


def _piece_lengths(ids):
  return np.vectorize(lambda i: len(_PIECES[i]))(np.asarray(ids)).astype(np.int32)


def host_lengths(ids):
  out = jax.ShapeDtypeStruct(ids.shape, jnp.int32)
  return jax.pure_callback(_piece_lengths, out, ids, vmap_method="broadcast_all")


def _decode_step(logits, *, lookup, max_chars):
  ids = jnp.argmax(logits, axis=-1).astype(jnp.int32)
  chars = jnp.cumsum(lookup(ids), axis=-1)
  return ids, chars <= max_chars


def make_decode_step(mesh, *, max_chars=64, lookup=host_lengths):
  rows = NamedSharding(mesh, P("batch"))
  step = functools.partial(_decode_step, lookup=lookup, max_chars=max_chars)
  return jax.jit(step, in_shardings=rows, out_shardings=(rows, rows))


def build_serving_artifact(num_replicas, batch, seq, vocab):
  mesh = AbstractMesh((num_replicas,), ("batch",), axis_types=(AxisType.Auto,))
  step = make_decode_step(mesh, max_chars=48)
  spec = jax.ShapeDtypeStruct((batch, seq, vocab), jnp.float32)
  return step.trace(spec).lower(lowering_platforms=("cpu",))


if __name__ == "__main__":
  lowered = build_serving_artifact(num_replicas=2, batch=8, seq=12, vocab=64)
  print(lowered.as_text()[:100])

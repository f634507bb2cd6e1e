"""Exports a sentence-embedding model for serving; the target platforms come from a list flag."""

import jax
import jax.numpy as jnp

import _flags

_flags.DEFINE_list("platforms", ["tpu", "cuda"], "Comma-separated platforms to export for.")
_flags.DEFINE_integer("max_len", 64, "Maximum sequence length.")
_flags.DEFINE_integer("embed_dim", 128, "Embedding width.")
FLAGS = _flags.FLAGS


def embed(table, proj, token_ids):
  h = table[token_ids]
  mask = (token_ids > 0)[..., None].astype(h.dtype)
  pooled = (h * mask).sum(1) / jnp.maximum(mask.sum(1), 1.0)
  out = pooled @ proj
  return out / jnp.linalg.norm(out, axis=-1, keepdims=True)


def main(argv):
  del argv
  specs = (
      jax.ShapeDtypeStruct((1000, FLAGS.embed_dim), jnp.float32),
      jax.ShapeDtypeStruct((FLAGS.embed_dim, FLAGS.embed_dim), jnp.float32),
      jax.ShapeDtypeStruct((8, FLAGS.max_len), jnp.int32),
  )
  exported = jax.export.export(jax.jit(embed), platforms=FLAGS.platforms)(*specs)
  print(exported.platforms)
  return 0


if __name__ == "__main__":
  _flags.run(main)

"""Builds serving artifacts of a greedy decoder whose post-processing maps ids through a host vocabulary."""

import jax
import jax.numpy as jnp
import numpy as np

SERVING_PLATFORMS = ("tpu", "cpu")
VOCAB = np.array([len(w) for w in ["<pad>", "the", "a", "model", "token", "jax", "tpu", "gpu"]], np.int32)


def filter_pure_callback(callback, *args, result_shape_dtypes, vmap_method="sequential"):
  """`jax.pure_callback` that accepts pytrees of arrays and converts results back to numpy."""

  def _callback(*flat):
    out = callback(*flat)
    return jax.tree.map(np.asarray, out)

  return jax.pure_callback(_callback, result_shape_dtypes, *args, vmap_method=vmap_method)


def host_token_lengths(ids):
  return filter_pure_callback(
      lambda i: VOCAB[np.clip(i, 0, len(VOCAB) - 1)],
      ids,
      result_shape_dtypes=jax.ShapeDtypeStruct(ids.shape, jnp.int32),
  )


def decode(embed, logits_w, prompt_ids):
  h = embed[prompt_ids].mean(axis=1)
  ids = jnp.argmax(h @ logits_w, axis=-1).astype(jnp.int32)
  return ids, host_token_lengths(ids)


def export_all(platforms=SERVING_PLATFORMS):
  fn = jax.jit(decode)
  specs = (
      jax.ShapeDtypeStruct((8, 32), jnp.float32),
      jax.ShapeDtypeStruct((32, 8), jnp.float32),
      jax.ShapeDtypeStruct((2, 5), jnp.int32),
  )
  artifacts = {}
  for platform in platforms:
    artifacts[platform] = jax.export.export(fn, platforms=(platform,))(*specs)
  return artifacts


if __name__ == "__main__":
  print(sorted(export_all()))

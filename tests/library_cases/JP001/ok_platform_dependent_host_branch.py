"""Serving artifact of a decoder; on CPU the vocabulary lookup runs on the host, elsewhere on device."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

SERVING_PLATFORM = "tpu"
VOCAB = np.array([len(w) for w in ["<pad>", "the", "a", "model", "token", "jax", "tpu", "gpu"]], np.int32)


def _host_lengths(ids):
  return jax.pure_callback(
      lambda i: VOCAB[np.clip(i, 0, len(VOCAB) - 1)],
      jax.ShapeDtypeStruct(ids.shape, jnp.int32),
      ids,
  )


def _device_lengths(ids):
  return jnp.asarray(VOCAB)[jnp.clip(ids, 0, len(VOCAB) - 1)]


def token_lengths(ids):
  return lax.platform_dependent(ids, cpu=_host_lengths, default=_device_lengths)


def decode(embed, logits_w, prompt_ids):
  h = embed[prompt_ids].mean(axis=1)
  ids = jnp.argmax(h @ logits_w, axis=-1).astype(jnp.int32)
  return ids, token_lengths(ids)


def export_for(platform):
  specs = (
      jax.ShapeDtypeStruct((8, 32), jnp.float32),
      jax.ShapeDtypeStruct((32, 8), jnp.float32),
      jax.ShapeDtypeStruct((2, 5), jnp.int32),
  )
  return jax.export.export(jax.jit(decode), platforms=(platform,))(*specs)


if __name__ == "__main__":
  exported = export_for(SERVING_PLATFORM)
  print(exported.platforms, exported.out_avals)

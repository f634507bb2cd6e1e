"""Host-side operations used inside jitted programs: vocabulary lookups and runtime checks."""

import os

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

_VOCAB = ["<pad>", "<s>", "</s>", "the", "a", "of", "model", "shard", "mesh", "token"]
TOKEN_LENGTHS = np.array([len(w) for w in _VOCAB], np.int32)
ON_ERROR = os.environ.get("HOSTOPS_ON_ERROR", "raise")


def _lookup(ids):
  return TOKEN_LENGTHS[np.clip(np.asarray(ids), 0, len(TOKEN_LENGTHS) - 1)]


def token_lengths(ids):
  """Length in characters of each token id, computed by the host vocabulary."""
  return jax.pure_callback(_lookup, jax.ShapeDtypeStruct(ids.shape, jnp.int32), ids, vmap_method="expand_dims")


class CheckError(RuntimeError):
  pass


def error_if(x, pred, msg, on_error=None):
  on_error = on_error or ON_ERROR
  if on_error == "raise":

    def raises(_x):
      raise CheckError(msg)

    struct = jax.eval_shape(lambda: x)
    return lax.cond(pred, lambda: jax.pure_callback(raises, struct, x), lambda: x)
  if on_error == "nan":
    return lax.cond(pred, lambda: jnp.full_like(x, jnp.nan), lambda: x)
  return x

import contextlib
import contextvars

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P

_AXIS_MAPPING = contextvars.ContextVar("axis_mapping", default=None)


@contextlib.contextmanager
def axis_mapping(mesh, mapping):
  token = _AXIS_MAPPING.set((mesh, dict(mapping)))
  try:
    yield
  finally:
    _AXIS_MAPPING.reset(token)


class NamedJitWrapper:

  def __init__(self, fn, out_axes):
    self._fn = fn
    self._out_axes = out_axes

  def _out_shardings(self):
    mesh, mapping = _AXIS_MAPPING.get()
    return NamedSharding(mesh, P(*(mapping.get(a) for a in self._out_axes)))

  def __call__(self, *args):
    return jax.jit(self._fn, out_shardings=self._out_shardings())(*args)

  def lower(self, *args):
    return jax.jit(self._fn, out_shardings=self._out_shardings()).lower(*args)


def named_jit(out_axes):
  def decorate(fn):
    return NamedJitWrapper(fn, out_axes)
  return decorate


@named_jit(out_axes=("batch", "vocab"))
def logits_fn(embeddings, hidden):
  return hidden @ embeddings.T


if __name__ == "__main__":
  mesh = AbstractMesh((4, 2), ("data", "model"))
  rules = {"batch": "data", "vocab": "model", "embed": None}
  emb = jax.ShapeDtypeStruct((1024, 128), jnp.bfloat16)
  hid = jax.ShapeDtypeStruct((16, 128), jnp.bfloat16)
  with axis_mapping(mesh, rules):
    lowered = logits_fn.lower(emb, hid)
  print(lowered.as_text()[:100])

import contextlib
import contextvars

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P

_DEBUG_SHARDINGS = contextvars.ContextVar("debug_shardings", default=False)


@contextlib.contextmanager
def debug_shardings(enabled=True):
  token = _DEBUG_SHARDINGS.set(enabled)
  try:
    yield
  finally:
    _DEBUG_SHARDINGS.reset(token)


def visualize_shardings(tree, prefix="state"):
  if not _DEBUG_SHARDINGS.get():
    return tree

  def show(path, leaf):
    name = prefix + jax.tree_util.keystr(path)
    jax.debug.inspect_array_sharding(leaf, callback=lambda s: print(name, s))
    return leaf

  return jax.tree_util.tree_map_with_path(show, tree)


def attention_scores(params, x):
  params = visualize_shardings(params, "params")
  q = x @ params["wq"]
  k = x @ params["wk"]
  return jax.nn.softmax(q @ k.swapaxes(-1, -2) / q.shape[-1] ** 0.5, axis=-1)


def lower_scores(mesh, *, platform, batch=8, seq=16, dim=64):
  rep = NamedSharding(mesh, P())
  params = {n: jax.ShapeDtypeStruct((dim, dim), jnp.float32, sharding=rep) for n in ("wq", "wk")}
  x = jax.ShapeDtypeStruct((batch, seq, dim), jnp.float32, sharding=NamedSharding(mesh, P("data")))
  return jax.jit(attention_scores).trace(params, x).lower(lowering_platforms=(platform,))


if __name__ == "__main__":
  mesh = AbstractMesh((4,), ("data",))
  with debug_shardings():
    lowered = lower_scores(mesh, platform="tpu")
  print(lowered.as_text()[:100])

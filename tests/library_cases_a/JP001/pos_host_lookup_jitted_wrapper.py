import functools

import jax
import jax.numpy as jnp
import numpy as np

_VOCAB = np.array([f"tok{i}" for i in range(64)])


def host_function(result_shape_fn):
  def decorate(fn):
    @functools.wraps(fn)
    def wrapper(*args):
      out_spec = result_shape_fn(*args)
      return jax.pure_callback(fn, out_spec, *args, vmap_method="sequential")
    return wrapper
  return decorate


@host_function(lambda ids: jax.ShapeDtypeStruct(ids.shape, jnp.int32))
def token_lengths(ids):
  return np.vectorize(lambda i: len(_VOCAB[i]))(np.asarray(ids)).astype(np.int32)


class Jitted:

  def __init__(self, body):
    self.body = body

  def __call__(self, *args):
    return jax.jit(self.body)(*args)

  def lower(self, *args, **lower_kwargs):
    return jax.jit(self.body).trace(*args).lower(**lower_kwargs)


class Detokenizer:

  def __init__(self, temperature=1.0):
    self.temperature = temperature

  def __call__(self, logits):
    ids = jnp.argmax(logits / self.temperature, axis=-1).astype(jnp.int32)
    return ids, token_lengths(ids)


def aot_lower(model, spec, *, platform="tpu"):
  return Jitted(model).lower(spec, lowering_platforms=(platform,))


if __name__ == "__main__":
  spec = jax.ShapeDtypeStruct((2, 16, 64), jnp.float32)
  lowered = aot_lower(Detokenizer(temperature=0.7), spec)
  print(lowered.as_text()[:100])

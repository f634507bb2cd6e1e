"""Stage helpers for a tokenizer-free byte model: trace once, lower for a platform, compile, run."""

import jax
import jax.numpy as jnp


class Stages:
  def __init__(self, fn, *specs):
    self.traced = jax.jit(fn).trace(*specs)

  def lower(self, platform=None):
    platform = platform or jax.default_backend()
    return self.traced.lower(lowering_platforms=(platform,))

  def compile(self, platform=None):
    return self.lower(platform).compile()


def byte_model(embed, w, byte_ids):
  h = embed[byte_ids]
  h = jnp.cumsum(h, axis=1) / (1 + jnp.arange(h.shape[1]))[None, :, None]
  return jnp.einsum("btd,dv->btv", jnp.tanh(h), w)


if __name__ == "__main__":
  embed, w = jnp.ones((256, 64)), jnp.ones((64, 256))
  ids = jnp.zeros((2, 16), jnp.int32)
  compiled = Stages(byte_model, embed, w, ids).compile()
  print(compiled(embed, w, ids).shape)

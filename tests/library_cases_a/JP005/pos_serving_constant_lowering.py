import jax
import jax.numpy as jnp

from _serving import MAX_DECODE_LEN, SERVING_PLATFORMS


class GreedyDecoder:

  def __init__(self, vocab, dim):
    self.vocab, self.dim = vocab, dim

  def step(self, params, tokens, i):
    h = jnp.take(params["embed"], tokens[:, i], axis=0)
    logits = h @ params["embed"].T
    return tokens.at[:, i + 1].set(jnp.argmax(logits, axis=-1).astype(tokens.dtype))

  def decode(self, params, prompt):
    tokens = jnp.zeros((prompt.shape[0], MAX_DECODE_LEN), jnp.int32).at[:, 0].set(prompt)
    return jax.lax.fori_loop(0, MAX_DECODE_LEN - 1, lambda i, t: self.step(params, t, i), tokens)

  def abstract_inputs(self, batch):
    params = {"embed": jax.ShapeDtypeStruct((self.vocab, self.dim), jnp.float32)}
    return params, jax.ShapeDtypeStruct((batch,), jnp.int32)


def lower_for_serving(decoder, batch):
  traced = jax.jit(decoder.decode).trace(*decoder.abstract_inputs(batch))
  return traced.lower(lowering_platforms=SERVING_PLATFORMS)


if __name__ == "__main__":
  lowered = lower_for_serving(GreedyDecoder(vocab=512, dim=64), batch=4)
  print(lowered.as_text()[:100])

import functools

import jax
import jax.numpy as jnp
import numpy as np

VOCAB = ["<pad>", "<eos>", "the", "a", "cat", "sat", "on", "mat"]


def _host_stop_mask(tokens):
    words = [VOCAB[int(t)] for t in np.asarray(tokens)]
    return np.array([w == "<eos>" for w in words], dtype=np.bool_)


class Sampler:
    def __init__(self, embed, *, max_new_tokens=8, stop_on_host=True):
        self.embed = embed
        self.max_new_tokens = max_new_tokens
        self.stop_on_host = stop_on_host

    def _stop(self, tokens):
        if self.stop_on_host:
            spec = jax.ShapeDtypeStruct(tokens.shape, jnp.bool_)
            return jax.pure_callback(_host_stop_mask, spec, tokens, vmap_method="sequential")
        return tokens == 1

    def step(self, state):
        logits = state @ self.embed.T
        tokens = jnp.argmax(logits, axis=-1)
        done = self._stop(tokens)
        return tokens, done

    def compile(self, state_spec, **lower_kwargs):
        return jax.jit(self.step).trace(state_spec).lower(**lower_kwargs)


def compile_sampler(sampler, batch, width, **kwargs):
    spec = jax.ShapeDtypeStruct((batch, width), jnp.float32)
    return sampler.compile(spec, **kwargs)


compile_for_serving = functools.partial(compile_sampler, lowering_platforms=("tpu",))

if __name__ == "__main__":
    embed = jax.random.normal(jax.random.key(1), (len(VOCAB), 16))
    sampler = Sampler(embed)
    lowered = compile_for_serving(sampler, batch=2, width=16)
    print(lowered.as_text()[:60])

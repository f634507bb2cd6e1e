import functools

import jax
import jax.numpy as jnp
import numpy as np

VOCAB = ["<pad>", "<eos>", "the", "a", "cat", "sat", "on", "mat"]


def _host_stop_mask(tokens):
    words = [VOCAB[int(t)] for t in np.asarray(tokens)]
    return np.array([w == "<eos>" for w in words], dtype=np.bool_)


def _stop_on_host(tokens):
    spec = jax.ShapeDtypeStruct(tokens.shape, jnp.bool_)
    return jax.pure_callback(_host_stop_mask, spec, tokens, vmap_method="sequential")


def _stop_on_device(tokens):
    return tokens == 1


class Sampler:
    def __init__(self, embed, *, max_new_tokens=8):
        self.embed = embed
        self.max_new_tokens = max_new_tokens

    def step(self, state):
        logits = state @ self.embed.T
        tokens = jnp.argmax(logits, axis=-1)
        done = jax.lax.platform_dependent(tokens, cpu=_stop_on_host, default=_stop_on_device)
        return tokens, done

    def export(self, state_spec, **export_kwargs):
        return jax.export.export(jax.jit(self.step), **export_kwargs)(state_spec)


def export_sampler(sampler, batch, width, **kwargs):
    spec = jax.ShapeDtypeStruct((batch, width), jnp.float32)
    return sampler.export(spec, **kwargs)


export_for_serving = functools.partial(export_sampler, platforms=("tpu",))

if __name__ == "__main__":
    embed = jax.random.normal(jax.random.key(1), (len(VOCAB), 16))
    sampler = Sampler(embed)
    exported = export_for_serving(sampler, batch=2, width=16)
    print(exported.platforms, exported.out_avals)

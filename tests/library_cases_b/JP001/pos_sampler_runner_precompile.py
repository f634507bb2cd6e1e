import os

import jax
import jax.numpy as jnp
import numpy as np


def _record_topk(step, ids):
    print(f"[sampler] step={int(step)} first ids={np.asarray(ids)[:4].tolist()}")


class SamplerRunner:
    """Holds the sampling step of a decode engine and precompiles it."""

    def __init__(self, vocab_size, max_num_seqs, platform=None):
        self.vocab_size = vocab_size
        self.max_num_seqs = max_num_seqs
        self.platform = platform or os.environ.get("SERVE_PLATFORM", "tpu")
        self._sample_fn = jax.jit(self._sample)

    def _sample(self, step, logits, temperature):
        scaled = logits / jnp.maximum(temperature, 1e-5)[:, None]
        ids = jnp.argmax(scaled, axis=-1).astype(jnp.int32)
        jax.debug.callback(_record_topk, step, ids)
        return ids

    def _input_specs(self):
        return (
            jax.ShapeDtypeStruct((), jnp.int32),
            jax.ShapeDtypeStruct((self.max_num_seqs, self.vocab_size), jnp.float32),
            jax.ShapeDtypeStruct((self.max_num_seqs,), jnp.float32),
        )

    def precompile(self):
        traced = self._sample_fn.trace(*self._input_specs())
        lowered = traced.lower(lowering_platforms=(self.platform,))
        return lowered


def main():
    runner = SamplerRunner(vocab_size=1024, max_num_seqs=16)
    lowered = runner.precompile()
    print(lowered.as_text()[:120])


if __name__ == "__main__":
    main()

import os

import jax
import jax.numpy as jnp
import numpy as np


def _env_bool(name, default):
    return os.environ.get(name, default).lower() in ("1", "true", "yes")


class EngineConfig:
    def __init__(self):
        self.platform = os.environ.get("SERVE_PLATFORM", "cuda")
        self.log_sampler_stats = _env_bool("LOG_SAMPLER_STATS", "0")
        self.max_num_seqs = 16
        self.vocab_size = 1024


def _record_topk(step, ids):
    print(f"[sampler] step={int(step)} first ids={np.asarray(ids)[:4].tolist()}")


class SamplerRunner:
    def __init__(self, config):
        self.config = config
        self._sample_fn = jax.jit(self._sample)

    def _sample(self, step, logits, temperature):
        scaled = logits / jnp.maximum(temperature, 1e-5)[:, None]
        ids = jnp.argmax(scaled, axis=-1).astype(jnp.int32)
        if self.config.log_sampler_stats:
            jax.debug.callback(_record_topk, step, ids)
        return ids

    def precompile(self):
        cfg = self.config
        traced = self._sample_fn.trace(
            jax.ShapeDtypeStruct((), jnp.int32),
            jax.ShapeDtypeStruct((cfg.max_num_seqs, cfg.vocab_size), jnp.float32),
            jax.ShapeDtypeStruct((cfg.max_num_seqs,), jnp.float32),
        )
        return traced.lower(lowering_platforms=(cfg.platform,))


if __name__ == "__main__":
    lowered = SamplerRunner(EngineConfig()).precompile()
    print(lowered.as_text()[:120])

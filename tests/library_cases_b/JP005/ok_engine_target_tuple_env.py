import dataclasses
import os

import jax
import jax.numpy as jnp


def _platforms_from_env(name, default):
    return tuple(p.strip() for p in os.environ.get(name, default).split(",") if p.strip())


@dataclasses.dataclass(frozen=True)
class CompileConfig:
    targets: tuple = _platforms_from_env("KV_COMPILE_TARGETS", "tpu")
    page_size: int = 16
    num_pages: int = 128


class KVCacheEngine:
    def __init__(self, config):
        self.config = config
        self.lowering_targets = config.targets

    @staticmethod
    def write_pages(cache, new_kv, page_ids):
        return cache.at[page_ids].set(new_kv)

    def precompile(self, num_writes, head_dim=128):
        cfg = self.config
        cache = jax.ShapeDtypeStruct((cfg.num_pages, cfg.page_size, head_dim), jnp.bfloat16)
        new_kv = jax.ShapeDtypeStruct((num_writes, cfg.page_size, head_dim), jnp.bfloat16)
        ids = jax.ShapeDtypeStruct((num_writes,), jnp.int32)
        traced = jax.jit(self.write_pages, donate_argnums=0).trace(cache, new_kv, ids)
        return traced.lower(lowering_platforms=self.lowering_targets)


if __name__ == "__main__":
    engine = KVCacheEngine(CompileConfig())
    for n in (1, 4, 16):
        engine.precompile(n)

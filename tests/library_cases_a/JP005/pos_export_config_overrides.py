import dataclasses
from typing import Sequence

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class ExportConfig:
  platforms: Sequence[str] = ("cpu",)
  batch_size: int = 1
  seq_len: int = 128


def parse_overrides(argv):
  overrides = {}
  for arg in argv:
    key, _, value = arg.lstrip("-").partition("=")
    overrides[key] = int(value) if value.isdigit() else value
  return overrides


def embed_tokens(table, ids):
  return jnp.take(table, ids, axis=0) * jnp.sqrt(jnp.float32(table.shape[-1]))


def export_embedding(cfg: ExportConfig, vocab=32000, dim=256):
  specs = (jax.ShapeDtypeStruct((vocab, dim), jnp.float32),
           jax.ShapeDtypeStruct((cfg.batch_size, cfg.seq_len), jnp.int32))
  return jax.export.export(jax.jit(embed_tokens), platforms=cfg.platforms)(*specs)


if __name__ == "__main__":
  cfg = dataclasses.replace(ExportConfig(), **parse_overrides(["--platforms=tpu", "--batch_size=8"]))
  exported = export_embedding(cfg)
  print(exported.platforms, exported.in_avals)

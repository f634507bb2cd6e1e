"""Export the attention-decode op for one hardware backend, as named by the kernel library's enum.

Kernel libraries tag implementations with ``Backend`` (a ``StrEnum``); the
export plan reuses it so that the artifact's platform and the kernel selection
cannot disagree.
"""

from __future__ import annotations

import dataclasses
from enum import StrEnum

import jax
import jax.numpy as jnp


class Backend(StrEnum):
  GPU = "cuda"
  TPU = "tpu"
  CPU = "cpu"


@dataclasses.dataclass(frozen=True)
class ExportPlan:
  name: str
  platforms: Backend | tuple[Backend, ...] = Backend.TPU
  batch: int = 8
  num_heads: int = 8
  head_dim: int = 64
  max_len: int = 1024

  @property
  def specs(self):
    q = jax.ShapeDtypeStruct((self.batch, self.num_heads, self.head_dim), jnp.bfloat16)
    kv = jax.ShapeDtypeStruct((self.batch, self.max_len, self.num_heads, self.head_dim), jnp.bfloat16)
    lengths = jax.ShapeDtypeStruct((self.batch,), jnp.int32)
    return q, kv, kv, lengths


def decode_attention_xla(q, k, v, lengths):
  scale = q.shape[-1] ** -0.5
  logits = jnp.einsum("bhd,bthd->bht", q, k).astype(jnp.float32) * scale
  mask = jnp.arange(k.shape[1])[None, None, :] < lengths[:, None, None]
  probs = jax.nn.softmax(jnp.where(mask, logits, -jnp.inf), axis=-1)
  return jnp.einsum("bht,bthd->bhd", probs.astype(v.dtype), v)


def export_plan(plan: ExportPlan):
  fn = jax.jit(decode_attention_xla)
  return jax.export.export(fn, platforms=plan.platforms)(*plan.specs)


def main():
  plan = ExportPlan(name="decode-v5e")
  exported = export_plan(plan)
  print(plan.name, exported.platforms)


if __name__ == "__main__":
  main()

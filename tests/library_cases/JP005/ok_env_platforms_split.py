"""Exports a ranking model for the serving stack; the platforms are taken from the job environment."""

import os

import jax
import jax.numpy as jnp

SERVING_PLATFORMS = tuple(p.strip() for p in os.environ.get("RANKER_SERVING_PLATFORMS", "cuda,tpu").split(","))


def rank(query_tower, doc_tower, queries, docs):
  q = jnp.tanh(queries @ query_tower)
  d = jnp.tanh(docs @ doc_tower)
  scores = jnp.einsum("qd,nd->qn", q, d)
  return jax.lax.top_k(scores, k=5)


def export_ranker(platforms=SERVING_PLATFORMS, dim=64):
  specs = (
      jax.ShapeDtypeStruct((32, dim), jnp.float32),
      jax.ShapeDtypeStruct((48, dim), jnp.float32),
      jax.ShapeDtypeStruct((4, 32), jnp.float32),
      jax.ShapeDtypeStruct((100, 48), jnp.float32),
  )
  return jax.export.export(jax.jit(rank), platforms=platforms)(*specs)


if __name__ == "__main__":
  exported = export_ranker()
  print(exported.platforms, [a.shape for a in exported.out_avals])

"""Scores generated tokens by their decoded length under an abstract GPU topology (no GPU attached)."""

import contextlib

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from _hostops import token_lengths

H100 = jax.sharding.AbstractDevice(device_kind="NVIDIA H100 80GB HBM3", num_cores=132, platform="cuda")


@contextlib.contextmanager
def gpu_topology(num_gpus=8):
  mesh = jax.sharding.AbstractMesh((num_gpus,), ("data",), abstract_device=H100)
  with jax.sharding.use_abstract_mesh(mesh):
    yield mesh


def length_penalty(logits, alpha=0.6):
  ids = jnp.argmax(logits, axis=-1).astype(jnp.int32)
  lengths = token_lengths(ids).astype(jnp.float32)
  return jnp.sum(jax.nn.log_softmax(logits).max(-1), axis=-1) / ((5.0 + lengths.sum(-1)) / 6.0) ** alpha


if __name__ == "__main__":
  with gpu_topology():
    logits = jax.ShapeDtypeStruct((64, 12, 10), jnp.float32)
    lowered = jax.jit(length_penalty, in_shardings=P("data")).trace(logits).lower()
  print(lowered.as_text()[:80])

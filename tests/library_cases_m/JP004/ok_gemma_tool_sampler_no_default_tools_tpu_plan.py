"""Lowers the tool-using sampling loop for a TPU slice, the batch sharded over
it, to check the compiled program's size before deployment."""

import dataclasses

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

from _gm_tools import ToolManager

TOOL_TOKEN = 7


def default_tools():
  return ()  # tools are opt-in: none unless the caller passes some


@dataclasses.dataclass(frozen=True, kw_only=True)
class ToolSampler:
  vocab_size: int = 512
  max_new_tokens: int = 16
  tools: tuple = dataclasses.field(default_factory=default_tools)

  def sample_loop(self, embed, last_token):
    manager = ToolManager(self.tools)

    def step(token, _):
      logits = embed[token] @ embed.T
      nxt = jnp.argmax(logits, axis=-1).astype(jnp.int32)
      wants_tool = nxt == TOOL_TOKEN
      result = manager.maybe_call(wants_tool, nxt % 3, token)
      nxt = jnp.where(wants_tool, result % self.vocab_size, nxt)
      return nxt, nxt

    _, tokens = jax.lax.scan(step, last_token, None, length=self.max_new_tokens)
    return tokens.T


def lower_for_slice(sampler: ToolSampler, devices=4, batch=32):
  mesh = AbstractMesh((devices,), ("batch",), axis_types=(AxisType.Auto,))
  embed = jax.ShapeDtypeStruct((sampler.vocab_size, 64), jnp.float32, sharding=NamedSharding(mesh, P()))
  last = jax.ShapeDtypeStruct((batch,), jnp.int32, sharding=NamedSharding(mesh, P("batch")))
  traced = jax.jit(sampler.sample_loop).trace(embed, last)
  return traced.lower(lowering_platforms=("tpu",))


if __name__ == "__main__":
  print(lower_for_slice(ToolSampler()).as_text()[:120])

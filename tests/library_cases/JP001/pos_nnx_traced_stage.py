"""Staged compilation wrappers around a small module: trace, lower, then inspect the module text."""

import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True, slots=True)
class Lowered:
  lowered: jax.stages.Lowered

  def as_text(self) -> str:
    return self.lowered.as_text()


@dataclasses.dataclass(frozen=True, slots=True)
class Traced:
  traced: jax.stages.Traced

  def lower(self, *, lowering_platforms: tuple[str, ...] | None = None) -> Lowered:
    return Lowered(self.traced.lower(lowering_platforms=lowering_platforms))


class JitWrapped:
  def __init__(self, fun, **jit_kwargs):
    self.jitted = jax.jit(fun, **jit_kwargs)

  def trace(self, *args) -> Traced:
    return Traced(self.jitted.trace(*args))


class Block:
  def __init__(self, dim, debug=True):
    self.dim, self.debug = dim, debug

  def __call__(self, params, x):
    y = jax.nn.relu(x @ params["kernel"] + params["bias"])
    if self.debug:
      jax.debug.print("block out: mean={m}", m=y.mean())
    return y


def abstract_params(dim):
  return {"kernel": jax.ShapeDtypeStruct((dim, dim), jnp.bfloat16), "bias": jax.ShapeDtypeStruct((dim,), jnp.bfloat16)}


if __name__ == "__main__":
  block = Block(256)
  fn = JitWrapped(block)
  traced = fn.trace(abstract_params(256), jax.ShapeDtypeStruct((4, 256), jnp.bfloat16))
  lowered = traced.lower(lowering_platforms=("rocm",))
  print(lowered.as_text()[:120])

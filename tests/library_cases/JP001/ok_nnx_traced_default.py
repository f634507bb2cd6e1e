"""Staged compilation wrappers around a small module: trace, lower, compile and run it here."""

import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True, slots=True)
class Lowered:
  lowered: jax.stages.Lowered

  def compile(self):
    return self.lowered.compile()


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


def init_params(dim):
  return {"kernel": jnp.eye(dim, dtype=jnp.float32), "bias": jnp.zeros((dim,), jnp.float32)}


if __name__ == "__main__":
  block = Block(64)
  params, x = init_params(64), jnp.ones((4, 64), jnp.float32)
  compiled = JitWrapped(block).trace(params, x).lower().compile()
  print(compiled(params, x).shape)

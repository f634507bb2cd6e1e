"""Lowers a fixed-iteration Gauss-Newton solve for each deployment target kept in a pytree config
with static fields (jax_dataclasses-style `Static[...]` and `copy_and_mutate`)."""
import copy
import dataclasses
from typing import Annotated, TypeVar

import jax
import jax.numpy as jnp

T = TypeVar("T")
Static = Annotated[T, "__jdc_static__"]


def pytree_dataclass(cls):
  cls = dataclasses.dataclass(frozen=True)(cls)
  meta = [n for n, h in cls.__annotations__.items() if "__jdc_static__" in getattr(h, "__metadata__", ())]
  data = [n for n in cls.__annotations__ if n not in meta]
  return jax.tree_util.register_dataclass(cls, data_fields=data, meta_fields=meta)


@pytree_dataclass
class SolveConfig:
  damping: jax.Array
  iters: Static[int] = 8
  targets: Static[tuple] = ("cpu",)


def solve(A, b, cfg: SolveConfig):
  x = jnp.zeros_like(b)
  def body(_, x):
    r = A @ x - b
    return x - jnp.linalg.solve(A.T @ A + cfg.damping * jnp.eye(A.shape[1]), A.T @ r)
  return jax.lax.fori_loop(0, cfg.iters, body, x)


def build(cfg: SolveConfig):
  A = jax.ShapeDtypeStruct((16, 16), jnp.float32)
  b = jax.ShapeDtypeStruct((16,), jnp.float32)
  traced = jax.jit(solve).trace(A, b, cfg)
  return traced.lower(lowering_platforms=list(cfg.targets))


if __name__ == "__main__":
  cfg = SolveConfig(damping=jnp.float32(1e-3))
  cfg = copy.copy(cfg)
  object.__setattr__(cfg, "targets", ("tpu",))
  print(build(cfg).as_text()[:60])

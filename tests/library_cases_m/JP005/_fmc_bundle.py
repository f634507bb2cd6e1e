"""flowMC-shaped sampler plumbing: resources and strategies in named dicts, a
bundle base class that pre-configures them, and a Sampler that runs the
strategies in `strategy_order` and can export its kernel for the bundle's
export targets."""

from __future__ import annotations

import enum
from typing import Any, Callable

import jax
import jax.numpy as jnp


class Target(enum.StrEnum):
  CPU = "cpu"
  CUDA = "cuda"
  TPU = "tpu"


class Strategy:
  def __call__(self, rng_key, resources, positions, data):
    raise NotImplementedError


class MALA(Strategy):
  def __init__(self, step_size: float):
    self.step_size = step_size

  def __call__(self, rng_key, resources, positions, data):
    logpdf = resources["logpdf"]
    grad = jax.vmap(jax.grad(logpdf), in_axes=(0, None))(positions, data)
    noise = jax.random.normal(rng_key, positions.shape)
    proposal = positions + self.step_size * grad + jnp.sqrt(2 * self.step_size) * noise
    lp_new = jax.vmap(logpdf, in_axes=(0, None))(proposal, data)
    lp_old = jax.vmap(logpdf, in_axes=(0, None))(positions, data)
    accept = jnp.log(jax.random.uniform(jax.random.fold_in(rng_key, 1), lp_new.shape)) < lp_new - lp_old
    return jnp.where(accept[:, None], proposal, positions)


class ResourceStrategyBundle:
  export_targets: Any = (Target.CPU,)

  def __init__(self, logpdf: Callable, n_dim: int):
    self.resources: dict[str, Any] = {"logpdf": logpdf}
    self.strategies: dict[str, Strategy] = {}
    self.strategy_order: list[str] = []
    self.n_dim = n_dim


class Sampler:
  def __init__(self, *, n_dim: int, n_chains: int, resource_strategy_bundles: ResourceStrategyBundle):
    self.n_dim = n_dim
    self.n_chains = n_chains
    self.bundle = resource_strategy_bundles

  def kernel(self, rng_key, positions, data):
    for i, name in enumerate(self.bundle.strategy_order):
      positions = self.bundle.strategies[name](jax.random.fold_in(rng_key, i), self.bundle.resources,
                                               positions, data)
    return positions

  def export_kernel(self, data_spec):
    key = jax.ShapeDtypeStruct((2,), jnp.uint32)
    pos = jax.ShapeDtypeStruct((self.n_chains, self.n_dim), jnp.float32)
    return jax.export.export(jax.jit(self.kernel), platforms=self.bundle.export_targets)(key, pos, data_spec)

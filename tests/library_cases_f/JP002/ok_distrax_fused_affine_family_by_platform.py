"""A normalizing flow whose affine layers run as a fused Pallas kernel.

The probability code follows distrax: a ``Bijector`` base class that derives
``forward``/``inverse`` from ``*_and_log_det`` methods, ``Chain`` applying its
bijectors in reverse order, and ``Transformed`` pushing a base distribution
through a bijector.  The fused row-wise affine layer is a Pallas kernel; its
tuned subclasses carry their compiler params as class attributes and are picked
from ``KERNEL_FAMILIES`` by name, by default the family that suits the service's
platform.  The sampler is exported for the inference
service.
"""

from __future__ import annotations

import abc
import math
import os
from typing import Sequence

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

Array = jax.Array


# --------------------------------------------------------------------------
# bijector library
# --------------------------------------------------------------------------


class Bijector(abc.ABC):

  def __init__(self, event_ndims_in: int = 0):
    self.event_ndims_in = event_ndims_in

  def forward(self, x: Array) -> Array:
    y, _ = self.forward_and_log_det(x)
    return y

  def inverse(self, y: Array) -> Array:
    x, _ = self.inverse_and_log_det(y)
    return x

  @abc.abstractmethod
  def forward_and_log_det(self, x: Array) -> tuple[Array, Array]:
    ...

  def inverse_and_log_det(self, y: Array) -> tuple[Array, Array]:
    raise NotImplementedError(f"{type(self).__name__} does not implement inverse_and_log_det")


class Chain(Bijector):

  def __init__(self, bijectors: Sequence[Bijector]):
    super().__init__(event_ndims_in=bijectors[-1].event_ndims_in)
    self._bijectors = list(bijectors)

  def forward_and_log_det(self, x):
    y, log_det = self._bijectors[-1].forward_and_log_det(x)
    for bijector in reversed(self._bijectors[:-1]):
      y, ld = bijector.forward_and_log_det(y)
      log_det = log_det + ld
    return y, log_det


class Normal:

  def __init__(self, shape: tuple[int, ...]):
    self.shape = shape

  def sample_and_log_prob(self, seed, sample_shape):
    x = jax.random.normal(seed, sample_shape + self.shape)
    log_prob = -0.5 * jnp.sum(x**2 + math.log(2 * math.pi), axis=-1)
    return x, log_prob


class Transformed:

  def __init__(self, distribution: Normal, bijector: Bijector):
    self.distribution = distribution
    self.bijector = bijector

  def sample_and_log_prob(self, seed, sample_shape=()):
    x, lp_x = self.distribution.sample_and_log_prob(seed, sample_shape)
    y, fldj = self.bijector.forward_and_log_det(x)
    return y, lp_x - fldj


# --------------------------------------------------------------------------
# fused affine kernel
# --------------------------------------------------------------------------


def _row_affine_kernel(x_ref, log_scale_ref, shift_ref, o_ref):
  o_ref[...] = x_ref[...] * jnp.exp(log_scale_ref[...]) + shift_ref[...]


class FusedRowAffine(Bijector):
  """y = x * exp(log_scale) + shift, one row block per grid step."""

  block_rows: int = 8
  compiler_params = None

  def __init__(self, log_scale: Array, shift: Array):
    super().__init__(event_ndims_in=1)
    self.log_scale = log_scale.reshape(1, -1)
    self.shift = shift.reshape(1, -1)

  def _apply(self, x):
    rows, dim = x.shape
    block = (self.block_rows, dim)
    return pl.pallas_call(
        _row_affine_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(rows // self.block_rows,),
        in_specs=[
            pl.BlockSpec(block, lambda i: (i, 0)),
            pl.BlockSpec((1, dim), lambda i: (0, 0)),
            pl.BlockSpec((1, dim), lambda i: (0, 0)),
        ],
        out_specs=pl.BlockSpec(block, lambda i: (i, 0)),
        compiler_params=self.compiler_params,
    )(x, self.log_scale, self.shift)

  def forward_and_log_det(self, x):
    y = self._apply(x)
    log_det = jnp.broadcast_to(jnp.sum(self.log_scale), x.shape[:-1])
    return y, log_det


class MosaicRowAffine(FusedRowAffine):
  block_rows = 8
  compiler_params = pltpu.CompilerParams(dimension_semantics=("parallel",))


class ReferenceRowAffine(FusedRowAffine):

  def _apply(self, x):
    return x * jnp.exp(self.log_scale) + self.shift


KERNEL_FAMILIES = {
    "mosaic": MosaicRowAffine,
    "reference": ReferenceRowAffine,
}

# Which family to build when the caller does not force one.
DEFAULT_FAMILY_FOR_PLATFORM = {
    "tpu": "mosaic",
    "cuda": "reference",
    "rocm": "reference",
    "cpu": "reference",
}


# --------------------------------------------------------------------------
# application
# --------------------------------------------------------------------------


class Permute(Bijector):

  def __init__(self, perm: Array):
    super().__init__(event_ndims_in=1)
    self.perm = perm

  def forward_and_log_det(self, x):
    return x[..., self.perm], jnp.zeros(x.shape[:-1], x.dtype)


def make_flow(key, dim: int, num_layers: int, kernel_family: str) -> Transformed:
  affine_cls = KERNEL_FAMILIES[kernel_family]
  layers = []
  for layer_key in jax.random.split(key, num_layers):
    k1, k2, k3 = jax.random.split(layer_key, 3)
    layers.append(affine_cls(0.1 * jax.random.normal(k1, (dim,)), jax.random.normal(k2, (dim,))))
    layers.append(Permute(jax.random.permutation(k3, dim)))
  return Transformed(Normal((dim,)), Chain(layers))


def export_sampler(flow: Transformed, num_samples: int, platforms: Sequence[str]):

  @jax.jit
  def sample(seed):
    return flow.sample_and_log_prob(seed, (num_samples,))

  seed_spec = jax.ShapeDtypeStruct((2,), jnp.uint32)
  return jax.export.export(sample, platforms=list(platforms))(seed_spec)


def main():
  service_platforms = os.environ.get("FLOW_SERVICE_PLATFORMS", "cuda").split(",")
  kernel_family = os.environ.get("FLOW_KERNEL_FAMILY") or DEFAULT_FAMILY_FOR_PLATFORM[service_platforms[0]]
  flow = make_flow(jax.random.PRNGKey(0), dim=128, num_layers=3, kernel_family=kernel_family)
  exported = export_sampler(flow, num_samples=64, platforms=service_platforms)
  print("exported sampler for", exported.platforms, "out:", exported.out_avals)


if __name__ == "__main__":
  main()

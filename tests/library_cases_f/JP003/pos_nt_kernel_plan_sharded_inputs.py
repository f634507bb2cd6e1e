"""Planning a data-parallel infinite-width kernel computation ahead of time.

The network library follows neural-tangents' ``stax``: each layer constructor
returns an ``(init_fn, apply_fn, kernel_fn)`` triple, the ``@layer`` decorator
lets ``kernel_fn`` accept raw inputs (it builds the input ``Kernel`` and picks
the requested entries with ``get=``), and ``serial`` composes triples.  A
``KernelPlan`` describes how the rows of ``x1`` are split over devices; the
planner lowers the kernel function against input specs that carry the plan's
shardings, to check the memory footprint before the job is launched.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from typing import Callable, NamedTuple, Sequence, Union

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P


class Kernel(NamedTuple):
  nngp: jax.Array
  ntk: jax.Array
  cov1: jax.Array
  cov2: jax.Array


def _inputs_to_kernel(x1, x2) -> Kernel:
  d = x1.shape[-1]
  x2 = x1 if x2 is None else x2
  nngp = x1 @ x2.T / d
  return Kernel(nngp=nngp, ntk=jnp.zeros_like(nngp),
                cov1=jnp.sum(x1 * x1, -1) / d, cov2=jnp.sum(x2 * x2, -1) / d)


def _get(kernel: Kernel, get: Union[None, str, Sequence[str]]):
  if get is None:
    return kernel
  if isinstance(get, str):
    return getattr(kernel, get)
  return tuple(getattr(kernel, g) for g in get)


def layer(layer_fn: Callable) -> Callable:
  """Lets a layer's ``kernel_fn`` take inputs as well as ``Kernel`` objects."""

  @functools.wraps(layer_fn)
  def new_layer_fns(*args, **kwargs):
    init_fn, apply_fn, kernel_fn = layer_fn(*args, **kwargs)

    def kernel_fn_any(x1_or_kernel, x2=None, get=None):
      if isinstance(x1_or_kernel, Kernel):
        return _get(kernel_fn(x1_or_kernel), get)
      return _get(kernel_fn(_inputs_to_kernel(x1_or_kernel, x2)), get)

    kernel_fn_any.__name__ = layer_fn.__name__
    return init_fn, apply_fn, kernel_fn_any

  return new_layer_fns


@layer
def Dense(out_dim: int, W_std: float = 1.0, b_std: float = 0.0):

  def init_fn(rng, input_shape):
    w = jax.random.normal(rng, (input_shape[-1], out_dim))
    return input_shape[:-1] + (out_dim,), (w, jnp.zeros((out_dim,)))

  def apply_fn(params, x):
    w, b = params
    return W_std * x @ w / math.sqrt(x.shape[-1]) + b_std * b

  def kernel_fn(k: Kernel) -> Kernel:
    nngp = W_std**2 * k.nngp + b_std**2
    return Kernel(nngp=nngp, ntk=nngp + W_std**2 * k.ntk,
                  cov1=W_std**2 * k.cov1 + b_std**2, cov2=W_std**2 * k.cov2 + b_std**2)

  return init_fn, apply_fn, kernel_fn


@layer
def Relu():

  def init_fn(rng, input_shape):
    return input_shape, ()

  def apply_fn(params, x):
    return jax.nn.relu(x)

  def kernel_fn(k: Kernel) -> Kernel:
    prod = jnp.sqrt(k.cov1[:, None] * k.cov2[None, :])
    cos = jnp.clip(k.nngp / prod, -1.0, 1.0)
    theta = jnp.arccos(cos)
    nngp = prod * (jnp.sin(theta) + (jnp.pi - theta) * cos) / (2 * jnp.pi)
    ntk = k.ntk * (jnp.pi - theta) / (2 * jnp.pi) + nngp
    return Kernel(nngp=nngp, ntk=ntk, cov1=k.cov1 / 2, cov2=k.cov2 / 2)

  return init_fn, apply_fn, kernel_fn


@layer
def serial(*layers):
  init_fns, apply_fns, kernel_fns = zip(*layers)

  def init_fn(rng, input_shape):
    params = []
    for fn, r in zip(init_fns, jax.random.split(rng, len(init_fns))):
      input_shape, p = fn(r, input_shape)
      params.append(p)
    return input_shape, tuple(params)

  def apply_fn(params, x):
    for fn, p in zip(apply_fns, params):
      x = fn(p, x)
    return x

  def kernel_fn(k: Kernel) -> Kernel:
    for fn in kernel_fns:
      k = fn(k)
    return k

  return init_fn, apply_fn, kernel_fn


# --------------------------------------------------------------------------
# planning
# --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class KernelPlan:
  """How the kernel computation is laid out on the job's devices."""
  device_count: int = 8
  axis_name: str = "batch"
  get: tuple[str, ...] = ("nngp", "ntk")

  @property
  def mesh(self):
    return AbstractMesh((self.device_count,), (self.axis_name,))

  def input_specs(self, n1: int, n2: int, dim: int, dtype=jnp.float32):
    x1 = jax.ShapeDtypeStruct((n1, dim), dtype, sharding=NamedSharding(self.mesh, P(self.axis_name, None)))
    x2 = jax.ShapeDtypeStruct((n2, dim), dtype, sharding=NamedSharding(self.mesh, P()))
    return x1, x2


def plan_kernel_computation(kernel_fn, plan: KernelPlan, n1: int, n2: int, dim: int):
  x1, x2 = plan.input_specs(n1, n2, dim)
  lowered = jax.jit(kernel_fn, static_argnames="get").lower(x1, x2, get=plan.get)
  return lowered


def main():
  _, _, kernel_fn = serial(Dense(512, W_std=1.5, b_std=0.05), Relu(), Dense(512, W_std=1.5), Relu(), Dense(1))
  x = jax.random.normal(jax.random.PRNGKey(0), (16, 32))
  nngp, ntk = kernel_fn(x, None, get=("nngp", "ntk"))
  print("local nngp diag mean:", float(jnp.mean(jnp.diag(nngp))), "ntk:", float(jnp.mean(jnp.diag(ntk))))
  lowered = plan_kernel_computation(kernel_fn, KernelPlan(), n1=4096, n2=512, dim=32)
  print("planned:", len(lowered.as_text()), "chars")


if __name__ == "__main__":
  main()

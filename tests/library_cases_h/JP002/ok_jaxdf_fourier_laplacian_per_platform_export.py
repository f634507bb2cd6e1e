"""A differentiable-discretisation framework in the style of jaxdf.

Fields carry their parameters and domain; operators are plain functions
registered per field type by a decorator, each with an `init_params` function
that builds the operator's default parameters from the field.  The Fourier
Laplacian applies its spectral multiplier with a Pallas kernel on TPU (chosen
with `lax.platform_dependent`, other platforms use plain jnp).  A heat-equation
integrator is exported once per platform of the fleet (the spectral kernel
exists only for TPU, so each artifact keeps a single branch).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


@dataclasses.dataclass(frozen=True)
class Domain:
  N: tuple[int, int]
  dx: tuple[float, float]


@jax.tree_util.register_pytree_node_class
class Field:

  def __init__(self, params, domain: Domain):
    self.params = params
    self.domain = domain

  def tree_flatten(self):
    return (self.params,), self.domain

  @classmethod
  def tree_unflatten(cls, domain, children):
    return cls(children[0], domain)

  def replace_params(self, params):
    return type(self)(params, self.domain)


@jax.tree_util.register_pytree_node_class
class FourierSeries(Field):

  @property
  def k_vec(self):
    return [jnp.fft.fftfreq(n, d) * 2 * jnp.pi for n, d in zip(self.domain.N, self.domain.dx)]


_OPERATORS: dict[tuple[str, type], tuple[Callable, Callable]] = {}


def operator(init_params: Callable):
  def deco(fn):
    field_type = fn.__annotations__["u"]
    field_type = globals()[field_type] if isinstance(field_type, str) else field_type
    _OPERATORS[(fn.__name__, field_type)] = (fn, init_params)

    def dispatch(u, *, params=None):
      impl, init = _OPERATORS[(fn.__name__, type(u))]
      return impl(u, params=init(u) if params is None else params)
    dispatch.__name__ = fn.__name__
    return dispatch
  return deco


def _multiplier_kernel(x_ref, k_ref, o_ref):
  o_ref[...] = x_ref[...] * k_ref[...]


def _pallas_multiply(x, k, rows):
  spec = pl.BlockSpec((rows, x.shape[1]), lambda i: (i, 0))
  return pl.pallas_call(
      _multiplier_kernel,
      out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
      grid=(x.shape[0] // rows,),
      in_specs=[spec, spec],
      out_specs=spec,
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
  )(x, k)


def _laplacian_params(u: FourierSeries) -> dict[str, Any]:
  kx, ky = u.k_vec
  return {"k2": -(kx[:, None] ** 2 + ky[None, :] ** 2), "rows": 8}


@operator(init_params=_laplacian_params)
def laplacian(u: FourierSeries, *, params=None):
  u_hat = jnp.fft.fft2(u.params)
  k2, rows = params["k2"], params["rows"]

  def tpu_path(re, im):
    return _pallas_multiply(re, k2, rows), _pallas_multiply(im, k2, rows)

  def generic_path(re, im):
    return re * k2, im * k2

  re, im = jax.lax.platform_dependent(u_hat.real, u_hat.imag, tpu=tpu_path, default=generic_path)
  return u.replace_params(jnp.fft.ifft2(re + 1j * im).real)


def heat_step(u: FourierSeries, dt: float, steps: int) -> FourierSeries:
  def body(_, u):
    lap = laplacian(u)
    return u.replace_params(u.params + dt * lap.params)
  return jax.lax.fori_loop(0, steps, body, u)


def export_integrator(domain: Domain, dt: float, steps: int, targets):
  def run(p):
    return heat_step(FourierSeries(p, domain), dt, steps).params
  spec = jax.ShapeDtypeStruct(domain.N, jnp.float32)
  return jax.export.export(jax.jit(run), platforms=targets)(spec)


FLEET = {"training": ["tpu"], "inference": ["cuda"]}


if __name__ == "__main__":
  targets = []
  for pool in ("training", "inference"):
    targets.extend(FLEET[pool])
  domain = Domain((128, 128), (0.1, 0.1))
  artifacts = {}
  for target in targets:
    artifacts[target] = export_integrator(domain, dt=1e-4, steps=4, targets=[target])
  print({k: v.platforms for k, v in artifacts.items()})

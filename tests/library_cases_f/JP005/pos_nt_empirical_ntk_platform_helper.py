"""Empirical NTK of a finite-width network, lowered for the cluster's platform.

The kernel code follows neural-tangents' ``empirical``: ``empirical_ntk_fn(f,
trace_axes, ...)`` returns ``ntk_fn(x1, x2, params)`` that contracts the
Jacobians of ``f`` at ``x1`` and ``x2`` (``x2=None`` means ``x1``), with the
implementation picked by name.  Small helpers normalise user arguments the way
``utils.canonicalize_axis`` does, so callers may pass a single value or a
sequence.
"""

from __future__ import annotations

import functools
import os
from typing import Callable, Optional, Sequence, Union

import jax
import jax.numpy as jnp
import numpy as np

Axes = Union[int, Sequence[int]]


# --------------------------------------------------------------------------
# utils
# --------------------------------------------------------------------------


def canonicalize_axis(axis: Axes, ndim: int) -> list[int]:
  axis = [axis] if isinstance(axis, int) else list(axis)
  return sorted({a % ndim for a in axis})


def canonicalize_platforms(platforms: Union[str, Sequence[str]]) -> tuple[str, ...]:
  if isinstance(platforms, (list, tuple)):
    return tuple(platforms)
  return (platforms)


def wraps(f):
  def wrapper(g):
    @functools.wraps(f)
    def h(*args, **kwargs):
      return g(*args, **kwargs)
    h.__name__ = getattr(f, "__name__", "fn")
    return h
  return wrapper


# --------------------------------------------------------------------------
# empirical kernels
# --------------------------------------------------------------------------


def _jacobian_contraction(f, x1, x2, params, trace_axes):
  j1 = jax.jacobian(f)(params, x1)
  j2 = j1 if x2 is None else jax.jacobian(f)(params, x2)

  def contract(a, b):
    a = a.reshape(a.shape[:2] + (-1,))
    b = b.reshape(b.shape[:2] + (-1,))
    k = jnp.einsum("iap,jbp->ijab", a, b)
    if trace_axes:
      k = jnp.trace(k, axis1=2, axis2=3)
    return k

  return sum(jax.tree.leaves(jax.tree.map(contract, j1, j2)))


def _ntk_vector_products(f, x1, x2, params, trace_axes):
  x2 = x1 if x2 is None else x2
  f1 = lambda p: f(p, x1)
  _, vjp_fn = jax.vjp(f1, params)
  out_dim = f(params, x2).shape[-1]

  def row(i):
    cotangent = jnp.zeros((x1.shape[0], out_dim)).at[i].set(1.0)
    (tangent,) = vjp_fn(cotangent)
    return jax.jvp(lambda p: f(p, x2), (params,), (tangent,))[1]

  k = jax.vmap(row)(jnp.arange(x1.shape[0]))
  return jnp.trace(k, axis1=-2, axis2=-1) if trace_axes else k


_IMPLEMENTATIONS = {
    "jacobian_contraction": _jacobian_contraction,
    "ntk_vector_products": _ntk_vector_products,
}


def empirical_ntk_fn(f: Callable, trace_axes: Axes = (-1,), implementation: str = "jacobian_contraction"):
  impl = _IMPLEMENTATIONS[implementation]

  @wraps(f)
  def ntk_fn(x1, x2: Optional[jax.Array], params):
    axes = canonicalize_axis(trace_axes, 2) if trace_axes != () else []
    return impl(f, x1, x2, params, bool(axes))

  return ntk_fn


# --------------------------------------------------------------------------
# application
# --------------------------------------------------------------------------


def init_mlp(key, sizes):
  params = []
  for k, (m, n) in zip(jax.random.split(key, len(sizes) - 1), zip(sizes[:-1], sizes[1:])):
    params.append((jax.random.normal(k, (m, n)) / np.sqrt(m), jnp.zeros((n,))))
  return params


def mlp(params, x):
  for w, b in params[:-1]:
    x = jax.nn.relu(x @ w + b)
  w, b = params[-1]
  return x @ w + b


def lower_ntk(ntk_fn, params, n1: int, n2: int, dim: int,
              platforms: Union[str, Sequence[str]] = os.environ.get("NT_PLATFORMS", "tpu")):
  spec = lambda n: jax.ShapeDtypeStruct((n, dim), jnp.float32)
  param_specs = jax.tree.map(lambda p: jax.ShapeDtypeStruct(p.shape, p.dtype), params)
  traced = jax.jit(ntk_fn).trace(spec(n1), spec(n2), param_specs)
  return traced.lower(lowering_platforms=canonicalize_platforms(platforms))


def main():
  params = init_mlp(jax.random.PRNGKey(0), [16, 64, 64, 4])
  x = jax.random.normal(jax.random.PRNGKey(1), (8, 16))
  ntk_fn = empirical_ntk_fn(mlp, trace_axes=-1, implementation="ntk_vector_products")
  k_local = jax.jit(ntk_fn)(x, None, params)
  print("local ntk diag mean:", float(jnp.mean(jnp.diag(k_local))))
  lowered = lower_ntk(ntk_fn, params, n1=128, n2=32, dim=16)
  print("lowered:", len(lowered.as_text()))


if __name__ == "__main__":
  main()

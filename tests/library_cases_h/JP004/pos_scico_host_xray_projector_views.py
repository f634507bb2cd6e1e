"""Tomographic reconstruction with a host-side X-ray projector.

Like scico's astra / svmbir wrappers, the projector is a `LinearOperator` whose
forward and adjoint call compiled host code through `jax.pure_callback`
(here a simple parallel-beam projector in NumPy).  The reconstruction loop is
a few Landweber iterations; the stack of slices is sharded over the mesh given
by the reconstruction config, and the iteration is compiled ahead of time.
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P


class LinearOperator:

  def __init__(self, input_shape, output_shape, dtype=jnp.float32):
    self.input_shape = tuple(input_shape)
    self.output_shape = tuple(output_shape)
    self.dtype = dtype

  def __call__(self, x):
    return self._eval(x)

  @property
  def T(self):
    return _Adjoint(self)


class _Adjoint(LinearOperator):

  def __init__(self, op):
    super().__init__(op.output_shape, op.input_shape, op.dtype)
    self.op = op

  def _eval(self, y):
    return self.op._adj(y)


def _host_project(x, angles):
  out = np.empty((x.shape[0], angles.shape[0], x.shape[-1]), x.dtype)
  for i, a in enumerate(angles):
    out[:, i, :] = np.cos(a) * x.sum(axis=1) + np.sin(a) * x.sum(axis=2)
  return out


def _host_backproject(y, angles, n):
  x = np.zeros((y.shape[0], n, n), y.dtype)
  for i, a in enumerate(angles):
    x += np.cos(a) * y[:, i, None, :] + np.sin(a) * y[:, i, :, None]
  return x / len(angles)


class XRayTransform(LinearOperator):
  """Parallel-beam projector evaluated on the host, slice by slice."""

  def __init__(self, n_slices, n, angles):
    super().__init__((n_slices, n, n), (n_slices, len(angles), n))
    self.n = n
    self.angles = np.asarray(angles, np.float32)

  def _eval(self, x):
    return jax.pure_callback(
        lambda v: _host_project(np.asarray(v), self.angles),
        jax.ShapeDtypeStruct(self.output_shape, self.dtype), x, vmap_method="sequential")

  def _adj(self, y):
    return jax.pure_callback(
        lambda v: _host_backproject(np.asarray(v), self.angles, self.n),
        jax.ShapeDtypeStruct(self.input_shape, self.dtype), y, vmap_method="sequential")


def landweber(A: LinearOperator, y, x0, alpha: float, maxiter: int):
  def body(_, x):
    return x - alpha * A.T(A(x) - y)
  return jax.lax.fori_loop(0, maxiter, body, x0)


@dataclasses.dataclass
class ReconConfig:
  n_slices: int = 16
  n: int = 64
  n_angles: int = 30
  alpha: float = 1e-3
  maxiter: int = 5
  slice_devices: int = 4
  platform: str = "cpu"

  def mesh(self):
    return AbstractMesh((self.slice_devices,), ("slices",))


def compile_recon(cfg: ReconConfig):
  A = XRayTransform(cfg.n_slices, cfg.n, np.linspace(0, np.pi, cfg.n_angles, endpoint=False))
  slices = NamedSharding(cfg.mesh(), P("slices"))
  recon = jax.jit(
      lambda y, x0: landweber(A, y, x0, cfg.alpha, cfg.maxiter),
      in_shardings=(slices, slices), out_shardings=slices)
  y_spec = jax.ShapeDtypeStruct(A.output_shape, jnp.float32)
  x_spec = jax.ShapeDtypeStruct(A.input_shape, jnp.float32)
  return recon.trace(y_spec, x_spec).lower(lowering_platforms=(cfg.platform,))


if __name__ == "__main__":
  print(compile_recon(ReconConfig()).as_text()[:100])

"""Plug-and-play ADMM for image deblurring, exported as a serving artifact.

The regulariser is a functional chosen by name on the command line; the
non-local-means style prior calls out to a host implementation (like BM3D,
which is compiled C code with no device support) through `jax.pure_callback`.
The solver object runs its iterations in a `lax.fori_loop` and the whole solve
is exported for the platforms given on the command line.
"""

from __future__ import annotations

import argparse

import jax
import jax.numpy as jnp
import numpy as np


class Functional:
  has_eval = True
  has_prox = False

  def __call__(self, x):
    raise NotImplementedError

  def prox(self, v, lam=1.0):
    raise NotImplementedError


class L2Loss(Functional):
  has_prox = True

  def __init__(self, y, blur):
    self.y = y
    self.blur = blur

  def __call__(self, x):
    return 0.5 * jnp.sum((self.blur(x) - self.y) ** 2)


class HostDenoiser(Functional):
  """A denoiser that only exists on the host."""

  has_eval = False
  has_prox = True

  def __init__(self, sigma: float):
    self.sigma = sigma

  def _host_filter(self, x, sigma):
    pad = np.pad(x, 1, mode="edge")
    acc = sum(pad[i:i + x.shape[0], j:j + x.shape[1]] for i in range(3) for j in range(3))
    return (acc / 9.0 * sigma + x * (1 - sigma)).astype(x.dtype)

  def prox(self, v, lam=1.0):
    return jax.pure_callback(
        lambda args: self._host_filter(*args),
        jax.ShapeDtypeStruct(v.shape, v.dtype),
        (v, jnp.asarray(lam * self.sigma, v.dtype)),
    )


class TVSmooth(Functional):
  has_prox = True

  def __init__(self, sigma: float):
    self.sigma = sigma

  def prox(self, v, lam=1.0):
    dx = jnp.roll(v, -1, 0) - v
    dy = jnp.roll(v, -1, 1) - v
    return v + lam * self.sigma * (dx + dy) / 4


PRIORS = {"nlm_host": HostDenoiser, "tv": TVSmooth}


class ADMM:

  def __init__(self, f: L2Loss, g: Functional, rho: float, maxiter: int):
    self.f, self.g, self.rho, self.maxiter = f, g, rho, maxiter

  def _x_step(self, z, u):
    grad = jax.grad(self.f)(z - u)
    return z - u - grad / (1.0 + self.rho)

  def step(self, _, carry):
    x, z, u = carry
    x = self._x_step(z, u)
    z = self.g.prox(x + u, 1.0 / self.rho)
    u = u + x - z
    return x, z, u

  def solve(self, x0):
    carry = (x0, x0, jnp.zeros_like(x0))
    x, _, _ = jax.lax.fori_loop(0, self.maxiter, self.step, carry)
    return x


def build_parser():
  p = argparse.ArgumentParser()
  p.add_argument("--prior", default="nlm_host", choices=sorted(PRIORS))
  p.add_argument("--sigma", type=float, default=0.3)
  p.add_argument("--rho", type=float, default=2.0)
  p.add_argument("--maxiter", type=int, default=10)
  p.add_argument("--platforms", nargs="+", default=["cuda"])
  return p


def export_solver(args, shape=(32, 32)):
  y = jnp.zeros(shape, jnp.float32)
  blur = lambda x: (x + jnp.roll(x, 1, 0) + jnp.roll(x, 1, 1)) / 3.0
  f = L2Loss(y, blur)
  g = PRIORS[args.prior](args.sigma)
  admm = ADMM(f, g, args.rho, args.maxiter)
  spec = jax.ShapeDtypeStruct(shape, jnp.float32)
  return jax.export.export(jax.jit(admm.solve), platforms=args.platforms)(spec)


if __name__ == "__main__":
  exported = export_solver(build_parser().parse_args())
  print(exported.platforms)

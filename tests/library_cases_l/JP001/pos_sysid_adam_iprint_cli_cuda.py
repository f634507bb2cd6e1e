"""Compile a linear state-space identification run for a GPU batch node.

Shaped after jax_sysid: a `LinearModel` (A, B, C, x0) fitted by an Adam solver
whose `iprint` turns on an in-loop progress line, driven from a command line
whose defaults are what the batch scheduler gets.
"""

from __future__ import annotations

import argparse

import jax
import jax.numpy as jnp

from _sysid_solvers import make_adam_solver


class LinearModel:
    def __init__(self, nx: int, ny: int, nu: int, rho_th: float = 1e-4):
        self.nx, self.ny, self.nu, self.rho_th = nx, ny, nu, rho_th

    def param_specs(self):
        nx, ny, nu = self.nx, self.ny, self.nu
        shapes = [(nx, nx), (nx, nu), (ny, nx), (nx,)]
        return [jax.ShapeDtypeStruct(s, jnp.float32) for s in shapes]

    def simulate(self, z, U):
        A, B, C, x0 = z

        def step(x, u):
            return A @ x + B @ u, C @ x

        _, Y = jax.lax.scan(step, x0, U)
        return Y

    def loss(self, z, U, Y):
        err = self.simulate(z, U) - Y
        reg = sum(jnp.sum(zi ** 2) for zi in z[:3])
        return jnp.mean(err ** 2) + self.rho_th * reg


def parse_args():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--nx", type=int, default=4)
    p.add_argument("--iters", type=int, default=1000)
    p.add_argument("--eta", type=float, default=1e-3)
    p.add_argument("--iprint", type=int, default=100, help="print progress every N iterations (0: quiet)")
    p.add_argument("--platform", default="cuda", help="platform of the batch node")
    p.add_argument("--samples", type=int, default=2000)
    return p.parse_args()


def main():
    args = parse_args()
    model = LinearModel(nx=args.nx, ny=2, nu=1)
    solve = make_adam_solver(jax.value_and_grad(model.loss), args.iters, args.eta, args.iprint)
    U = jax.ShapeDtypeStruct((args.samples, model.nu), jnp.float32)
    Y = jax.ShapeDtypeStruct((args.samples, model.ny), jnp.float32)
    traced = jax.jit(solve).trace(model.param_specs(), U, Y)
    lowered = traced.lower(lowering_platforms=(args.platform,))
    print("lowered for", args.platform, len(lowered.as_text()), "chars")


if __name__ == "__main__":
    main()

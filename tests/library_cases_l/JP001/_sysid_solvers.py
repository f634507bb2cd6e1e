"""First-order solvers for system identification.

`make_adam_solver` returns a jittable `solve(z0, *data)`; with `iprint > 0` it
prints a progress line from inside the scan every `iprint` iterations (an
ordered `jax.debug.callback` under `lax.cond`, so the print order is kept).
"""

from __future__ import annotations

import sys

import jax
import jax.numpy as jnp


def _progress_printer(total: int, width: int = 20):
    def _bar(t, val, fbest):
        t = int(t)
        frac = (t + 1) / total
        filled = int(width * frac)
        print(f"\rAdam: {100 * frac:3.0f}%|{'#' * filled}{'.' * (width - filled)}| "
              f"{t + 1}/{total} [loss={float(val):.4e}, best={float(fbest):.4e}]",
              end="", file=sys.stderr, flush=True)

    return _bar


def make_adam_solver(JdJ, solver_iters: int, adam_eta: float = 1e-3, iprint: int = 0,
                     beta1: float = 0.9, beta2: float = 0.99, eps: float = 1e-8):
    bar = _progress_printer(solver_iters) if iprint > 0 else None

    def solve(z0, *data):
        zeros = [jnp.zeros_like(z) for z in z0]

        def step(carry, t):
            z, m, v, b1t, b2t, fbest, zbest = carry
            val, g = JdJ(z, *data)
            m = [beta1 * mi + (1 - beta1) * gi for mi, gi in zip(m, g)]
            v = [beta2 * vi + (1 - beta2) * gi ** 2 for vi, gi in zip(v, g)]
            z_new = [zi - adam_eta / (1 - b1t) * mi / (jnp.sqrt(vi / (1 - b2t)) + eps)
                     for zi, mi, vi in zip(z, m, v)]
            zbest = jax.lax.cond(val < fbest, lambda: z, lambda: zbest)
            fbest = jnp.minimum(val, fbest)
            if bar is not None:
                jax.lax.cond(
                    (t % iprint == 0) | (t == solver_iters - 1),
                    lambda: jax.debug.callback(bar, t, val, fbest, ordered=True),
                    lambda: None,
                )
            return (z_new, m, v, b1t * beta1, b2t * beta2, fbest, zbest), val

        init = (list(z0), zeros, list(zeros), jnp.float32(beta1), jnp.float32(beta2),
                jnp.float32(jnp.inf), list(z0))
        (_, _, _, _, _, fbest, zbest), losses = jax.lax.scan(step, init, jnp.arange(solver_iters))
        return zbest, fbest, losses

    return solve

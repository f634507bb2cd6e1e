"""Solvers for a small Gaussian-process package, after tinygp's solver modules."""

import jax
import jax.numpy as jnp
import numpy as np


def _check_sorted(coords):
    if np.any(np.diff(np.asarray(coords)) < 0):
        raise ValueError("input coordinates must be sorted for the quasiseparable solver")


class DirectSolver:
    def __init__(self, kernel, X, noise, **unused):
        cov = kernel(X[:, None], X[None, :]) + jnp.diag(noise)
        self.factor = jnp.linalg.cholesky(cov)

    def solve_triangular(self, y):
        return jax.scipy.linalg.solve_triangular(self.factor, y, lower=True)

    def normalization(self):
        n = self.factor.shape[0]
        return jnp.sum(jnp.log(jnp.diag(self.factor))) + 0.5 * n * jnp.log(2 * jnp.pi)


class QuasisepSolver:
    def __init__(self, kernel, X, noise, *, assume_sorted=False):
        if not assume_sorted:
            jax.debug.callback(_check_sorted, X)
        dt = jnp.diff(X, prepend=X[:1])
        self.a = jnp.exp(-dt / kernel.scale)
        self.var = kernel.amplitude * (1 - self.a**2) + noise

    def solve_triangular(self, y):
        def step(prev, inputs):
            a, v, yi = inputs
            r = (yi - a * prev) / jnp.sqrt(v)
            return yi, r
        _, r = jax.lax.scan(step, 0.0, (self.a, self.var, y))
        return r

    def normalization(self):
        return 0.5 * jnp.sum(jnp.log(self.var)) + 0.5 * self.var.shape[0] * jnp.log(2 * jnp.pi)


SOLVERS = {"direct": DirectSolver, "quasisep": QuasisepSolver}

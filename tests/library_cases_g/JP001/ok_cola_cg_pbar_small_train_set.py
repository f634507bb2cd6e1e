"""Ahead-of-time lowering of a small Gaussian-process predictive mean for a GPU fleet.

Shaped like a structured linear-algebra package: linear operators that compose
with ``+``, algorithm dataclasses (``CG``, ``Cholesky``, ``Auto``) that a
``solve`` dispatches on, and a ``while_loop_winfo`` helper that swaps in a
progress-reporting while loop when ``pbar=True``.
"""

from dataclasses import dataclass, field
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax.debug import callback
from jax.experimental import io_callback


class LinearOperator:
    def __init__(self, dtype, shape):
        self.dtype, self.shape = dtype, shape

    def _matmat(self, X):
        raise NotImplementedError

    def __matmul__(self, X):
        return self._matmat(X)

    def __add__(self, other):
        return Sum(self, other)

    def to_dense(self):
        return self._matmat(jnp.eye(self.shape[-1], dtype=self.dtype))


class Dense(LinearOperator):
    def __init__(self, A):
        super().__init__(A.dtype, A.shape)
        self.A = A

    def _matmat(self, X):
        return self.A @ X


class Diagonal(LinearOperator):
    def __init__(self, diag):
        super().__init__(diag.dtype, (diag.shape[0], diag.shape[0]))
        self.diag = diag

    def _matmat(self, X):
        return self.diag[:, None] * X


class Sum(LinearOperator):
    def __init__(self, *ops):
        super().__init__(ops[0].dtype, ops[0].shape)
        self.ops = ops

    def _matmat(self, X):
        return sum(op @ X for op in self.ops)


def while_loop_winfo(errorfn, tol, every=1, desc="", pbar=False):
    """Returns a while_loop; with ``pbar`` its body reports progress to the host."""
    if not pbar:
        return jax.lax.while_loop
    info = {"start": None}

    def _open(*_):
        print(f"{desc or 'solve'}: started", file=sys.stderr)

    def _update(err):
        err = float(err)
        info["start"] = info["start"] or err
        done = 100 * np.log(err / info["start"]) / np.log(tol / info["start"] + 1e-30)
        print(f"{desc}: {min(max(done, 0.0), 100.0):5.1f}%", file=sys.stderr)

    def _close(err):
        _update(err)
        return np.bool_(False)

    def new_while(cond_fun, body_fun, init_val):
        def newbody(ival):
            i, val = ival
            jax.lax.cond(i % every == 0, lambda _: callback(_update, errorfn(val)), lambda _: None, None)
            return i + 1, body_fun(val)

        def newcond(ival):
            _, val = ival
            return jax.lax.cond(cond_fun(val), lambda _: True,
                                lambda _: io_callback(_close, jax.ShapeDtypeStruct((), jnp.bool_), errorfn(val)),
                                None)

        callback(_open)
        _, val = jax.lax.while_loop(newcond, newbody, (0, init_val))
        return val

    return new_while


@dataclass
class CG:
    tol: float = 1e-6
    max_iters: int = 1000
    pbar: bool = False

    def __call__(self, A, b):
        def errorfn(state):
            return jnp.linalg.norm(state[1]) / jnp.linalg.norm(b)

        while_loop = while_loop_winfo(errorfn, self.tol, desc="cg", pbar=self.pbar)

        def cond(state):
            return jnp.logical_and(errorfn(state) > self.tol, state[3] < self.max_iters)

        def body(state):
            x, r, p, k = state
            Ap = A @ p
            alpha = jnp.sum(r * r) / jnp.sum(p * Ap)
            x_new, r_new = x + alpha * p, r - alpha * Ap
            beta = jnp.sum(r_new * r_new) / jnp.sum(r * r)
            return x_new, r_new, r_new + beta * p, k + 1

        x0 = jnp.zeros_like(b)
        return while_loop(cond, body, (x0, b, b, 0))[0]


@dataclass
class Cholesky:
    def __call__(self, A, b):
        L = jnp.linalg.cholesky(A.to_dense())
        return jax.scipy.linalg.cho_solve((L, True), b)


@dataclass
class Auto:
    tol: float = 1e-6
    max_iters: int = 1000
    pbar: bool = False
    dense_threshold: int = 1000

    def __call__(self, A, b):
        if A.shape[0] <= self.dense_threshold:
            return Cholesky()(A, b)
        return CG(self.tol, self.max_iters, self.pbar)(A, b)


def solve(A, b, alg=Auto()):
    return alg(A, b)


@dataclass
class Deployment:
    num_train: int = 512
    num_test: int = 64
    features: int = 8
    platforms: tuple = ("cuda",)
    solver: dict = field(default_factory=lambda: {"max_iters": 300, "pbar": True})


def rbf(x, y, lengthscale=1.0):
    d = jnp.sum((x[:, None] - y[None]) ** 2, axis=-1)
    return jnp.exp(-0.5 * d / lengthscale**2)


def build_predictive_mean(dep: Deployment):
    alg = Auto(tol=1e-5, **dep.solver)

    def predictive_mean(x_train, y_train, x_test, noise):
        K = Dense(rbf(x_train, x_train)) + Diagonal(jnp.full(x_train.shape[0], noise))
        alpha = solve(K, y_train[:, None], alg)
        return rbf(x_test, x_train) @ alpha

    return predictive_mean


def lower_for_fleet(dep: Deployment):
    f32 = jnp.float32
    args = (jax.ShapeDtypeStruct((dep.num_train, dep.features), f32),
            jax.ShapeDtypeStruct((dep.num_train,), f32),
            jax.ShapeDtypeStruct((dep.num_test, dep.features), f32),
            jax.ShapeDtypeStruct((), f32))
    traced = jax.jit(build_predictive_mean(dep)).trace(*args)
    return traced.lower(lowering_platforms=dep.platforms)


if __name__ == "__main__":
    lowered = lower_for_fleet(Deployment())
    print(lowered.as_text()[:200])

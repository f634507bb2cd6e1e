"""Ahead-of-time compiled GP hyperparameter fit with gpjax-style verbose scanning."""

import dataclasses
import functools

import jax
import jax.numpy as jnp

from _gpjax_scan import vscan


@dataclasses.dataclass
class FitPlan:
    num_iters: int = 200
    learning_rate: float = 0.05
    verbose: bool = True
    platform: str = "cuda"
    n_data: int = 32


def neg_mll(params, x, y):
    ls, var = jnp.exp(params["log_ls"]), jnp.exp(params["log_var"])
    k = var * jnp.exp(-0.5 * (x[:, None] - x[None, :]) ** 2 / ls**2) + 1e-3 * jnp.eye(x.shape[0])
    chol = jnp.linalg.cholesky(k)
    alpha = jax.scipy.linalg.cho_solve((chol, True), y)
    return 0.5 * y @ alpha + jnp.sum(jnp.log(jnp.diag(chol)))


def fit(params, x, y, *, num_iters, learning_rate, verbose):
    grad_fn = jax.value_and_grad(neg_mll)

    def step(p, _):
        loss, g = grad_fn(p, x, y)
        p = jax.tree.map(lambda a, b: a - learning_rate * b, p, g)
        return p, loss

    params, history = vscan(step, params, jnp.zeros((num_iters,)), log_value=verbose)
    return params, history


def compile_fit(plan: FitPlan):
    fn = jax.jit(functools.partial(fit, num_iters=plan.num_iters,
                                   learning_rate=plan.learning_rate, verbose=plan.verbose))
    params = {"log_ls": jax.ShapeDtypeStruct((), jnp.float32), "log_var": jax.ShapeDtypeStruct((), jnp.float32)}
    data = jax.ShapeDtypeStruct((plan.n_data,), jnp.float32)
    traced = fn.trace(params, data, data)
    return traced.lower(lowering_platforms=(plan.platform,))


if __name__ == "__main__":
    lowered = compile_fit(FitPlan(num_iters=50))
    print(lowered.as_text()[:200])

"""GP prediction entry points registered for export with a decorator (tinygp kernels and
GaussianProcess.condition layout)."""

import jax
import jax.numpy as jnp

from _tinygp_exports import EXPORTS, register_export


class Matern32:
    def __init__(self, scale=1.0, sigma=1.0):
        self.scale, self.sigma = scale, sigma

    def evaluate(self, x1, x2):
        r = jnp.sqrt(3.0) * jnp.abs(x1 - x2) / self.scale
        return self.sigma**2 * (1 + r) * jnp.exp(-r)

    def __call__(self, X1, X2):
        return jax.vmap(lambda a: jax.vmap(lambda b: self.evaluate(a, b))(X2))(X1)


def condition_mean(kernel, X, y, X_test, diag):
    K = kernel(X, X) + diag * jnp.eye(X.shape[0])
    alpha = jax.scipy.linalg.solve(K, y, assume_a="pos")
    return kernel(X_test, X) @ alpha


@register_export("predict_mean", platforms=("tpu"), batch_axis=0)
def build_predict(n_train, n_test):
    kernel = Matern32(scale=2.0)
    fn = lambda X, y, Xt: condition_mean(kernel, X, y, Xt, 1e-2)
    vec = lambda n: jax.ShapeDtypeStruct((n,), jnp.float32)
    return fn, (vec(n_train), vec(n_train), vec(n_test))


@register_export("log_likelihood", platforms=("tpu", "cuda"))
def build_loglike(n_train, n_test):
    kernel = Matern32(scale=2.0)

    def fn(X, y):
        K = kernel(X, X) + 1e-2 * jnp.eye(X.shape[0])
        L = jnp.linalg.cholesky(K)
        r = jax.scipy.linalg.solve_triangular(L, y, lower=True)
        return -0.5 * r @ r - jnp.sum(jnp.log(jnp.diag(L)))

    vec = jax.ShapeDtypeStruct((n_train,), jnp.float32)
    return fn, (vec, vec)


def export_all(**shapes):
    artifacts = {}
    for name, entry in sorted(EXPORTS.items()):
        fn, specs = entry["builder"](**shapes)
        artifacts[name] = jax.export.export(jax.jit(fn), platforms=entry["platforms"])(*specs)
    return artifacts


if __name__ == "__main__":
    artifacts = export_all(n_train=50, n_test=20)
    print({k: v.platforms for k, v in artifacts.items()})

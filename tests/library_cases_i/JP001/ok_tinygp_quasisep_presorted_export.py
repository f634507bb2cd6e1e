"""A celerite-style GP likelihood on presorted inputs, exported for a deployment target (tinygp layout)."""

import dataclasses
import os

import jax
import jax.numpy as jnp

from _tinygp_solvers import SOLVERS


@dataclasses.dataclass(frozen=True)
class Exp:
    scale: float = 1.5
    amplitude: float = 2.0

    def __call__(self, x1, x2):
        return self.amplitude * jnp.exp(-jnp.abs(x1 - x2) / self.scale)


class GaussianProcess:
    def __init__(self, kernel, X, *, diag=1e-3, solver="quasisep", **solver_kwargs):
        noise = jnp.broadcast_to(diag, X.shape)
        self.solver = SOLVERS[solver](kernel, X, noise, **solver_kwargs)

    def log_probability(self, y):
        r = self.solver.solve_triangular(y)
        return -0.5 * jnp.sum(r**2) - self.solver.normalization()


DEPLOY_TARGETS = {"workstation": ("cpu",), "serving": ("tpu",)}
GP_OPTIONS = {"solver": "quasisep", "diag": 0.01, "assume_sorted": True}


def build_loglike(options):
    def loglike(params, X, y):
        kernel = Exp(scale=params["scale"], amplitude=params["amp"])
        gp = GaussianProcess(kernel, X, **options)
        return gp.log_probability(y)
    return loglike


def export_loglike(target, n=64):
    fn = jax.jit(build_loglike(dict(GP_OPTIONS)))
    params = {"scale": jax.ShapeDtypeStruct((), jnp.float32), "amp": jax.ShapeDtypeStruct((), jnp.float32)}
    vec = jax.ShapeDtypeStruct((n,), jnp.float32)
    platforms = DEPLOY_TARGETS[target]
    return jax.export.export(fn, platforms=platforms)(params, vec, vec)


if __name__ == "__main__":
    exported = export_loglike(os.environ.get("GP_DEPLOY_TARGET", "serving"))
    print(exported.platforms, exported.in_avals)

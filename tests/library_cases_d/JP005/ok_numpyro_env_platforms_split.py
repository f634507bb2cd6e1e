"""Export a Bayesian linear-regression posterior predictive for the platforms in $JAX_EXPORT_PLATFORMS.

Platform selection follows ``numpyro.set_platform``: a comma-separated value read
from the environment (default ``"cpu"``) and validated against a known list.
"""
import os
from typing import Optional

import jax
import jax.numpy as jnp

VALID_PLATFORMS = ("cpu", "cuda", "rocm", "tpu")


def export_platforms(platform: Optional[str] = None):
    if platform is None:
        platform = os.getenv("JAX_EXPORT_PLATFORMS", "cpu")
    assert all(p.strip() in VALID_PLATFORMS for p in platform.split(",")), (
        "Invalid platform '{0}'. Valid platforms are: {1}.".format(platform, ", ".join(VALID_PLATFORMS))
    )
    return tuple(p.strip() for p in platform.split(","))


def posterior_predictive(samples, x):
    # samples: dict of (num_samples, ...) draws; x: (n, d) design matrix.
    mean = x @ samples["beta"].T + samples["alpha"][None, :]
    return jnp.mean(mean, axis=-1), jnp.std(mean, axis=-1) + jnp.mean(samples["sigma"])


def export_predictive(num_samples=1000, num_features=5, batch=32, platform=None):
    samples = {
        "alpha": jax.ShapeDtypeStruct((num_samples,), jnp.float32),
        "beta": jax.ShapeDtypeStruct((num_samples, num_features), jnp.float32),
        "sigma": jax.ShapeDtypeStruct((num_samples,), jnp.float32),
    }
    x = jax.ShapeDtypeStruct((batch, num_features), jnp.float32)
    platforms = export_platforms(platform)
    return jax.export.export(jax.jit(posterior_predictive), platforms=platforms)(samples, x)


if __name__ == "__main__":
    exported = export_predictive()
    print(exported.platforms, exported.out_avals)

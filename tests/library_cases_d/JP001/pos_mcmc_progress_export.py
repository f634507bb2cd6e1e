"""Ahead-of-time export of a random-walk Metropolis sampler for the serving fleet.

The sampler follows numpyro's MCMC driver: the kernel's update is run inside
``lax.fori_loop`` and, when ``progress_bar`` is on, the loop body is wrapped by
a host-side progress reporter.
"""
import os

import jax
import jax.numpy as jnp
from jax import lax

from _mcmc_progress import progress_bar_factory

EXPORT_PLATFORM = os.getenv("MCMC_EXPORT_PLATFORM", "tpu")


def potential_energy(theta):
    return 0.5 * jnp.sum((theta - 1.0) ** 2)


class RandomWalkMCMC:
    def __init__(self, potential_fn, num_samples, step_size=0.2, progress_bar=True):
        self.potential_fn = potential_fn
        self.num_samples = num_samples
        self.step_size = step_size
        self.progress_bar = progress_bar

    def _body_fn(self):
        def body(i, carry):
            key, theta, accepted = carry
            key, k_prop, k_acc = jax.random.split(key, 3)
            proposal = theta + self.step_size * jax.random.normal(k_prop, theta.shape)
            log_ratio = self.potential_fn(theta) - self.potential_fn(proposal)
            accept = jnp.log(jax.random.uniform(k_acc)) < log_ratio
            theta = jnp.where(accept, proposal, theta)
            return key, theta, accepted + accept.astype(jnp.int32)

        if self.progress_bar:
            body = progress_bar_factory(self.num_samples)(body)
        return body

    def sample_fn(self):
        body = self._body_fn()

        def run(key, init_params):
            carry = (key, init_params, jnp.zeros((), jnp.int32))
            _, theta, accepted = lax.fori_loop(0, self.num_samples, body, carry)
            return theta, accepted / self.num_samples

        return run

    def export(self, init_params, platforms=None):
        platforms = tuple(platforms or (EXPORT_PLATFORM,))
        run = jax.jit(self.sample_fn())
        key = jax.random.PRNGKey(0)
        return jax.export.export(run, platforms=platforms)(key, init_params)


def main():
    mcmc = RandomWalkMCMC(potential_energy, num_samples=500)
    init = jax.ShapeDtypeStruct((3,), jnp.float32)
    exported = mcmc.export(init)
    print("exported for", exported.platforms)


if __name__ == "__main__":
    main()

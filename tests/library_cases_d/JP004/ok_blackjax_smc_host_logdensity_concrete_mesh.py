"""Lower one tempered-SMC reweighting step whose likelihood runs on the host.

Blackjax-style: the algorithm is a pair of pure functions built by a factory,
and the likelihood is an opaque host function (a legacy SciPy model) reached
through ``jax.pure_callback``. Particles are sharded over a particle mesh
built from the deployment host's devices (``SMCDeployment``).
"""
import dataclasses
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P
from scipy import special


def _host_loglik(particles):
    x = np.asarray(particles, dtype=np.float64)
    return special.logsumexp(-0.5 * (x[..., None] - np.array([-2.0, 2.0])) ** 2, axis=-1).sum(-1).astype(np.float32)


def host_loglikelihood(particles):
    out = jax.ShapeDtypeStruct(particles.shape[:1], jnp.float32)
    return jax.pure_callback(_host_loglik, out, particles, vmap_method="expand_dims")


class SMCState(NamedTuple):
    particles: jax.Array
    log_weights: jax.Array


class SMCAlgorithm(NamedTuple):
    reweight: Callable


def tempered_smc(loglikelihood_fn: Callable) -> SMCAlgorithm:
    def reweight(state: SMCState, delta_tempering):
        loglik = loglikelihood_fn(state.particles)
        log_w = state.log_weights + delta_tempering * loglik
        return SMCState(state.particles, log_w - jax.nn.logsumexp(log_w))

    return SMCAlgorithm(reweight)


@dataclasses.dataclass(frozen=True)
class SMCDeployment:
    num_particles: int = 512
    dim: int = 4
    platforms: tuple[str, ...] = ("cpu",)

    def mesh(self):
        # The CPU inference host: a real mesh over its CPU devices.
        cpus = jax.devices("cpu")
        return jax.make_mesh((len(cpus),), ("particles",), axis_types=(AxisType.Auto,), devices=cpus)


def lower_reweight(deployment: SMCDeployment):
    sharding = NamedSharding(deployment.mesh(), P("particles"))
    algorithm = tempered_smc(host_loglikelihood)
    state = SMCState(
        jax.ShapeDtypeStruct((deployment.num_particles, deployment.dim), jnp.float32, sharding=sharding),
        jax.ShapeDtypeStruct((deployment.num_particles,), jnp.float32, sharding=sharding),
    )
    traced = jax.jit(algorithm.reweight).trace(state, 0.1)
    return traced.lower(lowering_platforms=deployment.platforms)


if __name__ == "__main__":
    print(lower_reweight(SMCDeployment()).as_text()[:100])

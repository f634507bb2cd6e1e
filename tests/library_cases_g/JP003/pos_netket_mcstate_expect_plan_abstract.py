"""Plan the sharded energy estimator of a variational state for a larger cluster.

Built the way a variational Monte Carlo package moves shardings around: runtime
flags defined with env-var defaults, a mesh with a single ``"S"`` (samples) axis
set as the context mesh, and estimator code that never holds a mesh itself but
asks ``jax.sharding.get_abstract_mesh()`` for it when it places outputs.
"""

import os
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P


class _Flags:
    def __init__(self):
        self._values = {}

    def define(self, name, type_, default):
        raw = os.environ.get(name)
        self._values[name] = default if raw is None else type_(raw)

    def __getattr__(self, name):
        try:
            return self._values[name.upper()]
        except KeyError:
            raise AttributeError(name) from None


config = _Flags()
config.define("NETKET_PLANNED_DEVICES", int, default=64)
config.define("NETKET_SAMPLES_PER_RANK", int, default=64)


def planning_mesh(n_devices: int):
    """The mesh of the run being planned: concrete when it fits here."""
    if n_devices <= jax.device_count():
        return jax.make_mesh((n_devices,), ("S",), axis_types=(AxisType.Explicit,))
    return AbstractMesh((n_devices,), ("S",), axis_types=(AxisType.Explicit,))


def mesh_context(mesh):
    if isinstance(mesh, AbstractMesh):
        return jax.sharding.use_abstract_mesh(mesh)
    return jax.set_mesh(mesh)


def rbm_log_amplitude(params, sigma):
    theta = sigma @ params["W"] + params["b"]
    return jnp.sum(jnp.log(jnp.cosh(theta)), axis=-1) + sigma @ params["a"]


def ising_local_energy(logpsi, params, sigma, h=1.0):
    N = sigma.shape[-1]
    diag = -jnp.sum(sigma * jnp.roll(sigma, 1, axis=-1), axis=-1)
    flips = 1.0 - 2.0 * jnp.eye(N, dtype=sigma.dtype)
    sigma_p = sigma[:, None, :] * flips[None]
    log_ratio = jax.vmap(lambda s: logpsi(params, s))(sigma_p) - logpsi(params, sigma)[:, None]
    return diag - h * jnp.sum(jnp.exp(log_ratio), axis=-1)


class MCState:
    def __init__(self, logpsi, n_samples: int, chunk_size: int | None = None):
        self.logpsi = logpsi
        self.n_samples = n_samples
        self.chunk_size = chunk_size

    def _expect_and_grad(self, params, samples):
        e_loc = ising_local_energy(self.logpsi, params, samples)
        e_mean = jnp.mean(e_loc)
        centered = (e_loc - e_mean) / samples.shape[0]

        def weighted(p):
            return jnp.sum(self.logpsi(p, samples) * jax.lax.stop_gradient(centered))

        grad = jax.grad(weighted)(params)
        grad = jax.tree.map(
            lambda g: jax.sharding.reshard(g, NamedSharding(jax.sharding.get_abstract_mesh(), P())), grad)
        return e_mean, grad

    def compile_expect_and_grad(self, param_shapes, n_sites):
        samples_sharding = NamedSharding(jax.sharding.get_abstract_mesh(), P("S", None))
        samples = jax.ShapeDtypeStruct((self.n_samples, n_sites), jnp.float32, sharding=samples_sharding)
        replicated = NamedSharding(jax.sharding.get_abstract_mesh(), P())
        params = jax.tree.map(
            lambda s: jax.ShapeDtypeStruct(s.shape, s.dtype, sharding=replicated), param_shapes)
        fn = jax.jit(self._expect_and_grad)
        traced = fn.trace(params, samples)
        return traced.lower()


def plan(n_sites: int = 16, alpha: int = 2):
    n_devices = config.netket_planned_devices
    mesh = planning_mesh(n_devices)
    param_shapes = {"W": jax.ShapeDtypeStruct((n_sites, alpha * n_sites), jnp.float32),
                    "b": jax.ShapeDtypeStruct((alpha * n_sites,), jnp.float32),
                    "a": jax.ShapeDtypeStruct((n_sites,), jnp.float32)}
    vstate = MCState(rbm_log_amplitude, n_samples=n_devices * config.netket_samples_per_rank)
    with mesh_context(mesh):
        lowered = vstate.compile_expect_and_grad(param_shapes, n_sites)
    return lowered


if __name__ == "__main__":
    lowered = plan()
    print(lowered.as_text()[:160])

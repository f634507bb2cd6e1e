"""Export a vectorised multi-chain Langevin sampler for a described pod.

Follows numpyro's ``chain_method="vectorized"``: one ``fori_loop`` advances
all chains with ``vmap`` and, when ``progress_bar`` is set, reports to the
host. The chain axis is sharded over the abstract mesh of the target pod.
"""
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

from _progress import progress_bar_factory


def log_prob(x):
    return -0.5 * jnp.sum(x ** 2) - 0.1 * jnp.sum(x ** 4)


def mala_kernel(step_size):
    grad = jax.grad(log_prob)

    def step(key, x):
        noise = jax.random.normal(key, x.shape)
        return x + step_size * grad(x) + jnp.sqrt(2 * step_size) * noise

    return step


class MCMC:
    def __init__(self, kernel, num_samples, num_chains, progress_bar=True, **export_kwargs):
        self.kernel = kernel
        self.num_samples = num_samples
        self.num_chains = num_chains
        self.progress_bar = progress_bar
        self.export_kwargs = export_kwargs

    def _run(self, key, init):
        def body(i, carry):
            key, xs = carry
            key, sub = jax.random.split(key)
            keys = jax.random.split(sub, self.num_chains)
            return key, jax.vmap(self.kernel)(keys, xs)

        if self.progress_bar:
            body = progress_bar_factory(self.num_samples, self.num_chains)(body)
        _, final = lax.fori_loop(0, self.num_samples, body, (key, init))
        return final

    def export(self, mesh, dim):
        chains = NamedSharding(mesh, P("chains"))
        init = jax.ShapeDtypeStruct((self.num_chains, dim), jnp.float32, sharding=chains)
        key = jax.random.PRNGKey(0)
        jitted = jax.jit(self._run, out_shardings=chains)
        return jax.export.export(jitted, **self.export_kwargs)(key, init)


if __name__ == "__main__":
    pod = AbstractMesh((8,), ("chains",), axis_types=(AxisType.Auto,))
    mcmc = MCMC(mala_kernel(1e-2), num_samples=1000, num_chains=64)
    exported = mcmc.export(pod, dim=16)
    print(exported.platforms)

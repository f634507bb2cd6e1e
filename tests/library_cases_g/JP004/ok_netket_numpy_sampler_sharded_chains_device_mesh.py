"""Lower a sharded Metropolis sweep whose rule runs a NumPy operator on the host.

Built like a variational Monte Carlo package's samplers: a Hilbert space, a
NumPy operator exposing ``get_conn_flattened``/``n_conn``, a Hamiltonian rule
that reaches the operator through ``jax.pure_callback``, a sampler dataclass
with ``n_chains``/``sweep_size``, and chains laid out along the ``"S"`` axis of
the mesh. The plan is lowered, compiled and run once as a smoke test.
"""

from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P


@dataclass(frozen=True)
class Spin:
    N: int


class LocalOperatorNumba:
    """Transverse-field Ising operator with a NumPy connected-elements kernel."""

    def __init__(self, hilbert, h=1.0):
        self.hilbert, self.h = hilbert, h

    def get_conn_flattened(self, v, sections):
        n, N = v.shape
        vp = np.repeat(v[:, None, :], N, axis=1)
        vp[:, np.arange(N), np.arange(N)] *= -1
        sections[:] = np.arange(1, n + 1) * N
        return vp.reshape(n * N, N), np.full(n * N, -self.h)

    def n_conn(self, v, out):
        out[:] = v.shape[1]
        return out


class HamiltonianRuleNumba:
    def __init__(self, operator):
        self.operator = operator

    def transition(self, key, sigma):
        log_prob_dtype = jax.dtypes.canonicalize_dtype(float)

        def _transition(v, rand_vec):
            v = np.asarray(v)
            sections = np.empty(v.shape[0], dtype=np.int32)
            vp, _ = self.operator.get_conn_flattened(v, sections)
            N = v.shape[1]
            pick = np.minimum((np.asarray(rand_vec) * N).astype(np.int64), N - 1)
            out = vp.reshape(v.shape[0], N, N)[np.arange(v.shape[0]), pick]
            self.operator.n_conn(out, sections)
            return out.astype(v.dtype), -np.log(sections).astype(log_prob_dtype) + np.log(N)

        rand_vec = jax.random.uniform(key, shape=(sigma.shape[0],))
        return jax.pure_callback(
            _transition,
            (jax.ShapeDtypeStruct(sigma.shape, sigma.dtype),
             jax.ShapeDtypeStruct((sigma.shape[0],), log_prob_dtype)),
            sigma, rand_vec, vmap_method="expand_dims")


@dataclass(frozen=True)
class MetropolisSampler:
    hilbert: Spin
    rule: HamiltonianRuleNumba
    n_chains: int = 32
    sweep_size: int = 8

    def sweep(self, log_prob, params, key, sigma):
        def step(carry, k):
            s, lp = carry
            k1, k2 = jax.random.split(k)
            sp, corr = self.rule.transition(k1, s)
            lp_new = log_prob(params, sp)
            accept = jnp.log(jax.random.uniform(k2, lp.shape)) < lp_new - lp + corr
            return (jnp.where(accept[:, None], sp, s), jnp.where(accept, lp_new, lp)), accept.mean()

        (sigma, _), acc = jax.lax.scan(step, (sigma, log_prob(params, sigma)),
                                       jax.random.split(key, self.sweep_size))
        return sigma, acc.mean()


def jastrow_log_prob(params, sigma):
    return 2.0 * jnp.einsum("ci,ij,cj->c", sigma, params["J"], sigma)


def lower_sweep(sampler, mesh, platform="cpu"):
    N = sampler.hilbert.N
    chains = NamedSharding(mesh, P("S", None))
    replicated = NamedSharding(mesh, P())
    fn = jax.jit(partial(sampler.sweep, jastrow_log_prob),
                 in_shardings=({"J": replicated}, replicated, chains),
                 out_shardings=(chains, replicated))
    params = {"J": jax.ShapeDtypeStruct((N, N), jnp.float32)}
    key = jax.ShapeDtypeStruct((2,), jnp.uint32)
    sigma = jax.ShapeDtypeStruct((sampler.n_chains, N), jnp.float32)
    return fn.trace(params, key, sigma).lower(lowering_platforms=(platform,))


if __name__ == "__main__":
    hi = Spin(16)
    sampler = MetropolisSampler(hi, HamiltonianRuleNumba(LocalOperatorNumba(hi)), n_chains=64)
    device_mesh = jax.make_mesh((jax.device_count(),), ("S",), axis_types=(AxisType.Auto,))
    lowered = lower_sweep(sampler, device_mesh)
    compiled = lowered.compile()
    sigma0 = jnp.where(jax.random.bernoulli(jax.random.key(1), shape=(64, hi.N)), 1.0, -1.0)
    sigma, acc = compiled({"J": jnp.eye(hi.N) * 0.1}, jax.random.key_data(jax.random.key(0)), sigma0)
    print(sigma.shape, float(acc))

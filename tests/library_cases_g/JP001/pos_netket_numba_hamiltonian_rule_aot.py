"""Compile a Metropolis sampling sweep ahead of time for the cluster's accelerators.

The pieces follow a variational Monte Carlo package: runtime flags defined with
env-var defaults, a Hilbert space, an operator with a NumPy connected-elements
kernel and a jax twin, and a Metropolis sampler whose Hamiltonian rule is picked
from the operator's kind (NumPy operators go through ``jax.pure_callback``).
"""

import os
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


class _Config:
    def __init__(self):
        self._values, self._types = {}, {}

    def define(self, name, type_, default, help=""):
        raw = os.environ.get(name)
        self._types[name] = type_
        self._values[name] = default if raw is None else type_(raw)

    def __getattr__(self, name):
        key = name.upper()
        if key in self._values:
            return self._values[key]
        raise AttributeError(name)


config = _Config()
config.define("NETKET_AOT_PLATFORM", str, default="tpu", help="Platform the sampler is compiled for.")
config.define("NETKET_N_CHAINS", int, default=16)


@dataclass(frozen=True)
class Spin:
    N: int

    def random_state(self, key, n):
        return jax.random.choice(key, jnp.array([-1.0, 1.0]), shape=(n, self.N))


class DiscreteOperator:
    def __init__(self, hilbert, J=1.0, h=0.5):
        self.hilbert, self.J, self.h = hilbert, J, h

    @property
    def is_jax_operator(self):
        return False


class Ising(DiscreteOperator):
    """NumPy implementation: connected elements are single spin flips."""

    def get_conn_flattened(self, v, sections):
        n, N = v.shape
        vp = np.repeat(v, N, axis=0).reshape(n, N, N)
        idx = np.arange(N)
        vp[:, idx, idx] *= -1
        sections[:] = np.arange(1, n + 1) * N
        return vp.reshape(n * N, N), np.full(n * N, -self.h)

    def n_conn(self, v, out):
        out[:] = v.shape[1]
        return out


class IsingJax(Ising):
    @property
    def is_jax_operator(self):
        return True

    def get_conn_padded(self, v):
        N = v.shape[-1]
        flips = 1.0 - 2.0 * jnp.eye(N, dtype=v.dtype)
        return v[..., None, :] * flips, jnp.full(v.shape[:-1] + (N,), -self.h)


class HamiltonianRuleNumba:
    def __init__(self, operator):
        self.operator = operator

    def transition(self, machine, params, key, sigma):
        dtype = jax.dtypes.canonicalize_dtype(float)

        def _transition(v, rand_vec):
            v = np.asarray(v)
            sections = np.empty(v.shape[0], dtype=np.int32)
            vp, _ = self.operator.get_conn_flattened(v, sections)
            N = v.shape[1]
            pick = np.floor(np.asarray(rand_vec) * N).astype(np.int64)
            out = vp.reshape(v.shape[0], N, N)[np.arange(v.shape[0]), pick]
            return out.astype(v.dtype), np.zeros(v.shape[0], dtype=dtype)

        rand_vec = jax.random.uniform(key, shape=(sigma.shape[0],))
        return jax.pure_callback(
            _transition,
            (jax.ShapeDtypeStruct(sigma.shape, sigma.dtype), jax.ShapeDtypeStruct((sigma.shape[0],), dtype)),
            sigma, rand_vec, vmap_method="expand_dims")


class HamiltonianRuleJax:
    def __init__(self, operator):
        self.operator = operator

    def transition(self, machine, params, key, sigma):
        conns, _ = self.operator.get_conn_padded(sigma)
        pick = jax.random.randint(key, (sigma.shape[0],), 0, conns.shape[1])
        return conns[jnp.arange(sigma.shape[0]), pick], jnp.zeros(sigma.shape[0])


def MetropolisHamiltonian(hilbert, hamiltonian, **kwargs):
    rule_cls = HamiltonianRuleJax if hamiltonian.is_jax_operator else HamiltonianRuleNumba
    return MetropolisSampler(hilbert, rule_cls(hamiltonian), **kwargs)


@dataclass(frozen=True)
class MetropolisSampler:
    hilbert: Spin
    rule: object
    n_chains: int = config.netket_n_chains
    sweep_size: int = 4

    def sweep(self, machine, params, key, sigma):
        def step(carry, k):
            s, log_p = carry
            k1, k2 = jax.random.split(k)
            sp, corr = self.rule.transition(machine, params, k1, s)
            log_p_new = machine(params, sp)
            accept = jnp.log(jax.random.uniform(k2, log_p.shape)) < 2 * (log_p_new - log_p).real + corr
            s = jnp.where(accept[:, None], sp, s)
            return (s, jnp.where(accept, log_p_new, log_p)), accept.mean()

        keys = jax.random.split(key, self.sweep_size)
        (sigma, _), acc = jax.lax.scan(step, (sigma, machine(params, sigma)), keys)
        return sigma, acc.mean()


def rbm(params, sigma):
    theta = sigma @ params["W"] + params["b"]
    return jnp.sum(jnp.log(jnp.cosh(theta)), axis=-1) + sigma @ params["a"]


def compile_sampler(sampler, alpha=2):
    N = sampler.hilbert.N
    params = {"W": jax.ShapeDtypeStruct((N, alpha * N), jnp.float32),
              "b": jax.ShapeDtypeStruct((alpha * N,), jnp.float32),
              "a": jax.ShapeDtypeStruct((N,), jnp.float32)}
    sigma = jax.ShapeDtypeStruct((sampler.n_chains, N), jnp.float32)
    key = jax.ShapeDtypeStruct((2,), jnp.uint32)
    sweep = jax.jit(partial(sampler.sweep, rbm))
    traced = sweep.trace(params, key, sigma)
    return traced.lower(lowering_platforms=(config.netket_aot_platform,))


if __name__ == "__main__":
    hi = Spin(N=12)
    H = Ising(hi, h=1.0)
    sampler = MetropolisHamiltonian(hi, H, sweep_size=hi.N)
    lowered = compile_sampler(sampler)
    print(lowered.as_text()[:120])

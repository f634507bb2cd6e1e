"""Shape-check a sharded multi-chain HMC run before it is submitted.

Follows a probabilistic-programming library's MCMC layout: transition kernels
with ``bootstrap_results`` and ``one_step(state, kernel_results, seed)``,
namedtuple kernel results, ``sample_chain(num_results, current_state, kernel=...,
num_burnin_steps=..., trace_fn=..., seed=...)``, and stateless ``[2]``-uint32 seeds
split with ``split_seed``. The chains are laid out along a ``chain`` mesh axis.
"""

import collections
from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

HMCKernelResults = collections.namedtuple(
    "HMCKernelResults", ["target_log_prob", "grads_target_log_prob", "log_accept_ratio", "is_accepted"])


def split_seed(seed, n=2):
    return tuple(jax.random.split(jax.random.wrap_key_data(seed), n))


class HamiltonianMonteCarlo:
    def __init__(self, target_log_prob_fn, step_size, num_leapfrog_steps):
        self.target_log_prob_fn = target_log_prob_fn
        self.step_size = step_size
        self.num_leapfrog_steps = num_leapfrog_steps

    def bootstrap_results(self, init_state):
        tlp, grad = jax.vmap(jax.value_and_grad(self.target_log_prob_fn))(init_state)
        zeros = jnp.zeros_like(tlp)
        return HMCKernelResults(tlp, grad, zeros, zeros.astype(bool))

    def _leapfrog(self, q, p, grad):
        p = p + 0.5 * self.step_size * grad
        for _ in range(self.num_leapfrog_steps - 1):
            q = q + self.step_size * p
            p = p + self.step_size * jax.vmap(jax.grad(self.target_log_prob_fn))(q)
        q = q + self.step_size * p
        tlp, grad = jax.vmap(jax.value_and_grad(self.target_log_prob_fn))(q)
        return q, p + 0.5 * self.step_size * grad, tlp, grad

    def one_step(self, current_state, previous_kernel_results, seed):
        momentum_key, accept_key = split_seed(seed)
        p0 = jax.random.normal(momentum_key, current_state.shape, current_state.dtype)
        q1, p1, tlp1, grad1 = self._leapfrog(current_state, p0, previous_kernel_results.grads_target_log_prob)
        log_accept = (tlp1 - 0.5 * jnp.sum(p1**2, -1)) - (
            previous_kernel_results.target_log_prob - 0.5 * jnp.sum(p0**2, -1))
        accepted = jnp.log(jax.random.uniform(accept_key, log_accept.shape)) < log_accept
        state = jnp.where(accepted[:, None], q1, current_state)
        results = HMCKernelResults(
            jnp.where(accepted, tlp1, previous_kernel_results.target_log_prob),
            jnp.where(accepted[:, None], grad1, previous_kernel_results.grads_target_log_prob),
            log_accept, accepted)
        return state, results


def sample_chain(num_results, current_state, kernel, num_burnin_steps=0,
                 trace_fn=lambda state, kr: kr, seed=None):
    results = kernel.bootstrap_results(current_state)

    def step(carry, s):
        state, kr = carry
        state, kr = kernel.one_step(state, kr, jax.random.key_data(s))
        return (state, kr), (state, trace_fn(state, kr))

    seeds = jax.random.split(jax.random.wrap_key_data(seed), num_burnin_steps + num_results)
    (_, _), (states, traced) = jax.lax.scan(step, (current_state, results), seeds)
    return jax.tree.map(lambda x: x[num_burnin_steps:], (states, traced))


def logistic_regression_log_prob(features, labels):
    def target_log_prob_fn(w):
        logits = features @ w
        prior = -0.5 * jnp.sum(w**2)
        return prior + jnp.sum(labels * logits - jnp.logaddexp(0.0, logits))
    return target_log_prob_fn


def make_run(features, labels, num_results=500, num_burnin_steps=200):
    kernel = HamiltonianMonteCarlo(logistic_regression_log_prob(features, labels),
                                   step_size=0.05, num_leapfrog_steps=8)

    def run_chains(init_state, seed):
        states, is_accepted = sample_chain(
            num_results, init_state, kernel=kernel, num_burnin_steps=num_burnin_steps,
            trace_fn=lambda _, kr: kr.is_accepted, seed=seed)
        return states.mean(axis=0), is_accepted.mean()

    return run_chains


def shape_check(num_chains=64, num_features=24, num_points=1000):
    mesh = jax.make_mesh((1,), ("chain",), axis_types=(AxisType.Auto,))
    chain_sharding = NamedSharding(mesh.abstract_mesh, P("chain"))
    features = jnp.ones((num_points, num_features), jnp.float32)
    labels = jnp.zeros((num_points,), jnp.float32)
    init_spec = jax.ShapeDtypeStruct((num_chains, num_features), jnp.float32, sharding=chain_sharding)
    seed_spec = jax.ShapeDtypeStruct((2,), jnp.uint32)
    run_chains = jax.jit(make_run(features, labels))
    lowered = run_chains.lower(init_spec, seed_spec)
    return lowered.out_info


if __name__ == "__main__":
    print(shape_check())

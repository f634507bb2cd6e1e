"""Export the batched marginal likelihood of a linear-Gaussian SSM for a sharded fleet.

Follows a state-space-model library: parameters are nested NamedTuples
(``ParamsLGSSM(initial, dynamics, emissions)``), a model class exposes
``initialize`` and ``marginal_log_prob``, and inference lives in a Kalman filter
function. Sequences are independent, so the batched filter is wrapped in
``custom_partitioning``: each shard of the batch runs the filter locally.
"""

from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax.experimental.custom_partitioning import custom_partitioning
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P


class ParamsLGSSMInitial(NamedTuple):
    mean: jax.Array
    cov: jax.Array


class ParamsLGSSMDynamics(NamedTuple):
    weights: jax.Array
    cov: jax.Array


class ParamsLGSSMEmissions(NamedTuple):
    weights: jax.Array
    cov: jax.Array


class ParamsLGSSM(NamedTuple):
    initial: ParamsLGSSMInitial
    dynamics: ParamsLGSSMDynamics
    emissions: ParamsLGSSMEmissions


def _kalman_filter_ll(m0, P0, F, Q, H, R, emissions):
    def step(carry, y):
        ll, m, Pm = carry
        S = H @ Pm @ H.T + R
        resid = y - H @ m
        chol = jnp.linalg.cholesky(S)
        z = jax.scipy.linalg.solve_triangular(chol, resid, lower=True)
        ll = ll - 0.5 * (z @ z) - jnp.sum(jnp.log(jnp.diag(chol))) - 0.5 * y.shape[0] * jnp.log(2 * jnp.pi)
        K = jax.scipy.linalg.cho_solve((chol, True), H @ Pm).T
        m_f, P_f = m + K @ resid, Pm - K @ S @ K.T
        return (ll, F @ m_f, F @ P_f @ F.T + Q), None

    (ll, _, _), _ = jax.lax.scan(step, (jnp.float32(0.0), m0, P0), emissions)
    return ll


def _batched_filter_impl(m0, P0, F, Q, H, R, emissions):
    return jax.vmap(_kalman_filter_ll, in_axes=(None,) * 6 + (0,))(m0, P0, F, Q, H, R, emissions)


batched_filter = custom_partitioning(_batched_filter_impl)


def _partition(mesh, arg_shapes, result_shape):
    arg_shardings = tuple(a.sharding for a in arg_shapes)
    replicated = NamedSharding(mesh, P())
    arg_shardings = (replicated,) * 6 + (arg_shardings[6],)
    out = NamedSharding(mesh, P(arg_shardings[6].spec[0]))
    return mesh, _batched_filter_impl, out, arg_shardings


def _infer(mesh, arg_shapes, result_shape):
    return NamedSharding(mesh, P(arg_shapes[6].sharding.spec[0]))


batched_filter.def_partition(
    partition=_partition, infer_sharding_from_operands=_infer,
    sharding_rule="a, b c, d e, f g, h i, j k, n t y -> n")


class LinearGaussianSSM:
    def __init__(self, state_dim: int, emission_dim: int):
        self.state_dim, self.emission_dim = state_dim, emission_dim

    def initialize(self, key, dynamics_weights=None):
        d, e = self.state_dim, self.emission_dim
        F = 0.99 * jnp.eye(d) if dynamics_weights is None else dynamics_weights
        H = jax.random.normal(key, (e, d)) / jnp.sqrt(d)
        return ParamsLGSSM(ParamsLGSSMInitial(jnp.zeros(d), jnp.eye(d)),
                           ParamsLGSSMDynamics(F, 0.1 * jnp.eye(d)),
                           ParamsLGSSMEmissions(H, 0.5 * jnp.eye(e)))

    def batch_marginal_log_prob(self, params: ParamsLGSSM, emissions):
        return batched_filter(params.initial.mean, params.initial.cov, params.dynamics.weights,
                              params.dynamics.cov, params.emissions.weights, params.emissions.cov,
                              emissions)


def export_loglik(num_sequences=512, num_timesteps=100, state_dim=4, emission_dim=3,
                  mesh_shape=(8,), platforms=("cpu",)):
    model = LinearGaussianSSM(state_dim, emission_dim)
    params = model.initialize(jax.random.key(0))
    mesh = AbstractMesh(mesh_shape, ("seq",), axis_types=(AxisType.Auto,))
    seq_sharding = NamedSharding(mesh, P("seq"))
    params_spec = jax.tree.map(
        lambda x: jax.ShapeDtypeStruct(x.shape, x.dtype, sharding=NamedSharding(mesh, P())), params)
    emissions = jax.ShapeDtypeStruct((num_sequences, num_timesteps, emission_dim), jnp.float32,
                                     sharding=seq_sharding)
    total = jax.jit(lambda p, y: jnp.sum(model.batch_marginal_log_prob(p, y)),
                    out_shardings=NamedSharding(mesh, P()))
    return jax.export.export(total, platforms=platforms)(params_spec, emissions)


if __name__ == "__main__":
    exp = export_loglik()
    print(exp.platforms, exp.in_shardings_hlo)

"""Lower a probabilistic ODE solve (EK0 filter, once-integrated Wiener prior).

Shaped after probdiffeq: solvers written against a thin backend module
(`func`, `flow`, `np` namespaces) instead of JAX directly, a fixed-grid solve
that scans a Kalman-filter step, and ahead-of-time settings read once by the
backend module from the environment and parsed into a tuple.
"""

from __future__ import annotations

import _pd_backend as backend
from _pd_backend import flow, func, np

import jax


def logistic(y, t, rate=1.5):
    return rate * y * (1.0 - y)


def ibm_transition(dt, d, sigma=1.0):
    A1 = np.asarray([[1.0, dt], [0.0, 1.0]])
    Q1 = sigma ** 2 * np.asarray([[dt ** 3 / 3, dt ** 2 / 2], [dt ** 2 / 2, dt]])
    eye = np.eye(d)
    return jax.numpy.kron(A1, eye), jax.numpy.kron(Q1, eye)


def ek0_solve(vector_field, y0, t0, t1, num_steps: int):
    d = y0.shape[0]
    dt = (t1 - t0) / num_steps
    A, Q = ibm_transition(dt, d)
    H = jax.numpy.concatenate([np.zeros((d, d)), np.eye(d)], axis=1)

    def step(state, t):
        m, P = state
        m_pred, P_pred = A @ m, A @ P @ A.T + Q
        z = H @ m_pred - vector_field(m_pred[:d], t)
        S = H @ P_pred @ H.T
        K = jax.numpy.linalg.solve(S, H @ P_pred).T
        m_new = m_pred - K @ z
        P_new = P_pred - K @ S @ K.T
        return (m_new, P_new), (m_new[:d], jax.numpy.diag(P_new)[:d])

    m0 = jax.numpy.concatenate([y0, vector_field(y0, t0)])
    P0 = np.zeros((2 * d, 2 * d))
    ts = np.linspace(t0 + dt, t1, num_steps)
    _, (means, variances) = flow.scan(step, init=(m0, P0), xs=ts)
    return means, variances


def compile_solve(num_steps: int = 200, platforms=backend.parse_platforms(backend.AOT_PLATFORMS)):
    solve = func.jit(func.partial(ek0_solve, logistic, t0=0.0, t1=5.0, num_steps=num_steps))
    y0 = jax.ShapeDtypeStruct((1,), jax.numpy.float32)
    traced = solve.trace(y0)
    return traced.lower(lowering_platforms=platforms)


if __name__ == "__main__":
    lowered = compile_solve()
    print(lowered.as_text().count("\n"), "lines")

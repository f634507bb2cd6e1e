"""Export a lattice-Boltzmann stepper as one portable artifact for the fleet.

Shaped after XLB: `init()` sets the default compute backend on a global
config, operators register one implementation per backend with a decorator
and dispatch on the backend they were built with, and a stepper composes the
BGK collision with streaming.  The collision's Pallas implementation is a
Mosaic TPU kernel.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

from _xlb_core import D2Q9, ComputeBackend, Operator, init


def _equilibrium(rho, ux, uy, cx, cy, w):
    cu = 3.0 * (cx * ux + cy * uy)
    usq = 1.5 * (ux * ux + uy * uy)
    return w * rho * (1.0 + cu + 0.5 * cu * cu - usq)


def _bgk_body(f_ref, o_ref, *, omega, c, w):
    q = f_ref.shape[0]
    fs = [f_ref[i] for i in range(q)]
    rho = sum(fs)
    ux = sum(float(c[0, i]) * fs[i] for i in range(q)) / rho
    uy = sum(float(c[1, i]) * fs[i] for i in range(q)) / rho
    for i in range(q):
        feq = _equilibrium(rho, ux, uy, float(c[0, i]), float(c[1, i]), float(w[i]))
        o_ref[i] = fs[i] - omega * (fs[i] - feq)


class BGKCollision(Operator):
    def __init__(self, omega: float, **kwargs):
        super().__init__(**kwargs)
        self.omega = omega

    @Operator.register_backend(ComputeBackend.JAX)
    def jax_implementation(self, f):
        vs = self.velocity_set
        rho = f.sum(0)
        ux = jnp.tensordot(vs.c[0], f, axes=1) / rho
        uy = jnp.tensordot(vs.c[1], f, axes=1) / rho
        feq = _equilibrium(rho, ux, uy, vs.c[0][:, None, None], vs.c[1][:, None, None],
                           vs.w[:, None, None])
        return f - self.omega * (f - feq)

    @Operator.register_backend(ComputeBackend.PALLAS)
    def pallas_implementation(self, f):
        vs = self.velocity_set
        body = lambda f_ref, o_ref: _bgk_body(f_ref, o_ref, omega=self.omega, c=vs.c, w=vs.w)
        return pl.pallas_call(
            body,
            out_shape=jax.ShapeDtypeStruct(f.shape, f.dtype),
            compiler_params=pltpu.CompilerParams(vmem_limit_bytes=32 * 1024 * 1024),
        )(f)


class Stream(Operator):
    @Operator.register_backend(ComputeBackend.JAX)
    @Operator.register_backend(ComputeBackend.PALLAS)
    def jax_implementation(self, f):
        c = self.velocity_set.c
        return jnp.stack([jnp.roll(f[i], (int(c[0, i]), int(c[1, i])), axis=(0, 1))
                          for i in range(f.shape[0])])


class IncompressibleNavierStokesStepper(Operator):
    def __init__(self, omega: float, **kwargs):
        super().__init__(**kwargs)
        self.collision = BGKCollision(omega, **kwargs)
        self.stream = Stream(**kwargs)

    @Operator.register_backend(ComputeBackend.JAX)
    @Operator.register_backend(ComputeBackend.PALLAS)
    def step(self, f, num_steps: int = 10):
        return jax.lax.fori_loop(0, num_steps, lambda _, g: self.stream(self.collision(g)), f)


# settings of the TPU-tuned lid-driven-cavity example this script grew out of
init(velocity_set=D2Q9(), default_backend=ComputeBackend.PALLAS)

PORTABLE_PLATFORMS = ("tpu", "cuda")


if __name__ == "__main__":
    stepper = IncompressibleNavierStokesStepper(omega=1.6)
    f = jax.ShapeDtypeStruct((9, 64, 128), jnp.float32)
    exported = jax.export.export(jax.jit(stepper), platforms=PORTABLE_PLATFORMS)(f)
    print("exported for", exported.platforms)

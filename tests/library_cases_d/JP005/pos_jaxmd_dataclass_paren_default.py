"""AOT-lower a velocity-Verlet NVE step for a soft-sphere system.

Structured after jax-md: ``space.periodic`` gives ``(displacement, shift)``,
an energy function is built from a pair potential, and ``nve`` returns an
``(init_fn, apply_fn)`` pair. What to build for lives in a frozen dataclass.
"""
import dataclasses
from typing import NamedTuple

import jax
import jax.numpy as jnp


def periodic(box_size):
    def displacement(ra, rb):
        d = ra - rb
        return d - box_size * jnp.round(d / box_size)

    def shift(r, dr):
        return jnp.mod(r + dr, box_size)

    return displacement, shift


def soft_sphere_energy(displacement, sigma=1.0, epsilon=1.0, alpha=2.0):
    def energy(r):
        dr = jax.vmap(jax.vmap(displacement, (None, 0)), (0, None))(r, r)
        dist = jnp.sqrt(jnp.sum(dr ** 2, axis=-1) + jnp.eye(r.shape[0]))
        e = epsilon / alpha * jnp.maximum(1.0 - dist / sigma, 0.0) ** alpha
        return 0.5 * jnp.sum(e * (1.0 - jnp.eye(r.shape[0])))

    return energy


class NVEState(NamedTuple):
    position: jax.Array
    momentum: jax.Array
    force: jax.Array


def nve(energy_fn, shift_fn, dt=1e-3):
    force_fn = jax.grad(lambda r: -energy_fn(r))

    def apply_fn(state):
        momentum = state.momentum + 0.5 * dt * state.force
        position = shift_fn(state.position, dt * momentum)
        force = force_fn(position)
        return NVEState(position, momentum + 0.5 * dt * force, force)

    return apply_fn


@dataclasses.dataclass(frozen=True)
class BuildSpec:
    num_particles: int = 256
    dimension: int = 2
    box_size: float = 16.0
    platforms: tuple[str, ...] = ("tpu")


def lower_simulation_step(spec: BuildSpec = BuildSpec()):
    displacement, shift = periodic(spec.box_size)
    apply_fn = nve(soft_sphere_energy(displacement), shift)
    leaf = jax.ShapeDtypeStruct((spec.num_particles, spec.dimension), jnp.float32)
    traced = jax.jit(apply_fn).trace(NVEState(leaf, leaf, leaf))
    return traced.lower(lowering_platforms=spec.platforms)


if __name__ == "__main__":
    print(lower_simulation_step().as_text()[:120])

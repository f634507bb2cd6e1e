"""Lower first-order LPT displacements for a pencil-decomposed initial field.

Shaped after JaxPM: a particle-mesh simulation configured by a frozen,
hashable config (a static argument of the jitted step) that carries the
device mesh, and initial conditions described by `ShapeDtypeStruct`s that
carry their sharding.  To keep the config hashable across processes, its
factory stores the mesh's abstract form.
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

from _pm_kernels import fftk, gradient_kernel, growth_factor, invlaplace_kernel


@dataclasses.dataclass(frozen=True)
class PMConfig:
    mesh_shape: tuple[int, int, int]
    box_size: float
    mesh: object

    @classmethod
    def from_devices(cls, mesh_shape, box_size, pdims=(1, 1)):
        mesh = jax.make_mesh(pdims, ("x", "y"), axis_types=(AxisType.Auto,) * 2)
        # only the layout is needed to plan the step; keep the config free of devices
        return cls(tuple(mesh_shape), float(box_size), mesh.abstract_mesh)

    @property
    def sharding(self) -> NamedSharding:
        return NamedSharding(self.mesh, P("x", "y"))

    def initial_conditions_spec(self) -> jax.ShapeDtypeStruct:
        return jax.ShapeDtypeStruct(self.mesh_shape, jnp.float32, sharding=self.sharding)


def lpt_displacement(initial_conditions, a, *, config: PMConfig):
    kvec = fftk(config.mesh_shape)
    delta_k = jnp.fft.rfftn(initial_conditions)
    pot_k = delta_k * invlaplace_kernel(kvec)
    disp = jnp.stack([jnp.fft.irfftn(gradient_kernel(kvec, i) * pot_k, s=config.mesh_shape)
                      for i in range(3)], axis=-1)
    return growth_factor(a) * disp


if __name__ == "__main__":
    config = PMConfig.from_devices((32, 32, 32), box_size=256.0)
    step = jax.jit(lpt_displacement, static_argnames=("config",))
    lowered = step.trace(config.initial_conditions_spec(), 0.1, config=config).lower()
    print(lowered.as_text().count("fft"), "FFTs")

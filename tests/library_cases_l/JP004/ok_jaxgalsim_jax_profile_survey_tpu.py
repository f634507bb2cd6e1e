"""Lower the aperture-flux stage of a survey simulation for a TPU pod slice.

Shaped after JAX-GalSim: a Sersic profile whose enclosed flux is an `int1d`
over the radial profile, with a table of profile implementations (the JAX
one, and the NumPy reference one that `int1d` wraps as a host callback), and
a survey layout that splits the galaxy catalogue over the slice's chips.
"""

from __future__ import annotations

import dataclasses
import functools
import math

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

from _galsim_integ import int1d


def _b_n(n):
    return 2.0 * n - 1.0 / 3.0 + 4.0 / (405.0 * n)


def sersic_radial_jax(r, n=1.5, r_half=1.0):
    return 2.0 * jnp.pi * r * jnp.exp(-_b_n(n) * ((r / r_half) ** (1.0 / n) - 1.0))


def sersic_radial_reference(r, n=1.5, r_half=1.0):
    r = np.asarray(r, dtype=np.float64)
    return 2.0 * math.pi * r * np.exp(-_b_n(n) * ((r / r_half) ** (1.0 / n) - 1.0))


PROFILE_IMPLEMENTATIONS = {
    "jax": (sersic_radial_jax, False),
    "reference": (sersic_radial_reference, True),
}


@dataclasses.dataclass(frozen=True)
class SurveyConfig:
    num_galaxies: int = 4096
    chips: int = 16
    # the reference profiles are only used in the unit tests
    profile: str = "jax"


def aperture_flux(aperture_radius, flux_scale, *, profile: str):
    func, wrap = PROFILE_IMPLEMENTATIONS[profile]
    return flux_scale * int1d(func, 0.0, aperture_radius, _wrap_as_callback=wrap)


def lower_flux_stage(config: SurveyConfig):
    mesh = AbstractMesh((config.chips,), ("gal",), axis_types=(AxisType.Auto,))
    catalogue = NamedSharding(mesh, P("gal"))
    stage = jax.jit(jax.vmap(functools.partial(aperture_flux, profile=config.profile)),
                    in_shardings=(catalogue, catalogue), out_shardings=catalogue)
    radii = jax.ShapeDtypeStruct((config.num_galaxies,), jnp.float32)
    traced = stage.trace(radii, radii)
    return traced.lower(lowering_platforms=("tpu",))


if __name__ == "__main__":
    lowered = lower_flux_stage(SurveyConfig())
    print(lowered.as_text().count("\n"), "lines")

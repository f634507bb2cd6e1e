"""Export a Schroedinger-equation integrator as a serving artifact for the TPU pods.

The solver follows the usual layout of quantum-dynamics packages: an ``Options``
object whose ``progress_meter`` is resolved against the global setting by
``initialise()`` before tracing, and a fixed-step integrator written with
``lax.scan``.
"""

from __future__ import annotations

import dataclasses
import functools

import jax
import jax.numpy as jnp

import _qmeter


@dataclasses.dataclass(frozen=True)
class Options:
  save_states: bool = True
  progress_meter: _qmeter.AbstractProgressMeter | bool | None = None
  t0: float = 0.0

  def initialise(self) -> "Options":
    # resolved here, not in __init__: the default object is built at import time
    return dataclasses.replace(self, progress_meter=_qmeter.resolve_progress_meter(self.progress_meter))


def sesolve(H, psi0, tsave, *, options: Options = Options()):
  """Fixed-step integration of d psi/dt = -H psi (imaginary-time form, real arithmetic)."""
  options = options.initialise()
  meter = options.progress_meter
  dt = tsave[1] - tsave[0]

  def step(carry, t):
    psi, n = carry
    psi = psi - dt * (H @ psi)
    psi = psi / jnp.linalg.norm(psi)
    n = meter.update(t, n)
    return (psi, n), (psi if options.save_states else None)

  (psi, _), states = jax.lax.scan(step, (psi0, jnp.zeros((), jnp.int32)), tsave)
  return psi, states


def export_solver(options: Options, dim: int, nsave: int):
  solve = jax.jit(functools.partial(sesolve, options=options))
  H = jax.ShapeDtypeStruct((dim, dim), jnp.float32)
  psi0 = jax.ShapeDtypeStruct((dim,), jnp.float32)
  tsave = jax.ShapeDtypeStruct((nsave,), jnp.float32)
  return jax.export.export(solve, platforms=("tpu",))(H, psi0, tsave)


def main():
  options = Options(save_states=False, progress_meter=False)
  exported = export_solver(options, dim=8, nsave=50)
  print("exported for", exported.platforms, "in_avals", exported.in_avals)


if __name__ == "__main__":
  main()

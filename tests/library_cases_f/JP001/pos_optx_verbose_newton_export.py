"""Steady state of a small reaction network, solved with Newton and exported.

The solver stack mirrors an optimistix-style design: an abstract root finder
with ``init``/``step``/``terminate``, a Newton solver whose ``verbose`` option
is normalised once into a callable, and a ``root_find`` driver that runs the
solver's step inside ``lax.while_loop``.  The application exports the solve so
a serving fleet can evaluate steady states for new rate constants.
"""

from __future__ import annotations

import abc
import dataclasses
import os
from typing import Any, Callable, NamedTuple

import jax
import jax.numpy as jnp
from jax import lax

Array = jax.Array


# --------------------------------------------------------------------------
# solver library
# --------------------------------------------------------------------------


def _default_verbose(**kwargs: tuple[str, Any]) -> None:
  string_pieces = []
  arg_pieces = []
  for name, value in kwargs.values():
    string_pieces.append(name + ": {}")
    arg_pieces.append(value)
  if string_pieces:
    jax.debug.print(", ".join(string_pieces), *arg_pieces)


def _default_no_verbose(**kwargs: Any) -> None:
  del kwargs


def default_verbose(verbose: bool | Callable[..., None]) -> Callable[..., None]:
  if callable(verbose):
    return verbose
  if verbose is True:
    return _default_verbose
  if verbose is False:
    return _default_no_verbose
  raise ValueError(f"Unrecognized `verbose` of type {type(verbose)}.")


class AbstractRootFinder(abc.ABC):
  rtol: float
  atol: float

  @abc.abstractmethod
  def init(self, fn, y, args) -> Any:
    ...

  @abc.abstractmethod
  def step(self, fn, y, args, state) -> tuple[Array, Any]:
    ...

  @abc.abstractmethod
  def terminate(self, fn, y, args, state) -> Array:
    ...


class _NewtonState(NamedTuple):
  f: Array
  diff: Array
  num_steps: Array


class Newton(AbstractRootFinder):
  """Plain Newton iteration with a dense Jacobian."""

  def __init__(self, rtol: float, atol: float, *, verbose: bool | Callable[..., None] = False):
    self.rtol = rtol
    self.atol = atol
    self.verbose = default_verbose(verbose)

  def init(self, fn, y, args):
    return _NewtonState(f=fn(y, args), diff=jnp.full_like(y, jnp.inf), num_steps=jnp.array(0))

  def step(self, fn, y, args, state):
    jac = jax.jacfwd(fn)(y, args)
    diff = jnp.linalg.solve(jac, state.f)
    new_y = y - diff
    new_f = fn(new_y, args)
    self.verbose(
        num_steps=("Step", state.num_steps),
        residual=("Residual", jnp.max(jnp.abs(new_f))),
        y=("y", new_y),
    )
    return new_y, _NewtonState(f=new_f, diff=diff, num_steps=state.num_steps + 1)

  def terminate(self, fn, y, args, state):
    scale = self.atol + self.rtol * jnp.abs(y)
    return jnp.max(jnp.abs(state.diff) / scale) < 1.0


def root_find(fn, solver: AbstractRootFinder, y0: Array, args: Any = None, *, max_steps: int = 32) -> Array:
  def cond_fun(carry):
    y, state = carry
    return jnp.logical_and(~solver.terminate(fn, y, args, state), state.num_steps < max_steps)

  def body_fun(carry):
    y, state = carry
    return solver.step(fn, y, args, state)

  y, _ = lax.while_loop(cond_fun, body_fun, (y0, solver.init(fn, y0, args)))
  return y


# --------------------------------------------------------------------------
# application
# --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class SolverOptions:
  rtol: float = 1e-6
  atol: float = 1e-8
  max_steps: int = 32
  # Convergence traces are on while the network is being tuned.
  verbose: bool = dataclasses.field(
      default_factory=lambda: os.environ.get("KINETICS_VERBOSE", "1") != "0")


@dataclasses.dataclass(frozen=True)
class ExportOptions:
  platforms: tuple[str, ...] = dataclasses.field(
      default_factory=lambda: tuple(os.environ.get("KINETICS_SERVING_PLATFORMS", "tpu").split(",")))


def mass_action_residual(conc: Array, rates: Array) -> Array:
  """d[conc]/dt for A <-> B <-> C with an inflow of A and an outflow of C."""
  a, b, c = conc[0], conc[1], conc[2]
  k_in, k_ab, k_ba, k_bc, k_cb, k_out = (rates[i] for i in range(6))
  return jnp.stack([
      k_in - k_ab * a + k_ba * b,
      k_ab * a - k_ba * b - k_bc * b + k_cb * c,
      k_bc * b - k_cb * c - k_out * c,
  ])


def make_steady_state_fn(options: SolverOptions):
  solver = Newton(options.rtol, options.atol, verbose=options.verbose)

  def steady_state(rates: Array) -> Array:
    y0 = jnp.ones((3,), rates.dtype)
    return root_find(mass_action_residual, solver, y0, rates, max_steps=options.max_steps)

  return steady_state


def export_for_serving(solver_options: SolverOptions, export_options: ExportOptions):
  steady_state = jax.jit(make_steady_state_fn(solver_options))
  rates_spec = jax.ShapeDtypeStruct((6,), jnp.float32)
  platforms = export_options.platforms
  return jax.export.export(steady_state, platforms=platforms)(rates_spec)


def main():
  solver_options = SolverOptions()
  rates = jnp.array([1.0, 2.0, 0.5, 1.5, 0.25, 1.0], jnp.float32)
  print("local steady state:", jax.jit(make_steady_state_fn(solver_options))(rates))
  exported = export_for_serving(solver_options, ExportOptions())
  print("exported for", exported.platforms)


if __name__ == "__main__":
  main()

"""Ahead-of-time compiled ridge solver, built on a small iterative-solver toolkit.

Solvers are dataclasses sharing an `IterativeSolver` base (init_state / update /
run with a while loop); per-iteration logging goes through `jax.debug.print`
when `verbose` is set. A deployment spec compiles the solver for the inference
accelerator ahead of time, after a quick local fit.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any, Callable, NamedTuple, Optional, Union

import jax
import jax.numpy as jnp


class OptStep(NamedTuple):
  params: Any
  state: Any


class GradientDescentState(NamedTuple):
  iter_num: jnp.ndarray
  error: jnp.ndarray
  stepsize: jnp.ndarray


def tree_l2_norm(tree) -> jnp.ndarray:
  leaves = jax.tree_util.tree_leaves(tree)
  return jnp.sqrt(sum(jnp.vdot(x, x) for x in leaves))


class IterativeSolver:
  """Base class: subclasses define `init_state` and `update`."""

  maxiter: int
  tol: float
  verbose: Union[bool, int]

  def log_info(self, state, error_name="Gradient Norm"):
    name = type(self).__name__
    jax.debug.print("INFO: " + name + ": iter {} " + error_name + " (stopping criterion): {}",
                    state.iter_num, state.error, ordered=True)

  def _cond_fun(self, inputs):
    _, state = inputs[0]
    return (state.error > self.tol) & (state.iter_num < self.maxiter)

  def _body_fun(self, inputs):
    (params, state), (args, kwargs) = inputs
    return self.update(params, state, *args, **kwargs), (args, kwargs)

  def run(self, init_params, *args, **kwargs) -> OptStep:
    state = self.init_state(init_params, *args, **kwargs)
    init_val = (OptStep(init_params, state), (args, kwargs))
    opt_step, _ = jax.lax.while_loop(self._cond_fun, self._body_fun, init_val)
    return opt_step


@dataclasses.dataclass(eq=False)
class GradientDescent(IterativeSolver):
  fun: Callable[..., jnp.ndarray]
  stepsize: float = 0.1
  maxiter: int = 500
  tol: float = 1e-3
  verbose: Union[bool, int] = False

  def __post_init__(self):
    self._value_and_grad = jax.value_and_grad(self.fun)

  def init_state(self, init_params, *args, **kwargs) -> GradientDescentState:
    del init_params, args, kwargs
    return GradientDescentState(iter_num=jnp.asarray(0), error=jnp.asarray(jnp.inf),
                                stepsize=jnp.asarray(self.stepsize))

  def update(self, params, state, *args, **kwargs) -> OptStep:
    _, grad = self._value_and_grad(params, *args, **kwargs)
    params = jax.tree_util.tree_map(lambda p, g: p - state.stepsize * g, params, grad)
    state = GradientDescentState(iter_num=state.iter_num + 1, error=tree_l2_norm(grad),
                                 stepsize=state.stepsize)
    if self.verbose:
      self.log_info(state)
    return OptStep(params, state)


SOLVERS: dict[str, type[IterativeSolver]] = {"gradient_descent": GradientDescent}


def ridge_objective(w, X, y, l2reg):
  residuals = X @ w - y
  return 0.5 * jnp.mean(residuals ** 2) + 0.5 * l2reg * jnp.vdot(w, w)


def make_solver(name: str, fun, **overrides) -> IterativeSolver:
  options = dict(maxiter=200, tol=1e-4)
  options["verbose"] = bool(int(os.environ.get("SOLVER_VERBOSE", "1")))
  options.update(overrides)
  return SOLVERS[name](fun=fun, **options)


@dataclasses.dataclass(frozen=True)
class DeploymentSpec:
  """Where the compiled solver will run (the accelerator behind the model server)."""
  platform: str = "cuda"
  num_samples: int = 128
  num_features: int = 16


def compile_solver(solver: IterativeSolver, spec: DeploymentSpec, l2reg: float = 1e-2):
  # The model server has no console: deployed solvers never log per iteration.
  solver = dataclasses.replace(solver, verbose=False)
  w0 = jax.ShapeDtypeStruct((spec.num_features,), jnp.float32)
  X = jax.ShapeDtypeStruct((spec.num_samples, spec.num_features), jnp.float32)
  y = jax.ShapeDtypeStruct((spec.num_samples,), jnp.float32)
  traced = jax.jit(solver.run).trace(w0, X, y, l2reg)
  return traced.lower(lowering_platforms=(spec.platform,))


if __name__ == "__main__":
  solver = make_solver("gradient_descent", ridge_objective, stepsize=0.5)
  X = jax.random.normal(jax.random.key(0), (32, 16))
  y = X @ jnp.ones((16,))
  smoke = dataclasses.replace(solver, maxiter=5)
  local = jax.jit(smoke.run)(jnp.zeros((16,)), X, y, 1e-2)  # logs on the host
  print("local fit error", local.state.error)
  lowered = compile_solver(solver, DeploymentSpec())
  print(lowered.as_text()[:200])

"""Export an entropic OT solver as a serving artifact for the matching service.

The solver is laid out like a small optimal-transport toolbox: a point-cloud
geometry, a linear problem, a Sinkhorn solver driven by a fixed-point loop, and
an optional ``progress_fn`` that reports the error from inside the loop.
"""

import dataclasses
import io
import sys
from typing import Any, Callable, NamedTuple, Optional

import jax
import jax.numpy as jnp

ProgressFunction = Callable[[Any], None]


def default_progress_fn(fmt: str = "{iter} / {max_iter} -- {error}",
                        stream: Optional[io.TextIOBase] = None) -> ProgressFunction:
  """Returns a host callback printing the error every ``inner_iterations``."""

  def progress_callback(status) -> None:
    iteration, inner_iterations, total_iter, errors = status
    iteration = int(iteration)
    if iteration % int(inner_iterations) == 0:
      idx = max(0, iteration // int(inner_iterations) - 1)
      print(fmt.format(iter=iteration, max_iter=int(total_iter),
                       error=float(errors[idx])), file=stream or sys.stderr)

  return progress_callback


@jax.tree_util.register_pytree_node_class
@dataclasses.dataclass(frozen=True)
class PointCloud:
  x: jax.Array
  y: jax.Array
  epsilon: float = 1e-2

  def tree_flatten(self):
    return (self.x, self.y), {"epsilon": self.epsilon}

  @classmethod
  def tree_unflatten(cls, aux_data, children):
    return cls(*children, **aux_data)

  @property
  def cost_matrix(self) -> jax.Array:
    diff = self.x[:, None, :] - self.y[None, :, :]
    return jnp.sum(diff * diff, axis=-1)


class LinearProblem(NamedTuple):
  geom: PointCloud
  a: jax.Array
  b: jax.Array


class SinkhornState(NamedTuple):
  f: jax.Array
  g: jax.Array
  errors: jax.Array


def fixpoint_iter(cond_fn, body_fn, max_iterations, inner_iterations, constants, state):
  """Runs ``body_fn`` in blocks of ``inner_iterations`` until ``cond_fn`` fails."""

  def outer_cond(carry):
    iteration, _, st = carry
    return jnp.logical_and(iteration < max_iterations, cond_fn(iteration, constants, st))

  def outer_body(carry):
    iteration, const, st = carry
    for j in range(inner_iterations):
      st = body_fn(iteration + j, const, st, j == inner_iterations - 1)
    return iteration + inner_iterations, const, st

  _, _, state = jax.lax.while_loop(outer_cond, outer_body, (0, constants, state))
  return state


class Sinkhorn:

  def __init__(self, threshold: float = 1e-3, inner_iterations: int = 10,
               max_iterations: int = 200,
               progress_fn: Optional[ProgressFunction] = None):
    self.threshold = threshold
    self.inner_iterations = inner_iterations
    self.max_iterations = max_iterations
    self.progress_fn = progress_fn

  def one_iteration(self, prob: LinearProblem, state: SinkhornState, iteration, compute_error):
    eps = prob.geom.epsilon
    cost = prob.geom.cost_matrix
    f = eps * jnp.log(prob.a) - eps * jax.nn.logsumexp((state.g[None, :] - cost) / eps, axis=1)
    g = eps * jnp.log(prob.b) - eps * jax.nn.logsumexp((f[:, None] - cost) / eps, axis=0)
    if compute_error:
      plan = jnp.exp((f[:, None] + g[None, :] - cost) / eps)
      err = jnp.sum(jnp.abs(plan.sum(0) - prob.b))
      errors = state.errors.at[iteration // self.inner_iterations].set(err)
    else:
      errors = state.errors
    state = SinkhornState(f, g, errors)
    if self.progress_fn is not None:
      jax.debug.callback(self.progress_fn,
                         (iteration, self.inner_iterations, self.max_iterations, state.errors))
    return state

  def __call__(self, prob: LinearProblem) -> SinkhornState:
    n, m = prob.a.shape[0], prob.b.shape[0]
    init = SinkhornState(jnp.zeros(n), jnp.zeros(m),
                         jnp.full(self.max_iterations // self.inner_iterations + 1, jnp.inf))

    def cond_fn(iteration, _, st):
      err = st.errors[jnp.maximum(iteration // self.inner_iterations - 1, 0)]
      return jnp.logical_or(iteration == 0, err > self.threshold)

    def body_fn(iteration, p, st, compute_error):
      return self.one_iteration(p, st, iteration, compute_error)

    return fixpoint_iter(cond_fn, body_fn, self.max_iterations, self.inner_iterations, prob, init)


@dataclasses.dataclass
class ServingConfig:
  num_points: int = 128
  dim: int = 16
  epsilon: float = 5e-2
  report_progress: bool = True
  target: str = "tpu"


def make_solver(cfg: ServingConfig) -> Sinkhorn:
  # Progress lines come from the host loop; an artifact served on an
  # accelerator has no host to print them, so only local targets get them.
  local = cfg.target == jax.default_backend()
  progress = default_progress_fn() if (cfg.report_progress and local) else None
  return Sinkhorn(threshold=1e-4, inner_iterations=5, max_iterations=100, progress_fn=progress)


def export_matching(cfg: ServingConfig):
  solver = make_solver(cfg)

  def transport_cost(x, y):
    n, m = x.shape[0], y.shape[0]
    prob = LinearProblem(PointCloud(x, y, cfg.epsilon), jnp.full(n, 1.0 / n), jnp.full(m, 1.0 / m))
    out = solver(prob)
    return jnp.sum(out.f) / n + jnp.sum(out.g) / m

  spec = jax.ShapeDtypeStruct((cfg.num_points, cfg.dim), jnp.float32)
  return jax.export.export(jax.jit(transport_cost), platforms=(cfg.target,))(spec, spec)


if __name__ == "__main__":
  exported = export_matching(ServingConfig())
  print(exported.platforms, exported.in_avals)

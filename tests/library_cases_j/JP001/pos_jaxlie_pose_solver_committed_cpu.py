"""Gauss-Newton refinement of SO(2) poses (jaxlie-style Lie group classes registered with a
decorator that jit-wraps their methods); the solver config is a jax_dataclasses-style pytree with
static options. The inputs live on the host CPU; the refined program is built for the GPU nodes."""
from typing import Tuple

import jax
import jax.numpy as jnp

import _jdc as jdc


def register_lie_group(*, matrix_dim, parameters_dim, tangent_dim, space_dim):
  def _wrap(cls):
    cls.matrix_dim, cls.parameters_dim = matrix_dim, parameters_dim
    cls.tangent_dim, cls.space_dim = tangent_dim, space_dim
    return cls
  return _wrap


@register_lie_group(matrix_dim=2, parameters_dim=2, tangent_dim=1, space_dim=2)
@jdc.pytree_dataclass
class SO2:
  unit_complex: jax.Array

  @classmethod
  def exp(cls, theta):
    return cls(jnp.stack([jnp.cos(theta[..., 0]), jnp.sin(theta[..., 0])], axis=-1))

  def log(self):
    return jnp.arctan2(self.unit_complex[..., 1], self.unit_complex[..., 0])[..., None]

  def multiply(self, other):
    c1, s1 = self.unit_complex[..., 0], self.unit_complex[..., 1]
    c2, s2 = other.unit_complex[..., 0], other.unit_complex[..., 1]
    return SO2(jnp.stack([c1 * c2 - s1 * s2, s1 * c2 + c1 * s2], axis=-1))

  def inverse(self):
    return SO2(self.unit_complex * jnp.array([1.0, -1.0]))


@jdc.pytree_dataclass
class SolverConfig:
  damping: jax.Array
  max_iters: jdc.Static[int] = 10
  verbose: jdc.Static[bool] = False


def refine(poses: SO2, measured: SO2, cfg: SolverConfig) -> Tuple[SO2, jax.Array]:
  def body(i, poses):
    residual = poses.inverse().multiply(measured).log()
    if cfg.verbose:
      jax.debug.print("iter {i}: cost {c}", i=i, c=jnp.sum(residual**2))
    return poses.multiply(SO2.exp(residual / (1.0 + cfg.damping)))
  poses = jax.lax.fori_loop(0, cfg.max_iters, body, poses)
  return poses, jnp.sum(poses.inverse().multiply(measured).log() ** 2)


if __name__ == "__main__":
  host = jax.devices("cpu")[0]
  theta = jnp.linspace(0.0, 1.0, 32)[:, None]
  poses = jax.device_put(SO2.exp(theta), host)
  measured = jax.device_put(SO2.exp(theta + 0.05), host)
  cfg = SolverConfig(damping=jnp.float32(0.1))
  with jdc.copy_and_mutate(cfg) as cfg:
    jdc.mutate(cfg, verbose=True, max_iters=20)
  traced = jax.jit(refine).trace(poses, measured, cfg)
  lowered = traced.lower(lowering_platforms=("cuda",))
  print(lowered.as_text()[:80])

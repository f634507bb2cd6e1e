"""Prepares a parameter sweep of a two-variable neural-mass network on the
workstation it runs on: the sweep is vmapped over coupling strengths and
lowered ahead of time for the workstation's platform."""

import dataclasses

import jax
import jax.numpy as jnp

import _vb_core as vb

CLUSTERS = {"jureca-booster": "cuda", "workstation": "cpu"}


@dataclasses.dataclass(frozen=True)
class SweepConfig:
  cluster: str = "workstation"
  n_nodes: int = 16
  n_steps: int = 400
  dt: float = 0.05
  sigma: float = 1e-3
  tavg_window: int = 20

  @property
  def platform(self) -> str:
    return CLUSTERS[self.cluster]


def network_dfun(x, p):
  k, weights = p
  r, v = x
  coupling = k * (weights @ r)
  return jnp.stack([r * (1.0 - r) - v + coupling, 0.1 * (r - v)])


def build_sweep(cfg: SweepConfig):
  _, loop = vb.make_sde(cfg.dt, network_dfun, cfg.sigma)
  monitor = vb.make_tavg_monitor(cfg.tavg_window)

  def run_one(k, x0, zs, weights):
    return monitor(loop(x0, zs, (k, weights)))

  return jax.jit(jax.vmap(run_one, in_axes=(0, None, None, None)))


def main(cfg=SweepConfig()):
  sweep = build_sweep(cfg)
  ks = jax.ShapeDtypeStruct((32,), jnp.float32)
  x0 = jax.ShapeDtypeStruct((2, cfg.n_nodes), jnp.float32)
  zs = jax.ShapeDtypeStruct((cfg.n_steps, 2, cfg.n_nodes), jnp.float32)
  w = jax.ShapeDtypeStruct((cfg.n_nodes, cfg.n_nodes), jnp.float32)
  lowered = sweep.trace(ks, x0, zs, w).lower(lowering_platforms=(cfg.platform,))
  return lowered


if __name__ == "__main__":
  print(main().as_text()[:160])

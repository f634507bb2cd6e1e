"""Exports the density-summation step of a particle relaxation run, sharded over
particles, for the cluster. The run's settings are the script defaults merged
with the relaxation overrides."""

import copy

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

from _sph_nl import neighbor_list

DEFAULTS = {
    "case": {"dim": 2, "dx": 0.0625, "mode": "sim"},
    "nl": {"backend": "jaxmd_vmap", "capacity": 32},
    "hardware": {"num_devices": 4},
}

# relaxation runs have walls: the neighbour search must honour per-axis periodicity
RELAXATION = {
    "case": {"mode": "rlx"},
    "nl": {"backend": "matscipy"},
}


def merge(base, override):
  out = copy.deepcopy(base)
  for key, value in override.items():
    if isinstance(value, dict):
      out[key] = merge(out.get(key, {}), value)
    else:
      out[key] = value
  return out


def wendland_c2(r, h):
  q = r / h
  return jnp.where(q < 2.0, (7.0 / (4.0 * jnp.pi * h * h)) * (1 - q / 2) ** 4 * (2 * q + 1), 0.0)


def make_density_step(cfg):
  box = jnp.array([1.0, 1.0], jnp.float32)
  h = 1.3 * cfg["case"]["dx"]
  fns = neighbor_list(box, 2.0 * h, backend=cfg["nl"]["backend"], capacity=cfg["nl"]["capacity"],
                      pbc=(False, True))

  def step(r, idx):
    nbrs = fns.update(r, fns.allocate(r)._replace(idx=idx))
    n = r.shape[0]
    valid = nbrs.idx < n
    rj = jnp.where(valid[..., None], r[jnp.minimum(nbrs.idx, n - 1)], r[:, None, :] + 10.0)
    dist = jnp.linalg.norm(r[:, None, :] - rj, axis=-1)
    rho = jnp.sum(jnp.where(valid, wendland_c2(dist, h), 0.0), axis=1)
    return rho, nbrs.idx

  return step


def export_step(cfg):
  n = int(round(1.0 / cfg["case"]["dx"])) ** 2
  mesh = AbstractMesh((cfg["hardware"]["num_devices"],), ("particles",), axis_types=(AxisType.Auto,))
  rows = NamedSharding(mesh, P("particles"))
  r = jax.ShapeDtypeStruct((n, 2), jnp.float32, sharding=rows)
  idx = jax.ShapeDtypeStruct((n, cfg["nl"]["capacity"]), jnp.int32, sharding=rows)
  step = jax.jit(make_density_step(cfg), out_shardings=(rows, rows))
  return jax.export.export(step, platforms=("cpu",))(r, idx)


if __name__ == "__main__":
  cfg = merge(DEFAULTS, RELAXATION)
  print(export_step(cfg).nr_devices)

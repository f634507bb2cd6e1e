"""Neighbour-list backends (the shape of jax_sph/partition.py): a table of
constructors keyed by backend name, each returning allocate/update functions.
`matscipy` runs the search on the host through `jax.pure_callback`."""

from __future__ import annotations

from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class NeighborList(NamedTuple):
  idx: jax.Array
  reference_position: jax.Array
  did_buffer_overflow: jax.Array


class NeighborListFns(NamedTuple):
  allocate: Callable[..., NeighborList]
  update: Callable[..., NeighborList]


def _dense_candidates(position, box_size, r_cutoff):
  n = position.shape[0]
  d = position[:, None, :] - position[None, :, :]
  d = d - box_size * jnp.round(d / box_size)
  r2 = jnp.sum(d * d, axis=-1)
  return (r2 < r_cutoff * r_cutoff) & ~jnp.eye(n, dtype=bool)


def _vmap_neighbor_list(box_size, r_cutoff, capacity, **static_kwargs):
  del static_kwargs

  def update_fn(position, neighbors):
    mask = _dense_candidates(position, box_size, r_cutoff)
    n = position.shape[0]
    order = jnp.argsort(~mask, axis=1, stable=True)[:, :capacity]
    count = jnp.sum(mask, axis=1)
    idx = jnp.where(jnp.arange(capacity)[None, :] < count[:, None], order, n)
    return NeighborList(idx, position, jnp.any(count > capacity))

  def allocate_fn(position):
    n = position.shape[0]
    empty = NeighborList(jnp.full((n, capacity), n, jnp.int32), position, jnp.array(False))
    return update_fn(position, empty)

  return NeighborListFns(allocate_fn, update_fn)


def _matscipy_neighbor_list(box_size, r_cutoff, capacity, **static_kwargs):
  pbc = np.asarray(static_kwargs.get("pbc", (True, True)), dtype=bool)
  box = np.asarray(box_size, dtype=np.float32)

  def host_search(position):
    position = np.asarray(position)
    n = position.shape[0]
    d = position[:, None, :] - position[None, :, :]
    d = np.where(pbc, d - box * np.round(d / box), d)
    close = (np.sum(d * d, axis=-1) < r_cutoff * r_cutoff) & ~np.eye(n, dtype=bool)
    idx = np.full((n, capacity), n, dtype=np.int32)
    overflow = False
    for i in range(n):
      js = np.nonzero(close[i])[0]
      overflow |= js.size > capacity
      idx[i, : min(js.size, capacity)] = js[:capacity]
    return idx, np.array(overflow)

  def update_fn(position, neighbors):
    shape_out = (jax.ShapeDtypeStruct(neighbors.idx.shape, jnp.int32),
                 jax.ShapeDtypeStruct((), jnp.bool_))
    idx, overflow = jax.pure_callback(host_search, shape_out, position)
    return NeighborList(idx, position, overflow)

  def allocate_fn(position):
    n = position.shape[0]
    empty = NeighborList(jnp.full((n, capacity), n, jnp.int32), position, jnp.array(False))
    return update_fn(position, empty)

  return NeighborListFns(allocate_fn, update_fn)


BACKENDS = {
    "jaxmd_vmap": _vmap_neighbor_list,
    "matscipy": _matscipy_neighbor_list,
}


def neighbor_list(box_size, r_cutoff, backend="jaxmd_vmap", capacity=16, **static_kwargs):
  assert backend in BACKENDS, f"Unknown backend {backend}"
  return BACKENDS[backend](box_size, r_cutoff, capacity, **static_kwargs)

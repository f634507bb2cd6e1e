"""Named slice topologies for AOT compilation without the hardware attached."""
from typing import NamedTuple

from jax.sharding import AbstractMesh


class Topology(NamedTuple):
    name: str
    platform: str
    mesh_shape: tuple[int, ...]
    axis_names: tuple[str, ...]


TOPOLOGIES = {
    "v5e-8": Topology("v5e-8", "tpu", (8,), ("data",)),
    "v5e-16": Topology("v5e-16", "tpu", (16,), ("data",)),
    "h100-8": Topology("h100-8", "cuda", (8,), ("data",)),
}


def get_topology(name: str) -> Topology:
    try:
        return TOPOLOGIES[name]
    except KeyError:
        raise ValueError(f"unknown topology {name!r}; known: {sorted(TOPOLOGIES)}") from None


def abstract_mesh(topology: Topology) -> AbstractMesh:
    return AbstractMesh(topology.mesh_shape, topology.axis_names)

import math

import jax
from jax.sharding import AbstractMesh

TOPOLOGIES = {
    "v5e-8": {"shape": (4, 2), "axes": ("data", "model")},
    "local": {"shape": (1, 1), "axes": ("data", "model")},
}

DEFAULT_LOWER_KWARGS = {"lowering_platforms": ("tpu",)}


def mesh_for(name):
    topo = TOPOLOGIES[name]
    if math.prod(topo["shape"]) <= len(jax.devices()):
        return jax.make_mesh(topo["shape"], topo["axes"])
    return AbstractMesh(topo["shape"], topo["axes"])


def checkpoint_mesh_view(name):
    topo = TOPOLOGIES[name]
    return jax.make_mesh(topo["shape"], topo["axes"]).abstract_mesh

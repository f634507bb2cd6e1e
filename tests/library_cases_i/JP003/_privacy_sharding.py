"""Zero-redundancy abstract arrays, after jax_privacy's sharding_utils.py."""

import math

import jax
from jax.sharding import NamedSharding, PartitionSpec


def _ceiling_to_multiple(size, multiple):
    remainder = size % multiple
    return size + multiple - remainder if remainder else size


def flatten_with_zero_redundancy(abstract_array):
    mesh = abstract_array.sharding.mesh
    return jax.ShapeDtypeStruct(
        shape=(_ceiling_to_multiple(math.prod(abstract_array.shape), mesh.size),),
        dtype=abstract_array.dtype,
        sharding=NamedSharding(mesh, PartitionSpec(tuple(mesh.axis_names))),
    )


def abstract_params(shapes, mesh, spec_fn):
    return {
        name: jax.ShapeDtypeStruct(shape, "float32", sharding=NamedSharding(mesh, spec_fn(name, shape)))
        for name, shape in shapes.items()
    }

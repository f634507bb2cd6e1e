import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

from _mesh_utils import checkpoint_mesh_view

PARAM_SHAPES = {
    "embed": ((1024, 128), P(None, "model")),
    "mlp_in": ((128, 512), P(None, "model")),
    "mlp_out": ((512, 128), P("model", None)),
}


def restore_targets(mesh):
    return {
        name: jax.ShapeDtypeStruct(shape, jnp.float32, sharding=NamedSharding(mesh, spec))
        for name, (shape, spec) in PARAM_SHAPES.items()
    }


def param_bytes(params):
    return sum(v.size * v.dtype.itemsize for v in jax.tree.leaves(params))


def estimate_restore_cost(targets):
    lowered = jax.jit(lambda p: jax.tree.map(lambda v: v * 1.0, p)).trace(targets).lower()
    return lowered.cost_analysis()


if __name__ == "__main__":
    targets = restore_targets(checkpoint_mesh_view("local"))
    print(param_bytes(targets), estimate_restore_cost(targets))

"""Check that a layer-stacked residual MLP compiles for a target slice.

Parameters are stacked along a leading layer axis and applied with
``lax.scan`` (haiku ``layer_stack`` style). The batch is sharded over the
slice's data axis; the slice itself is only described, via a topology
registry, so the mesh is abstract.
"""
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P

from _topologies import abstract_mesh, get_topology

NUM_LAYERS = 6
WIDTH = 128


def residual_block(x, layer_params):
    h = jax.nn.relu(x @ layer_params["w_in"])
    return x + h @ layer_params["w_out"], None


def layer_stack_apply(params, x):
    x, _ = lax.scan(residual_block, x, params)
    return x


def loss_fn(params, batch):
    out = layer_stack_apply(params, batch["x"])
    return jnp.mean((out - batch["y"]) ** 2)


def stacked_param_specs():
    shape = (NUM_LAYERS, WIDTH, WIDTH)
    return {"w_in": jax.ShapeDtypeStruct(shape, jnp.float32),
            "w_out": jax.ShapeDtypeStruct(shape, jnp.float32)}


def lower_for_topology(name, global_batch=256):
    topology = get_topology(name)
    mesh = abstract_mesh(topology)
    replicated = NamedSharding(mesh, P())
    data = NamedSharding(mesh, P("data"))
    params = stacked_param_specs()
    batch = {"x": jax.ShapeDtypeStruct((global_batch, WIDTH), jnp.float32),
             "y": jax.ShapeDtypeStruct((global_batch, WIDTH), jnp.float32)}
    jitted = jax.jit(
        jax.value_and_grad(loss_fn),
        in_shardings=(jax.tree.map(lambda _: replicated, params),
                      jax.tree.map(lambda _: data, batch)),
    )
    lowered = jitted.trace(params, batch).lower(lowering_platforms=(topology.platform,))
    return lowered


if __name__ == "__main__":
    lowered = lower_for_topology("v5e-8")
    print(lowered.as_text()[:160])

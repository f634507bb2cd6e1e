"""Ahead-of-time compilation of a train step for a pod slice we do not hold.

Shaped like a large-scale trainer's partitioning layer: a ``PjitPartitioner``
built from ``ici_mesh_shape``/``dcn_mesh_shape``/``mesh_axis_names``, partition
specs derived from the train state, a ``bind_mesh`` wrapper that enters the mesh
around both calls and lowering, and ``compile_for_auto_sharding`` that lowers a
step for the memory report.
"""

import dataclasses
from typing import Any, Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P


@dataclasses.dataclass(frozen=True)
class Topology:
    name: str
    ici_mesh_shape: tuple
    dcn_mesh_shape: tuple
    platform: str = "tpu"


TOPOLOGIES = {
    "v5e-16": Topology("v5e-16", (1, 4, 4), (1, 1, 1)),
    "local": Topology("local", (1, 1, 1), (1, 1, 1)),
}


def bind_mesh(pjitted_fn, global_mesh):
    """Wraps a pjitted function so that calls and lowerings see the mesh."""

    def _ctx():
        if isinstance(global_mesh, AbstractMesh):
            return jax.sharding.use_abstract_mesh(global_mesh)
        return jax.set_mesh(global_mesh)

    def call(*args):
        with _ctx():
            return pjitted_fn(*args)

    def lower(*args, **kwargs):
        with _ctx():
            return pjitted_fn.trace(*args).lower(**kwargs)

    call.lower = lower
    return call


class PjitPartitioner:
    def __init__(self, topology: Topology, mesh_axis_names: Sequence[str]):
        self._topology = topology
        self._mesh_axis_names = tuple(mesh_axis_names)
        self._global_mesh = None

    @property
    def global_mesh(self):
        if self._global_mesh is None:
            shape = tuple(np.multiply(self._topology.ici_mesh_shape, self._topology.dcn_mesh_shape))
            auto = (AxisType.Auto,) * len(shape)
            if int(np.prod(shape)) <= jax.device_count():
                devices = np.asarray(jax.devices()[: int(np.prod(shape))]).reshape(shape)
                self._global_mesh = jax.sharding.Mesh(devices, self._mesh_axis_names, axis_types=auto)
            else:
                # Not enough local devices: plan against the abstract topology.
                self._global_mesh = AbstractMesh(shape, self._mesh_axis_names, axis_types=auto)
        return self._global_mesh

    def train_state_partition_specs(self, state_shapes: Any):
        def spec(x):
            if x.ndim == 2:
                return P("data", "mdl")
            return P()
        return jax.tree.map(spec, state_shapes)

    def partition(self, step_fn, state_shapes, input_shapes):
        mesh = self.global_mesh
        state_specs = self.train_state_partition_specs(state_shapes)
        to_sharding = lambda p: NamedSharding(mesh, p)
        in_shardings = (jax.tree.map(to_sharding, state_specs),
                        jax.tree.map(lambda _: to_sharding(P(("replica", "data"))), input_shapes))
        out_shardings = (in_shardings[0], to_sharding(P()))
        pjitted = jax.jit(step_fn, in_shardings=in_shardings, out_shardings=out_shardings,
                          donate_argnums=(0,))
        return bind_mesh(pjitted, mesh)


def compile_for_auto_sharding(step_fn, train_state, inputs_shape_dtype, platform):
    def _create_aval(x):
        return jax.ShapeDtypeStruct(x.shape, jax.dtypes.canonicalize_dtype(x.dtype))

    inputs_shape_dtype = jax.tree.map(_create_aval, inputs_shape_dtype)
    lowered = step_fn.lower(train_state, inputs_shape_dtype, lowering_platforms=(platform,))
    return lowered


def train_step(state, batch):
    def loss_fn(params):
        h = jnp.tanh(batch["x"] @ params["w_in"])
        pred = h @ params["w_out"]
        return jnp.mean((pred[:, 0] - batch["y"]) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state["params"])
    params = jax.tree.map(lambda p, g: p - state["lr"] * g, state["params"], grads)
    return {"params": params, "lr": state["lr"]}, loss


def main(topology_name: str = "v5e-16", global_batch: int = 256, model_dims: int = 512):
    partitioner = PjitPartitioner(TOPOLOGIES[topology_name], ("replica", "data", "mdl"))
    f32 = jnp.float32
    state = {"params": {"w_in": jax.ShapeDtypeStruct((model_dims, 4 * model_dims), f32),
                        "w_out": jax.ShapeDtypeStruct((4 * model_dims, 8), f32)},
             "lr": jax.ShapeDtypeStruct((), f32)}
    batch = {"x": jax.ShapeDtypeStruct((global_batch, model_dims), f32),
             "y": jax.ShapeDtypeStruct((global_batch,), f32)}
    step = partitioner.partition(train_step, state, batch)
    lowered = compile_for_auto_sharding(step, state, batch, TOPOLOGIES[topology_name].platform)
    print(f"{topology_name}: lowered {len(lowered.as_text())} bytes of StableHLO")


if __name__ == "__main__":
    main()

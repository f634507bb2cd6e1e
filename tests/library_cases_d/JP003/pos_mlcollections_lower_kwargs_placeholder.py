"""Compile-only check of a sharded feed-forward block from an experiment config.

The launcher builds keyword arguments for ``Traced.lower`` from
``config.aot`` and forwards them with ``**``; the mesh is described by the
config only, so it is an ``AbstractMesh``.
"""
import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

from _aot_config import get_config


def feed_forward(params, x):
    h = jax.nn.gelu(jnp.einsum("bsd,df->bsf", x, params["wi"]))
    return jnp.einsum("bsf,fd->bsd", h, params["wo"])


def build_mesh(config):
    axis_type = {"auto": AxisType.Auto, "explicit": AxisType.Explicit}[config.mesh.axis_type]
    names = tuple(config.mesh.axis_names)
    return AbstractMesh(tuple(config.mesh.shape), names, axis_types=(axis_type,) * len(names))


def lower_kwargs_from(config):
    kwargs = {}
    if config.aot.get("lowering_platforms"):
        kwargs["lowering_platforms"] = tuple(config.aot.lowering_platforms)
    return kwargs


def compile_check(config):
    mesh = build_mesh(config)
    m = config.model
    params = {
        "wi": jax.ShapeDtypeStruct((m.d_model, m.d_ff), jnp.float32,
                                   sharding=NamedSharding(mesh, P(None, "model"))),
        "wo": jax.ShapeDtypeStruct((m.d_ff, m.d_model), jnp.float32,
                                   sharding=NamedSharding(mesh, P("model", None))),
    }
    x = jax.ShapeDtypeStruct((config.batch_size, m.seq_len, m.d_model), jnp.float32,
                             sharding=NamedSharding(mesh, P("data")))
    traced = jax.jit(feed_forward).trace(params, x)
    lowered = traced.lower(**lower_kwargs_from(config))
    if config.aot.dump_hlo:
        print(lowered.as_text())
    return lowered


if __name__ == "__main__":
    compile_check(get_config())
    print("lowered")

"""A symbolic-regression result turned into a JAX module (sympy2jax layout) and compiled
over a sharded batch of wavenumbers for the TPU pod."""

import dataclasses

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

from _sympy2jax_lookup import lookup


@dataclasses.dataclass(frozen=True)
class Node:
    op: str
    args: tuple = ()

    def __call__(self, env):
        if self.op == "symbol":
            return env[self.args[0]]
        if self.op == "const":
            return jnp.asarray(self.args[0], jnp.float32)
        return lookup(self.op)(*(a(env) for a in self.args))


def sym(name):
    return Node("symbol", (name,))


def const(v):
    return Node("const", (v,))


class SymbolicModule:
    def __init__(self, expressions):
        self.nodes = list(expressions)

    def __call__(self, **symbols):
        return jnp.stack([node(symbols) for node in self.nodes], axis=-1)


DISCOVERED = {
    "acoustic": Node("Mul", (const(1.5), Node("sin", (Node("Mul", (const(0.5), sym("k"))),)))),
    "plasma": Node("Add", (Node("besselj0", (sym("k"),)), Node("Mul", (const(0.1), Node("Pow", (sym("k"), const(2.0))))))),
    "damping": Node("exp", (Node("Mul", (const(-0.2), sym("k"))),)),
}


@dataclasses.dataclass
class PodConfig:
    platform: str = "tpu"
    mesh_shape: tuple = (16,)
    points: int = 4096


def compile_dispersion(branches, cfg):
    module = SymbolicModule(DISCOVERED[b] for b in branches)
    mesh = AbstractMesh(cfg.mesh_shape, ("k",), axis_types=(AxisType.Auto,))
    spec = jax.ShapeDtypeStruct((cfg.points,), jnp.float32, sharding=NamedSharding(mesh, P("k")))
    traced = jax.jit(lambda k: module(k=k)).trace(spec)
    return traced.lower(lowering_platforms=(cfg.platform,))


if __name__ == "__main__":
    lowered = compile_dispersion(["acoustic", "damping"], PodConfig())
    print(lowered.as_text()[:80])

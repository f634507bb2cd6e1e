import dataclasses
import os

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P


@dataclasses.dataclass
class RunConfig:
    platform: str = os.environ.get("TARGET_PLATFORM", "tpu")
    debug_sharding: bool = os.environ.get("DEBUG_SHARDING", "0") == "1"
    ici_data: int = 2
    ici_tensor: int = 4


def _report(sharding):
    print("activation sharding:", sharding)


def make_forward(config):
    def forward(w, x):
        h = x * w
        if config.debug_sharding:
            jax.debug.inspect_array_sharding(h, callback=_report)
        return jax.nn.relu(h)

    return forward


def compile_forward(config):
    mesh = AbstractMesh((config.ici_data, config.ici_tensor), ("data", "tensor"))
    w_s = NamedSharding(mesh, P(None, "tensor"))
    x_s = NamedSharding(mesh, P("data", "tensor"))
    jitted = jax.jit(make_forward(config), in_shardings=(w_s, x_s))
    traced = jitted.trace(jax.ShapeDtypeStruct((1, 1024), jnp.float32),
                          jax.ShapeDtypeStruct((64, 1024), jnp.float32))
    return traced.lower(lowering_platforms=(config.platform,))


if __name__ == "__main__":
    print(len(compile_forward(RunConfig()).as_text()))

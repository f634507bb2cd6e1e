import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

DEFAULTS = {
    "hardware": "tpu",
    "debug_sharding": False,
    "mesh_axes": ["data", "tensor"],
    "ici_parallelism": [2, 4],
    "num_layers": 2,
}


class Pyconfig:
    def __init__(self, **overrides):
        self._keys = {**DEFAULTS, **overrides}

    def __getattr__(self, name):
        keys = self.__dict__["_keys"]
        if name not in keys:
            raise AttributeError(name)
        return keys[name]


def _report(name, sharding):
    print(name, sharding)


def maybe_inspect(config, name, x):
    if getattr(config, "debug_sharding"):
        jax.debug.inspect_array_sharding(x, callback=lambda s: _report(name, s))
    return x


def decoder(config, params, x):
    for i in range(config.num_layers):
        x = jax.nn.relu(x @ params[i])
        x = maybe_inspect(config, f"layer_{i}", x)
    return x


def lower_decoder(config, batch=8, width=128):
    mesh = AbstractMesh(tuple(config.ici_parallelism), tuple(config.mesh_axes),
                        axis_types=(AxisType.Auto,) * len(config.mesh_axes))
    act = NamedSharding(mesh, P("data", None))
    params = [jax.ShapeDtypeStruct((width, width), jnp.float32, sharding=NamedSharding(mesh, P(None, "tensor")))
              for _ in range(config.num_layers)]
    x = jax.ShapeDtypeStruct((batch, width), jnp.float32, sharding=act)
    traced = jax.jit(lambda p, x: decoder(config, p, x)).trace(params, x)
    return traced.lower(lowering_platforms=(config.hardware,))


if __name__ == "__main__":
    config = Pyconfig(num_layers=3)
    print(lower_decoder(config).as_text()[:80])

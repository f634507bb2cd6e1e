import dataclasses

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P


@dataclasses.dataclass(frozen=True)
class ShardedLinear:
    in_features: int
    out_features: int
    mesh_shape: tuple = (2, 4)
    mesh_axes: tuple = ("replica", "model")

    @property
    def mesh(self):
        return AbstractMesh(self.mesh_shape, self.mesh_axes,
                            axis_types=(AxisType.Explicit, AxisType.Explicit))

    def weight_spec(self):
        sharding = NamedSharding(self.mesh, P(None, "model"))
        return jax.ShapeDtypeStruct((self.in_features, self.out_features), jnp.bfloat16, sharding=sharding)

    def input_spec(self, batch):
        sharding = NamedSharding(self.mesh, P("replica", None))
        return jax.ShapeDtypeStruct((batch, self.in_features), jnp.bfloat16, sharding=sharding)

    @staticmethod
    def apply(w, x):
        return jax.nn.gelu(x @ w)


def filter_export(fn, *args, **kwargs):
    return jax.export.export(jax.jit(fn, **kwargs))(*args)


if __name__ == "__main__":
    layer = ShardedLinear(512, 2048)
    exported = filter_export(layer.apply, layer.weight_spec(), layer.input_spec(16))
    print(exported.platforms, exported.nr_devices)

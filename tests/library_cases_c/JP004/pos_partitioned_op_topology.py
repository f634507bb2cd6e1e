import jax
import jax.numpy as jnp
from jax.experimental.custom_partitioning import custom_partitioning
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P

from _topologies import TOPOLOGIES


class RowNormalize:
    name = "row_normalize"

    def __init__(self, eps=1e-6):
        self.eps = eps
        self._fn = self._build()

    def _reference(self, x):
        return x / (jnp.sum(jnp.abs(x), axis=-1, keepdims=True) + self.eps)

    def _build(self):
        fn = custom_partitioning(self._reference)

        def partition(mesh, arg_shapes, result_shape):
            spec = arg_shapes[0].sharding.spec
            rows = NamedSharding(mesh, P(spec[0], None))
            return mesh, self._reference, rows, (rows,)

        def infer(mesh, arg_shapes, result_shape):
            return NamedSharding(mesh, P(arg_shapes[0].sharding.spec[0], None))

        fn.def_partition(partition=partition, infer_sharding_from_operands=infer, sharding_rule="i j -> i j")
        return fn

    def __call__(self, x):
        return self._fn(x)

    @classmethod
    def lower_for(cls, topology, shape, **kwargs):
        axis_sizes, device = TOPOLOGIES[topology]
        mesh = AbstractMesh(axis_sizes, ("rows",), abstract_device=device)
        op = cls(**kwargs)
        with jax.sharding.use_abstract_mesh(mesh):
            x = jax.ShapeDtypeStruct(shape, jnp.float32)
            return jax.jit(op, in_shardings=P("rows"), out_shardings=P("rows")).trace(x).lower()


if __name__ == "__main__":
    lowered = RowNormalize.lower_for("v6e-4", (128, 512), eps=1e-5)
    print(lowered.as_text()[:80])

"""Sparse-variational GP predictive mean whose cross-covariance is a custom-partitioned
op (gpjax kernels/computations layout), exported with inducing-point shardings."""

import dataclasses

import jax
import jax.numpy as jnp
from jax.experimental.custom_partitioning import custom_partitioning
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P


class AbstractKernelComputation:
    def cross_covariance(self, kernel, x, y):
        return kernel(x[:, None, :], y[None, :, :])


@custom_partitioning
def _rbf_cross(x, y):
    return jnp.exp(-0.5 * jnp.sum((x[:, None, :] - y[None, :, :]) ** 2, axis=-1))


def _infer(mesh, arg_shapes, result_shape):
    return NamedSharding(mesh, P(arg_shapes[0].sharding.spec[0], None))


def _partition(mesh, arg_shapes, result_shape):
    out = NamedSharding(mesh, P(arg_shapes[0].sharding.spec[0], None))
    arg_shardings = (arg_shapes[0].sharding, NamedSharding(mesh, P()))
    return mesh, lambda x, y: _rbf_cross(x, y), out, arg_shardings


_rbf_cross.def_partition(infer_sharding_from_operands=_infer, partition=_partition,
                         sharding_rule="n d, m d -> n m")


class PartitionedComputation(AbstractKernelComputation):
    def cross_covariance(self, kernel, x, y):
        return kernel.variance * _rbf_cross(x / kernel.lengthscale, y / kernel.lengthscale)


@dataclasses.dataclass
class RBF:
    lengthscale: float = 1.0
    variance: float = 1.0
    compute_engine: AbstractKernelComputation = dataclasses.field(default_factory=AbstractKernelComputation)

    def __call__(self, x, y):
        return self.variance * jnp.exp(-0.5 * jnp.sum((x - y) ** 2, axis=-1) / self.lengthscale**2)

    def cross_covariance(self, x, y):
        return self.compute_engine.cross_covariance(self, x, y)


def predictive_mean(kernel, x_test, z, q_mu):
    kzz = kernel.cross_covariance(z, z) + 1e-4 * jnp.eye(z.shape[0])
    kxz = kernel.cross_covariance(x_test, z)
    return kxz @ jnp.linalg.solve(kzz, q_mu)


ENGINES = {"dense": AbstractKernelComputation, "partitioned": PartitionedComputation}
DEFAULTS = {"engine": "partitioned", "platforms": ["cuda"], "shards": 4}


def export_predictor(opts, n_test=256, m=32, d=3):
    kernel = RBF(lengthscale=0.7, compute_engine=ENGINES[opts["engine"]]())
    mesh = AbstractMesh((opts["shards"],), ("data",), axis_types=(AxisType.Explicit,))
    xs = jax.ShapeDtypeStruct((n_test, d), jnp.float32, sharding=NamedSharding(mesh, P("data", None)))
    z = jax.ShapeDtypeStruct((m, d), jnp.float32, sharding=NamedSharding(mesh, P()))
    mu = jax.ShapeDtypeStruct((m,), jnp.float32, sharding=NamedSharding(mesh, P()))
    fn = jax.jit(lambda a, b, c: predictive_mean(kernel, a, b, c))
    return jax.export.export(fn, platforms=opts["platforms"])(xs, z, mu)


if __name__ == "__main__":
    exported = export_predictor(dict(DEFAULTS))
    print(exported.platforms)

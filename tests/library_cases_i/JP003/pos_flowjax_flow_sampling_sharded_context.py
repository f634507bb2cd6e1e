"""Batch sampling of a normalizing flow (flowjax-style bijections and Transformed
distribution), planned inside a sharded-sampling context for the cluster's mesh."""

import contextlib
import dataclasses

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, PartitionSpec as P


class AbstractBijection:
    def transform(self, x):
        raise NotImplementedError


@dataclasses.dataclass
class Affine(AbstractBijection):
    loc: jax.Array
    scale: jax.Array

    def transform(self, x):
        return x * self.scale + self.loc


@dataclasses.dataclass
class Tanh(AbstractBijection):
    def transform(self, x):
        return jnp.tanh(x)


@dataclasses.dataclass
class Chain(AbstractBijection):
    bijections: tuple

    def transform(self, x):
        for b in self.bijections:
            x = b.transform(x)
        return x


@dataclasses.dataclass
class Transformed:
    base_dim: int
    bijection: AbstractBijection

    def sample_from_noise(self, z):
        return self.bijection.transform(z)


def masked_autoregressive_stub(dim, key):
    k1, k2 = jax.random.split(key)
    return Chain((Affine(jax.random.normal(k1, (dim,)), jnp.exp(0.1 * jax.random.normal(k2, (dim,)))),
                  Tanh(), Affine(jnp.zeros(dim), 2 * jnp.ones(dim))))


CLUSTER = {"mesh_shape": (8,), "mesh_axes": ("batch",), "samples_per_device": 512}


@contextlib.contextmanager
def sharded_sampling(cluster):
    mesh = AbstractMesh(cluster["mesh_shape"], cluster["mesh_axes"], axis_types=(AxisType.Explicit,))
    with jax.sharding.use_abstract_mesh(mesh):
        yield mesh.size * cluster["samples_per_device"]


def plan_sampler(flow, cluster):
    with sharded_sampling(cluster) as n:
        noise = jax.ShapeDtypeStruct((n, flow.base_dim), jnp.float32)
        sampler = jax.jit(flow.sample_from_noise, in_shardings=P("batch", None), out_shardings=P("batch", None))
        lowered = sampler.trace(noise).lower()
    return lowered


if __name__ == "__main__":
    flow = Transformed(4, masked_autoregressive_stub(4, jax.random.key(1)))
    print(plan_sampler(flow, CLUSTER).as_text()[:80])

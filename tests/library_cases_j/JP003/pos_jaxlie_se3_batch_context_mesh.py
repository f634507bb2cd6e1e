"""Transforms a sharded batch of point clouds by SE(3) poses under the planning mesh (Lie group
classes registered with a decorator, pytree dataclasses as in jaxlie)."""
import dataclasses

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, PartitionSpec as P


def register_lie_group(*, matrix_dim, parameters_dim, tangent_dim, space_dim):
  def _wrap(cls):
    cls.matrix_dim, cls.parameters_dim, cls.tangent_dim, cls.space_dim = (
        matrix_dim, parameters_dim, tangent_dim, space_dim)
    return cls
  return _wrap


@register_lie_group(matrix_dim=4, parameters_dim=7, tangent_dim=6, space_dim=3)
@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class SE3:
  wxyz_xyz: jax.Array

  def apply(self, points):
    w, x, y, z = [self.wxyz_xyz[..., i, None] for i in range(4)]
    t = self.wxyz_xyz[..., 4:]
    q = jnp.concatenate([x, y, z], axis=-1)
    uv = 2.0 * jnp.cross(q, points)
    return points + w * uv + jnp.cross(q, uv) + t


def transform_batch(params, points):
  return SE3(params).apply(points)


PLAN = AbstractMesh((4,), ("batch",))

if __name__ == "__main__":
  with jax.sharding.use_abstract_mesh(PLAN):
    fn = jax.jit(transform_batch, in_shardings=(P("batch"), P("batch")), out_shardings=P("batch"))
    traced = fn.trace(jax.ShapeDtypeStruct((256, 7), jnp.float32), jax.ShapeDtypeStruct((256, 3), jnp.float32))
    lowered = traced.lower()
  print(lowered.as_text()[:60])

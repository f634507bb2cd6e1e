import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P

LOGICAL_AXIS_RULES = (("batch", "data"), ("embed", None), ("mlp", None), ("vocab", "model"))


def logical_to_mesh_axes(names, rules=LOGICAL_AXIS_RULES):
  table = dict(rules)
  return P(*(table.get(n) for n in names))


def get_global_mesh():
  mesh = jax.sharding.get_abstract_mesh()
  return None if mesh.empty else mesh


class MlpBlock:
  param_axes = {"wi": ("embed", "mlp"), "wo": ("mlp", "embed")}

  def __init__(self, features, hidden):
    self.shapes = {"wi": (features, hidden), "wo": (hidden, features)}

  def abstract_params(self):
    mesh = get_global_mesh()
    return {k: jax.ShapeDtypeStruct(s, jnp.float32,
                                    sharding=NamedSharding(mesh, logical_to_mesh_axes(self.param_axes[k])))
            for k, s in self.shapes.items()}

  def apply(self, params, x):
    return jax.nn.gelu(x @ params["wi"]) @ params["wo"]


def lower_apply(module, batch_shape):
  params = module.abstract_params()
  x = jax.ShapeDtypeStruct(batch_shape, jnp.float32,
                           sharding=NamedSharding(get_global_mesh(), logical_to_mesh_axes(("batch", "embed"))))
  return jax.jit(module.apply).trace(params, x).lower()


if __name__ == "__main__":
  mesh = AbstractMesh((2, 4), ("data", "model"))
  with jax.sharding.use_abstract_mesh(mesh):
    lowered = lower_apply(MlpBlock(features=128, hidden=512), (16, 128))
  print(lowered.as_text()[:100])

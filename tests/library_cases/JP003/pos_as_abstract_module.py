"""Abstract model state annotated from the current mesh, then lowered to inspect the sharded program."""

import dataclasses

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


@dataclasses.dataclass
class Variable:
  value: object
  out_sharding: tuple | None = None


class Linear:
  def __init__(self, din, dout, *, kernel_sharding=None):
    self.kernel = Variable(jax.ShapeDtypeStruct((din, dout), jnp.bfloat16), kernel_sharding)
    self.bias = Variable(jax.ShapeDtypeStruct((dout,), jnp.bfloat16), (kernel_sharding or (None, None))[1:])

  def variables(self):
    return {"kernel": self.kernel, "bias": self.bias}


def as_abstract(module):
  """Attaches a NamedSharding on the current abstract mesh to every annotated variable."""
  mesh = jax.sharding.get_abstract_mesh()
  out = {}
  for name, var in module.variables().items():
    v = var.value
    if var.out_sharding is not None:
      v = jax.ShapeDtypeStruct(v.shape, v.dtype, sharding=NamedSharding(mesh, P(*var.out_sharding)))
    out[name] = v
  return out


def apply(params, x):
  return jax.nn.gelu(x @ params["kernel"] + params["bias"])


if __name__ == "__main__":
  mesh = jax.sharding.AbstractMesh((2, 4), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
  with jax.sharding.use_abstract_mesh(mesh):
    params = as_abstract(Linear(512, 2048, kernel_sharding=(None, "model")))
    x = jax.ShapeDtypeStruct((16, 512), jnp.bfloat16)
    lowered = jax.jit(apply).trace(params, x).lower()
  print(lowered.as_text()[:100])

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


class PallasOp:
  block = (8, 128)
  interpret = False

  def compiler_params(self):
    return None

  def kernel(self, x_ref, o_ref):
    raise NotImplementedError

  def grid(self, shape):
    return tuple(s // b for s, b in zip(shape, self.block))

  def __call__(self, x):
    spec = pl.BlockSpec(self.block, lambda i, j: (i, j))
    return pl.pallas_call(
        self.kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=self.grid(x.shape),
        in_specs=[spec],
        out_specs=spec,
        compiler_params=self.compiler_params(),
        interpret=self.interpret,
    )(x)


class Gelu(PallasOp):

  def kernel(self, x_ref, o_ref):
    o_ref[...] = jax.nn.gelu(x_ref[...])


class TpuGelu(Gelu):

  def compiler_params(self):
    return pltpu.CompilerParams(dimension_semantics=("parallel", "arbitrary"))


class ReferenceTpuGelu(TpuGelu):
  interpret = True


def lower_all(op, spec, platforms):
  out = {}
  for platform in platforms:
    out[platform] = jax.jit(op).trace(spec).lower(lowering_platforms=(platform,))
  return out


if __name__ == "__main__":
  spec = jax.ShapeDtypeStruct((32, 256), jnp.float32)
  lowered = lower_all(ReferenceTpuGelu(), spec, ["tpu", "cuda"])
  print(sorted(lowered))

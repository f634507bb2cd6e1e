"""Release export of the decode step: one serialized artifact per platform
listed in the manifest. The sampler caps logits with a Pallas TPU kernel."""

import dataclasses

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

from _gm_sampler import Greedy, SoftCap, decode_step

# What the release pipeline builds, per artifact.
EXPORT_MANIFEST = {
    "decode_step": {"platforms": ["tpu", "rocm"], "batch": 8, "vocab": 2048, "width": 256},
}


def _softcap_kernel(x_ref, o_ref, *, cap):
  o_ref[...] = cap * jnp.tanh(x_ref[...] / cap)


@dataclasses.dataclass(frozen=True, kw_only=True)
class PallasSoftCap(SoftCap):
  block_rows: int = 8

  def __call__(self, logits):
    rows, vocab = logits.shape
    spec = pl.BlockSpec((self.block_rows, vocab), lambda i: (i, 0))
    kernel = lambda x_ref, o_ref: _softcap_kernel(x_ref, o_ref, cap=self.cap)
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct(logits.shape, logits.dtype),
        in_specs=[spec],
        out_specs=spec,
        grid=(rows // self.block_rows,),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
    )(logits)


@dataclasses.dataclass(frozen=True, kw_only=True)
class Sampler:
  sampling: Greedy = dataclasses.field(default_factory=Greedy)
  logits_processor: SoftCap = dataclasses.field(default_factory=PallasSoftCap)


def export_all(sampler: Sampler):
  spec = EXPORT_MANIFEST["decode_step"]
  embed = jax.ShapeDtypeStruct((spec["vocab"], spec["width"]), jnp.float32)
  hidden = jax.ShapeDtypeStruct((spec["batch"], spec["width"]), jnp.float32)
  rng = jax.ShapeDtypeStruct((2,), jnp.uint32)
  step = jax.jit(lambda e, h, r: decode_step(sampler, e, h, r))
  artifacts = {}
  for platform in spec["platforms"]:
    artifacts[platform] = jax.export.export(step, platforms=(platform,))(embed, hidden, rng)
  return artifacts


if __name__ == "__main__":
  print(sorted(export_all(Sampler())))

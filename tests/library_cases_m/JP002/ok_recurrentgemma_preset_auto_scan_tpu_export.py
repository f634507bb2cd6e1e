"""Exports a Hawk recurrent block for TPU serving. The preset's scan type is kept;
it is resolved where the block is traced."""

import jax
import jax.numpy as jnp

from _rg_common import GriffinConfig, Preset, ScanType
from _rg_scan import rnn_scan

SCAN_OVERRIDE = None  # keep the preset's AUTO


class RGLRU:
  """The real-gated linear recurrent unit, reduced to its gates and the scan."""

  def __init__(self, config: GriffinConfig):
    self.width = config.lru_width or config.width
    self.scan_type = config.scan_type

  def init(self, key):
    k1, k2 = jax.random.split(key)
    return {"w_input_gate": jax.random.normal(k1, (self.width, self.width)) * 0.02,
            "w_a_gate": jax.random.normal(k2, (self.width, self.width)) * 0.02,
            "a_param": jnp.full((self.width,), 2.0)}

  def __call__(self, params, x, h0):
    gate_x = jax.nn.sigmoid(x @ params["w_input_gate"])
    gate_a = jax.nn.sigmoid(x @ params["w_a_gate"])
    log_a = -8.0 * gate_a * jax.nn.softplus(params["a_param"])
    a = jnp.exp(log_a)
    normed_x = gate_x * x * jnp.sqrt(1 - jnp.exp(2 * log_a))
    return rnn_scan(normed_x, a, h0, scan_type=self.scan_type)


def export_block(preset=Preset.HAWK_TINY):
  config = GriffinConfig.from_preset(preset, scan_type=SCAN_OVERRIDE)
  lru = RGLRU(config)
  params = lru.init(jax.random.key(0))
  x = jax.ShapeDtypeStruct((2, 64, lru.width), jnp.float32)
  h0 = jax.ShapeDtypeStruct((2, lru.width), jnp.float32)
  return jax.export.export(jax.jit(lru.__call__), platforms=("tpu",))(params, x, h0)


if __name__ == "__main__":
  print(export_block().out_avals)

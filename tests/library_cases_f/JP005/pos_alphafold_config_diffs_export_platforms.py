"""Exporting an AlphaFold-style confidence head for each released model preset.

Configuration follows alphafold's ``model/config.py``: a base ``CONFIG``
ConfigDict, ``CONFIG_DIFFS`` keyed by preset name holding *flattened* dotted
overrides, and ``model_config(name)`` that deep-copies the base and applies the
diff with ``update_from_flattened_dict``.  Here the config also says where the
exported artifact will run.  The head computes pLDDT from per-residue logits,
as ``confidence.compute_plddt`` does.
"""

from __future__ import annotations

import copy
from typing import Any, Mapping

import jax
import jax.numpy as jnp
import numpy as np


class ConfigDict(dict):

  def __init__(self, initial=None):
    super().__init__()
    for key, value in (initial or {}).items():
      self[key] = ConfigDict(value) if isinstance(value, dict) else value

  def __getattr__(self, name):
    try:
      return self[name]
    except KeyError as e:
      raise AttributeError(name) from e

  def update_from_flattened_dict(self, flat: Mapping[str, Any]):
    for dotted, value in flat.items():
      *parents, leaf = dotted.split(".")
      node = self
      for parent in parents:
        node = node[parent]
      if leaf not in node:
        raise KeyError(f"unknown config key {dotted}")
      node[leaf] = value


CONFIG = ConfigDict({
    "model": {
        "heads": {
            "predicted_lddt": {"num_bins": 50, "num_channels": 128},
            "predicted_aligned_error": {"num_bins": 64, "max_error_bin": 31.0},
        },
        "num_res": 256,
    },
    "export": {
        "platforms": ("cpu",),
        "batch_size": 1,
    },
})

CONFIG_DIFFS = {
    "model_1": {},
    "model_1_ptm": {"model.heads.predicted_aligned_error.num_bins": 64},
    # Preset served from the TPU inference cluster.
    "model_1_multimer_tpu": {
        "model.num_res": 512,
        "export.platforms": "tpu",
    },
}


def model_config(name: str) -> ConfigDict:
  if name not in CONFIG_DIFFS:
    raise ValueError(f"Invalid model name {name}.")
  cfg = copy.deepcopy(CONFIG)
  cfg.update_from_flattened_dict(CONFIG_DIFFS[name])
  return cfg


# --------------------------------------------------------------------------
# confidence head
# --------------------------------------------------------------------------


def compute_plddt(logits: jax.Array) -> jax.Array:
  num_bins = logits.shape[-1]
  bin_width = 1.0 / num_bins
  bin_centers = jnp.arange(0.5 * bin_width, 1.0, bin_width)
  probs = jax.nn.softmax(logits, axis=-1)
  return jnp.sum(probs * bin_centers[None, :], axis=-1) * 100


def init_head(key, cfg: ConfigDict):
  head = cfg.model.heads.predicted_lddt
  k1, k2 = jax.random.split(key)
  return {
      "w_act": jax.random.normal(k1, (384, head.num_channels)) / np.sqrt(384),
      "w_logits": jax.random.normal(k2, (head.num_channels, head.num_bins)) / np.sqrt(head.num_channels),
  }


def plddt_head(params, single_act):
  act = jax.nn.relu(single_act @ params["w_act"])
  return compute_plddt(act @ params["w_logits"])


def export_head(preset: str):
  cfg = model_config(preset)
  params = init_head(jax.random.PRNGKey(0), cfg)
  fn = jax.jit(lambda act: plddt_head(params, act))
  act_spec = jax.ShapeDtypeStruct((cfg.model.num_res, 384), jnp.float32)
  return jax.export.export(fn, platforms=cfg.export.platforms)(act_spec)


def main():
  for preset in CONFIG_DIFFS:
    exported = export_head(preset)
    print(f"{preset}: exported for {exported.platforms}, out {exported.out_avals}")


if __name__ == "__main__":
  main()

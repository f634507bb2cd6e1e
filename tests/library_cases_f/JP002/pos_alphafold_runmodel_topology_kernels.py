"""An AlphaFold-style model runner that compiles for a named accelerator topology.

Structure follows alphafold: a base ``CONFIG`` with ``model.global_config``,
per-model ``CONFIG_DIFFS`` applied by ``model_config(name)`` through
``update_from_flattened_dict``, modules that read ``global_config`` and a
``RunModel`` container that jits the forward pass.  The gated transition uses a
fused Pallas kernel whose compiler params are built from
``global_config.kernel_backend``.  ``RunModel.compile_for`` lowers the forward
pass under an abstract mesh describing the target topology, so it can run on a
machine without the accelerator.
"""

from __future__ import annotations

import copy
import os
from typing import Any, Mapping, Optional

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as pltriton
from jax.sharding import AbstractDevice, AbstractMesh


class ConfigDict(dict):
  """Minimal ml_collections.ConfigDict: nested attribute access and flat updates."""

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
      node[leaf] = value


# --------------------------------------------------------------------------
# config
# --------------------------------------------------------------------------

CONFIG = ConfigDict({
    "data": {"common": {"max_extra_msa": 1024, "num_recycle": 3}},
    "model": {
        "global_config": {
            "deterministic": False,
            "subbatch_size": 4,
            "use_remat": False,
            "kernel_backend": "triton",
            "triton": {"num_warps": 4, "num_stages": 2},
            "mosaic": {"dimension_semantics": ("parallel",)},
        },
        "evoformer": {"msa_channel": 128, "pair_channel": 128, "transition_factor": 2},
    },
})

CONFIG_DIFFS = {
    "model_1": {"data.common.max_extra_msa": 5120},
    "model_2": {"model.evoformer.transition_factor": 4},
    "model_1_ptm": {"data.common.max_extra_msa": 5120, "model.global_config.subbatch_size": 8},
}


def model_config(name: str) -> ConfigDict:
  if name not in CONFIG_DIFFS:
    raise ValueError(f"Invalid model name {name}.")
  cfg = copy.deepcopy(CONFIG)
  cfg.update_from_flattened_dict(CONFIG_DIFFS[name])
  return cfg


# --------------------------------------------------------------------------
# modules
# --------------------------------------------------------------------------

_KERNEL_PARAMS = {
    "triton": lambda gc: pltriton.CompilerParams(**gc.triton),
    "mosaic": lambda gc: pltpu.CompilerParams(**gc.mosaic),
}


def _gated_kernel(x_ref, gate_ref, o_ref):
  o_ref[...] = x_ref[...] * jax.nn.sigmoid(gate_ref[...])


def fused_gate(x, gate, global_config):
  rows, cols = x.shape
  spec = pl.BlockSpec((8, cols), lambda i: (i, 0))
  return pl.pallas_call(
      _gated_kernel,
      out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
      grid=(rows // 8,),
      in_specs=[spec, spec],
      out_specs=spec,
      compiler_params=_KERNEL_PARAMS[global_config.kernel_backend](global_config),
  )(x, gate)


class Transition:
  """MSA transition: LayerNorm -> Linear -> gated Linear."""

  def __init__(self, config: ConfigDict, global_config: ConfigDict):
    self.config = config
    self.global_config = global_config

  def init(self, rng, channels):
    hidden = channels * self.config.transition_factor
    k1, k2, k3 = jax.random.split(rng, 3)
    return {
        "w_in": jax.random.normal(k1, (channels, hidden)) / np.sqrt(channels),
        "w_gate": jax.random.normal(k2, (channels, hidden)) / np.sqrt(channels),
        "w_out": jax.random.normal(k3, (hidden, channels)) / np.sqrt(hidden),
    }

  def __call__(self, params, act):
    act = (act - act.mean(-1, keepdims=True)) / (act.std(-1, keepdims=True) + 1e-5)
    hidden = fused_gate(act @ params["w_in"], act @ params["w_gate"], self.global_config)
    return hidden @ params["w_out"]


# --------------------------------------------------------------------------
# runner
# --------------------------------------------------------------------------

TOPOLOGIES = {
    "tpu_v5e_1": AbstractDevice(device_kind="TPU v5 lite", num_cores=1, platform="tpu"),
    "h100_1": AbstractDevice(device_kind="NVIDIA H100 80GB HBM3", num_cores=132, platform="cuda"),
}


class RunModel:

  def __init__(self, config: ConfigDict, params: Optional[Mapping[str, Any]] = None):
    self.config = config
    self.params = params
    self._module = Transition(config.model.evoformer, config.model.global_config)

    def _forward_fn(params, batch):
      return batch["msa_act"] + self._module(params, batch["msa_act"])

    self.apply = jax.jit(_forward_fn)

  def init_params(self, random_seed: int = 0):
    if not self.params:
      channels = self.config.model.evoformer.msa_channel
      self.params = self._module.init(jax.random.PRNGKey(random_seed), channels)

  def feature_shapes(self, num_res: int):
    return {"msa_act": jax.ShapeDtypeStruct((num_res, self.config.model.evoformer.msa_channel), jnp.float32)}

  def compile_for(self, topology: str, num_res: int):
    self.init_params()
    mesh = AbstractMesh((1,), ("batch",), abstract_device=TOPOLOGIES[topology])
    params = jax.tree.map(lambda p: jax.ShapeDtypeStruct(p.shape, p.dtype), self.params)
    with jax.sharding.use_abstract_mesh(mesh):
      return self.apply.trace(params, self.feature_shapes(num_res)).lower()


def main():
  model_name = os.environ.get("AF_MODEL_NAME", "model_1_ptm")
  topology = os.environ.get("AF_TOPOLOGY", "tpu_v5e_1")
  runner = RunModel(model_config(model_name))
  lowered = runner.compile_for(topology, num_res=256)
  print(f"{model_name} lowered for {topology}:", len(lowered.as_text()))


if __name__ == "__main__":
  main()

"""Scoring function compiled from a task's registered features.

Tasks are registered by name with their output features; a feature
converter turns task feature lengths into model feature lengths (packing
inputs and targets for an encoder-decoder). The model's batch specs are
built from the converter, sharded along the data axis of the evaluation
slice, and the scoring function is compiled before the eval job starts.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Mapping, Optional, Sequence

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P


@dataclasses.dataclass(frozen=True)
class Feature:
  vocab_size: int
  add_eos: bool = True
  dtype: Any = jnp.int32
  rank: int = 1
  required: bool = True


@dataclasses.dataclass(frozen=True)
class Task:
  name: str
  output_features: Mapping[str, Feature]
  preprocessors: Sequence[Callable] = ()
  metric_fns: Sequence[Callable] = ()


class TaskRegistry:
  _REGISTRY: dict[str, Task] = {}

  @classmethod
  def add(cls, name: str, **kwargs) -> Task:
    if name in cls._REGISTRY:
      raise ValueError(f"task {name!r} already registered")
    task = Task(name=name, **kwargs)
    cls._REGISTRY[name] = task
    return task

  @classmethod
  def get(cls, name: str) -> Task:
    return cls._REGISTRY[name]


class FeatureConverter:
  TASK_FEATURES: Mapping[str, Feature] = {}
  MODEL_FEATURES: Mapping[str, Any] = {}

  def __init__(self, pack: bool = True):
    self.pack = pack

  def get_model_feature_lengths(self, task_feature_lengths: Mapping[str, int]) -> Mapping[str, int]:
    raise NotImplementedError

  def get_model_feature_specs(self, task_feature_lengths, batch_size: int,
                              sharding: Optional[NamedSharding] = None):
    lengths = self.get_model_feature_lengths(task_feature_lengths)
    return {name: jax.ShapeDtypeStruct((batch_size, length), self.MODEL_FEATURES[name], sharding=sharding)
            for name, length in lengths.items()}


class EncDecFeatureConverter(FeatureConverter):
  MODEL_FEATURES = {
      "encoder_input_tokens": jnp.int32,
      "decoder_target_tokens": jnp.int32,
      "decoder_input_tokens": jnp.int32,
      "decoder_loss_weights": jnp.float32,
  }

  def get_model_feature_lengths(self, task_feature_lengths):
    enc, dec = task_feature_lengths["inputs"], task_feature_lengths["targets"]
    return {"encoder_input_tokens": enc, "decoder_target_tokens": dec,
            "decoder_input_tokens": dec, "decoder_loss_weights": dec}


VOCAB = 256
TaskRegistry.add(
    "wmt_toy_en_de",
    output_features={"inputs": Feature(vocab_size=VOCAB), "targets": Feature(vocab_size=VOCAB)},
)


def score_batch(params, batch):
  enc = params["embed"][batch["encoder_input_tokens"]].mean(axis=1, keepdims=True)
  dec = params["embed"][batch["decoder_input_tokens"]] + enc
  logits = dec @ params["embed"].T
  logp = jax.nn.log_softmax(logits)
  tok = jnp.take_along_axis(logp, batch["decoder_target_tokens"][..., None], axis=-1)[..., 0]
  return jnp.sum(tok * batch["decoder_loss_weights"], axis=-1)


@dataclasses.dataclass
class EvalJobConfig:
  task: str = "wmt_toy_en_de"
  task_feature_lengths: Mapping[str, int] = dataclasses.field(
      default_factory=lambda: {"inputs": 64, "targets": 32})
  batch_size: int = 32
  mesh_shape: tuple[int, ...] = (8,)
  mesh_axes: tuple[str, ...] = ("data",)
  emb_dim: int = 64


def compile_scoring(cfg: EvalJobConfig):
  task = TaskRegistry.get(cfg.task)
  mesh = AbstractMesh(cfg.mesh_shape, cfg.mesh_axes, axis_types=(AxisType.Auto,) * len(cfg.mesh_axes))
  converter = EncDecFeatureConverter(pack=False)
  batch = converter.get_model_feature_specs(cfg.task_feature_lengths, cfg.batch_size,
                                            sharding=NamedSharding(mesh, P("data")))
  vocab = task.output_features["targets"].vocab_size
  params = {"embed": jax.ShapeDtypeStruct((vocab, cfg.emb_dim), jnp.float32,
                                          sharding=NamedSharding(mesh, P()))}
  return jax.jit(score_batch).trace(params, batch).lower()


if __name__ == "__main__":
  lowered = compile_scoring(EvalJobConfig())
  print(lowered.as_text()[:100])

"""Experiment definitions, registered by class name (the shape of paxml/praxis
experiment classes: class attributes as hyper-parameters, subclasses override
a few, `task()` builds the layer templates)."""

from __future__ import annotations

from _pax_base import Config, register
from _pax_layers import FeedForward, StackedFeedForward, set_overflow_check


class BaseServingExperiment:
  MODEL_DIMS = 128
  HIDDEN_DIMS = 512
  NUM_LAYERS = 2
  SERVING_PLATFORMS = ("cpu",)
  # fp16 serving: log activations that leave the fp16 range
  CHECK_OVERFLOW = False

  def task(self) -> Config:
    dims = [self.MODEL_DIMS] + [self.HIDDEN_DIMS] * (self.NUM_LAYERS - 1) + [self.MODEL_DIMS]
    layers = tuple(
        Config(FeedForward, name=f"ffn_{i}", input_dims=a, output_dims=b,
               activation="relu" if i < self.NUM_LAYERS - 1 else "none")
        for i, (a, b) in enumerate(zip(dims[:-1], dims[1:])))
    tpl = Config(StackedFeedForward, name="ffn_stack", layers=layers)
    if self.CHECK_OVERFLOW:
      tpl = set_overflow_check(tpl)
    return tpl


class Fp16ServingExperiment(BaseServingExperiment):
  CHECK_OVERFLOW = True


@register
class FfnTpuServing(Fp16ServingExperiment):
  SERVING_PLATFORMS = ("tpu",)
  NUM_LAYERS = 3


@register
class FfnTpuServingNoChecks(FfnTpuServing):
  CHECK_OVERFLOW = False

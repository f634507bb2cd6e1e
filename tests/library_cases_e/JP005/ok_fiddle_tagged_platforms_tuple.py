"""Export pipeline configured through a config graph with tagged values.

Arguments that several objects must agree on (here: the export platforms,
shared by the exporter and the artifact metadata) are declared once as
tagged placeholders; the launcher sets every value carrying a tag with
`set_tagged` and then builds the graph.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from typing import Any, Callable, Generic, Sequence, TypeVar

import jax
import jax.numpy as jnp

T = TypeVar("T")


# --------------------------------------------------------------------------
# a minimal config-graph library with tags
# --------------------------------------------------------------------------


class Tag:
  """A named marker; subclasses are the tags."""

  def __init_subclass__(cls, doc: str = "", **kwargs):
    super().__init_subclass__(**kwargs)
    cls.doc = doc


@dataclasses.dataclass
class TaggedValue:
  tags: frozenset
  value: Any = None


def tagged(*tags: type[Tag], default=None) -> TaggedValue:
  return TaggedValue(frozenset(tags), default)


class Config(Generic[T]):

  def __init__(self, fn_or_cls: Callable[..., T], /, **arguments):
    self.__dict__["fn_or_cls"] = fn_or_cls
    self.__dict__["arguments"] = dict(arguments)

  def __getattr__(self, name):
    try:
      return self.__dict__["arguments"][name]
    except KeyError:
      raise AttributeError(name) from None

  def __setattr__(self, name, value):
    self.arguments[name] = value


def _walk(value, visit):
  visit(value)
  if isinstance(value, Config):
    for v in value.arguments.values():
      _walk(v, visit)
  elif isinstance(value, (list, tuple)):
    for v in value:
      _walk(v, visit)
  elif isinstance(value, dict):
    for v in value.values():
      _walk(v, visit)


def set_tagged(root: Any, tag: type[Tag], value: Any) -> None:
  def visit(node):
    if isinstance(node, TaggedValue) and tag in node.tags:
      node.value = value
  _walk(root, visit)


def build(value: Any) -> Any:
  if isinstance(value, TaggedValue):
    return build(value.value)
  if isinstance(value, Config):
    return value.fn_or_cls(**{k: build(v) for k, v in value.arguments.items()})
  if isinstance(value, list):
    return [build(v) for v in value]
  if isinstance(value, dict):
    return {k: build(v) for k, v in value.items()}
  return value


# --------------------------------------------------------------------------
# tags, model, exporter
# --------------------------------------------------------------------------


class ExportPlatforms(Tag, doc="Platforms the serving artifact is lowered for."):
  pass


class BatchSize(Tag, doc="Serving batch size."):
  pass


@dataclasses.dataclass(frozen=True)
class Classifier:
  num_features: int = 32
  num_classes: int = 10

  def init(self, key):
    return {"w": jax.random.normal(key, (self.num_features, self.num_classes)) * 0.01,
            "b": jnp.zeros((self.num_classes,))}

  def __call__(self, params, x):
    return jax.nn.softmax(x @ params["w"] + params["b"])


@dataclasses.dataclass
class ArtifactMetadata:
  model_name: str
  platforms: Sequence[str]

  def to_json(self):
    return json.dumps({"model": self.model_name, "platforms": list(self.platforms)})


@dataclasses.dataclass
class Exporter:
  model: Classifier
  platforms: Sequence[str]
  batch_size: int
  metadata: ArtifactMetadata

  def export(self):
    params = jax.eval_shape(self.model.init, jax.random.key(0))
    x = jax.ShapeDtypeStruct((self.batch_size, self.model.num_features), jnp.float32)
    exported = jax.export.export(jax.jit(self.model.__call__), platforms=self.platforms)(params, x)
    return exported, self.metadata.to_json()


def export_fixture() -> Config[Exporter]:
  platforms = tagged(ExportPlatforms)
  return Config(
      Exporter,
      model=Config(Classifier, num_features=32, num_classes=10),
      platforms=platforms,
      batch_size=tagged(BatchSize, default=16),
      metadata=Config(ArtifactMetadata, model_name="toy-classifier", platforms=platforms),
  )


def main():
  cfg = export_fixture()
  set_tagged(cfg, ExportPlatforms, ("cpu",))
  set_tagged(cfg, BatchSize, 8)
  exported, metadata = build(cfg).export()
  print(metadata, exported.platforms)


if __name__ == "__main__":
  main()

"""Input transforms fused into the exported serving step, data-loader style.

Transforms subclass `MapTransform` (one `map(element)` per record) as in a
data-loading library; those that also define `device_map` can be fused into
the model's jitted step so that serving applies exactly the training-time
preprocessing. Table lookups stay in the loader (the serving frontend does
them too). The fused step is exported for a sharded serving slice that the
exporting host does not have.
"""

from __future__ import annotations

import abc
import dataclasses
from typing import Any, Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P


class MapTransform(abc.ABC):
  """A one-to-one transform applied to each element by the data loader."""

  fuse_into_step: bool = True

  @abc.abstractmethod
  def map(self, element: dict) -> dict:
    ...

  def device_map(self, batch: dict) -> dict:
    raise NotImplementedError(f"{type(self).__name__} has no device implementation")


@dataclasses.dataclass
class HashBucketIds(MapTransform):
  """Maps raw ids onto a fixed vocabulary with a host-side lookup table."""

  fuse_into_step = False

  vocab: dict[int, int]
  num_oov_buckets: int = 8
  feature: str = "ids"

  def _lookup(self, ids: np.ndarray) -> np.ndarray:
    size = len(self.vocab)
    flat = [self.vocab.get(int(i), size + int(i) % self.num_oov_buckets) for i in np.ravel(ids)]
    return np.asarray(flat, np.int32).reshape(np.shape(ids))

  def map(self, element):
    return {**element, self.feature: self._lookup(element[self.feature])}

  def device_map(self, batch):
    ids = batch[self.feature]
    out = jax.pure_callback(self._lookup, jax.ShapeDtypeStruct(ids.shape, jnp.int32), ids,
                            vmap_method="broadcast_all")
    return {**batch, self.feature: out}


@dataclasses.dataclass
class NormalizeDense(MapTransform):
  mean: float = 0.0
  std: float = 1.0
  feature: str = "dense"

  def map(self, element):
    return {**element, self.feature: (element[self.feature] - self.mean) / self.std}

  def device_map(self, batch):
    return {**batch, self.feature: (batch[self.feature] - self.mean) / self.std}


class DataLoader:

  def __init__(self, data_source: Sequence[dict], operations: Sequence[MapTransform], batch_size: int):
    self._source, self._ops, self._batch_size = data_source, list(operations), batch_size

  def __iter__(self):
    for start in range(0, len(self._source) - self._batch_size + 1, self._batch_size):
      records = []
      for element in self._source[start:start + self._batch_size]:
        for op in self._ops:
          if not op.fuse_into_step:
            element = op.map(element)
        records.append(element)
      yield {k: np.stack([r[k] for r in records]) for k in records[0]}


def fuse(operations: Sequence[MapTransform]):
  fused = [op for op in operations if op.fuse_into_step]

  def preprocess(batch):
    for op in fused:
      batch = op.device_map(batch)
    return batch

  return preprocess


def make_model(vocab_size: int, dim: int):
  def apply(params, batch):
    emb = params["embedding"][batch["ids"]].mean(axis=1)
    return jax.nn.sigmoid(jnp.sum(emb * (batch["dense"] @ params["proj"]), axis=-1))
  init = lambda key: {"embedding": jax.random.normal(key, (vocab_size, dim)),
                      "proj": jnp.eye(4, dim)}
  return init, apply


def export_serving_step(operations, apply, params, batch_size: int, mesh_shape=(4,)):
  mesh = AbstractMesh(mesh_shape, ("batch",), axis_types=(AxisType.Auto,))
  preprocess = fuse(operations)

  def serve(params, batch):
    return apply(params, preprocess(batch))

  batch_spec = {"ids": jax.ShapeDtypeStruct((batch_size, 6), jnp.int32),
                "dense": jax.ShapeDtypeStruct((batch_size, 4), jnp.float32)}
  step = jax.jit(serve, in_shardings=(NamedSharding(mesh, P()), NamedSharding(mesh, P("batch"))))
  return jax.export.export(step)(params, batch_spec)


if __name__ == "__main__":
  vocab = {raw: i for i, raw in enumerate(range(1000, 1032))}
  operations = [HashBucketIds(vocab=vocab), NormalizeDense(mean=0.5, std=2.0)]
  init, apply = make_model(len(vocab) + 8, 16)
  params = init(jax.random.key(0))
  source = [{"ids": np.arange(1000 + i, 1006 + i), "dense": np.full((4,), float(i))} for i in range(16)]
  for batch in DataLoader(source, operations, batch_size=8):
    print(jax.jit(lambda p, b: apply(p, fuse(operations)(b)))(params, batch))
  exported = export_serving_step(operations, apply, jax.eval_shape(init, jax.random.key(0)), 32)
  print(exported.in_shardings_hlo)

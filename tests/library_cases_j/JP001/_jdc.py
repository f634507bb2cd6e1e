"""Minimal pytree dataclasses with `Static[...]` fields and `copy_and_mutate`
(shaped like jax_dataclasses: pytree_dataclass, Static, copy_and_mutate)."""
import contextlib
import copy
import dataclasses
from typing import Annotated, TypeVar, get_type_hints

import jax

T = TypeVar("T")
_STATIC = "__jdc_static__"
Static = Annotated[T, _STATIC]


def pytree_dataclass(cls):
  cls = dataclasses.dataclass(frozen=True)(cls)
  hints = get_type_hints(cls, include_extras=True)
  data, meta = [], []
  for f in dataclasses.fields(cls):
    (meta if _STATIC in getattr(hints[f.name], "__metadata__", ()) else data).append(f.name)
  return jax.tree_util.register_dataclass(cls, data_fields=data, meta_fields=meta)


@contextlib.contextmanager
def copy_and_mutate(obj):
  mutable = copy.copy(obj)
  yield mutable  # callers set fields with object.__setattr__ through `mutate`


def mutate(obj, **changes):
  for k, v in changes.items():
    object.__setattr__(obj, k, v)
  return obj

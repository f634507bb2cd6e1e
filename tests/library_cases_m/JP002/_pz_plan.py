"""Capacity-planning contexts: a named target maps to an abstract device, and
`planning_mesh(target)` is a one-axis AbstractMesh on it, entered with
`jax.sharding.use_abstract_mesh` so that lowering needs no real accelerator."""

from __future__ import annotations

import contextlib
import os

import jax
from jax.sharding import AbstractDevice, AbstractMesh

TARGETS = {
    "tpu-v5e": AbstractDevice(device_kind="TPU v5 lite", num_cores=1, platform="tpu"),
    "h100": AbstractDevice(device_kind="NVIDIA H100 80GB HBM3", num_cores=132, platform="cuda"),
}

DEFAULT_TARGET = os.environ.get("PZ_PLAN_TARGET", "tpu-v5e")


def planning_mesh(target: str | None = None) -> AbstractMesh:
  device = TARGETS[target or DEFAULT_TARGET]
  return AbstractMesh((1,), ("batch",), abstract_device=device)


@contextlib.contextmanager
def planning(target: str | None = None):
  with jax.sharding.use_abstract_mesh(planning_mesh(target)):
    yield

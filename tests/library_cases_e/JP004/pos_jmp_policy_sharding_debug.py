"""Mixed-precision train step with optional sharding diagnostics.

The precision policy is parsed from a compact string ("p=f32,c=bf16,o=f32")
into a `Policy` that casts params, compute and outputs, with dynamic loss
scaling on top. A diagnostics switch (read from the environment) reports
the sharding XLA chose for each gradient. The step is lowered for the
production slice from the launcher before the job is submitted.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from typing import Any

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

_DTYPES = {"f32": jnp.float32, "float32": jnp.float32, "bf16": jnp.bfloat16,
           "bfloat16": jnp.bfloat16, "f16": jnp.float16, "float16": jnp.float16}


def _cast_floating_to(tree, dtype):
  def cast(x):
    return x.astype(dtype) if jnp.issubdtype(x.dtype, jnp.floating) else x
  return jax.tree.map(cast, tree)


@dataclasses.dataclass(frozen=True)
class Policy:
  param_dtype: Any
  compute_dtype: Any
  output_dtype: Any

  def cast_to_param(self, x):
    return _cast_floating_to(x, self.param_dtype)

  def cast_to_compute(self, x):
    return _cast_floating_to(x, self.compute_dtype)

  def cast_to_output(self, x):
    return _cast_floating_to(x, self.output_dtype)


def get_policy(policy_name: str) -> Policy:
  param = jnp.float32
  compute = output = None
  for part in policy_name.split(","):
    key, value = part.split("=", 1)
    if key in ("p", "params"):
      param = _DTYPES[value]
    elif key in ("c", "compute"):
      compute = _DTYPES[value]
    elif key in ("o", "output"):
      output = _DTYPES[value]
  compute = param if compute is None else compute
  output = compute if output is None else output
  return Policy(param, compute, output)


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class DynamicLossScale:
  loss_scale: jax.Array
  counter: jax.Array
  period: int = dataclasses.field(default=2000, metadata=dict(static=True))

  def scale(self, tree):
    return jax.tree.map(lambda x: x * self.loss_scale.astype(x.dtype), tree)

  def unscale(self, tree):
    return jax.tree.map(lambda x: x / self.loss_scale.astype(x.dtype), tree)

  def adjust(self, grads_finite):
    counter = jnp.where(grads_finite, self.counter + 1, 0)
    grow = counter == self.period
    scale = jnp.where(grads_finite, jnp.where(grow, self.loss_scale * 2, self.loss_scale),
                      jnp.maximum(1.0, self.loss_scale / 2))
    return DynamicLossScale(scale, jnp.where(grow, 0, counter), self.period)


def _report_sharding(name):
  return lambda sharding: logging.info("%s sharded as %s", name, sharding)


DEBUG_SHARDING = os.environ.get("DEBUG_SHARDING", "1") == "1"


def make_train_step(policy: Policy, lr: float = 1e-2):
  def loss_fn(params, x, y):
    params, x = policy.cast_to_compute((params, x))
    pred = jnp.tanh(x @ params["w1"]) @ params["w2"]
    return policy.cast_to_output(jnp.mean((pred - y) ** 2))

  def train_step(params, loss_scale: DynamicLossScale, x, y):
    grads = jax.grad(lambda p: loss_scale.scale(loss_fn(p, x, y)))(params)
    grads = policy.cast_to_param(loss_scale.unscale(grads))
    if DEBUG_SHARDING:
      for name, g in grads.items():
        jax.debug.inspect_array_sharding(g, callback=_report_sharding(name))
    finite = jnp.all(jnp.array([jnp.all(jnp.isfinite(g)) for g in jax.tree.leaves(grads)]))
    new_params = jax.tree.map(lambda p, g: jnp.where(finite, p - lr * g, p), params, grads)
    return new_params, loss_scale.adjust(finite)

  return train_step


@dataclasses.dataclass
class LaunchConfig:
  precision: str = "p=f32,c=bf16,o=f32"
  slice_shape: tuple[int, int] = (8, 2)
  target_platform: str = "tpu"
  batch_size: int = 128
  width: int = 256


def lower_for_slice(cfg: LaunchConfig):
  mesh = AbstractMesh(cfg.slice_shape, ("data", "model"), axis_types=(AxisType.Auto, AxisType.Auto))
  params = {"w1": jax.ShapeDtypeStruct((cfg.width, cfg.width), jnp.float32),
            "w2": jax.ShapeDtypeStruct((cfg.width, 1), jnp.float32)}
  param_sh = {"w1": NamedSharding(mesh, P(None, "model")), "w2": NamedSharding(mesh, P("model", None))}
  scale = jax.eval_shape(lambda: DynamicLossScale(jnp.float32(2.0 ** 15), jnp.int32(0)))
  x = jax.ShapeDtypeStruct((cfg.batch_size, cfg.width), jnp.float32)
  y = jax.ShapeDtypeStruct((cfg.batch_size, 1), jnp.float32)
  data = NamedSharding(mesh, P("data"))
  step = jax.jit(make_train_step(get_policy(cfg.precision)),
                 in_shardings=(param_sh, NamedSharding(mesh, P()), data, data))
  return step.trace(params, scale, x, y).lower(lowering_platforms=(cfg.target_platform,))


if __name__ == "__main__":
  print(lower_for_slice(LaunchConfig()).as_text()[:100])

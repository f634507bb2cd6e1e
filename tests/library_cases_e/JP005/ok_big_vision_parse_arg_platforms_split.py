"""A config file with a single-string argument and an AOT check in the trainer.

`get_config(arg)` receives everything after the colon of
`--config file.py:res=128,runlocal` and turns it into typed fields with
`parse_arg`, whose types come from the spec's defaults. The trainer lowers
its update function ahead of time for the platforms the config names
("+"-separated, since "," separates the arguments).
"""

from __future__ import annotations

import os
from typing import Any

import jax
import jax.numpy as jnp


class ConfigDict(dict):
  def __getattr__(self, k):
    try:
      return self[k]
    except KeyError:
      raise AttributeError(k) from None

  def __setattr__(self, k, v):
    self[k] = v


def _to_bool(s: str) -> bool:
  if s.lower() in ("true", "1", ""):
    return s != ""
  if s.lower() in ("false", "0"):
    return False
  raise ValueError(f"not a bool: {s!r}")


def _type_with_default(v):
  if isinstance(v, tuple) and len(v) == 2 and callable(v[1]):
    return v
  if isinstance(v, bool):
    return v, _to_bool
  return v, type(v)


def parse_arg(arg: str | None, **spec) -> ConfigDict:
  arg = arg or ""
  spec = {k: _type_with_default(v) for k, v in spec.items()}
  result = ConfigDict()
  if arg and "," not in arg and "=" not in arg:
    arg = f"{arg}=True" if arg in spec else f"{next(iter(spec))}={arg}"
  given = dict(kv.split("=", 1) for kv in arg.split(",") if kv)
  for name, (default, convert) in spec.items():
    result[name] = convert(given.pop(name)) if name in given else default
  if given:
    raise ValueError(f"unknown config args: {sorted(given)}")
  return result


def get_config(arg=None):
  arg = parse_arg(arg, res=(32, int), runlocal=False, platforms="tpu", batch_size=64)
  config = ConfigDict()
  config.input = ConfigDict(res=arg.res, batch_size=8 if arg.runlocal else arg.batch_size)
  config.model = ConfigDict(width=64, num_classes=10)
  config.lr = 1e-3
  config.aot = ConfigDict(platforms=tuple(arg.platforms.split("+")), enabled=not arg.runlocal)
  return config


def init_params(key, config):
  k1, k2 = jax.random.split(key)
  d = config.input.res * config.input.res
  return {"stem": jax.random.normal(k1, (d, config.model.width)) * 0.01,
          "head": jax.random.normal(k2, (config.model.width, config.model.num_classes)) * 0.01}


def make_update_fn(config):
  def loss_fn(params, images, labels):
    x = images.reshape(images.shape[0], -1)
    logits = jax.nn.relu(x @ params["stem"]) @ params["head"]
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * labels, -1))

  @jax.jit
  def update_fn(params, images, labels):
    loss, grads = jax.value_and_grad(loss_fn)(params, images, labels)
    return jax.tree.map(lambda p, g: p - config.lr * g, params, grads), loss

  return update_fn


def main(config):
  update_fn = make_update_fn(config)
  params = jax.eval_shape(lambda key: init_params(key, config), jax.random.key(0))
  images = jax.ShapeDtypeStruct((config.input.batch_size, config.input.res, config.input.res), jnp.float32)
  labels = jax.ShapeDtypeStruct((config.input.batch_size, config.model.num_classes), jnp.float32)
  if config.aot.enabled:
    traced = update_fn.trace(params, images, labels)
    lowered = traced.lower(lowering_platforms=config.aot.platforms)
    print("AOT lowering ok:", len(lowered.as_text()))


if __name__ == "__main__":
  main(get_config(os.environ.get("CONFIG_ARG", "res=16")))

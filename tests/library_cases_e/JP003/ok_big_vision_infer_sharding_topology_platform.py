"""Memory check of a ViT-ish train step on a compile-only topology.

Sharding is declared in the config as regex rules mapping parameter names to
registered sharding ops ("fsdp(axis='data')", "replicate"), resolved against
a mesh described as [(axis_name, size)] with -1 meaning "the rest". Before a
job is launched the step is compiled for the target slice's shape and
platform, which has no devices on the launching host.
"""

from __future__ import annotations

import ast
import functools
import re
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P


class ConfigDict(dict):
  def __getattr__(self, k):
    try:
      return self[k]
    except KeyError:
      raise AttributeError(k) from None

  def __setattr__(self, k, v):
    self[k] = v


_SHARDING_OPS: dict[str, Any] = {}


def register(name):
  def _register(fn):
    _SHARDING_OPS[name] = fn
    return fn
  return _register


def lookup(spec: str):
  expr = ast.parse(spec, mode="eval").body
  if isinstance(expr, ast.Name):
    return _SHARDING_OPS[expr.id]()
  kwargs = {kw.arg: ast.literal_eval(kw.value) for kw in expr.keywords}
  return _SHARDING_OPS[expr.func.id](**kwargs)


@register("replicate")
def replicate():
  def _update(cur_spec, mesh, name, x):
    del mesh, name, x
    return cur_spec
  return _update


@register("fsdp")
def fsdp(axis, min_size_to_shard_mb=0):
  def _update(cur_spec, mesh, name, x):
    del name
    if np.prod(x.shape) * x.dtype.itemsize < min_size_to_shard_mb * 2**20:
      return cur_spec
    axis_size = mesh.shape[axis]
    for i in np.argsort(x.shape)[::-1]:
      if cur_spec[i] is None and x.shape[i] % axis_size == 0:
        new = list(cur_spec)
        new[i] = axis
        return tuple(new)
    return cur_spec
  return _update


def infer_sharding(params, strategy, mesh):
  flat, treedef = jax.tree_util.tree_flatten_with_path(params)
  names = ["/".join(str(getattr(k, "key", k)) for k in path) for path, _ in flat]
  specs = [(None,) * x.ndim for _, x in flat]
  for pattern, op_str in strategy:
    op = lookup(op_str)
    for i, (name, (_, x)) in enumerate(zip(names, flat)):
      if re.fullmatch(pattern, name):
        specs[i] = op(specs[i], mesh, name, x)
  return treedef.unflatten([NamedSharding(mesh, P(*s)) for s in specs])


def topology_mesh(config_mesh, num_devices):
  names, sizes = zip(*config_mesh)
  sizes = list(sizes)
  if -1 in sizes:
    known = int(np.prod([s for s in sizes if s != -1]))
    sizes[sizes.index(-1)] = num_devices // known
  return AbstractMesh(tuple(sizes), tuple(names))


def get_config():
  config = ConfigDict()
  config.batch_size = 64
  config.width = 128
  config.depth = 2
  config.mesh = [("data", -1)]
  config.sharding_strategy = [(".*", "fsdp(axis='data')"), (".*bias", "replicate")]
  config.topology = ConfigDict(name="v5e-16", num_devices=16, platform="tpu")
  return config


def init_params(key, width, depth):
  keys = jax.random.split(key, depth)
  return {f"block{i}": {"kernel": jax.random.normal(k, (width, width)), "bias": jnp.zeros((width,))}
          for i, k in enumerate(keys)}


def loss_fn(params, x):
  for block in params.values():
    x = jax.nn.gelu(x @ block["kernel"] + block["bias"])
  return jnp.mean(x ** 2)


def update_fn(params, x, lr=1e-3):
  loss, grads = jax.value_and_grad(loss_fn)(params, x)
  return jax.tree.map(lambda p, g: p - lr * g, params, grads), loss


def main(config):
  mesh = topology_mesh(config.mesh, config.topology.num_devices)
  params = jax.eval_shape(functools.partial(init_params, width=config.width, depth=config.depth),
                          jax.random.key(0))
  params_sharding = infer_sharding(params, config.sharding_strategy, mesh)
  batch_sharding = NamedSharding(mesh, P("data"))
  x = jax.ShapeDtypeStruct((config.batch_size, config.width), jnp.float32)
  step = jax.jit(update_fn, in_shardings=(params_sharding, batch_sharding),
                 out_shardings=(params_sharding, NamedSharding(mesh, P())))
  lowered = step.trace(params, x).lower(lowering_platforms=(config.topology.platform,))
  print("step lowers for", config.topology.name, len(lowered.as_text()))


if __name__ == "__main__":
  main(get_config())

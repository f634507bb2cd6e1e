"""Ahead-of-time compile of a training step for a named topology; the step streams its metrics."""

import argparse

import jax
import jax.numpy as jnp

import _hostlog
import _topology


def parse_flags(argv):
  parser = argparse.ArgumentParser()
  parser.add_argument("--compile_topology", default="v6e-8")
  parser.add_argument("--per_device_batch_size", type=int, default=4)
  parser.add_argument("--model_dim", type=int, default=64)
  return parser.parse_known_args(argv)[0]


def init_params(key, dim):
  k1, k2 = jax.random.split(key)
  return {"w_in": jax.random.normal(k1, (dim, 4 * dim)), "w_out": jax.random.normal(k2, (4 * dim, dim))}


def mlp(params, x):
  return jax.nn.gelu(x @ params["w_in"]) @ params["w_out"]


def train_step(params, step, x):
  def loss_fn(p):
    return jnp.mean((mlp(p, x) - x) ** 2)

  loss, grads = jax.value_and_grad(loss_fn)(params)
  gnorm = jnp.sqrt(sum(jnp.sum(g * g) for g in jax.tree.leaves(grads)))
  jax.debug.callback(_hostlog.record_scalars, step, loss=loss, grad_norm=gnorm)
  params = jax.tree.map(lambda p, g: p - 1e-3 * g, params, grads)
  return params, step + 1


def jit_and_lower(flags):
  system = _topology.get_system_characteristics(flags.compile_topology)
  batch = flags.per_device_batch_size * system.devices_per_slice
  params = jax.eval_shape(lambda: init_params(jax.random.key(0), flags.model_dim))
  step = jax.ShapeDtypeStruct((), jnp.int32)
  x = jax.ShapeDtypeStruct((batch, flags.model_dim), jnp.float32)
  traced = jax.jit(train_step, donate_argnums=(0,)).trace(params, step, x)
  return traced.lower(lowering_platforms=(system.platform,))


if __name__ == "__main__":
  import sys

  lowered = jit_and_lower(parse_flags(sys.argv[1:]))
  print(lowered.as_text()[:200])

"""Decoder block with optional sharding introspection (off by default), compiled for a GPU topology."""

import functools
import logging

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

CONFIG = {"debug_sharding": False, "hardware": "cuda", "dcn_data": 2, "ici_fsdp": 4, "emb_dim": 256}


def log_sharding(name):
  def callback(sharding):
    logging.info("%s sharding: %s", name, sharding)

  return callback


def maybe_inspect(x, name, config):
  if config["debug_sharding"]:
    jax.debug.inspect_array_sharding(x, callback=log_sharding(name))
  return x


def decoder_block(params, x, config):
  h = maybe_inspect(x @ params["wi"], "mlp_hidden", config)
  return x + jax.nn.silu(h) @ params["wo"]


def compile_for(config):
  mesh = jax.sharding.AbstractMesh(
      (config["dcn_data"], config["ici_fsdp"]), ("data", "fsdp"), axis_types=(jax.sharding.AxisType.Auto,) * 2
  )
  params = {
      "wi": jax.ShapeDtypeStruct((config["emb_dim"], 1024), jnp.bfloat16, sharding=NamedSharding(mesh, P("fsdp"))),
      "wo": jax.ShapeDtypeStruct((1024, config["emb_dim"]), jnp.bfloat16, sharding=NamedSharding(mesh, P(None, "fsdp"))),
  }
  x = jax.ShapeDtypeStruct((16, config["emb_dim"]), jnp.bfloat16, sharding=NamedSharding(mesh, P("data")))
  traced = jax.jit(functools.partial(decoder_block, config=config)).trace(params, x)
  return traced.lower(lowering_platforms=(config["hardware"],))


if __name__ == "__main__":
  print(compile_for(CONFIG).as_text()[:80])

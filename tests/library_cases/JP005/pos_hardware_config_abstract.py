"""Lowers an FSDP-sharded MLP for the hardware named in the run configuration."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

from _export_defaults import parse_config


class Lowerer:
  def __init__(self, config):
    self.config = config
    self.mesh = jax.sharding.AbstractMesh((config["ici_fsdp_parallelism"],), ("fsdp",))

  def shardings(self):
    fsdp = NamedSharding(self.mesh, P("fsdp"))
    return {"wi": fsdp, "wo": NamedSharding(self.mesh, P(None, "fsdp"))}

  def lower(self, fn, *specs):
    traced = jax.jit(fn, in_shardings=(self.shardings(), None)).trace(*specs)
    return traced.lower(lowering_platforms=self.config["hardware"])


def mlp(params, x):
  return jnp.maximum(x @ params["wi"], 0) @ params["wo"]


if __name__ == "__main__":
  config = parse_config()
  params = {
      "wi": jax.ShapeDtypeStruct((config["emb_dim"], config["mlp_dim"]), jnp.float32),
      "wo": jax.ShapeDtypeStruct((config["mlp_dim"], config["emb_dim"]), jnp.float32),
  }
  x = jax.ShapeDtypeStruct((8, config["emb_dim"]), jnp.float32)
  lowered = Lowerer(config).lower(mlp, params, x)
  print(lowered.as_text()[:80])

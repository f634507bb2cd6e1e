"""Lowering a policy model's forward pass with shardings built from the YAML mesh section
and the model's ShardingConfig defaults (tunix cli + models layout)."""

import ast
import dataclasses

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec

from _tunix_mesh import create_mesh, parse_mesh_config

RAW_KEYS = {
    "actor_model_config": {"model_name": "llama3.2-1b", "mesh": {"shape": "(2,4)", "axis_names": "('fsdp','tp')"}},
    "reference_model_config": {"model_name": "llama3.2-1b", "mesh": {"shape": [1, 1], "axis_names": ["fsdp", "tp"]}},
}


def _literal(v):
    return ast.literal_eval(v) if isinstance(v, str) else v


@dataclasses.dataclass(frozen=True)
class ShardingConfig:
    emb_vd: tuple
    ffw_weight_df: tuple
    ffw_weight_fd: tuple
    act_btd: tuple

    @staticmethod
    def get_default_sharding(is_sampling=False):
        fsdp = "fsdp" if not is_sampling else None
        return ShardingConfig(emb_vd=("tp", fsdp), ffw_weight_df=(fsdp, "tp"),
                              ffw_weight_fd=("tp", fsdp), act_btd=("fsdp", None, None))


def forward(params, tokens):
    x = params["embed"][tokens]
    h = jax.nn.silu(x @ params["w_in"]) @ params["w_out"]
    return (x + h) @ params["embed"].T


def lower_policy(raw, model_key, vocab=512, dim=64, hidden=256):
    section = {k: _literal(v) for k, v in raw[model_key]["mesh"].items()}
    shape, names = parse_mesh_config({model_key: {"mesh": section}}, model_key)
    mesh = create_mesh(shape, names)
    sc = ShardingConfig.get_default_sharding()
    shard = lambda axes: NamedSharding(mesh, PartitionSpec(*axes))
    param_shardings = {"embed": shard(sc.emb_vd), "w_in": shard(sc.ffw_weight_df), "w_out": shard(sc.ffw_weight_fd)}
    specs = {"embed": jax.ShapeDtypeStruct((vocab, dim), jnp.float32),
             "w_in": jax.ShapeDtypeStruct((dim, hidden), jnp.float32),
             "w_out": jax.ShapeDtypeStruct((hidden, dim), jnp.float32)}
    tokens = jax.ShapeDtypeStruct((8, 16), jnp.int32)
    fn = jax.jit(forward, in_shardings=(param_shardings, shard(("fsdp", None))))
    return fn.lower(specs, tokens)


if __name__ == "__main__":
    lowered = lower_policy(RAW_KEYS, "actor_model_config")
    print(lowered.as_text()[:80])

import jax
import jax.numpy as jnp

EXPORT_CONFIG = """
model: gemma-tiny
vocab_size: 512
embed_dim: 64
num_layers: 2
export_platforms: tpu,cuda
"""


def parse(text):
    cfg = {}
    for line in text.strip().splitlines():
        key, value = (part.strip() for part in line.split(":", 1))
        cfg[key] = int(value) if value.isdigit() else value
    return cfg


def init_params(cfg, key):
    keys = jax.random.split(key, cfg["num_layers"] + 1)
    d = cfg["embed_dim"]
    return {
        "embedder": jax.random.normal(keys[0], (cfg["vocab_size"], d)) * 0.02,
        "layers": [jax.random.normal(k, (d, d)) * d**-0.5 for k in keys[1:]],
    }


def forward(params, tokens):
    x = params["embedder"][tokens]
    for w in params["layers"]:
        x = x + jax.nn.gelu(x @ w)
    return x @ params["embedder"].T


def export_model(cfg, params):
    tokens = jax.ShapeDtypeStruct((1, 32), jnp.int32)
    shapes = jax.tree.map(lambda a: jax.ShapeDtypeStruct(a.shape, a.dtype), params)
    return jax.export.export(jax.jit(forward), platforms=cfg["export_platforms"].split(","))(shapes, tokens)


if __name__ == "__main__":
    cfg = parse(EXPORT_CONFIG)
    params = init_params(cfg, jax.random.key(0))
    exported = export_model(cfg, params)
    print(exported.platforms)

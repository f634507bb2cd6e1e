import argparse

import jax
import jax.numpy as jnp


def get_parser():
    parser = argparse.ArgumentParser("offline_export")
    parser.add_argument("--platforms", type=str, nargs="+", default=["tpu"])
    parser.add_argument("--max-model-len", type=int, default=1024)
    parser.add_argument("--num-heads", type=int, default=8)
    parser.add_argument("--head-dim", type=int, default=64)
    return parser


def rotary(x, positions):
    half = x.shape[-1] // 2
    freqs = 1.0 / (10000.0 ** (jnp.arange(half) / half))
    angles = positions[:, None] * freqs[None, :]
    cos, sin = jnp.cos(angles)[:, None, :], jnp.sin(angles)[:, None, :]
    x1, x2 = x[..., :half], x[..., half:]
    return jnp.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)


class OfflineExporter:
    def __init__(self, args):
        self.args = args

    def export_rotary(self):
        a = self.args
        q = jax.ShapeDtypeStruct((a.max_model_len, a.num_heads, a.head_dim), jnp.bfloat16)
        pos = jax.ShapeDtypeStruct((a.max_model_len,), jnp.float32)
        return jax.export.export(jax.jit(rotary), platforms=a.platforms)(q, pos)


if __name__ == "__main__":
    exporter = OfflineExporter(get_parser().parse_args([]))
    print(exporter.export_rotary().platforms)

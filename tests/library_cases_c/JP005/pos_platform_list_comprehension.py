import argparse

import jax
import jax.numpy as jnp

SUPPORTED = ("cpu", "cuda", "rocm", "tpu")


def parse_args(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--target", action="append", default=[])
    parser.add_argument("--seq_len", type=int, default=128)
    parser.add_argument("--heads", type=int, default=4)
    return parser.parse_args(argv)


def causal_attention(q, k, v):
    s = jnp.einsum("hqd,hkd->hqk", q, k) / jnp.sqrt(q.shape[-1]).astype(q.dtype)
    mask = jnp.tril(jnp.ones((q.shape[1], k.shape[1]), bool))
    s = jnp.where(mask, s, -jnp.inf)
    return jnp.einsum("hqk,hkd->hqd", jax.nn.softmax(s, axis=-1), v)


def lower_attention(args):
    platforms = [p.lower() for p in args.target if p.lower() in SUPPORTED]
    spec = jax.ShapeDtypeStruct((args.heads, args.seq_len, 64), jnp.bfloat16)
    traced = jax.jit(causal_attention).trace(spec, spec, spec)
    return traced.lower(lowering_platforms=platforms)


if __name__ == "__main__":
    args = parse_args(["--target", "TPU", "--seq_len", "256"])
    print(lower_attention(args).as_text()[:80])

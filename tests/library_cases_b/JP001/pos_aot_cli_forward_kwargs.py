import argparse

import jax
import jax.numpy as jnp
from jax.experimental import io_callback


def _parse_args(argv=None):
    parser = argparse.ArgumentParser(description="Ahead-of-time compile the decode step.")
    parser.add_argument("--target", default="tpu", help="platform of the serving fleet")
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--hidden", type=int, default=256)
    return parser.parse_args(argv)


def _emit_norm(norm):
    print(f"hidden norm {float(norm):.3f}")


def decode_step(w, h):
    h = jnp.tanh(h @ w)
    io_callback(_emit_norm, None, jnp.linalg.norm(h))
    return h


def aot_lower(jitted, specs, **lower_kwargs):
    traced = jitted.trace(*specs)
    return traced.lower(**lower_kwargs)


def main(argv=None):
    args = _parse_args(argv)
    specs = (
        jax.ShapeDtypeStruct((args.hidden, args.hidden), jnp.float32),
        jax.ShapeDtypeStruct((args.batch, args.hidden), jnp.float32),
    )
    lowered = aot_lower(jax.jit(decode_step), specs, lowering_platforms=(args.target,))
    print(len(lowered.as_text()))


if __name__ == "__main__":
    main([])

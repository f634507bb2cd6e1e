import jax
import jax.numpy as jnp

from _export_defaults import EXPORT_PLATFORMS, EXPORT_VERSION


def layer_norm(x, scale, bias):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + 1e-5) * scale + bias


def export_fn(fn, *specs, platforms=EXPORT_PLATFORMS, **export_kwargs):
    exported = jax.export.export(jax.jit(fn), platforms=platforms, **export_kwargs)(*specs)
    return exported


def export_bundle(hidden):
    specs = (jax.ShapeDtypeStruct((16, hidden), jnp.float32),
             jax.ShapeDtypeStruct((hidden,), jnp.float32),
             jax.ShapeDtypeStruct((hidden,), jnp.float32))
    return {"version": EXPORT_VERSION, "layer_norm": export_fn(layer_norm, *specs)}


if __name__ == "__main__":
    bundle = export_bundle(hidden=768)
    print(bundle["version"], bundle["layer_norm"].platforms)

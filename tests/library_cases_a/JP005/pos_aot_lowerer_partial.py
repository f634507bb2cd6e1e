import functools

import jax
import jax.numpy as jnp


def _lower(fn, *args, static_argnames=(), **lower_kwargs):
  jitted = jax.jit(fn, static_argnames=static_argnames)
  return jitted.trace(*args).lower(**lower_kwargs)


def make_aot_lowerer(platform=None, **jit_kwargs):
  platform = platform or jax.default_backend()
  return functools.partial(_lower, lowering_platforms=platform, **jit_kwargs)


def layer_norm(x, scale, bias, eps=1e-6):
  mean = jnp.mean(x, axis=-1, keepdims=True)
  var = jnp.var(x, axis=-1, keepdims=True)
  return (x - mean) * jax.lax.rsqrt(var + eps) * scale + bias


if __name__ == "__main__":
  lower = make_aot_lowerer()
  x = jax.ShapeDtypeStruct((8, 128), jnp.float32)
  p = jax.ShapeDtypeStruct((128,), jnp.float32)
  lowered = lower(layer_norm, x, p, p)
  print(lowered.as_text()[:100])

import jax
import jax.numpy as jnp


class Stage:
    def __init__(self, fn, *, static_argnames=()):
        self.fn = fn
        self.static_argnames = static_argnames

    def trace(self, *args, **kwargs):
        return jax.jit(self.fn, static_argnames=self.static_argnames).trace(*args, **kwargs)

    def lower(self, *args, platforms=("cpu"), **kwargs):
        return self.trace(*args, **kwargs).lower(lowering_platforms=platforms)

    def compile(self, *args, **kwargs):
        return self.lower(*args, **kwargs).compile()


def rms_norm(x, scale, *, eps):
    var = jnp.mean(jnp.square(x), axis=-1, keepdims=True)
    return x * jax.lax.rsqrt(var + eps) * scale


if __name__ == "__main__":
    stage = Stage(rms_norm, static_argnames=("eps",))
    x = jnp.ones((4, 64), jnp.float32)
    scale = jnp.ones((64,), jnp.float32)
    compiled = stage.compile(x, scale, eps=1e-6)
    print(compiled(x, scale))

"""KAN layers in plain JAX: parameters are pytrees, layers are stateless."""

from __future__ import annotations

import jax
import jax.numpy as jnp


class ChebyshevLayer:
    def __init__(self, n_in: int, n_out: int, D: int = 5):
        self.n_in, self.n_out, self.D = n_in, n_out, D

    def init(self, key):
        std = 1.0 / (self.n_in * (self.D + 1))
        return {"c": std * jax.random.normal(key, (self.n_in, self.n_out, self.D + 1))}

    def param_spec(self):
        return {"c": jax.ShapeDtypeStruct((self.n_in, self.n_out, self.D + 1), jnp.float32)}

    def __call__(self, params, x):
        x = jnp.tanh(x)
        T = [jnp.ones_like(x), x]
        for _ in range(2, self.D + 1):
            T.append(2 * x * T[-1] - T[-2])
        basis = jnp.stack(T[: self.D + 1], axis=-1)           # (batch, n_in, D+1)
        return jnp.einsum("bik,iok->bo", basis, params["c"])


class FourierLayer:
    def __init__(self, n_in: int, n_out: int, D: int = 5):
        self.n_in, self.n_out, self.D = n_in, n_out, D

    def param_spec(self):
        return {"c": jax.ShapeDtypeStruct((2, self.n_in, self.n_out, self.D), jnp.float32)}

    def __call__(self, params, x):
        k = jnp.arange(1, self.D + 1)
        kx = x[..., None] * k
        return (jnp.einsum("bik,iok->bo", jnp.cos(kx), params["c"][0])
                + jnp.einsum("bik,iok->bo", jnp.sin(kx), params["c"][1]))


def get_layer(layer_type: str):
    layer_map = {"chebyshev": ChebyshevLayer, "fourier": FourierLayer}
    if layer_type not in layer_map:
        raise ValueError(f"Unknown layer type: {layer_type}. Available types: {list(layer_map)}")
    return layer_map[layer_type]

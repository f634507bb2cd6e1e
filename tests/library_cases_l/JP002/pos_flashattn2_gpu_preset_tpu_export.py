"""Export a decoder attention block for the TPU serving fleet.

Shaped after jax_flash_attn2: `Backend`/`Platform` string enums, an
`AttentionConfig` resolved in `__post_init__`, a `FlashAttention` object that
dispatches on the platform, and whose Pallas path hands over to the Triton
kernel when the configured backend is a GPU.  The block takes its attention
settings from a named preset.
"""

from __future__ import annotations

import functools
import warnings

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as pltriton

from _fa2_config import AttentionConfig, Backend, Platform


def _attention_kernel(q_ref, k_ref, v_ref, o_ref, *, scale):
    q, k, v = q_ref[0], k_ref[0], v_ref[0]
    s = jnp.dot(q, k.T, preferred_element_type=jnp.float32) * scale
    p = jnp.exp(s - jnp.max(s, axis=-1, keepdims=True))
    o = jnp.dot(p.astype(v.dtype), v, preferred_element_type=jnp.float32)
    o_ref[0] = (o / jnp.sum(p, axis=-1, keepdims=True)).astype(o_ref.dtype)


def _specs(bh_shape, block_q):
    _, seq, dim = bh_shape
    q_spec = pl.BlockSpec((1, block_q, dim), lambda b, i: (b, i, 0))
    kv_spec = pl.BlockSpec((1, seq, dim), lambda b, i: (b, 0, 0))
    return [q_spec, kv_spec, kv_spec], q_spec


class FlashAttention:
    def __init__(self, config: AttentionConfig | None = None):
        self.config = config or AttentionConfig()

    def __call__(self, query, key, value):
        b, s, h, d = query.shape
        to_bh = lambda x: x.transpose(0, 2, 1, 3).reshape(b * h, s, d)
        q, k, v = to_bh(query), to_bh(key), to_bh(value)
        scale = self.config.softmax_scale or d ** -0.5
        if self.config.platform == Platform.TRITON:
            out = self._compute_triton(q, k, v, scale)
        elif self.config.platform == Platform.PALLAS:
            out = self._compute_pallas(q, k, v, scale)
        else:
            out = self._compute_jax(q, k, v, scale)
        return out.reshape(b, h, s, d).transpose(0, 2, 1, 3)

    def _compute_triton(self, q, k, v, scale):
        block_q = min(self.config.blocksize_q, q.shape[1])
        in_specs, out_spec = _specs(q.shape, block_q)
        return pl.pallas_call(
            functools.partial(_attention_kernel, scale=scale),
            out_shape=jax.ShapeDtypeStruct(q.shape, q.dtype),
            grid=(q.shape[0], q.shape[1] // block_q),
            in_specs=in_specs,
            out_specs=out_spec,
            compiler_params=pltriton.CompilerParams(num_warps=4, num_stages=2),
        )(q, k, v)

    def _compute_pallas(self, q, k, v, scale):
        if self.config.backend == Backend.GPU:
            warnings.warn("Pallas flash attention is deprecated on GPUs; using the Triton kernel",
                          stacklevel=2)
            return self._compute_triton(q, k, v, scale)
        block_q = min(self.config.blocksize_q, q.shape[1])
        in_specs, out_spec = _specs(q.shape, block_q)
        tpu_call = pl.pallas_call(
            functools.partial(_attention_kernel, scale=scale),
            out_shape=jax.ShapeDtypeStruct(q.shape, q.dtype),
            grid=(q.shape[0], q.shape[1] // block_q),
            in_specs=in_specs,
            out_specs=out_spec,
            compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel")),
        )
        return tpu_call(q, k, v)

    def _compute_jax(self, q, k, v, scale):
        s = jnp.einsum("bqd,bkd->bqk", q, k, preferred_element_type=jnp.float32) * scale
        return jnp.einsum("bqk,bkd->bqd", jax.nn.softmax(s, axis=-1).astype(v.dtype), v)


def create_flash_attention(backend=None, platform=None, **kwargs) -> FlashAttention:
    return FlashAttention(AttentionConfig(backend=backend, platform=platform, **kwargs))


ATTENTION_PRESETS = {
    # tuned on the A100 serving nodes; the preset the serving stack ships with
    "default": {"backend": "gpu", "platform": "pallas", "blocksize_q": 128},
    "debug": {"backend": "cpu", "platform": "jax"},
}


class DecoderAttention:
    def __init__(self, num_heads: int, head_dim: int, preset: str = "default"):
        self.num_heads, self.head_dim = num_heads, head_dim
        self.attn = create_flash_attention(**ATTENTION_PRESETS[preset])

    def __call__(self, params, x):
        b, s, _ = x.shape
        qkv = (x @ params["wqkv"]).reshape(b, s, 3, self.num_heads, self.head_dim)
        out = self.attn(qkv[:, :, 0], qkv[:, :, 1], qkv[:, :, 2])
        return out.reshape(b, s, -1) @ params["wo"]


def export_for_fleet(layer: DecoderAttention, batch=2, seq=256, width=512):
    hd = layer.num_heads * layer.head_dim
    params = {"wqkv": jax.ShapeDtypeStruct((width, 3 * hd), jnp.bfloat16),
              "wo": jax.ShapeDtypeStruct((hd, width), jnp.bfloat16)}
    x = jax.ShapeDtypeStruct((batch, seq, width), jnp.bfloat16)
    return jax.export.export(jax.jit(layer), platforms=("tpu",))(params, x)


if __name__ == "__main__":
    exported = export_for_fleet(DecoderAttention(num_heads=4, head_dim=128))
    print(exported.platforms, exported.out_avals)

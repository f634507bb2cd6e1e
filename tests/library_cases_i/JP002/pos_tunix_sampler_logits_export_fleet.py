"""Sampler logit post-processing exported once for every platform in the fleet
(tunix cli config + model catalog layout)."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

from _tunix_cli import load_raw_keys, lookup

FAMILY_KERNEL_PARAMS = {
    "gemma": pltpu.CompilerParams(dimension_semantics=("parallel",)),
    "llama3": pltpu.CompilerParams(dimension_semantics=("arbitrary",)),
}


def _softcap_kernel(x_ref, o_ref, *, cap):
    o_ref[...] = cap * jnp.tanh(x_ref[...] / cap)


def softcap_logits(logits, *, cap, block, params, use_pallas):
    if not use_pallas:
        return cap * jnp.tanh(logits / cap)
    rows, vocab = logits.shape
    return pl.pallas_call(
        functools.partial(_softcap_kernel, cap=cap),
        grid=(rows // block,),
        in_specs=[pl.BlockSpec((block, vocab), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((block, vocab), lambda i: (i, 0)),
        out_shape=jax.ShapeDtypeStruct(logits.shape, logits.dtype),
        compiler_params=params,
    )(logits)


def make_sample_step(raw, use_pallas):
    naming = lookup(raw["model_name"])
    params = FAMILY_KERNEL_PARAMS[naming.model_family]

    def sample_step(hidden, embed, temperature):
        logits = hidden @ embed.T
        logits = softcap_logits(logits, cap=30.0, block=raw["decode_block"], params=params, use_pallas=use_pallas)
        return jnp.argmax(logits / temperature, axis=-1)

    return naming, sample_step


def export_sampler(raw):
    naming, step = make_sample_step(raw, use_pallas=True)
    hidden = jax.ShapeDtypeStruct((16, naming.embed_dim), jnp.float32)
    embed = jax.ShapeDtypeStruct((512, naming.embed_dim), jnp.float32)
    temp = jax.ShapeDtypeStruct((), jnp.float32)
    return jax.export.export(jax.jit(step), platforms=raw["export_platforms"])(hidden, embed, temp)


if __name__ == "__main__":
    exported = export_sampler(load_raw_keys())
    print(exported.platforms)

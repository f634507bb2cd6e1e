"""Export one step of an event-driven network for a TPU inference host.

Shaped after brainevent: an `XLACustomKernel` primitive for a binary
(spike) x dense-weight product, with a plain JAX kernel for the CPU and a
Pallas kernel for each accelerator, registered in a loop over platforms; the
Pallas kernel generator asks a params table for its platform's compiler params.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

from _be_op import PALLAS_PARAMS, XLACustomKernel


def _jax_kernel_generator(outs, block_n: int = 128, **_):
    def kernel(spikes, weights):
        return [(spikes > 0).astype(weights.dtype) @ weights]

    return kernel


def _binary_mm_body(spk_ref, w_ref, o_ref):
    events = (spk_ref[...] > 0).astype(w_ref.dtype)
    o_ref[...] = jnp.dot(events, w_ref[...], preferred_element_type=jnp.float32).astype(o_ref.dtype)


def _pallas_kernel_generator(outs, platform: str, block_n: int = 128, **_):
    (out,) = outs
    batch, n_post = out.shape

    def kernel(spikes, weights):
        n_pre = weights.shape[0]
        return [pl.pallas_call(
            _binary_mm_body,
            out_shape=jax.ShapeDtypeStruct(out.shape, out.dtype),
            grid=(n_post // block_n,),
            in_specs=[pl.BlockSpec((batch, n_pre), lambda j: (0, 0)),
                      pl.BlockSpec((n_pre, block_n), lambda j: (0, j))],
            out_specs=pl.BlockSpec((batch, block_n), lambda j: (0, j)),
            **PALLAS_PARAMS[platform](),
        )(spikes, weights)]

    return kernel


binary_densemm = XLACustomKernel("binary_densemm")
binary_densemm.def_kernel("jax", "cpu", _jax_kernel_generator)
for _platform in ("tpu", "gpu"):
    binary_densemm.def_pallas_kernel(
        _platform, lambda **kw: _pallas_kernel_generator(platform=_platform, **kw))


def network_step(v, spikes, weights, *, tau=10.0, dt=0.1, v_th=1.0):
    out = jax.ShapeDtypeStruct((spikes.shape[0], weights.shape[1]), jnp.float32)
    (syn,) = binary_densemm(spikes, weights, outs=[out], block_n=128)
    v = v + dt / tau * (-v + syn)
    fired = v >= v_th
    return jnp.where(fired, 0.0, v), fired.astype(jnp.float32)


if __name__ == "__main__":
    batch, n_pre, n_post = 8, 256, 512
    v = jax.ShapeDtypeStruct((batch, n_post), jnp.float32)
    spikes = jax.ShapeDtypeStruct((batch, n_pre), jnp.float32)
    weights = jax.ShapeDtypeStruct((n_pre, n_post), jnp.float32)
    exported = jax.export.export(jax.jit(network_step), platforms=("tpu",))(v, spikes, weights)
    print("exported for", exported.platforms)

"""Wavelet filter handling after jaxwt's utils: names resolve to built-in filter banks,
anything else is treated as a user wavelet whose filters are computed on the host."""

import jax
import jax.numpy as jnp
import numpy as np

_SQ2 = np.float32(1 / np.sqrt(2))
BUILTIN = {
    "haar": (np.array([_SQ2, _SQ2], np.float32), np.array([-_SQ2, _SQ2], np.float32)),
    "db1": (np.array([_SQ2, _SQ2], np.float32), np.array([-_SQ2, _SQ2], np.float32)),
}


class HostWavelet:
    """A wavelet whose filter bank comes from a NumPy routine (e.g. a design tool)."""

    def __init__(self, name, design_fn, length):
        self.name, self.design_fn, self.length = name, design_fn, length


def _as_wavelet(wavelet):
    if isinstance(wavelet, str):
        return BUILTIN[wavelet]
    return wavelet


def get_filter_arrays(wavelet, dtype=jnp.float32):
    wavelet = _as_wavelet(wavelet)
    if isinstance(wavelet, HostWavelet):
        shape = jax.ShapeDtypeStruct((2, wavelet.length), dtype)
        bank = jax.pure_callback(lambda: np.asarray(wavelet.design_fn(wavelet.length), dtype), shape)
        return bank[0], bank[1]
    lo, hi = wavelet
    return jnp.asarray(lo, dtype), jnp.asarray(hi, dtype)

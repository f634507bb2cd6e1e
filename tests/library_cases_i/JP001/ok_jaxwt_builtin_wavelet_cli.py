"""Multi-level 1-D wavelet decomposition compiled for a target from the command line (jaxwt layout)."""

import argparse
import functools

import jax
import jax.numpy as jnp
import numpy as np

from _jaxwt_filters import HostWavelet, get_filter_arrays


def smooth_design(length):
    t = np.linspace(-1, 1, length)
    lo = np.exp(-4 * t**2)
    lo = lo / np.linalg.norm(lo)
    hi = lo[::-1] * (-1) ** np.arange(length)
    return np.stack([lo, hi])


WAVELETS = {"haar": "haar", "smooth4": HostWavelet("smooth4", smooth_design, 4)}


def _fwt_step(x, lo, hi):
    pad = lo.shape[0] - 1
    xp = jnp.pad(x, (pad, pad), mode="reflect")
    a = jnp.convolve(xp, lo[::-1], mode="valid")[::2]
    d = jnp.convolve(xp, hi[::-1], mode="valid")[::2]
    return a, d


def wavedec(data, wavelet, *, level):
    lo, hi = get_filter_arrays(wavelet)
    coeffs = []
    a = data
    for _ in range(level):
        a, d = _fwt_step(a, lo, hi)
        coeffs.append(d)
    coeffs.append(a)
    return coeffs[::-1]


def parse_args(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--wavelet", default="haar", choices=sorted(WAVELETS))
    p.add_argument("--level", type=int, default=3)
    p.add_argument("--platform", default="rocm")
    p.add_argument("--length", type=int, default=256)
    return p.parse_args(argv)


def main(args):
    fn = jax.jit(functools.partial(wavedec, wavelet=WAVELETS[args.wavelet], level=args.level))
    traced = fn.trace(jax.ShapeDtypeStruct((args.length,), jnp.float32))
    lowered = traced.lower(lowering_platforms=(args.platform,))
    return lowered


if __name__ == "__main__":
    print(main(parse_args()).as_text()[:120])

"""Fourier-space kernels for a particle-mesh solver."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np


def fftk(shape):
    """Wave numbers of a real FFT of a cubic grid, broadcastable."""
    kvec = []
    for axis, n in enumerate(shape):
        k = np.fft.rfftfreq(n) if axis == len(shape) - 1 else np.fft.fftfreq(n)
        sh = [1] * len(shape)
        sh[axis] = -1
        kvec.append((2 * np.pi * k).reshape(sh).astype(np.float32))
    return kvec


def invlaplace_kernel(kvec):
    kk = sum(ki ** 2 for ki in kvec)
    return jnp.where(kk == 0, 0.0, -1.0 / jnp.where(kk == 0, 1.0, kk))


def gradient_kernel(kvec, direction):
    return 1j * kvec[direction]


def growth_factor(a, omega_m=0.3):
    # Carroll-Press-Turner approximation, normalised at a = 1
    def g(a):
        om = omega_m / (omega_m + (1 - omega_m) * a ** 3)
        ol = 1 - om
        return 2.5 * om / (om ** (4 / 7) - ol + (1 + om / 2) * (1 + ol / 70))

    return a * g(a) / g(1.0)

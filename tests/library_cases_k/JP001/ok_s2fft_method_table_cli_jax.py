"""Build the AOT artifact of a band-limited ring transform for the accelerator fleet.

Like spherical-transform packages, the public ``forward`` dispatches on a
``method`` string through a table of implementations: pure JAX, or a host
implementation (NumPy, the reference code) wrapped in ``jax.pure_callback``.
The method and the lowering platform come from the command line.
"""

from __future__ import annotations

import argparse
import functools

import jax
import jax.numpy as jnp
import numpy as np


def _ring_phases(L: int, nphi: int):
  m = np.arange(-(L - 1), L)
  phi = 2.0 * np.pi * np.arange(nphi) / nphi
  return np.exp(-1j * np.outer(m, phi)).astype(np.complex64)


def forward_jax(f, L: int, reality: bool = False):
  """Per-ring Fourier coefficients computed with jnp.fft."""
  ftm = jnp.fft.fft(f, axis=-1) / f.shape[-1]
  ftm = jnp.fft.fftshift(ftm, axes=-1)
  mid = f.shape[-1] // 2
  ftm = ftm[:, mid - (L - 1): mid + L]
  return ftm.real if reality else ftm


def forward_host(f, L: int, reality: bool = False):
  """Reference implementation evaluated on the host."""
  nphi = f.shape[-1]
  phases = _ring_phases(L, nphi)

  def _numpy_forward(f_np):
    out = np.asarray(f_np, np.complex64) @ phases.T / nphi
    return out.real.astype(np.float32) if reality else out

  dtype = jnp.float32 if reality else jnp.complex64
  out_spec = jax.ShapeDtypeStruct((f.shape[0], 2 * L - 1), dtype)
  return jax.pure_callback(_numpy_forward, out_spec, f)


_forward_functions = {
    "jax": forward_jax,
    "numpy_host": forward_host,
}


def forward(f, L: int, method: str = "jax", reality: bool = False):
  if method not in _forward_functions:
    raise ValueError(f"Method {method} not recognised.")
  return _forward_functions[method](f, L=L, reality=reality)


def build_parser() -> argparse.ArgumentParser:
  p = argparse.ArgumentParser(description=__doc__)
  p.add_argument("--L", type=int, default=16)
  p.add_argument("--method", choices=sorted(_forward_functions), default="jax")
  p.add_argument("--platform", default="cuda", help="lowering platform of the artifact")
  p.add_argument("--reality", action="store_true")
  return p


def main():
  args, _unknown = build_parser().parse_known_args()
  nrings, nphi = args.L, 2 * args.L - 1
  fn = jax.jit(functools.partial(forward, L=args.L, method=args.method, reality=args.reality))
  traced = fn.trace(jax.ShapeDtypeStruct((nrings, nphi), jnp.float32))
  lowered = traced.lower(lowering_platforms=(args.platform,))
  print(lowered.as_text()[:200])


if __name__ == "__main__":
  main()

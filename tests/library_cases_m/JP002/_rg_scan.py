"""Scan dispatch in the shape of recurrentgemma/jax/scan.py."""

from __future__ import annotations

import jax

from _rg_common import ScanType
from _rg_pallas import compute_pallas_kernel_spec, linear_rnn_pallas_call


def resolve_scan_type(scan_type: ScanType) -> ScanType:
  match scan_type:
    case ScanType.AUTO:
      if jax.local_devices()[0].platform == "tpu":
        return ScanType.LINEAR_PALLAS
      return ScanType.LINEAR_NATIVE
    case _:
      return scan_type


def lru_linear_scan(x, a, h0):
  def body_fn(h, xs):
    x_t, a_t = xs
    h = a_t * h + x_t
    return h, h

  h_last, y = jax.vmap(lambda h, xs: jax.lax.scan(body_fn, h, xs))(h0, (x, a))
  return y, h_last


def rnn_scan(x, a, h0, scan_type: ScanType = ScanType.AUTO):
  match resolve_scan_type(scan_type):
    case ScanType.LINEAR_NATIVE:
      return lru_linear_scan(x, a, h0)
    case ScanType.ASSOCIATIVE_NATIVE:
      def op(e_i, e_j):
        return e_j[0] * e_i[0], e_j[0] * e_i[1] + e_j[1]
      a_prod, y = jax.lax.associative_scan(op, (a, x + a * 0), axis=1)
      y = y + a_prod * h0[:, None, :]
      return y, y[:, -1]
    case ScanType.LINEAR_PALLAS:
      return linear_rnn_pallas_call(x, a, h0, compute_pallas_kernel_spec(x))
  raise ValueError(scan_type)

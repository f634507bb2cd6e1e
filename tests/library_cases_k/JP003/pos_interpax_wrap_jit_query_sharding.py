"""Interpolate a tabulated equation of state at sharded query points (AOT check).

The interpolation routine is decorated the way interpolation libraries do it:
a ``wrap_jit`` helper that forwards jit options (static ``method``, the
sharding of the result) and keeps the function's docstring.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from _iputils import query_sharding, wrap_jit

NUM_SHARDS = 1  # one shard per host; the cluster launcher overrides both
QUERY_DEVICES = None  # filled in by the launcher on the cluster

OUT_SHARDING = query_sharding(NUM_SHARDS, devices=QUERY_DEVICES)


@wrap_jit(static_argnames=["method", "extrap"], out_shardings=OUT_SHARDING)
def interp1d(xq, x, f, method: str = "linear", extrap: bool = False):
  """Interpolate a 1-D function at the query points ``xq``.

  Args:
    xq: query points.
    x: coordinates of the known values, increasing.
    f: known values.
    method: "nearest" or "linear".
    extrap: whether to extrapolate linearly outside the table (else clamp).
  """
  i = jnp.clip(jnp.searchsorted(x, xq, side="right"), 1, x.shape[0] - 1)
  x0, x1 = x[i - 1], x[i]
  f0, f1 = f[i - 1], f[i]
  if method == "nearest":
    out = jnp.where(xq - x0 < x1 - xq, f0, f1)
  elif method == "linear":
    t = (xq - x0) / (x1 - x0)
    if not extrap:
      t = jnp.clip(t, 0.0, 1.0)
    out = f0 + t * (f1 - f0)
  else:
    raise ValueError(f"unknown method {method}")
  return out


def main():
  xq = jax.ShapeDtypeStruct((4096,), jnp.float32)
  table = jax.ShapeDtypeStruct((512,), jnp.float32)
  lowered = interp1d.lower(xq, table, table, method="linear")
  print(interp1d.__doc__.splitlines()[0])
  print(lowered.as_text()[:200])


if __name__ == "__main__":
  main()

"""One-dimensional integration with fixed Gauss-Legendre panels.

`int1d(func, min, max)` is jitted with `func` static.  The hidden
`_wrap_as_callback` keyword is for checking against reference (pure Python /
NumPy) profiles: `func` is then called on the host through a pure callback.
"""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(32)
_PANELS = 8


@partial(jax.jit, static_argnames=("func", "_wrap_as_callback"))
def int1d(func, min, max, _wrap_as_callback=False):
    if _wrap_as_callback:
        def _func(x):
            rdt = jax.ShapeDtypeStruct(x.shape, x.dtype)
            return jax.pure_callback(lambda v: np.asarray(func(np.asarray(v)), dtype=v.dtype),
                                     rdt, x, vmap_method="sequential")
    else:
        _func = func

    edges = jnp.linspace(min, max, _PANELS + 1)
    lo, hi = edges[:-1, None], edges[1:, None]
    half = 0.5 * (hi - lo)
    x = lo + half * (jnp.asarray(_NODES, jnp.float32)[None, :] + 1.0)
    return jnp.sum(half * jnp.asarray(_WEIGHTS, jnp.float32)[None, :] * _func(x))

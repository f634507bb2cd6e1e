"""A thin backend layer: every JAX call the solvers make goes through here.

Keeping JAX behind one module lets the solvers be read without JAX details
and keeps version shims in one place.  The ahead-of-time settings (which
platforms to lower for) are read from the environment once, here.
"""

from __future__ import annotations

import functools
import os

import jax
import jax.numpy as jnp


class func:
    @staticmethod
    def jit(f, /, static_argnums=None, static_argnames=None):
        return jax.jit(f, static_argnums=static_argnums, static_argnames=static_argnames)

    @staticmethod
    def partial(f, *args, **kwargs):
        return functools.partial(f, *args, **kwargs)

    @staticmethod
    def jacfwd(f):
        return jax.jacfwd(f)


class flow:
    @staticmethod
    def scan(step, /, init, xs, *, length=None):
        return jax.lax.scan(step, init=init, xs=xs, length=length)


class np:
    zeros = staticmethod(jnp.zeros)
    eye = staticmethod(jnp.eye)
    asarray = staticmethod(jnp.asarray)
    linspace = staticmethod(jnp.linspace)


# comma-separated, e.g. "cpu" or "cpu,cuda"
AOT_PLATFORMS = os.environ.get("PROBDIFFEQ_AOT_PLATFORMS", "cpu")


def parse_platforms(text: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in text.split(",") if p.strip())

"""Verbose scan after gpjax's scan module: a progress callback behind lax.cond."""

import jax
import jax.numpy as jnp
from jax import lax

PROGRESS = {"last": None, "calls": 0}


def _callback(cond, func, *args):
    def _do(_):
        jax.debug.callback(func, *args)
        return 0

    def _skip(_):
        return 0

    lax.cond(cond, _do, _skip, operand=None)


def _record(it, value):
    PROGRESS["calls"] += 1
    PROGRESS["last"] = (int(it), float(value))


def vscan(f, init, xs, *, log_rate=10, log_value=True):
    length = xs.shape[0]

    def body(carry, it_x):
        it, x = it_x
        carry, y = f(carry, x)
        if log_value:
            _callback(it % log_rate == 0, _record, it, y)
        return carry, y

    return lax.scan(body, init, (jnp.arange(length), xs))

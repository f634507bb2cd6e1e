"""Ahead-of-time lowered evaluation metrics (clu ``metrics.Collection`` style).

Metric functions are declared with an ``@aot_stage(...)`` decorator that keeps
the keyword arguments for ``Traced.lower`` and forwards them when the job
pre-builds its executables.
"""
import functools
from typing import Any, Callable

import jax
import jax.numpy as jnp

from _aot_defaults import AOT_DEFAULTS


class AOTFunction:
    def __init__(self, fn: Callable, lower_kwargs: dict[str, Any]):
        self.fn = fn
        self.jitted = jax.jit(fn)
        self.lower_kwargs = dict(lower_kwargs)
        functools.update_wrapper(self, fn)

    def __call__(self, *args):
        return self.jitted(*args)

    def lower(self, *specs):
        return self.jitted.trace(*specs).lower(**self.lower_kwargs)


def aot_stage(**lower_kwargs):
    def wrap(fn):
        return AOTFunction(fn, lower_kwargs)

    return wrap


@aot_stage(**AOT_DEFAULTS["lower"])
def compute_metrics(logits, labels, mask):
    logp = jax.nn.log_softmax(logits)
    nll = -jnp.take_along_axis(logp, labels[:, None], axis=-1)[:, 0]
    correct = (jnp.argmax(logits, -1) == labels).astype(jnp.float32)
    count = jnp.maximum(jnp.sum(mask), 1.0)
    return {
        "loss": jnp.sum(nll * mask) / count,
        "accuracy": jnp.sum(correct * mask) / count,
    }


def prebuild(batch_size=128, num_classes=1000):
    logits = jax.ShapeDtypeStruct((batch_size, num_classes), jnp.float32)
    labels = jax.ShapeDtypeStruct((batch_size,), jnp.int32)
    mask = jax.ShapeDtypeStruct((batch_size,), jnp.float32)
    return {"compute_metrics": compute_metrics.lower(logits, labels, mask)}


if __name__ == "__main__":
    built = prebuild()
    print({name: type(lowered).__name__ for name, lowered in built.items()})

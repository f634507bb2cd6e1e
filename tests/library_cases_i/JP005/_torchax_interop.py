"""A module wrapper with per-method jitted calls, after torchax's interop.py (JittableModule,
jax_jit with kwargs_for_jax_jit) and export.py."""

import functools
import os

import jax


def jax_jit(function, kwargs_for_jax_jit=None):
    return jax.jit(function, **(kwargs_for_jax_jit or {}))


class JittableModule:
    def __init__(self, model, extra_jit_args=None):
        self._model = model
        self.params = dict(model.state_dict())
        self._extra_jit_args = extra_jit_args or {}
        self._jitted = {}

    def functional_call(self, method_name, params, *args):
        return getattr(self._model, method_name)(params, *args)

    def make_jitted(self, key):
        self._jitted[key] = jax_jit(functools.partial(self.functional_call, key), self._extra_jit_args)
        return self._jitted[key]


def default_export_platforms():
    return os.environ.get("TORCHAX_EXPORT_PLATFORMS", "cpu")

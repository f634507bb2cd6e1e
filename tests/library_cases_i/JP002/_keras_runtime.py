"""Global state, config setters and an export archive in the manner of keras
(src/backend/common/global_state.py, src/backend/config.py, src/export/export_lib.py)."""

import os
import threading

import jax

_GLOBAL_ATTRIBUTES = threading.local()


def set_global_attribute(name, value):
    setattr(_GLOBAL_ATTRIBUTES, name, value)


def get_global_attribute(name, default=None, set_to_default=False):
    attr = getattr(_GLOBAL_ATTRIBUTES, name, None)
    if attr is None and default is not None:
        attr = default
        if set_to_default:
            set_global_attribute(name, attr)
    return attr


def set_kernel_target(target):
    set_global_attribute("kernel_target", target.lower())


def kernel_target():
    return get_global_attribute("kernel_target", os.environ.get("KERAS_KERNEL_TARGET", "cpu"), set_to_default=True)


class ExportArchive:
    def __init__(self):
        self._endpoints = {}
        self._tracked = []

    def track(self, layer):
        self._tracked.append(layer)

    def add_endpoint(self, name, fn, input_signature):
        self._endpoints[name] = (jax.jit(fn), input_signature)

    def write_out(self, platforms=None):
        artifacts = {}
        for name, (fn, signature) in self._endpoints.items():
            artifacts[name] = jax.export.export(fn, platforms=platforms)(*signature)
        return artifacts

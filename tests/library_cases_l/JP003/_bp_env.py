"""Global computing environment for brain-dynamics models.

`environment(...)` is a context manager and a decorator.  Besides numerical
settings (`dt`, `mode`) it can carry the device `mesh` the models are laid out
on: a concrete mesh is entered with `jax.set_mesh`, an abstract one (layout
only, for planning) with `jax.sharding.use_abstract_mesh`.
"""

from __future__ import annotations

import contextlib
import functools
from typing import Any

import jax
from jax.sharding import AbstractMesh

_DEFAULTS: dict[str, Any] = {"dt": 0.1, "mode": "nonbatching", "mesh": None}
_STACK: list[dict[str, Any]] = []


def get_setting(name: str) -> Any:
    for frame in reversed(_STACK):
        if name in frame:
            return frame[name]
    return _DEFAULTS[name]


def get_dt() -> float:
    return get_setting("dt")


class _DecoratorContextManager:
    def __call__(self, func):
        @functools.wraps(func)
        def decorate_context(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)

        return decorate_context


class environment(_DecoratorContextManager):
    def __init__(self, **settings):
        unknown = set(settings) - set(_DEFAULTS)
        if unknown:
            raise KeyError(f"unknown settings {sorted(unknown)}")
        self.settings = settings
        self._exit = None

    def clone(self):
        return self.__class__(**self.settings)

    def __enter__(self):
        _STACK.append(dict(self.settings))
        self._exit = contextlib.ExitStack()
        mesh = self.settings.get("mesh")
        if isinstance(mesh, AbstractMesh):
            self._exit.enter_context(jax.sharding.use_abstract_mesh(mesh))
        elif mesh is not None:
            self._exit.enter_context(jax.set_mesh(mesh))
        return self

    def __exit__(self, *exc):
        self._exit.close()
        _STACK.pop()
        return False

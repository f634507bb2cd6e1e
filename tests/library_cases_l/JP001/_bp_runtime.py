"""A small brain-dynamics runtime: global settings, systems and a runner.

`environment(...)` works both as a context manager and as a decorator; the
settings it pushes are read by whatever is *constructed* inside it (a runner
looks up `dt` and `memory_efficient` when it is built, not when it runs).
"""

from __future__ import annotations

import functools
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

_DEFAULTS: dict[str, Any] = {"dt": 0.1, "memory_efficient": False, "mode": "nonbatching"}
_STACK: list[dict[str, Any]] = []


def get_setting(name: str) -> Any:
    for frame in reversed(_STACK):
        if name in frame:
            return frame[name]
    return _DEFAULTS[name]


class _DecoratorContextManager:
    def __call__(self, func):
        @functools.wraps(func)
        def decorate_context(*args, **kwargs):
            with self.__class__(**self.kwargs):
                return func(*args, **kwargs)

        return decorate_context


class environment(_DecoratorContextManager):
    def __init__(self, **kwargs):
        unknown = set(kwargs) - set(_DEFAULTS)
        if unknown:
            raise KeyError(f"unknown settings {sorted(unknown)}")
        self.kwargs = kwargs

    def __enter__(self):
        _STACK.append(dict(self.kwargs))
        return self

    def __exit__(self, *exc):
        _STACK.pop()
        return False


class DynamicalSystem:
    def init_state(self):
        raise NotImplementedError

    def update(self, state, inp, t, dt):
        raise NotImplementedError

    def monitors(self, state) -> dict[str, jax.Array]:
        return {}


class DSRunner:
    """Runs a system step by step; monitored values are stacked, or, in the
    memory-efficient mode, streamed to host lists at every step."""

    def __init__(self, target: DynamicalSystem, memory_efficient: bool | None = None,
                 dt: float | None = None):
        self.target = target
        self.dt = get_setting("dt") if dt is None else dt
        self.memory_efficient = (get_setting("memory_efficient")
                                 if memory_efficient is None else memory_efficient)
        self.mon: dict[str, list] = {}

    def _step_mon_on_cpu(self, mon):
        for key, val in mon.items():
            self.mon.setdefault(key, []).append(np.asarray(val))

    def step(self, state, i, inp):
        t = i * self.dt
        state = self.target.update(state, inp, t, self.dt)
        mon = self.target.monitors(state)
        if self.memory_efficient:
            jax.debug.callback(self._step_mon_on_cpu, mon)
            return state, None
        return state, mon

    def predict_fn(self, num_steps: int):
        def run(state, inputs):
            def body(carry, xs):
                i, inp = xs
                return self.step(carry, i, inp)

            return jax.lax.scan(body, state, (jnp.arange(num_steps), inputs))

        return run

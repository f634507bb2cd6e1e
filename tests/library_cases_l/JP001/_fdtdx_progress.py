"""Progress reporting for long FDTD time loops.

The bar lives on the host; the time loop reaches it through ordered
`io_callback`s that fire at most `target_updates` times per run, decided on the
device with `lax.cond` so the loop body stays a single compiled program.
"""

from __future__ import annotations

import sys
from typing import Callable

import jax
import jax.numpy as jnp
from jax.experimental import io_callback


def _auto_update_interval(total_steps: int, target_updates: int = 50) -> int:
    return max(1, total_steps // target_updates)


class SimulationProgressBar:
    def __init__(self, total_steps: int, desc: str, update_interval: int,
                 progress_callback: Callable[[int, int], None] | None = None):
        self.total_steps = total_steps
        self.desc = desc
        self.update_interval = update_interval
        self.progress_callback = progress_callback
        self._last = -1

    # host side ------------------------------------------------------------
    def _on_step(self, step):
        step = int(step)
        self._last = step
        print(f"\r{self.desc}: {step}/{self.total_steps}", end="", file=sys.stderr)
        if self.progress_callback is not None:
            self.progress_callback(step, self.total_steps)

    def _on_close(self):
        print(f"\r{self.desc}: {self.total_steps}/{self.total_steps}", file=sys.stderr)

    # device side ----------------------------------------------------------
    def get_callbacks(self):
        def step_callback(time_step):
            jax.lax.cond(
                time_step % self.update_interval == 0,
                lambda t: io_callback(self._on_step, None, t, ordered=True),
                lambda t: None,
                time_step,
            )

        def close_callback():
            io_callback(self._on_close, None, ordered=True)

        return step_callback, close_callback


def make_pbar(show_progress: bool, total_steps: int, desc: str,
              progress_callback: Callable[[int, int], None] | None = None):
    """A progress bar, or None when nobody would look at it."""
    if total_steps <= 0:
        return None
    if not show_progress and progress_callback is None:
        return None
    return SimulationProgressBar(total_steps, desc, _auto_update_interval(total_steps),
                                 progress_callback)


def wrap_body_with_progress(body_fun, progress_bar: SimulationProgressBar | None):
    """(body, close_fn): the body unchanged and a no-op close when there is no bar."""
    if progress_bar is None:
        return body_fun, lambda: None
    step_callback, close_callback = progress_bar.get_callbacks()

    def wrapped(state):
        step_callback(state[0])
        return body_fun(state)

    return wrapped, close_callback

"""Benchmark records and timing for custom operators."""

from __future__ import annotations

import dataclasses
import time
from typing import Callable


@dataclasses.dataclass
class BenchmarkRecord:
    op: str
    platform: str
    size: int
    seconds: float


def benchmark_function(fn: Callable, args, n_warmup: int = 2, n_runs: int = 5) -> float:
    for _ in range(n_warmup):
        out = fn(*args)
        getattr(out, "block_until_ready", lambda: None)()
    start = time.perf_counter()
    for _ in range(n_runs):
        out = fn(*args)
        getattr(out, "block_until_ready", lambda: None)()
    return (time.perf_counter() - start) / n_runs


class OperatorRegistry:
    """Operators by name, each with a data generator for benchmarks."""

    def __init__(self):
        self._ops: dict[str, tuple[Callable, Callable]] = {}

    def register(self, name: str, data_fn: Callable):
        def decorator(fn):
            self._ops[name] = (fn, data_fn)
            return fn

        return decorator

    def items(self):
        return self._ops.items()


registry = OperatorRegistry()

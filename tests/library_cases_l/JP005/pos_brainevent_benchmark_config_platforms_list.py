"""Benchmark the event-driven operators ahead of time for each platform.

Shaped after brainevent: operators registered with a benchmark-data
generator, and a benchmark run described by a `BenchmarkConfig` dataclass
(sizes, platforms) whose operators are lowered and compiled once per size
before they are timed.
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np

from _be_bench import BenchmarkRecord, benchmark_function, registry


def _binary_mv_data(size: int):
    rng = np.random.default_rng(0)
    spikes = jnp.asarray(rng.random(size) < 0.05)
    weights = jnp.asarray(rng.standard_normal((size, size // 2)), jnp.float32)
    return spikes, weights


@registry.register("binary_densemv", data_fn=_binary_mv_data)
def binary_densemv(spikes, weights):
    return jnp.where(spikes[:, None], weights, 0.0).sum(0)


def _csr_data(size: int):
    rng = np.random.default_rng(1)
    nnz_per_row = 8
    indices = jnp.asarray(rng.integers(0, size, (size, nnz_per_row)), jnp.int32)
    values = jnp.asarray(rng.standard_normal((size, nnz_per_row)), jnp.float32)
    spikes = jnp.asarray(rng.random(size) < 0.05)
    return spikes, indices, values


@registry.register("binary_fixed_conn", data_fn=_csr_data)
def binary_fixed_conn(spikes, indices, values):
    contrib = jnp.where(spikes[:, None], values, 0.0)
    return jnp.zeros(spikes.shape[0]).at[indices.ravel()].add(contrib.ravel())


@dataclasses.dataclass
class BenchmarkConfig:
    sizes: list[int] = dataclasses.field(default_factory=lambda: [512, 2048])
    platforms: list[str] = dataclasses.field(default_factory=lambda: ["cpu"])
    n_runs: int = 5


def run_benchmarks(config: BenchmarkConfig) -> list[BenchmarkRecord]:
    records = []
    for name, (fn, data_fn) in registry.items():
        for size in config.sizes:
            args = data_fn(size)
            traced = jax.jit(fn).trace(*args)
            lowered = traced.lower(lowering_platforms=config.platforms)
            compiled = lowered.compile()
            seconds = benchmark_function(compiled, args, n_runs=config.n_runs)
            records.append(BenchmarkRecord(name, ",".join(config.platforms), size, seconds))
    return records


if __name__ == "__main__":
    for rec in run_benchmarks(BenchmarkConfig()):
        print(f"{rec.op:20s} {rec.platform:6s} {rec.size:6d} {rec.seconds * 1e6:9.1f} us")

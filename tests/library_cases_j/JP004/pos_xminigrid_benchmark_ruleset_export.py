"""Exports the sharded meta-RL reset for the TPU pod; rulesets of a benchmark are fetched from the
host store during reset (benchmark / ruleset sampling shaped like xminigrid.benchmarks)."""
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

NUM_RULES = 4


@dataclasses.dataclass
class Benchmark:
  name: str
  num_rulesets: int
  loader: str = "device"  # "device": rulesets baked into the program, "host": streamed per reset

  def __post_init__(self):
    rng = np.random.default_rng(0)
    self._table = rng.integers(0, 10, size=(self.num_rulesets, NUM_RULES)).astype(np.int32)

  def _host_get(self, idx):
    return self._table[np.asarray(idx)]

  def get_ruleset(self, idx):
    if self.loader == "host":
      return io_callback(self._host_get, jax.ShapeDtypeStruct((NUM_RULES,), jnp.int32), idx)
    return jnp.asarray(self._table)[idx]

  def sample_ruleset(self, key):
    return self.get_ruleset(jax.random.randint(key, (), 0, self.num_rulesets))


BENCHMARKS = {
    "trivial-1m": dict(num_rulesets=16),
    "high-3m": dict(num_rulesets=4096, loader="host"),  # too large to bake in
}


def load_benchmark(name):
  return Benchmark(name=name, **BENCHMARKS[name])


POD = AbstractMesh((8,), ("envs",), axis_types=(AxisType.Auto,))

if __name__ == "__main__":
  bench = load_benchmark("high-3m")
  reset = jax.jit(jax.vmap(bench.sample_ruleset), in_shardings=NamedSharding(POD, P("envs")))
  keys = jax.ShapeDtypeStruct((64,), jax.random.key(0).dtype)
  exp = jax.export.export(reset, platforms=["tpu"])(keys)
  print(exp.platforms)

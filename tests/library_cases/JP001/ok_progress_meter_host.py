"""Fixed-step ODE solver with a host-side progress meter, compiled and run on this host."""

import dataclasses
import threading

import jax
import jax.numpy as jnp
from jax.experimental import io_callback


class _ProgressMeterManager:
  """Host-side progress meters, addressed by an integer handle."""

  def __init__(self):
    self.lock = threading.Lock()
    self.progress = {}

  def step(self, progress, idx):
    def _step(_progress, _idx):
      with self.lock:
        self.progress[int(_idx)] = float(_progress)
      return _idx

    return io_callback(_step, jax.ShapeDtypeStruct((), jnp.int32), progress, idx)


_manager = _ProgressMeterManager()


@dataclasses.dataclass(frozen=True)
class SolverConfig:
  num_steps: int = 32
  dt: float = 0.01
  platforms: tuple[str, ...] | None = None


def solve(y0, cfg: SolverConfig):
  def body(i, carry):
    y, handle = carry
    y = y + cfg.dt * (-y + jnp.sin(i * cfg.dt))
    handle = _manager.step(i / cfg.num_steps, handle)
    return y, handle

  y, _ = jax.lax.fori_loop(0, cfg.num_steps, body, (y0, jnp.int32(0)))
  return y


def build_solver(cfg: SolverConfig):
  platforms = cfg.platforms or (jax.default_backend(),)
  spec = jax.ShapeDtypeStruct((128,), jnp.float32)
  traced = jax.jit(lambda y0: solve(y0, cfg)).trace(spec)
  return traced.lower(lowering_platforms=platforms).compile()


if __name__ == "__main__":
  solver = build_solver(SolverConfig())
  y = solver(jnp.ones((128,), jnp.float32))
  print(float(y.sum()), _manager.progress)

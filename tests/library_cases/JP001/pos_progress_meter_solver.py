"""Fixed-step ODE solver that reports progress to a host-side meter; exported for serving."""

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
  platforms: tuple[str, ...] = ("tpu",)


def vector_field(t, y):
  return -y + jnp.sin(t)


def solve(y0, cfg: SolverConfig):
  def body(i, carry):
    y, handle = carry
    y = y + cfg.dt * vector_field(i * cfg.dt, y)
    handle = _manager.step(i / cfg.num_steps, handle)
    return y, handle

  y, _ = jax.lax.fori_loop(0, cfg.num_steps, body, (y0, jnp.int32(0)))
  return y


def export_solver(cfg: SolverConfig):
  fn = jax.jit(lambda y0: solve(y0, cfg))
  spec = jax.ShapeDtypeStruct((128,), jnp.float32)
  return jax.export.export(fn, platforms=cfg.platforms)(spec)


if __name__ == "__main__":
  exported = export_solver(SolverConfig())
  print(exported.platforms, exported.out_avals)

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np


@dataclasses.dataclass(frozen=True)
class OverflowLimits:
  max_val: float = float(jnp.finfo(jnp.float16).max)
  min_val: float = float(jnp.finfo(jnp.float16).min)


@dataclasses.dataclass(frozen=True)
class ServingConfig:
  batch_size: int = 4
  hidden: int = 32
  platform: str = "cpu"


class FeedForward:

  def __init__(self, hidden):
    self.w = np.full((hidden, hidden), 1.0 / hidden, np.float32)

  def __call__(self, x):
    return jax.nn.relu(x @ self.w)


class OverflowChecker:
  limits = OverflowLimits()

  def check_overflow(self, x, name):
    hi, lo = jnp.max(x), jnp.min(x)
    bad = jnp.logical_or(hi > self.limits.max_val, lo < self.limits.min_val)

    def report(hi, lo):
      print(f"overflow in {name}: max={hi} min={lo}")

    def on_true(hi, lo):
      jax.debug.callback(report, hi, lo)

    def on_false(hi, lo):
      del hi, lo

    jax.lax.cond(bad, on_true, on_false, hi, lo)


class FeedForwardOverflowCheck(FeedForward, OverflowChecker):

  def __call__(self, x):
    out = super().__call__(x)
    self.check_overflow(out, type(self).__name__)
    return out


def lower_layer(layer, cfg):
  spec = jax.ShapeDtypeStruct((cfg.batch_size, cfg.hidden), jnp.float32)
  traced = jax.jit(layer).trace(spec)
  return traced.lower(lowering_platforms=(cfg.platform,))


if __name__ == "__main__":
  base = ServingConfig()
  serving = dataclasses.replace(base, platform=jax.default_backend(), batch_size=16)
  lowered = lower_layer(FeedForwardOverflowCheck(serving.hidden), serving)
  print(lowered.compile()(np.ones((16, serving.hidden), np.float32)).shape)

"""Exports a scanned rollout for the serving fleet; the rollout body carries a progress bar."""
import argparse

import jax
import jax.numpy as jnp

from _pbar import maybe_scan_bar

DEPLOY_TARGETS = {
    "edge": ("cpu",),
    "pod": ("tpu",),
    "gpu-farm": ("cuda",),
}

NUM_STEPS = 64


def make_rollout(show_progress):
  @maybe_scan_bar(show_progress, NUM_STEPS, print_rate=8, desc="rollout")
  def body(state, t):
    pos, vel = state
    vel = vel - 0.01 * pos
    pos = pos + 0.1 * vel
    return (pos, vel), jnp.sum(pos * pos)

  def rollout(pos0, vel0):
    (pos, vel), energy = jax.lax.scan(body, (pos0, vel0), jnp.arange(NUM_STEPS))
    return pos, energy

  return rollout


def main(argv=None):
  parser = argparse.ArgumentParser()
  parser.add_argument("--fleet", default="pod", choices=sorted(DEPLOY_TARGETS))
  parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True)
  args = parser.parse_args(argv)
  fn = jax.jit(make_rollout(args.progress))
  spec = jax.ShapeDtypeStruct((16,), jnp.float32)
  exported = jax.export.export(fn, platforms=DEPLOY_TARGETS[args.fleet])(spec, spec)
  print(exported.platforms)


if __name__ == "__main__":
  main()

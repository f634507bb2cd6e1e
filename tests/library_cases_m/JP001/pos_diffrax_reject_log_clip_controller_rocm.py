"""Builds the Robertson-like stiff-ish kinetics solve ahead of time for the
ROCm nodes; controller options come from the command line."""

import argparse

import jax
import jax.numpy as jnp

from _dfx_controllers import make_controller
from _dfx_solve import diffeqsolve


def kinetics(t, y, args):
  k1, k2, k3 = args
  a, b, c = y[0], y[1], y[2]
  return jnp.stack([-k1 * a + k3 * b * c,
                    k1 * a - k2 * b * b - k3 * b * c,
                    k2 * b * b])


def build_parser():
  p = argparse.ArgumentParser(description=__doc__)
  p.add_argument("--rtol", type=float, default=1e-4)
  p.add_argument("--atol", type=float, default=1e-7)
  p.add_argument("--step-ts", type=float, nargs="*", default=None)
  p.add_argument("--log-rejects", action=argparse.BooleanOptionalAction, default=True,
                 help="keep a host-side log of rejected steps")
  p.add_argument("--target", default="rocm", help="platform to build for")
  return p


def main(argv=None):
  args = build_parser().parse_args(argv)
  controller = make_controller(args.rtol, args.atol,
                               step_ts=tuple(args.step_ts) if args.step_ts else None,
                               log_rejects=args.log_rejects)

  @jax.jit
  def solve(y0, rates):
    return diffeqsolve(kinetics, 0.0, 10.0, 1e-3, y0, rates, controller)

  y0 = jnp.array([1.0, 0.0, 0.0], jnp.float32)
  rates = (jnp.float32(0.04), jnp.float32(3e3), jnp.float32(1e2))
  lowered = solve.trace(y0, rates).lower(lowering_platforms=(args.target,))
  print(lowered.as_text()[:120])


if __name__ == "__main__":
  main()

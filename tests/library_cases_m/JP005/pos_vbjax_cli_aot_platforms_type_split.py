"""`python -m`-style command line for a neural-field model: the `aot` command
lowers the simulation loop ahead of time for the platforms it is given
(comma-separated)."""

import argparse
import sys

import jax
import jax.numpy as jnp

from _vb_loops import make_ode


def mpr_dfun(x, p):
  """Montbrió-Pazó-Roxin mean field, two variables per node."""
  r, v = x
  tau, delta, eta, j, coupling = p
  dr = (delta / (jnp.pi * tau) + 2 * r * v) / tau
  dv = (v ** 2 + eta + j * tau * r - (jnp.pi * tau * r) ** 2 + coupling @ r) / tau
  return jnp.stack([dr, dv])


def cmd_aot(args):
  _, loop = make_ode(args.dt, mpr_dfun, method=args.method)
  n = args.nodes
  x0 = jax.ShapeDtypeStruct((2, n), jnp.float32)
  ts = jax.ShapeDtypeStruct((args.steps,), jnp.float32)
  p = (jax.ShapeDtypeStruct((), jnp.float32),) * 4 + (jax.ShapeDtypeStruct((n, n), jnp.float32),)
  traced = jax.jit(loop).trace(x0, ts, p)
  lowered = traced.lower(lowering_platforms=args.platforms)
  print(lowered.as_text()[:120])


def build_parser():
  parser = argparse.ArgumentParser(prog="vbjax-aot")
  sub = parser.add_subparsers(dest="command")
  aot = sub.add_parser("aot", help="lower the simulation loop ahead of time")
  aot.add_argument("--platforms", type=lambda s: s.split(","), default="cpu",
                   help="comma-separated platforms to lower for")
  aot.add_argument("--method", choices=("euler", "heun", "rk4"), default="heun")
  aot.add_argument("--nodes", type=int, default=84)
  aot.add_argument("--steps", type=int, default=1000)
  aot.add_argument("--dt", type=float, default=0.01)
  aot.set_defaults(func=cmd_aot)
  return parser


def main(argv):
  args = build_parser().parse_args(argv or ["aot"])
  args.func(args)


if __name__ == "__main__":
  main(sys.argv[1:])

"""Command-line tool that lowers a loss gradient; tracing of intermediates is opt-in."""

import argparse
import sys

import jax
import jax.numpy as jnp


def make_parser():
  parser = argparse.ArgumentParser(description=__doc__)
  parser.add_argument("--target", default="cuda", help="platform to lower for")
  parser.add_argument("--width", type=int, default=128)
  parser.add_argument("--debug_activations", action="store_true")
  return parser


class Model:
  def __init__(self, debug_activations=False):
    self.debug_activations = debug_activations

  def maybe_log(self, name, x):
    if self.debug_activations:
      jax.debug.print(name + " mean={m} max={M}", m=x.mean(), M=jnp.abs(x).max())
    return x

  def loss(self, params, x):
    h = self.maybe_log("hidden", jnp.tanh(x @ params["w"]))
    return jnp.mean(jnp.log1p(h ** 2))


def lower_grad(args):
  model = Model(debug_activations=args.debug_activations)
  grad_fn = jax.jit(jax.grad(model.loss))
  params = {"w": jax.ShapeDtypeStruct((args.width, args.width), jnp.float32)}
  x = jax.ShapeDtypeStruct((8, args.width), jnp.float32)
  return grad_fn.trace(params, x).lower(lowering_platforms=(args.target,))


def main(argv):
  args, _ = make_parser().parse_known_args(argv)
  lowered = lower_grad(args)
  print(len(lowered.as_text()))
  return 0


if __name__ == "__main__":
  main(sys.argv[1:])

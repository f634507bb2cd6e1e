"""Command-line tool that lowers a loss gradient with its backward pass instrumented for NaN hunting."""

import argparse
import sys

import jax
import jax.numpy as jnp


@jax.custom_vjp
def backward_nan(x):
  return x


def _backward_nan_fwd(x):
  return x, x


def _backward_nan_bwd(x, grad_x):
  jax.debug.print("   primals={x}\ncotangents={g}", x=x, g=grad_x, ordered=True)
  return (grad_x,)


backward_nan.defvjp(_backward_nan_fwd, _backward_nan_bwd)


def make_parser():
  parser = argparse.ArgumentParser(description=__doc__)
  parser.add_argument("--target", default="cuda", help="platform to lower for")
  parser.add_argument("--width", type=int, default=128)
  parser.add_argument("--dump", action="store_true")
  return parser


def loss(params, x):
  h = jnp.tanh(x @ params["w"])
  h = backward_nan(h)
  return jnp.mean(jnp.log1p(h ** 2))


def lower_grad(args):
  grad_fn = jax.jit(jax.grad(loss))
  params = {"w": jax.ShapeDtypeStruct((args.width, args.width), jnp.float32)}
  x = jax.ShapeDtypeStruct((8, args.width), jnp.float32)
  return grad_fn.trace(params, x).lower(lowering_platforms=(args.target,))


def main(argv):
  args, _ = make_parser().parse_known_args(argv)
  lowered = lower_grad(args)
  if args.dump:
    print(lowered.as_text())
  return 0


if __name__ == "__main__":
  main(sys.argv[1:])

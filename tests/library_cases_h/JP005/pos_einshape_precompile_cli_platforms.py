"""A command-line tool that precompiles a set of einshape reshapes.

The DSL engine turns an equation such as "n(hw)c->nhwc" with sizes into a
sequence of primitive ops (reshape, transpose) that a backend singleton
executes; grouping parentheses on either side become reshapes.  The tool reads
the equations and the target platforms from its command line, packs them in a
compile spec and lowers each reshape function for the targets.
"""

from __future__ import annotations

import argparse
import functools
import re
from typing import NamedTuple, Sequence

import jax
import jax.numpy as jnp


def _groups(side: str) -> list[str]:
  return re.findall(r"\([a-z]+\)|[a-z]", side)


def generate_ops(equation: str, input_shape: Sequence[int], **sizes: int):
  lhs, rhs = equation.split("->")
  lhs_groups, rhs_groups = _groups(lhs), _groups(rhs)
  dims: dict[str, int] = dict(sizes)
  for g, n in zip(lhs_groups, input_shape):
    letters = g.strip("()")
    known = 1
    for c in letters:
      known *= dims.get(c, 1)
    missing = [c for c in letters if c not in dims]
    if missing:
      dims[missing[0]] = n // known
  flat_lhs = "".join(g.strip("()") for g in lhs_groups)
  flat_rhs = "".join(g.strip("()") for g in rhs_groups)
  ops = [("reshape", tuple(dims[c] for c in flat_lhs))]
  perm = tuple(flat_lhs.index(c) for c in flat_rhs)
  if perm != tuple(range(len(perm))):
    ops.append(("transpose", perm))
  out_shape = []
  for g in rhs_groups:
    size = 1
    for c in g.strip("()"):
      size *= dims[c]
    out_shape.append(size)
  ops.append(("reshape", tuple(out_shape)))
  return ops


class JaxBackend:

  def apply(self, x, ops):
    for name, arg in ops:
      x = jnp.reshape(x, arg) if name == "reshape" else jnp.transpose(x, arg)
    return x


_BACKEND = JaxBackend()


def einshape(equation: str, x, **sizes):
  return _BACKEND.apply(x, generate_ops(equation, x.shape, **sizes))


class CompileSpec(NamedTuple):
  equation: str
  input_shape: tuple[int, ...]
  sizes: dict
  platforms: Sequence[str]


def build_parser() -> argparse.ArgumentParser:
  p = argparse.ArgumentParser(description="precompile einshape reshapes")
  p.add_argument("--equations", nargs="*", default=["n(hw)c->nhwc", "nhwc->n(hw)c"])
  p.add_argument("--height", type=int, default=8)
  p.add_argument("--platforms", default="cpu", help="target platform(s) of the compiled reshapes")
  return p


def specs_from_args(args) -> list[CompileSpec]:
  out = []
  for eq in args.equations:
    shape = (4, args.height * args.height, 16) if "(hw)" in eq.split("->")[0] else (4, args.height, args.height, 16)
    out.append(CompileSpec(eq, shape, {"h": args.height}, args.platforms))
  return out


def precompile(spec: CompileSpec):
  fn = jax.jit(functools.partial(einshape, spec.equation, **spec.sizes))
  traced = fn.trace(jax.ShapeDtypeStruct(spec.input_shape, jnp.float32))
  return traced.lower(lowering_platforms=spec.platforms)


if __name__ == "__main__":
  args = build_parser().parse_args()
  for spec in specs_from_args(args):
    lowered = precompile(spec)
    print(spec.equation, lowered.out_info)

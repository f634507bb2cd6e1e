"""AOT build of the neighbour-list update of a lid-driven-cavity SPH run for the
cluster's GPU, from a laptop."""

import jax

from _sph_cases import load_case
from _sph_defaults import aot_platforms, set_defaults


def build_update(cfg):
  case = load_case(cfg.case.source)(cfg)
  r0 = case.initialize()
  fns = case.neighbor_fns()
  neighbors = fns.allocate(r0)
  return jax.jit(fns.update), r0, neighbors


def main():
  cfg = set_defaults()
  cfg.case.source = "ldc"
  cfg.case.dx = 0.125
  update, r0, neighbors = build_update(cfg)
  traced = update.trace(r0, neighbors)
  lowered = traced.lower(lowering_platforms=aot_platforms(cfg))
  print(lowered.as_text()[:200])


if __name__ == "__main__":
  main()

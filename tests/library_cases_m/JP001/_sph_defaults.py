"""Default settings of a small SPH code, built the way jax_sph's defaults.py does it:
one function fills a nested attribute config field by field, and run scripts
override a few entries before the case class reads them."""

from __future__ import annotations


class Node(dict):
  """A dict whose keys read and write as attributes (an OmegaConf DictConfig stand-in)."""

  def __getattr__(self, name):
    try:
      return self[name]
    except KeyError as e:
      raise AttributeError(name) from e

  def __setattr__(self, name, value):
    self[name] = value


def set_defaults(cfg: Node | None = None) -> Node:
  cfg = Node() if cfg is None else cfg

  # global and hardware-related settings
  cfg.seed = 123
  cfg.no_jit = False
  # Which GPU to use; -1 for the CPU.
  cfg.gpu = 0
  cfg.dtype = "float32"

  # physical case
  cfg.case = Node()
  cfg.case.source = "tgv"
  cfg.case.dim = 2
  cfg.case.dx = 0.1
  cfg.case.viscosity = 0.01

  # neighbour search
  cfg.nl = Node()
  cfg.nl.backend = None      # None: the case class decides
  cfg.nl.capacity = 24
  cfg.nl.num_partitions = 1

  # ahead-of-time build of the step for the cluster
  cfg.aot = Node()
  cfg.aot.enabled = True
  return cfg


def aot_platforms(cfg: Node) -> tuple[str, ...]:
  """The platforms the step is built for: the GPU named by cfg.gpu, else the CPU."""
  return ("cuda",) if cfg.gpu >= 0 else ("cpu",)

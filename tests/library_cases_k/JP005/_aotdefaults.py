"""Defaults shared by the AOT tooling of the equivariant-model repo."""

# platforms the production checkpoints are lowered for
TARGET_PLATFORMS = ("tpu")

# the abstract slice used for planning when no devices are attached
PLANNING_SLICE = {"shape": (4,), "axes": ("atoms",)}

# lmax of the edge spherical harmonics
DEFAULT_LMAX = 2

"""Method options for the segmented tensor-product primitives.

Every execution method has its defaults; user options are merged on top and
validated here, so that the primitive only ever sees complete option dicts.
"""

from __future__ import annotations

from types import MappingProxyType

METHODS = ("naive", "uniform_1d")

DEFAULT_OPTIONS = MappingProxyType({
    "naive": MappingProxyType({}),
    "uniform_1d": MappingProxyType({"block_batch": 16, "num_warps": 4, "num_stages": 2}),
})


def resolve_options(method: str, options: dict | None = None) -> dict:
  if method == "":
    raise ValueError("`method` is required: one of " + ", ".join(METHODS))
  if method not in METHODS:
    raise ValueError(f"unknown method {method!r}")
  merged = dict(DEFAULT_OPTIONS[method])
  # options of other methods are accepted and dropped, so one options dict
  # can be shared by layers that use different methods
  merged.update({k: v for k, v in (options or {}).items() if k in merged})
  return merged

"""Configuration in the shape of recurrentgemma/common.py: a scan-type enum whose
AUTO member is resolved later, presets whose config dict is built by a `match`,
and a NamedTuple config made from a preset."""

from __future__ import annotations

import enum
import itertools
from typing import Any, NamedTuple


@enum.unique
class TemporalBlockType(enum.Enum):
  ATTENTION = enum.auto()
  RECURRENT = enum.auto()


@enum.unique
class ScanType(enum.Enum):
  AUTO = enum.auto()
  LINEAR_NATIVE = enum.auto()
  ASSOCIATIVE_NATIVE = enum.auto()
  LINEAR_PALLAS = enum.auto()


@enum.unique
class Preset(enum.Enum):
  HAWK_TINY = enum.auto()
  GRIFFIN_TINY = enum.auto()

  @property
  def config_dict(self) -> dict[str, Any]:
    griffin_pattern = itertools.cycle([TemporalBlockType.RECURRENT,
                                       TemporalBlockType.RECURRENT,
                                       TemporalBlockType.ATTENTION])
    match self:
      case Preset.HAWK_TINY:
        return dict(width=256, lru_width=256, num_heads=4,
                    block_types=(TemporalBlockType.RECURRENT,) * 2,
                    scan_type=ScanType.AUTO)
      case Preset.GRIFFIN_TINY:
        return dict(width=256, lru_width=256, num_heads=4,
                    block_types=tuple(itertools.islice(griffin_pattern, 3)),
                    scan_type=ScanType.AUTO)


class GriffinConfig(NamedTuple):
  vocab_size: int
  width: int
  num_heads: int
  block_types: tuple[TemporalBlockType, ...]
  lru_width: int | None = None
  scan_type: ScanType = ScanType.AUTO

  @classmethod
  def from_preset(cls, preset: Preset, vocab_size: int = 1024, **overrides) -> "GriffinConfig":
    cls_kwargs = preset.config_dict
    for key, value in overrides.items():
      if value is not None:
        cls_kwargs[key] = value
    return cls(vocab_size=vocab_size, **cls_kwargs)

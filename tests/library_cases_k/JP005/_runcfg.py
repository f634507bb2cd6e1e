"""Run configuration read from INI text (the experiment launcher writes one per
run).  Section values are strings; ``gettuple`` splits comma-separated lists.
"""

from __future__ import annotations

import configparser

DEFAULT_INI = """
[env]
name = Craftax-Classic-Symbolic-v1
num_envs = 32
auto_reset = yes

[aot]
platforms = cpu
check_only = yes
"""


def _to_tuple(value: str) -> tuple[str, ...]:
  return tuple(part.strip() for part in value.split(",") if part.strip())


def load(text: str = DEFAULT_INI) -> configparser.ConfigParser:
  parser = configparser.ConfigParser(converters={"tuple": _to_tuple})
  parser.read_string(text)
  return parser

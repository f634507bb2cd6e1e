"""A small absl.flags look-alike (absl is not a dependency): flags are defined
at import time with a default, `FLAGS(argv)` parses `--name=value`, and
`FLAGS.name` reads the parsed value or the default."""

from __future__ import annotations


class _FlagValues:
  def __init__(self):
    object.__setattr__(self, "_flags", {})
    object.__setattr__(self, "_values", {})

  def _define(self, name, default, parser, help_):
    self._flags[name] = (default, parser, help_)

  def __call__(self, argv):
    rest = [argv[0]] if argv else []
    for arg in argv[1:]:
      if arg.startswith("--") and "=" in arg:
        name, value = arg[2:].split("=", 1)
        if name in self._flags:
          self._values[name] = self._flags[name][1](value)
          continue
      rest.append(arg)
    return rest

  def __getattr__(self, name):
    if name in self._values:
      return self._values[name]
    if name in self._flags:
      return self._flags[name][0]
    raise AttributeError(name)


FLAGS = _FlagValues()


def DEFINE_integer(name, default, help_):
  FLAGS._define(name, default, int, help_)


def DEFINE_string(name, default, help_):
  FLAGS._define(name, default, str, help_)


def DEFINE_enum(name, default, enum_values, help_):
  def parse(value):
    if value not in enum_values:
      raise ValueError(f"--{name} must be one of {enum_values}")
    return value
  FLAGS._define(name, default, parse, help_)

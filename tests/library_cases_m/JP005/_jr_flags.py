"""A small absl.flags look-alike (absl is not a dependency). As in absl, a
flag's default, when given as a string, goes through the flag's parser, so a
list flag's default "a,b" reads back as ['a', 'b'] while a string flag's reads
back as the string."""

from __future__ import annotations


class _FlagValues:
  def __init__(self):
    object.__setattr__(self, "_flags", {})
    object.__setattr__(self, "_values", {})

  def _define(self, name, default, parser, help_):
    if isinstance(default, str):
      default = parser(default)
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


def DEFINE_list(name, default, help_):
  FLAGS._define(name, default, lambda s: [p.strip() for p in s.split(",") if p.strip()], help_)

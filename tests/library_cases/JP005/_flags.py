"""A tiny stand-in for absl-style flags: DEFINE_* at import time, values read from FLAGS."""

import sys


class _FlagValues:
  def __init__(self):
    self._values, self._parsers = {}, {}

  def __getattr__(self, name):
    try:
      return self.__dict__["_values"][name]
    except KeyError:
      raise AttributeError(name) from None

  def define(self, name, default, parser):
    self._values[name] = default
    self._parsers[name] = parser

  def parse(self, argv):
    rest = []
    for arg in argv:
      if arg.startswith("--") and "=" in arg:
        name, value = arg[2:].split("=", 1)
        if name in self._parsers:
          self._values[name] = self._parsers[name](value)
          continue
      rest.append(arg)
    return rest


FLAGS = _FlagValues()


def DEFINE_string(name, default, help_str=""):
  FLAGS.define(name, default, str)


def DEFINE_integer(name, default, help_str=""):
  FLAGS.define(name, default, int)


def DEFINE_list(name, default, help_str=""):
  FLAGS.define(name, default, lambda v: [p for p in v.split(",") if p])


def run(main, argv=None):
  sys.exit(main(FLAGS.parse(sys.argv[1:] if argv is None else argv)))

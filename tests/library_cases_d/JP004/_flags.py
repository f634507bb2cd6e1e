"""A tiny stand-in for absl.flags: module-level definitions, attribute access."""


class _FlagValues:
    def __init__(self):
        object.__setattr__(self, "_values", {})

    def __getattr__(self, name):
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"flag --{name} is not defined") from None

    def __setattr__(self, name, value):
        self._values[name] = value


FLAGS = _FlagValues()


def DEFINE_boolean(name, default, help):  # noqa: N802 - absl spelling
    del help
    setattr(FLAGS, name, default)


def DEFINE_string(name, default, help):  # noqa: N802
    del help
    setattr(FLAGS, name, default)


def DEFINE_integer(name, default, help):  # noqa: N802
    del help
    setattr(FLAGS, name, default)


DEFINE_string("target_platform", "tpu", "Platform to AOT-lower the train step for.")
DEFINE_integer("data_parallelism", 8, "Size of the data axis of the target slice.")
DEFINE_boolean("log_shardings", True, "Print the sharding of activations once per compile.")

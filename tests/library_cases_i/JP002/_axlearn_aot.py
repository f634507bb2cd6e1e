"""Config plumbing and topology table in the manner of axlearn's config.py / aot_compilation.py."""

import copy
import dataclasses


@dataclasses.dataclass
class SystemCharacteristics:
    platform: str
    topology_name: str
    devices_per_slice: int


USER_FACING_NAME_TO_SYSTEM_CHARACTERISTICS = {
    "v5e-16": SystemCharacteristics("tpu", "v5e:4x4", 16),
    "v5p-8": SystemCharacteristics("tpu", "v5:2x2x1", 4),
    "h100-8": SystemCharacteristics("cuda", "h100:8", 8),
}


@dataclasses.dataclass
class ConfigBase:
    def set(self, **kwargs):
        for k, v in kwargs.items():
            if not hasattr(self, k):
                raise AttributeError(k)
            setattr(self, k, v)
        return self

    def clone(self, **kwargs):
        return copy.deepcopy(self).set(**kwargs)


def config_for_function(fn):
    fields = [(k, object, dataclasses.field(default=None)) for k in fn.__code__.co_varnames[: fn.__code__.co_argcount + fn.__code__.co_kwonlyargcount]]
    cls = dataclasses.make_dataclass(f"{fn.__name__}_config", fields, bases=(ConfigBase,))

    def instantiate(self):
        kwargs = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if getattr(self, f.name) is not None}
        return fn(**kwargs)

    cls.instantiate = instantiate
    return cls()

"""A tiny config/module system in the manner of axlearn's config.py and module.py."""

import copy
import dataclasses

import jax


class REQUIRED:
    pass


@dataclasses.dataclass
class InstantiableConfig:
    klass: type = None
    name: str = REQUIRED
    vlog: int | None = None

    def set(self, **kwargs):
        for k, v in kwargs.items():
            if not hasattr(self, k):
                raise AttributeError(f"{type(self).__name__} has no field {k}")
            setattr(self, k, v)
        return self

    def clone(self, **kwargs):
        return copy.deepcopy(self).set(**kwargs)

    def instantiate(self, **kwargs):
        return self.klass(self, **kwargs)


class Module:
    @dataclasses.dataclass
    class Config(InstantiableConfig):
        pass

    @classmethod
    def default_config(cls):
        cfg = cls.Config()
        cfg.klass = cls
        return cfg

    def __init__(self, cfg, *, parent=None):
        self.config = cfg
        self.parent = parent
        self._vlog_level = cfg.vlog if cfg.vlog is not None else (parent._vlog_level if parent else None)

    def path(self):
        return self.config.name if self.parent is None else f"{self.parent.path()}.{self.config.name}"

    def vlog_is_on(self, level):
        return self._vlog_level is not None and level <= self._vlog_level

    def vprint(self, level, msg, *args, **kwargs):
        if self.vlog_is_on(level):
            jax.debug.print(f"@{self.path()} " + msg, *args, **kwargs)

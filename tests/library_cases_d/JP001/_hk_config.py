"""Process-wide configuration with a context-manager override (haiku config style)."""
import contextlib
import dataclasses
import threading


@dataclasses.dataclass
class Config:
    target_platform: str
    log_activations: bool
    compute_dtype: str

    @classmethod
    def default(cls) -> "Config":
        return Config(target_platform="cpu", log_activations=False, compute_dtype="float32")


class _ConfigStack(threading.local):
    def __init__(self):
        super().__init__()
        self.stack = [Config.default()]


_state = _ConfigStack()


def get_config() -> Config:
    return _state.stack[-1]


def _filter_none(d):
    return {k: v for k, v in d.items() if v is not None}


@contextlib.contextmanager
def context(*, target_platform=None, log_activations=None, compute_dtype=None):
    overrides = _filter_none(dict(target_platform=target_platform,
                                  log_activations=log_activations,
                                  compute_dtype=compute_dtype))
    _state.stack.append(dataclasses.replace(get_config(), **overrides))
    try:
        yield get_config()
    finally:
        _state.stack.pop()

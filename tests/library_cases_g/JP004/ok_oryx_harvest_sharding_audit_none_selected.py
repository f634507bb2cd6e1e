"""Lower a sharded MLP block for the pod with the sharding audit wired in (no names selected).

Uses the harvest pattern of a probabilistic-programming toolkit: model code
``sow``s named intermediates under a tag, and a transformation ``reap``s (or
``plant``s) them from outside, filtered by ``allowlist``/``blocklist``, without
the model knowing who listens. The audit reaps the ``intermediates`` tag and
asks JAX how each reaped value is sharded.
"""

import contextlib
import dataclasses
import functools
from typing import Callable, FrozenSet, Optional

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P


@dataclasses.dataclass(frozen=True)
class HarvestSettings:
    tag: str
    allowlist: Optional[FrozenSet[str]]
    blocklist: FrozenSet[str]
    handler: Callable

    def wants(self, tag: str, name: str) -> bool:
        if tag != self.tag or name in self.blocklist:
            return False
        return self.allowlist is None or name in self.allowlist


_ACTIVE: list = []


def sow(value, *, tag: str, name: str, mode: str = "strict"):
    for settings in reversed(_ACTIVE):
        if settings.wants(tag, name):
            return settings.handler(name, value)
    return value


@contextlib.contextmanager
def _harvesting(settings):
    _ACTIVE.append(settings)
    try:
        yield
    finally:
        _ACTIVE.pop()


def reap(f, *, tag: str, allowlist=None, blocklist=frozenset(), handler=None):
    @functools.wraps(f)
    def wrapped(*args, **kwargs):
        reaped = {}

        def _record(name, value):
            reaped[name] = handler(name, value) if handler else value
            return value

        with _harvesting(HarvestSettings(tag, allowlist, frozenset(blocklist), _record)):
            out = f(*args, **kwargs)
        return out, reaped
    return wrapped


def dense(params, x, name):
    y = x @ params[name]["w"] + params[name]["b"]
    return sow(y, tag="intermediates", name=f"{name}_out")


def mlp_block(params, x):
    h = jax.nn.gelu(dense(params, x, "up"))
    h = sow(h, tag="intermediates", name="activation")
    return x + dense(params, h, "down")


def sharding_audit_handler(log: dict):
    def handler(name, value):
        def record(sharding):
            log[name] = str(sharding)
        jax.debug.inspect_array_sharding(value, callback=record)
        return value
    return handler


@dataclasses.dataclass
class AuditConfig:
    mesh_shape: tuple = (4, 2)
    axis_names: tuple = ("data", "model")
    platform: str = "tpu"
    audit_names: str = ""
    d_model: int = 512
    d_ff: int = 2048
    batch: int = 64


def run_audit(cfg: AuditConfig):
    mesh = AbstractMesh(cfg.mesh_shape, cfg.axis_names, axis_types=(AxisType.Auto,) * 2)
    log: dict = {}
    allowlist = frozenset(n for n in cfg.audit_names.split(",") if n)
    audited = reap(mlp_block, tag="intermediates", allowlist=allowlist,
                   handler=sharding_audit_handler(log))

    def step(params, x):
        out, _ = audited(params, x)
        return out

    s = lambda *spec: NamedSharding(mesh, P(*spec))
    param_shardings = {"up": {"w": s(None, "model"), "b": s("model")},
                       "down": {"w": s("model", None), "b": s()}}
    f32 = jnp.float32
    params = {"up": {"w": jax.ShapeDtypeStruct((cfg.d_model, cfg.d_ff), f32),
                     "b": jax.ShapeDtypeStruct((cfg.d_ff,), f32)},
              "down": {"w": jax.ShapeDtypeStruct((cfg.d_ff, cfg.d_model), f32),
                       "b": jax.ShapeDtypeStruct((cfg.d_model,), f32)}}
    x = jax.ShapeDtypeStruct((cfg.batch, cfg.d_model), f32)
    jitted = jax.jit(step, in_shardings=(param_shardings, s("data", None)), out_shardings=s("data", None))
    lowered = jitted.trace(params, x).lower(lowering_platforms=(cfg.platform,))
    return lowered, log


if __name__ == "__main__":
    lowered, log = run_audit(AuditConfig())
    print(sorted(log), len(lowered.as_text()))

"""DP training step with a canary audit (jax_privacy clipping + auditing layout), exported
with batch shardings for the serving-side accountant."""

import dataclasses

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

from _privacy_clipping import AuditConfig, CanaryAuditConfig, clipped_grad


@dataclasses.dataclass(frozen=True)
class ExperimentConfig:
    l2_clip_norm: float = 1.0
    noise_multiplier: float = 0.8
    batch_size: int = 64
    audit: AuditConfig = dataclasses.field(default_factory=AuditConfig)
    data_parallel: int = 8
    platforms: tuple = ("cpu",)


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def make_step(cfg):
    grad_fn = clipped_grad(loss_fn, l2_clip_norm=cfg.l2_clip_norm, audit_hook=cfg.audit.hook())

    def step(params, x, y, key):
        g = grad_fn(params, x, y)
        noise_std = cfg.noise_multiplier * cfg.l2_clip_norm
        keys = dict(zip(g, jax.random.split(key, len(g))))
        return jax.tree.map(lambda p, gi, k: p - 0.01 * (gi + noise_std * jax.random.normal(k, gi.shape)) / x.shape[0],
                            params, g, keys)

    return jax.jit(step)


def export_step(cfg):
    mesh = AbstractMesh((cfg.data_parallel,), ("data",), axis_types=(AxisType.Auto,))
    batch = NamedSharding(mesh, P("data"))
    params = {"w": jax.ShapeDtypeStruct((16, 1), jnp.float32), "b": jax.ShapeDtypeStruct((1,), jnp.float32)}
    x = jax.ShapeDtypeStruct((cfg.batch_size, 16), jnp.float32, sharding=batch)
    y = jax.ShapeDtypeStruct((cfg.batch_size, 1), jnp.float32, sharding=batch)
    key = jax.ShapeDtypeStruct((2,), jnp.uint32)
    return jax.export.export(make_step(cfg), platforms=cfg.platforms)(params, x, y, key)


if __name__ == "__main__":
    cfg = ExperimentConfig(audit=CanaryAuditConfig(record_norms=False, canary_count=32))
    exported = export_step(cfg)
    print(exported.platforms, len(exported.in_avals))

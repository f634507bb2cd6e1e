"""Per-example clipping with an optional auditing hook, after jax_privacy's clipping.py
(clipped_grad, BoundedSensitivityCallable) and auditing.py."""

import dataclasses

import jax
import jax.numpy as jnp
from jax.experimental import io_callback

AUDIT_LOG = []


def _record_norms(norms):
    AUDIT_LOG.append(norms.copy())


@dataclasses.dataclass(frozen=True)
class AuditConfig:
    record_norms: bool = False

    def hook(self):
        if not self.record_norms:
            return None
        return lambda norms: io_callback(_record_norms, None, norms, ordered=False)


@dataclasses.dataclass(frozen=True)
class CanaryAuditConfig(AuditConfig):
    record_norms: bool = True
    canary_count: int = 16


def clipped_grad(loss_fn, *, l2_clip_norm, audit_hook=None):
    per_example = jax.vmap(jax.grad(loss_fn), in_axes=(None, 0, 0))

    def fn(params, x, y):
        grads = per_example(params, x, y)
        leaves = jax.tree.leaves(grads)
        norms = jnp.sqrt(sum(jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1) for g in leaves))
        if audit_hook is not None:
            audit_hook(norms)
        factor = jnp.minimum(1.0, l2_clip_norm / (norms + 1e-12))
        return jax.tree.map(lambda g: jnp.tensordot(factor, g, axes=1), grads)

    return fn

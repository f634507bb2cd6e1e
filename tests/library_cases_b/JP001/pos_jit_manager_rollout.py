import jax
import jax.numpy as jnp

from _serving_targets import ROLLOUT_ORDER, SERVING_TARGETS


def _log_batch(n_tokens):
    print(f"encoder batch of {int(n_tokens)} tokens")


class EncoderJitManager:
    """Keeps one jitted encoder and the lowered modules per serving pool."""

    def __init__(self, hidden):
        self.hidden = hidden
        self._jitted = jax.jit(self._encode)
        self._lowered = {}

    def _encode(self, pixels, proj):
        jax.debug.callback(_log_batch, pixels.shape[0] * pixels.shape[1])
        return jnp.einsum("bpc,ch->bph", pixels, proj)

    def specs(self, batch, patches):
        return (
            jax.ShapeDtypeStruct((batch, patches, 48), jnp.bfloat16),
            jax.ShapeDtypeStruct((48, self.hidden), jnp.bfloat16),
        )

    def lower_for(self, pool, batch, patches):
        platforms = SERVING_TARGETS[pool]
        traced = self._jitted.trace(*self.specs(batch, patches))
        self._lowered[pool] = traced.lower(lowering_platforms=platforms)
        return self._lowered[pool]


if __name__ == "__main__":
    manager = EncoderJitManager(hidden=128)
    for pool in ROLLOUT_ORDER:
        manager.lower_for(pool, batch=4, patches=196)
    print(sorted(manager._lowered))

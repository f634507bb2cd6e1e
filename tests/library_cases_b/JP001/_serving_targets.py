"""Serving pools and the XLA platforms their replicas run on."""

SERVING_TARGETS = {
    "local-debug": ("cpu",),
    "v5e-pool": ("tpu",),
    "h100-pool": ("cuda",),
}

ROLLOUT_ORDER = ("local-debug", "v5e-pool")

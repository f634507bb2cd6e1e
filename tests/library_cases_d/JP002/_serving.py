"""Serving-side settings shared by the kernel modules (jax-triton examples style)."""

SERVING_PLATFORMS = ("tpu",)

# Launch meta-parameters per kernel, as tuned on the benchmark box.
KERNEL_META = {
    "softmax": {"num_warps": 4, "num_stages": 2},
    "layer_norm": {"num_warps": 8, "num_stages": 1},
}

BLOCK_ROWS = 8

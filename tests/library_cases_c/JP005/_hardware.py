ACCELERATOR_TO_PLATFORM = {
    "v5e": "tpu",
    "v6e": "tpu",
    "h100": "cuda",
    "mi300x": "rocm",
}

FLEET_PLATFORMS = ("tpu", "cuda")
BLOCK = (8, 128)

"""Defaults shared by the export programs: config text and the platform table."""

BASE_CONFIG_TEXT = """
# Model and run configuration.
model_name: 'tiny'
emb_dim: 128
mlp_dim: 512
hardware: 'tpu' # Supported hardware types are 'tpu', 'gpu' and 'cpu'
ici_fsdp_parallelism: 4
"""

HARDWARE_TO_PLATFORMS = {
    "tpu": ("tpu",),
    "gpu": ("cuda",),
    "cpu": ("cpu",),
}


def parse_config(text=BASE_CONFIG_TEXT, **overrides):
  """Parses `key: value` lines (comments and quotes stripped, ints converted)."""
  config = {}
  for line in text.splitlines():
    line = line.split("#", 1)[0].strip()
    if not line:
      continue
    key, value = (part.strip() for part in line.split(":", 1))
    value = value.strip("'\"")
    config[key] = int(value) if value.isdigit() else value
  config.update(overrides)
  return config

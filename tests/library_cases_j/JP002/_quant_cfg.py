"""Quantization settings (shaped like eformer.ops.quantization: QuantizationConfig, the TPU-kernel
switch, and the host probe that turns on interpret mode on CPU)."""
import dataclasses
import enum

import jax


class QuantizationType(str, enum.Enum):
  INT8 = "int8"
  NF4 = "nf4"


@dataclasses.dataclass(frozen=True)
class QuantizationConfig:
  dtype: QuantizationType = QuantizationType.INT8
  block_size: int = 8
  use_kernel: bool = True


def on_cpu_host() -> bool:
  try:
    return jax.local_devices()[0].platform == "cpu"
  except Exception:
    return False


SERVING_FLEET = ("tpu", "cuda")

"""Per-backend defaults for the Pallas kernels in this directory."""

import jax
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as pltriton

DEFAULT_BLOCK_ROWS = 16
DEFAULT_VMEM_LIMIT_BYTES = 64 * 1024 * 1024
PARALLEL_DIMENSION_SEMANTICS = (pltpu.PARALLEL,)
SEQUENTIAL_DIMENSION_SEMANTICS = (pltpu.ARBITRARY,)
DEFAULT_TARGET = "cuda"

TPU_PARAMS = pltpu.CompilerParams(
    dimension_semantics=PARALLEL_DIMENSION_SEMANTICS,
    vmem_limit_bytes=DEFAULT_VMEM_LIMIT_BYTES,
)
TRITON_PARAMS = pltriton.CompilerParams(num_warps=4, num_stages=2)

PARAMS_BY_PLATFORM = {
    "tpu": TPU_PARAMS,
    "cuda": TRITON_PARAMS,
}

H100 = jax.sharding.AbstractDevice(device_kind="NVIDIA H100 80GB HBM3", num_cores=132, platform="cuda")

import dataclasses
import enum
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


class ScanType(enum.Enum):
    AUTO = enum.auto()
    LINEAR_PALLAS = enum.auto()
    LINEAR_NATIVE = enum.auto()


@dataclasses.dataclass(frozen=True)
class GriffinConfig:
    width: int = 128
    scan_type: ScanType = ScanType.AUTO
    seq_block: int = 8
    target_platform: str = "tpu"


def resolve_scan_type(scan_type):
    if scan_type is ScanType.AUTO:
        return ScanType.LINEAR_PALLAS if jax.local_devices()[0].platform == "tpu" else ScanType.LINEAR_NATIVE
    return scan_type


def _lru_kernel(a_ref, x_ref, h_ref):
    h = jnp.zeros((1, x_ref.shape[1]), jnp.float32)
    for t in range(x_ref.shape[0]):
        h = a_ref[t : t + 1, :] * h + x_ref[t : t + 1, :]
        h_ref[t : t + 1, :] = h


def lru_pallas(a, x, *, seq_block):
    spec = pl.BlockSpec((seq_block, x.shape[1]), lambda i: (i, 0))
    return pl.pallas_call(
        _lru_kernel,
        grid=(x.shape[0] // seq_block,),
        in_specs=[spec, spec],
        out_specs=spec,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("arbitrary",)),
    )(a, x)


def lru_native(a, x):
    def step(h, ax):
        h = ax[0] * h + ax[1]
        return h, h

    return jax.lax.scan(step, jnp.zeros(x.shape[1], x.dtype), (a, x))[1]


def rg_lru(a, x, *, config):
    match resolve_scan_type(config.scan_type):
        case ScanType.LINEAR_PALLAS:
            return lru_pallas(a, x, seq_block=config.seq_block)
        case ScanType.LINEAR_NATIVE:
            return lru_native(a, x)


if __name__ == "__main__":
    config = GriffinConfig()
    a = jnp.full((32, config.width), 0.9, jnp.float32)
    x = jnp.ones((32, config.width), jnp.float32)
    fn = jax.jit(functools.partial(rg_lru, config=config))
    print(fn(a, x)[-1, :4])

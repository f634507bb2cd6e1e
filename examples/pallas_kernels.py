"""Pallas kernels for a small model, with ahead-of-time lowering for the deploy targets.

Realistic project code with platform-consistency mistakes left in on purpose
(JP002, JP001) next to the correct patterns a checker must not flag.
"""

import functools

import jax
import jax.numpy as jnp
import jax.experimental.pallas as pl
from jax import export, lax
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as pltriton
from jax.sharding import AbstractDevice, AbstractMesh

BLOCK_ROWS = 128
H100 = AbstractDevice(device_kind="NVIDIA H100 80GB HBM3", num_cores=132, platform="cuda")


# --- kernels ---------------------------------------------------------------


def _matmul_kernel(x_ref, w_ref, o_ref):
    o_ref[...] = jnp.dot(x_ref[...], w_ref[...], preferred_element_type=jnp.float32)


def matmul_tpu(x, w):
    """Mosaic TPU matmul, tiled over rows."""
    m, k = x.shape
    _, n = w.shape
    return pl.pallas_call(
        _matmul_kernel,
        grid=(m // BLOCK_ROWS,),
        in_specs=[
            pl.BlockSpec((BLOCK_ROWS, k), lambda i: (i, 0)),
            pl.BlockSpec((k, n), lambda i: (0, 0)),
        ],
        out_specs=pl.BlockSpec((BLOCK_ROWS, n), lambda i: (i, 0)),
        out_shape=jax.ShapeDtypeStruct((m, n), jnp.float32),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
    )(x, w)


def _gelu_kernel(x_ref, o_ref):
    x = x_ref[...]
    o_ref[...] = 0.5 * x * (1.0 + jnp.tanh(0.79788456 * (x + 0.044715 * x**3)))


@functools.partial(jax.jit, static_argnames=("num_warps",))
def gelu_triton(x, num_warps=4):
    """Triton GELU for NVIDIA GPUs."""
    return pl.pallas_call(
        _gelu_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params=pltriton.CompilerParams(num_warps=num_warps),
    )(x)


def gelu_reference(x):
    return pl.pallas_call(
        _gelu_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        interpret=True,  # runs anywhere; compiler_params would be ignored
    )(x)


def _matmul_xla(x, w):
    return jnp.dot(x, w, preferred_element_type=jnp.float32)


def mlp(x, w):
    """Picks the TPU kernel on TPU and plain XLA elsewhere."""
    h = lax.platform_dependent(x, w, tpu=matmul_tpu, default=_matmul_xla)
    return jax.nn.gelu(h)


# --- ahead-of-time builds --------------------------------------------------


def build_tpu_mlp():
    x = jax.ShapeDtypeStruct((512, 256), jnp.bfloat16)
    w = jax.ShapeDtypeStruct((256, 128), jnp.bfloat16)
    # Fine: TPU params lowered for tpu (no TPU needed on the build host).
    return jax.jit(matmul_tpu).trace(x, w).lower(lowering_platforms=("tpu",))


def build_gpu_mlp():
    x = jax.ShapeDtypeStruct((512, 256), jnp.bfloat16)
    w = jax.ShapeDtypeStruct((256, 128), jnp.bfloat16)
    # Mistake (JP002): a pltpu.CompilerParams kernel lowered for cuda. JAX raises
    # "Compiler params for platform tpu cannot be used for gpu lowering." (or a bare
    # AssertionError when no TPU lowering ran earlier in the process).
    return jax.jit(matmul_tpu).trace(x, w).lower(lowering_platforms=("cuda",))


def build_mlp_for(platform):
    x = jax.ShapeDtypeStruct((512, 256), jnp.bfloat16)
    w = jax.ShapeDtypeStruct((256, 128), jnp.bfloat16)
    # Fine for a single platform: platform_dependent prunes the TPU kernel for cuda.
    return jax.jit(mlp).trace(x, w).lower(lowering_platforms=(platform,))


def export_mlp_everywhere():
    x = jax.ShapeDtypeStruct((512, 256), jnp.bfloat16)
    w = jax.ShapeDtypeStruct((256, 128), jnp.bfloat16)
    # Mistake (JP002): in a multi-platform export every platform_dependent branch is
    # lowered for every platform, so the TPU kernel meets the cuda lowering:
    # "Compiler params for platform tpu cannot be used for gpu lowering."
    return export.export(jax.jit(mlp), platforms=("tpu", "cuda"))(x, w)


def build_gelu_for_h100():
    spec = jax.ShapeDtypeStruct((4096,), jnp.float32)
    # Fine: Triton params for cuda, with an abstract H100 standing in for the GPU.
    with jax.sharding.use_abstract_mesh(AbstractMesh((1,), ("x",), abstract_device=H100)):
        return gelu_triton.trace(spec).lower(lowering_platforms=("cuda",))


def build_reference_for_tpu():
    spec = jax.ShapeDtypeStruct((8, 128), jnp.float32)
    # Fine: interpret=True lowers for any platform.
    return jax.jit(gelu_reference).trace(spec).lower(lowering_platforms=("tpu",))


def build_debug_kernel_for_tpu():
    spec = jax.ShapeDtypeStruct((8, 128), jnp.float32)

    def debug_gelu(x):
        return pl.pallas_call(
            _gelu_kernel,
            out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
            interpret=pltpu.InterpretParams(),
        )(x)

    # Mistake (JP001): InterpretParams runs the kernel through io_callback, which needs
    # the backend the computation is placed on: on a CPU host JAX raises "the platform
    # for the specified backend cpu is different from the lowering platform tpu".
    return jax.jit(debug_gelu).trace(spec).lower(lowering_platforms=("tpu",))


if __name__ == "__main__":
    for build in (build_tpu_mlp, build_mlp_for, build_gelu_for_h100, build_reference_for_tpu):
        args = ("cuda",) if build is build_mlp_for else ()
        print(build.__name__, "->", build(*args).as_text().splitlines()[0][:60])

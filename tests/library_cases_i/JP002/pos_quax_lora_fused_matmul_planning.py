"""LoRA weights as a quax-style array value whose matmul rule runs a fused Pallas kernel;
the forward pass is lowered inside a planning context for the TPU pod."""

import contextlib
import dataclasses

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as pltriton
from jax.sharding import AbstractDevice, AbstractMesh

from _quax_values import ArrayValue, dispatch, quaxify, register, tree_flatten_value


@dataclasses.dataclass
class LoraArray(ArrayValue):
    w: jax.Array
    a: jax.Array
    b: jax.Array

    compiler_params = None

    def materialise(self):
        return self.w + self.a @ self.b

    @property
    def shape(self):
        return self.w.shape


@tree_flatten_value
@dataclasses.dataclass
class MosaicLoraArray(LoraArray):
    compiler_params = pltpu.CompilerParams()


@tree_flatten_value
@dataclasses.dataclass
class TritonLoraArray(LoraArray):
    compiler_params = pltriton.CompilerParams(num_warps=4, num_stages=3)


LORA_FLAVOURS = {"mosaic": MosaicLoraArray, "triton": TritonLoraArray}
SETTINGS = {"lora_flavour": "triton", "rank": 8}


def _lora_kernel(x_ref, w_ref, a_ref, b_ref, o_ref):
    x = x_ref[...]
    o_ref[...] = x @ w_ref[...] + (x @ a_ref[...]) @ b_ref[...]


@register("matmul")
def _lora_matmul(x, lora):
    out = jax.ShapeDtypeStruct((x.shape[0], lora.shape[1]), x.dtype)
    return pl.pallas_call(_lora_kernel, out_shape=out, compiler_params=type(lora).compiler_params)(
        x, lora.w, lora.a, lora.b)


def loraify(w, key):
    cls = LORA_FLAVOURS[SETTINGS["lora_flavour"]]
    rank = SETTINGS["rank"]
    a = jax.random.normal(key, (w.shape[0], rank), w.dtype) * 0.01
    b = jnp.zeros((rank, w.shape[1]), w.dtype)
    return cls(w, a, b)


@quaxify
def mlp(params, x):
    h = jax.nn.gelu(dispatch("matmul", x, params["up"]))
    return dispatch("matmul", h, params["down"])


@contextlib.contextmanager
def pod_planning(device_kind="TPU v5 lite", platform="tpu"):
    mesh = AbstractMesh((1,), ("data",), abstract_device=AbstractDevice(device_kind, 1, platform))
    with jax.sharding.use_abstract_mesh(mesh):
        yield mesh


if __name__ == "__main__":
    k1, k2 = jax.random.split(jax.random.key(0))
    params = {"up": loraify(jnp.zeros((128, 256), jnp.float32), k1),
              "down": loraify(jnp.zeros((256, 128), jnp.float32), k2)}
    specs = jax.tree.map(lambda p: jax.ShapeDtypeStruct(p.shape, p.dtype), params)
    with pod_planning():
        lowered = jax.jit(mlp).trace(specs, jax.ShapeDtypeStruct((16, 128), jnp.float32)).lower()
    print(lowered.as_text()[:100])

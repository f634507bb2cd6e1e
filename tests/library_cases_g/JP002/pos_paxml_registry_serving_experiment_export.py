"""Export the decoder block of a registered experiment for the serving fleet.

Laid out like a large-scale training framework's experiment configs: classes
register themselves in a global experiment registry, subclasses override class
attributes of a base experiment, ``task()`` returns a tree of ``Config`` objects
that ``instantiate`` builds, and an export tool looks the experiment up by name.
"""

import functools
from typing import Any

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


class Config:
    """A deferred constructor call: ``Config(cls, **kwargs)``."""

    def __init__(self, fn_or_cls, **kwargs):
        self.__fn_or_cls__ = fn_or_cls
        self.__arguments__ = dict(kwargs)

    def __getattr__(self, name):
        try:
            return self.__dict__["__arguments__"][name]
        except KeyError:
            raise AttributeError(name) from None


def instantiate(cfg: Any):
    if isinstance(cfg, Config):
        kwargs = {k: instantiate(v) for k, v in cfg.__arguments__.items()}
        return cfg.__fn_or_cls__(**kwargs)
    if isinstance(cfg, (list, tuple)):
        return type(cfg)(instantiate(c) for c in cfg)
    return cfg


class _ExperimentRegistry:
    _registry: dict[str, type] = {}

    @classmethod
    def register(cls, experiment_class=None, *, allow_overwrite=False):
        if experiment_class is None:
            return functools.partial(cls.register, allow_overwrite=allow_overwrite)
        key = f"{experiment_class.__module__}.{experiment_class.__name__}"
        if key in cls._registry and not allow_overwrite:
            raise ValueError(f"Experiment already registered: {key}")
        cls._registry[key] = experiment_class
        return experiment_class

    @classmethod
    def get(cls, key: str):
        matches = [v for k, v in cls._registry.items() if k.endswith(key)]
        if len(matches) > 1:
            raise ValueError(f"Key {key} does not uniquely identify an experiment")
        return matches[0] if matches else None


experiment_registry = _ExperimentRegistry


def _rms_scale_kernel(x_ref, w_ref, o_ref, *, eps):
    x = x_ref[...]
    o_ref[...] = x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + eps) * w_ref[...]


class FusedRmsNorm:
    def __init__(self, dim: int, eps: float, block_rows: int, compiler_params, interpret: bool):
        self.dim, self.eps, self.block_rows = dim, eps, block_rows
        self.compiler_params, self.interpret = compiler_params, interpret

    def __call__(self, x, scale):
        rows = x.shape[0]
        spec = pl.BlockSpec((self.block_rows, self.dim), lambda i: (i, 0))
        return pl.pallas_call(
            functools.partial(_rms_scale_kernel, eps=self.eps),
            out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
            grid=(rows // self.block_rows,),
            in_specs=[spec, pl.BlockSpec((1, self.dim), lambda i: (0, 0))],
            out_specs=spec,
            compiler_params=self.compiler_params,
            interpret=self.interpret,
        )(x, scale[None, :])


class DecoderBlock:
    def __init__(self, norm: FusedRmsNorm, hidden: int):
        self.norm, self.hidden = norm, hidden

    def __call__(self, params, x):
        h = self.norm(x, params["norm_scale"])
        h = jax.nn.gelu(h @ params["w_in"]) @ params["w_out"]
        return x + h


class BaseExperiment:
    MODEL_DIMS = 256
    HIDDEN_DIMS = 1024
    NORM_KERNEL_PARAMS = pltpu.CompilerParams(dimension_semantics=("parallel",))
    KERNEL_INTERPRET = False
    EXPORT_PLATFORMS = ("tpu",)

    def task(self) -> Config:
        norm = Config(FusedRmsNorm, dim=self.MODEL_DIMS, eps=1e-6, block_rows=8,
                      compiler_params=self.NORM_KERNEL_PARAMS, interpret=self.KERNEL_INTERPRET)
        return Config(DecoderBlock, norm=norm, hidden=self.HIDDEN_DIMS)


@experiment_registry.register
class LmCloudSpmd256(BaseExperiment):
    MODEL_DIMS = 256


@experiment_registry.register
class LmCloudServingHybrid(LmCloudSpmd256):
    """The same model, exported once for a fleet that mixes TPU and GPU hosts."""
    EXPORT_PLATFORMS = ("tpu", "cuda")


def export_block(exp_name: str, batch_tokens: int = 64):
    exp = experiment_registry.get(exp_name)()
    block = instantiate(exp.task())
    d, h = exp.MODEL_DIMS, exp.HIDDEN_DIMS
    params = {"norm_scale": jax.ShapeDtypeStruct((d,), jnp.float32),
              "w_in": jax.ShapeDtypeStruct((d, h), jnp.float32),
              "w_out": jax.ShapeDtypeStruct((h, d), jnp.float32)}
    x = jax.ShapeDtypeStruct((batch_tokens, d), jnp.float32)
    return jax.export.export(jax.jit(block.__call__), platforms=exp.EXPORT_PLATFORMS)(params, x)


if __name__ == "__main__":
    exported = export_block("LmCloudServingHybrid")
    print(exported.platforms, exported.out_avals)

import jax
import jax.numpy as jnp

NATIVE_SERIALIZATION_PLATFORMS = "native_serialization_platforms"


class ServingModule:
    """Wraps apply functions and exports each of them for serving."""

    def __init__(self, params, apply_fn_map, export_kwargs=None):
        self._params = params
        self._apply_fn_map = dict(apply_fn_map)
        self._export_kwargs = dict(export_kwargs or {})

    def lowering_platforms(self):
        return self._export_kwargs.get(NATIVE_SERIALIZATION_PLATFORMS)

    def export_all(self, input_spec):
        exported = {}
        for name, fn in self._apply_fn_map.items():
            jitted = jax.jit(lambda x, fn=fn: fn(self._params, x))
            exported[name] = jax.export.export(jitted, platforms=self.lowering_platforms())(input_spec)
        return exported


def classify(params, x):
    return jax.nn.log_softmax(x @ params["w"] + params["b"])


def embed(params, x):
    return x @ params["w"]


if __name__ == "__main__":
    params = {"w": jnp.zeros((64, 10)), "b": jnp.zeros((10,))}
    module = ServingModule(
        params,
        {"serving_default": classify, "embed": embed},
        export_kwargs={NATIVE_SERIALIZATION_PLATFORMS: "tpu"},
    )
    out = module.export_all(jax.ShapeDtypeStruct((8, 64), jnp.float32))
    print({k: v.platforms for k, v in out.items()})

import jax
import jax.numpy as jnp
import numpy as np

from _serving_targets import SERVING_TARGETS

_REMAP = np.arange(4096, dtype=np.int32) % 251


def _remap_ids(ids):
    return _REMAP[np.asarray(ids)]


def embed_apply(params, ids):
    spec = jax.ShapeDtypeStruct(ids.shape, jnp.int32)
    local_ids = jax.pure_callback(_remap_ids, spec, ids)
    return params["embedding"][local_ids].mean(axis=1)


class ServingModule:
    """Bundles an apply function with its params for serialization."""

    def __init__(self, apply_fn, params, export_kwargs=None):
        self._apply_fn = apply_fn
        self._params = params
        self._export_kwargs = dict(export_kwargs or {})

    @property
    def platforms(self):
        return self._export_kwargs.get("platforms")

    def _serving_fn(self):
        return jax.jit(lambda ids: self._apply_fn(self._params, ids))

    def export(self, *input_specs):
        fn = self._serving_fn()
        return jax.export.export(fn, platforms=self.platforms)(*input_specs)


def build(pool):
    params = {"embedding": jnp.ones((251, 32), jnp.float32)}
    return ServingModule(embed_apply, params, export_kwargs={"platforms": SERVING_TARGETS[pool]})


if __name__ == "__main__":
    module = build("h100-pool")
    exported = module.export(jax.ShapeDtypeStruct((8, 64), jnp.int32))
    print(exported.platforms)

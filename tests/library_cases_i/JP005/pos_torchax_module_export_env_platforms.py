"""Exports a small PyTorch-shaped MLP through a JittableModule-style wrapper to StableHLO,
with target platforms taken from the environment (torchax interop/export layout)."""

import jax
import jax.numpy as jnp
import numpy as np

from _torchax_interop import JittableModule, default_export_platforms


class TinyMLP:
    def __init__(self, d_in=16, d_hidden=32, d_out=4, seed=0):
        rng = np.random.default_rng(seed)
        self._state = {
            "fc1.weight": rng.normal(size=(d_hidden, d_in)).astype(np.float32),
            "fc1.bias": np.zeros(d_hidden, np.float32),
            "fc2.weight": rng.normal(size=(d_out, d_hidden)).astype(np.float32),
            "fc2.bias": np.zeros(d_out, np.float32),
        }

    def state_dict(self):
        return self._state

    def forward(self, params, x):
        h = jax.nn.relu(x @ params["fc1.weight"].T + params["fc1.bias"])
        return h @ params["fc2.weight"].T + params["fc2.bias"]


def exported_program_to_stablehlo(module, sample_shape, *, platforms=None):
    if platforms is None:
        platforms = default_export_platforms()
    jitted = module.make_jitted("forward")
    weights = {k: jax.ShapeDtypeStruct(v.shape, v.dtype) for k, v in module.params.items()}
    exported = jax.export.export(jitted, platforms=platforms)(weights, jax.ShapeDtypeStruct(sample_shape, jnp.float32))
    return module.params, exported


if __name__ == "__main__":
    wrapped = JittableModule(TinyMLP(), extra_jit_args={"donate_argnums": ()})
    weights, exp = exported_program_to_stablehlo(wrapped, (8, 16))
    print(exp.platforms, exp.out_avals)

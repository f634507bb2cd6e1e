"""Lower an MLP for the accelerator named in the active config context.

Modules read the process config (haiku ``hk.config`` style) both for their
activation logging switch and, at AOT time, for the target platform.
"""
import jax
import jax.numpy as jnp

import _hk_config as config


def _log_stats(name, mean, std):
    print(f"[{name}] mean={float(mean):.4f} std={float(std):.4f}")


class Linear:
    def __init__(self, output_size, name):
        self.output_size = output_size
        self.name = name

    def init(self, key, input_size):
        w = jax.random.normal(key, (input_size, self.output_size)) / jnp.sqrt(input_size)
        return {"w": w, "b": jnp.zeros((self.output_size,))}

    def __call__(self, params, x):
        return x @ params["w"] + params["b"]


class MLP:
    def __init__(self, output_sizes, name="mlp"):
        self.layers = [Linear(n, f"{name}/linear_{i}") for i, n in enumerate(output_sizes)]

    def init(self, key, input_size):
        params, sizes = [], [input_size] + [l.output_size for l in self.layers]
        for layer, size, k in zip(self.layers, sizes, jax.random.split(key, len(self.layers))):
            params.append(layer.init(k, size))
        return params

    def __call__(self, params, x):
        for i, (layer, p) in enumerate(zip(self.layers, params)):
            x = layer(p, x)
            if i < len(self.layers) - 1:
                x = jax.nn.gelu(x)
            if config.get_config().log_activations:
                jax.debug.callback(_log_stats, layer.name, jnp.mean(x), jnp.std(x))
        return x


def lower_for_target(fn, *specs):
    cfg = config.get_config()
    traced = jax.jit(fn).trace(*specs)
    return traced.lower(lowering_platforms=(cfg.target_platform,))


def main():
    mlp = MLP([64, 64, 10])
    params = mlp.init(jax.random.PRNGKey(0), 32)
    batch = jax.ShapeDtypeStruct((16, 32), jnp.float32)
    with config.context(target_platform="cuda", log_activations=True):
        lowered = lower_for_target(mlp.__call__, params, batch)
    print(lowered.as_text()[:200])


if __name__ == "__main__":
    main()

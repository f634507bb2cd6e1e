"""Export a trained Kolmogorov-Arnold network for the serving platforms.

Shaped after jaxkan: a `KAN` built from a layer-type code through a layer
registry (`get_layer`), `required_parameters` forwarded to every layer, and a
command-line exporter whose `--platforms` option takes one or more names.
"""

from __future__ import annotations

import argparse

import jax
import jax.numpy as jnp

from _kan_layers import get_layer


class KAN:
    def __init__(self, layer_dims: list[int], layer_type: str = "chebyshev",
                 required_parameters: dict | None = None):
        LayerClass = get_layer(layer_type.lower())
        if required_parameters is None:
            raise ValueError("required_parameters must be provided as a dictionary")
        self.layers = [LayerClass(n_in=i, n_out=o, **required_parameters)
                       for i, o in zip(layer_dims[:-1], layer_dims[1:])]

    def param_spec(self):
        return [layer.param_spec() for layer in self.layers]

    def __call__(self, params, x):
        for layer, p in zip(self.layers, params):
            x = layer(p, x)
        return x


def parse_args():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--layer-type", default="chebyshev")
    p.add_argument("--dims", type=int, nargs="+", default=[2, 8, 8, 1])
    p.add_argument("--degree", type=int, default=5)
    p.add_argument("--platforms", nargs="+", default=["tpu"],
                   help="platforms the artifact must run on")
    p.add_argument("--batch", type=int, default=1024)
    return p.parse_args()


def main():
    args = parse_args()
    model = KAN(args.dims, args.layer_type, required_parameters={"D": args.degree})
    x = jax.ShapeDtypeStruct((args.batch, args.dims[0]), jnp.float32)
    exported = jax.export.export(jax.jit(model), platforms=args.platforms)(model.param_spec(), x)
    print("exported for", exported.platforms, "->", exported.out_avals)


if __name__ == "__main__":
    main()

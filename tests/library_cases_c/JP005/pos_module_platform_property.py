import dataclasses

import jax
import jax.numpy as jnp

from _hardware import ACCELERATOR_TO_PLATFORM


@dataclasses.dataclass(frozen=True)
class GraphConvModel:
    hidden: int
    num_layers: int
    accelerator: str = "v5e"

    @property
    def lowering_platforms(self):
        return ACCELERATOR_TO_PLATFORM[self.accelerator]

    def init(self, key, in_dim):
        dims = [in_dim] + [self.hidden] * self.num_layers
        keys = jax.random.split(key, self.num_layers)
        return [jax.random.normal(k, (a, b)) * a**-0.5 for k, a, b in zip(keys, dims[:-1], dims[1:])]

    def __call__(self, params, nodes, adjacency):
        deg = jnp.sum(adjacency, axis=-1, keepdims=True) + 1.0
        for w in params:
            nodes = jax.nn.relu((adjacency @ nodes + nodes) / deg @ w)
        return nodes


def aot_lower(model, params, n_nodes, in_dim):
    nodes = jax.ShapeDtypeStruct((n_nodes, in_dim), jnp.float32)
    adjacency = jax.ShapeDtypeStruct((n_nodes, n_nodes), jnp.float32)
    traced = jax.jit(model).trace(params, nodes, adjacency)
    return traced.lower(lowering_platforms=model.lowering_platforms)


if __name__ == "__main__":
    model = GraphConvModel(hidden=64, num_layers=3, accelerator="h100")
    params = model.init(jax.random.key(0), 16)
    lowered = aot_lower(model, params, n_nodes=50, in_dim=16)
    print(lowered.as_text()[:80])

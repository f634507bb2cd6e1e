from typing import NamedTuple

import jax
import jax.numpy as jnp

from _serving import LOG_EVERY, SERVING_PLATFORMS


class GraphsTuple(NamedTuple):
    nodes: jax.Array
    senders: jax.Array
    receivers: jax.Array
    n_node: jax.Array


def _log_messages(step, total):
    if int(step) % LOG_EVERY == 0:
        print("messages", float(total))


def graph_network(update_fn, num_steps):
    def apply(graph):
        nodes = graph.nodes
        for step in range(num_steps):
            messages = nodes[graph.senders]
            agg = jax.ops.segment_sum(messages, graph.receivers, num_segments=nodes.shape[0])
            jax.debug.callback(_log_messages, step, agg.sum())
            nodes = update_fn(nodes, agg)
        return graph._replace(nodes=nodes)

    return apply


def make_specs(n_nodes, n_edges, width):
    return GraphsTuple(
        nodes=jax.ShapeDtypeStruct((n_nodes, width), jnp.float32),
        senders=jax.ShapeDtypeStruct((n_edges,), jnp.int32),
        receivers=jax.ShapeDtypeStruct((n_edges,), jnp.int32),
        n_node=jax.ShapeDtypeStruct((1,), jnp.int32),
    )


if __name__ == "__main__":
    net = graph_network(lambda n, a: jax.nn.relu(n + a), num_steps=2)
    specs = make_specs(10, 24, 8)
    artifacts = {}
    for platform in SERVING_PLATFORMS:
        traced = jax.jit(net).trace(specs)
        artifacts[platform] = traced.lower(lowering_platforms=(platform,))
    print(sorted(artifacts))

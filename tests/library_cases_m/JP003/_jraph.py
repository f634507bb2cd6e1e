"""Jraph-shaped graph networks: a GraphsTuple, segment sums, a GraphNetwork
factory over update functions, and padding to a power of two for batching."""

from __future__ import annotations

from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class GraphsTuple(NamedTuple):
  nodes: jax.Array
  edges: jax.Array
  receivers: jax.Array
  senders: jax.Array
  globals: jax.Array
  n_node: jax.Array
  n_edge: jax.Array


def segment_sum(data, segment_ids, num_segments):
  return jax.ops.segment_sum(data, segment_ids, num_segments)


def GraphNetwork(update_edge_fn: Callable, update_node_fn: Callable, update_global_fn: Callable):
  def _apply(graph: GraphsTuple) -> GraphsTuple:
    n_graph = graph.n_node.shape[0]
    sum_n = graph.nodes.shape[0]
    sum_e = graph.edges.shape[0]
    node_gr = jnp.repeat(jnp.arange(n_graph), graph.n_node, total_repeat_length=sum_n)
    edge_gr = jnp.repeat(jnp.arange(n_graph), graph.n_edge, total_repeat_length=sum_e)
    edges = update_edge_fn(jnp.concatenate(
        [graph.edges, graph.nodes[graph.senders], graph.nodes[graph.receivers]], axis=-1))
    received = segment_sum(edges, graph.receivers, sum_n)
    nodes = update_node_fn(jnp.concatenate([graph.nodes, received], axis=-1))
    node_agg = segment_sum(nodes, node_gr, n_graph)
    edge_agg = segment_sum(edges, edge_gr, n_graph)
    globals_ = update_global_fn(jnp.concatenate([graph.globals, node_agg, edge_agg], axis=-1))
    return graph._replace(nodes=nodes, edges=edges, globals=globals_)
  return _apply


def _nearest_bigger_power_of_two(x: int) -> int:
  y = 2
  while y < x:
    y *= 2
  return y


def padded_spec(num_graphs, num_nodes, num_edges, node_dim, edge_dim, global_dim) -> GraphsTuple:
  """The shapes of a batch padded as jraph's OGB example pads: powers of two, +1 graph."""
  n = _nearest_bigger_power_of_two(num_nodes) + 1
  e = _nearest_bigger_power_of_two(num_edges)
  g = num_graphs + 1
  f32, i32 = jnp.float32, jnp.int32
  S = jax.ShapeDtypeStruct
  return GraphsTuple(S((n, node_dim), f32), S((e, edge_dim), f32), S((e,), i32), S((e,), i32),
                     S((g, global_dim), f32), S((g,), i32), S((g,), i32))

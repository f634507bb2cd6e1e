"""Exports a trained graph-classification network (jraph's OGB example shape)
as a portable artifact for the platforms named on the command line."""

import sys

import jax
import jax.numpy as jnp

import _jr_flags as flags

flags.DEFINE_integer("batch_graphs", 15, "Graphs per padded batch.")
flags.DEFINE_string("export_platforms", "cpu,tpu", "Platforms the artifact must run on.")
FLAGS = flags.FLAGS


def segment_mean(data, segment_ids, num_segments):
  total = jax.ops.segment_sum(data, segment_ids, num_segments)
  count = jax.ops.segment_sum(jnp.ones_like(data[:, :1]), segment_ids, num_segments)
  return total / jnp.maximum(count, 1.0)


def net_fn(params, nodes, senders, receivers, n_node):
  n_graph = n_node.shape[0]
  messages = jax.nn.relu(nodes[senders] @ params["msg"])
  agg = jax.ops.segment_sum(messages, receivers, nodes.shape[0])
  h = jax.nn.relu(jnp.concatenate([nodes, agg], axis=-1) @ params["node"])
  graph_ids = jnp.repeat(jnp.arange(n_graph), n_node, total_repeat_length=nodes.shape[0])
  return segment_mean(h, graph_ids, n_graph) @ params["readout"]


def export(argv):
  FLAGS(argv)
  S = jax.ShapeDtypeStruct
  params = {"msg": S((9, 32), jnp.float32), "node": S((41, 64), jnp.float32),
            "readout": S((64, 2), jnp.float32)}
  n_nodes, n_edges = 1025, 2048
  args = (params, S((n_nodes, 9), jnp.float32), S((n_edges,), jnp.int32), S((n_edges,), jnp.int32),
          S((FLAGS.batch_graphs + 1,), jnp.int32))
  return jax.export.export(jax.jit(net_fn), platforms=FLAGS.export_platforms)(*args)


if __name__ == "__main__":
  print(export(sys.argv).platforms)

"""Molecular property prediction with a graph network (jraph's OGB example):
in `plan` mode the step is lowered for the number of devices given by a flag,
to read off the per-device memory before the real run."""

import sys

import jax
import numpy as np
from jax.sharding import AbstractMesh, AxisType, Mesh, NamedSharding, PartitionSpec as P

import _jr_flags as flags
from _jraph import GraphNetwork, padded_spec

flags.DEFINE_integer("batch_size", 31, "Number of graphs in batch.")
flags.DEFINE_integer("num_devices", 4, "Devices the predictions are sharded over.")
flags.DEFINE_enum("mode", "plan", ["train", "plan"], "Train, or plan the layout only.")
FLAGS = flags.FLAGS


def mlp(features, sizes, key):
  params = []
  for k, (a, b) in zip(jax.random.split(key, len(sizes)), zip([features] + sizes[:-1], sizes)):
    params.append(jax.random.normal(k, (a, b)) / np.sqrt(a))
  def apply(x):
    for w in params[:-1]:
      x = jax.nn.relu(x @ w)
    return x @ params[-1]
  return apply


def build_net(key):
  k1, k2, k3 = jax.random.split(key, 3)
  edge_fn = mlp(4 + 2 * 9, [64, 32], k1)
  node_fn = mlp(9 + 32, [64, 32], k2)
  global_fn = mlp(1 + 32 + 32, [64, 128], k3)
  return GraphNetwork(edge_fn, node_fn, global_fn)


def prediction_mesh():
  if FLAGS.mode == "plan":
    return AbstractMesh((FLAGS.num_devices,), ("graphs",), axis_types=(AxisType.Auto,))
  devices = np.asarray(jax.devices()[:1])
  return Mesh(devices, ("graphs",), axis_types=(AxisType.Auto,))


def main(argv):
  FLAGS(argv)
  net = build_net(jax.random.key(42))
  spec = padded_spec(FLAGS.batch_size, 1200, 2500, node_dim=9, edge_dim=4, global_dim=1)
  mesh = prediction_mesh()
  predict = jax.jit(lambda g: net(g).globals, out_shardings=NamedSharding(mesh, P("graphs")))
  lowered = predict.lower(spec)
  print(lowered.as_text()[:160])


if __name__ == "__main__":
  main(sys.argv)

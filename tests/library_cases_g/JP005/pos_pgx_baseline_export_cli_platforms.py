"""Command-line tool: export a baseline Connect Four policy for the arena servers.

Shaped like a jax board-game suite's tooling: ``make(env_id)`` builds a game,
states carry ``observation``/``legal_action_mask``/``current_player``,
``make_baseline_model(model_id)`` returns ``(forward, params)`` for a named
baseline, and ``__main__`` parses flags with argparse before exporting a
batched ``act`` function.
"""

import argparse
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.tree_util.register_dataclass)
@dataclasses.dataclass
class State:
    board: jax.Array
    current_player: jax.Array
    legal_action_mask: jax.Array
    terminated: jax.Array

    @property
    def observation(self):
        me = jnp.where(self.current_player == 0, 1, -1)
        return jnp.stack([self.board == me, self.board == -me], axis=-1).astype(jnp.float32)


class ConnectFour:
    id = "connect_four"
    num_actions = 7
    rows, cols = 6, 7

    def init(self, key):
        del key
        return State(jnp.zeros((self.rows, self.cols), jnp.int32), jnp.int32(0),
                     jnp.ones(self.cols, jnp.bool_), jnp.bool_(False))

    def step(self, state, action):
        col = state.board[:, action]
        row = jnp.max(jnp.where(col == 0, jnp.arange(self.rows), -1))
        mark = jnp.where(state.current_player == 0, 1, -1)
        board = state.board.at[row, action].set(mark)
        return State(board, 1 - state.current_player, board[0] == 0, jnp.all(board != 0))


def make(env_id: str):
    if env_id == "connect_four":
        return ConnectFour()
    raise ValueError(f"Wrong env_id '{env_id}' is passed. Available ids are: connect_four")


def _init_az_net(key, obs_size, num_actions, width=128, depth=3):
    keys = jax.random.split(key, depth + 2)
    params = {"torso": [], "policy": None, "value": None}
    n_in = obs_size
    for k in keys[:depth]:
        params["torso"].append({"w": jax.random.normal(k, (n_in, width)) / np.sqrt(n_in), "b": jnp.zeros(width)})
        n_in = width
    params["policy"] = {"w": jax.random.normal(keys[-2], (width, num_actions)) * 0.01, "b": jnp.zeros(num_actions)}
    params["value"] = {"w": jax.random.normal(keys[-1], (width, 1)) * 0.01, "b": jnp.zeros(1)}
    return params


def _az_forward(params, obs):
    x = obs.reshape(obs.shape[0], -1)
    for layer in params["torso"]:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    logits = x @ params["policy"]["w"] + params["policy"]["b"]
    value = jnp.tanh(x @ params["value"]["w"] + params["value"]["b"])[:, 0]
    return logits, value


def make_baseline_model(model_id: str, seed: int = 0):
    if model_id == "connect_four_v0":
        env = make("connect_four")
        params = _init_az_net(jax.random.key(seed), env.rows * env.cols * 2, env.num_actions)
        return _az_forward, params
    raise AssertionError(f"unknown baseline {model_id}")


def make_act(forward):
    def act(params, obs, legal_action_mask):
        logits, value = forward(params, obs)
        logits = jnp.where(legal_action_mask, logits, jnp.finfo(logits.dtype).min)
        return jnp.argmax(logits, axis=-1), value
    return act


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model-id", default="connect_four_v0")
    parser.add_argument("--batch-size", type=int, default=1024)
    parser.add_argument("--platforms", nargs="+", default="cuda",
                        help="platforms the arena servers run (one or more)")
    parser.add_argument("--out", default="/tmp/connect_four_v0.stablehlo")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    forward, params = make_baseline_model(args.model_id)
    env = make("connect_four")
    obs = jax.ShapeDtypeStruct((args.batch_size, env.rows, env.cols, 2), jnp.float32)
    mask = jax.ShapeDtypeStruct((args.batch_size, env.num_actions), jnp.bool_)
    param_spec = jax.tree.map(lambda x: jax.ShapeDtypeStruct(x.shape, x.dtype), params)
    exported = jax.export.export(jax.jit(make_act(forward)), platforms=args.platforms)(param_spec, obs, mask)
    print(f"exported {args.model_id} for {exported.platforms} ({len(exported.mlir_module())} chars)")


if __name__ == "__main__":
    main()

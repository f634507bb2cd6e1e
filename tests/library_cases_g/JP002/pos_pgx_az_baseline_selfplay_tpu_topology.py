"""Dry-run compile of batched self-play against a baseline on a TPU topology.

Following a jax board-game suite: ``make(env_id)`` imports and builds an
environment lazily, states carry ``legal_action_mask`` and ``current_player``,
and ``make_baseline_model(model_id)`` dispatches on the model id to an
AlphaZero-style or a MinAtar-style builder. The AlphaZero builders were written
for the GPU training cluster and mask their logits with a Triton kernel.
"""

import dataclasses
from functools import partial

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as pltriton
from jax.sharding import AbstractDevice, AbstractMesh


@partial(jax.tree_util.register_dataclass)
@dataclasses.dataclass
class State:
    board: jax.Array
    current_player: jax.Array
    legal_action_mask: jax.Array
    terminated: jax.Array
    rewards: jax.Array


class TicTacToe:
    id = "tic_tac_toe"
    num_actions = 9

    def init(self, key):
        del key
        return State(board=jnp.zeros(9, jnp.int32), current_player=jnp.int32(0),
                     legal_action_mask=jnp.ones(9, jnp.bool_), terminated=jnp.bool_(False),
                     rewards=jnp.zeros(2, jnp.float32))

    def step(self, state, action):
        mark = jnp.where(state.current_player == 0, 1, -1)
        board = state.board.at[action].set(mark)
        lines = jnp.array([[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6],
                           [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]])
        won = jnp.any(jnp.abs(board[lines].sum(-1)) == 3)
        full = jnp.all(board != 0)
        rewards = jnp.where(won, jnp.where(state.current_player == 0, jnp.array([1.0, -1.0]),
                                           jnp.array([-1.0, 1.0])), jnp.zeros(2))
        return State(board=board, current_player=1 - state.current_player,
                     legal_action_mask=board == 0, terminated=won | full, rewards=rewards)

    def observe(self, state):
        me = jnp.where(state.current_player == 0, 1, -1)
        return jnp.stack([state.board == me, state.board == -me], -1).astype(jnp.float32).reshape(-1)


def make(env_id: str):
    if env_id == "tic_tac_toe":
        return TicTacToe()
    raise ValueError(f"Wrong env_id '{env_id}' is passed.")


def _masked_logits_kernel(logits_ref, mask_ref, out_ref):
    out_ref[...] = jnp.where(mask_ref[...] != 0, logits_ref[...], jnp.finfo(jnp.float32).min)


def _make_az_baseline_model(model_id, num_actions, hidden=64):
    params_cls = pltriton.CompilerParams(num_warps=2, num_stages=1)

    def forward(params, obs, mask):
        h = jax.nn.relu(obs @ params["w1"])
        logits = h @ params["w_pi"]
        return pl.pallas_call(
            _masked_logits_kernel,
            out_shape=jax.ShapeDtypeStruct(logits.shape, logits.dtype),
            compiler_params=params_cls,
        )(logits, mask.astype(jnp.int32)), jnp.tanh(h @ params["w_v"])[..., 0]

    return forward, {"w1": (18, hidden), "w_pi": (hidden, num_actions), "w_v": (hidden, 1)}


def _make_minatar_baseline_model(model_id, num_actions, hidden=64):
    def forward(params, obs, mask):
        logits = jax.nn.relu(obs @ params["w1"]) @ params["w_pi"]
        return jnp.where(mask, logits, jnp.finfo(logits.dtype).min), jnp.zeros(obs.shape[:-1])

    return forward, {"w1": (18, hidden), "w_pi": (hidden, num_actions)}


def make_baseline_model(model_id: str, num_actions: int):
    if model_id in ("tic_tac_toe_v0", "othello_v0", "go_9x9_v0", "hex_v0"):
        return _make_az_baseline_model(model_id, num_actions)
    elif model_id.startswith("minatar-"):
        return _make_minatar_baseline_model(model_id, num_actions)
    raise AssertionError(model_id)


def make_selfplay(env, forward, batch_size, max_steps=9):
    def selfplay(params, key):
        keys = jax.random.split(key, batch_size)
        state = jax.vmap(env.init)(keys)

        def body(state, k):
            obs = jax.vmap(env.observe)(state)
            logits, _ = forward(params, obs, state.legal_action_mask)
            action = jax.random.categorical(k, logits, axis=-1)
            state = jax.vmap(env.step)(state, action)
            return state, state.rewards[:, 0]

        _, rewards = jax.lax.scan(body, state, jax.random.split(key, max_steps))
        return rewards.sum(0).mean()

    return selfplay


V5E_TOPOLOGY = AbstractMesh((1,), ("data",),
                            abstract_device=AbstractDevice("TPU v5 lite", 1, "tpu"))


if __name__ == "__main__":
    env = make("tic_tac_toe")
    forward, shapes = make_baseline_model("tic_tac_toe_v0", env.num_actions)
    params = {k: jax.ShapeDtypeStruct(s, jnp.float32) for k, s in shapes.items()}
    key = jax.ShapeDtypeStruct((2,), jnp.uint32)
    selfplay = jax.jit(make_selfplay(env, forward, batch_size=256))
    with jax.sharding.use_abstract_mesh(V5E_TOPOLOGY):
        lowered = selfplay.trace(params, key).lower()
    print(lowered.as_text()[:120])

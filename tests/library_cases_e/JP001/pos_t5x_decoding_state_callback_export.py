"""Serving export of a toy decoder, organised like an export library.

`save()` wires together a model, an optional decoding-state callback factory and
an inference-function factory; the inference function is exported with
`jax.export` for the serving platforms (TPU unless configured otherwise).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from typing import Any, Callable, Mapping, Optional, Protocol, Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

PyTree = Any


# --------------------------------------------------------------------------
# decoding.py
# --------------------------------------------------------------------------


@functools.partial(jax.tree_util.register_dataclass,
                   data_fields=["step", "sequences", "logits_sum"], meta_fields=[])
@dataclasses.dataclass
class DecodingState:
  step: jnp.ndarray
  sequences: jnp.ndarray
  logits_sum: jnp.ndarray


StateCallbackFn = Callable[[DecodingState], DecodingState]


def greedy_decode(
    tokens_to_logits: Callable[[jnp.ndarray], jnp.ndarray],
    prompt: jnp.ndarray,
    *,
    max_decode_steps: int,
    state_callback_fn: Optional[StateCallbackFn] = None,
) -> DecodingState:
  batch, prompt_len = prompt.shape
  sequences = jnp.zeros((batch, prompt_len + max_decode_steps), jnp.int32)
  sequences = sequences.at[:, :prompt_len].set(prompt)
  init = DecodingState(step=jnp.array(prompt_len, jnp.int32), sequences=sequences,
                       logits_sum=jnp.zeros((batch,), jnp.float32))

  def cond(state):
    return state.step < prompt_len + max_decode_steps

  def body(state):
    prev = jax.lax.dynamic_index_in_dim(state.sequences, state.step - 1, axis=1, keepdims=False)
    logits = tokens_to_logits(prev)
    nxt = jnp.argmax(logits, axis=-1).astype(jnp.int32)
    seqs = jax.lax.dynamic_update_index_in_dim(state.sequences, nxt, state.step, axis=1)
    state = DecodingState(step=state.step + 1, sequences=seqs,
                          logits_sum=state.logits_sum + jnp.max(logits, axis=-1))
    if state_callback_fn is not None:
      state = state_callback_fn(state)
    return state

  return jax.lax.while_loop(cond, body, init)


# --------------------------------------------------------------------------
# models.py
# --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class DecoderOnlyModel:
  vocab_size: int = 64
  emb_dim: int = 32

  def init_params(self, rng) -> PyTree:
    k1, k2 = jax.random.split(rng)
    return {
        "embedding": jax.random.normal(k1, (self.vocab_size, self.emb_dim)) * 0.02,
        "logits_dense": jax.random.normal(k2, (self.emb_dim, self.vocab_size)) * 0.02,
    }

  def predict_batch_with_aux(self, params, batch, decoder_params=None, max_decode_steps=8):
    def tokens_to_logits(tok):
      return jnp.tanh(params["embedding"][tok]) @ params["logits_dense"]

    state = greedy_decode(tokens_to_logits, batch["inputs"],
                          max_decode_steps=max_decode_steps, **(decoder_params or {}))
    return state.sequences, {"scores": state.logits_sum}


# --------------------------------------------------------------------------
# export_lib.py
# --------------------------------------------------------------------------


class CreateDecodingStateCallbackFn(Protocol):

  def __call__(self) -> StateCallbackFn:
    ...


def _log_decoding_progress(step, sequences):
  logging.info("decode step %d, last tokens %s", int(step), np.asarray(sequences)[:, int(step) - 1])


def create_decoding_progress_callback_fn(log_every: int = 1) -> StateCallbackFn:
  """Streams decoding progress back to the host for server-side monitoring."""

  def callback(state: DecodingState) -> DecodingState:
    jax.lax.cond(state.step % log_every == 0,
                 lambda s: io_callback(_log_decoding_progress, None, s.step, s.sequences),
                 lambda s: None, state)
    return state

  return callback


def create_inference_function(
    *,
    model: DecoderOnlyModel,
    decoding_state_callback_fn: Optional[StateCallbackFn] = None,
    native_lowering_platforms: Optional[Sequence[str]] = None,
    model_fn_extra_kwargs: Optional[Mapping[str, Any]] = None,
):
  def model_fn(params, inputs):
    batch = dict(inputs)
    decoder_params = {}
    if decoding_state_callback_fn is not None:
      decoder_params["state_callback_fn"] = decoding_state_callback_fn
    kwargs = dict(model_fn_extra_kwargs or {})
    if decoder_params:
      kwargs["decoder_params"] = decoder_params
    return model.predict_batch_with_aux(params, batch, **kwargs)

  if not native_lowering_platforms:
    # Serving runs on TPU; the exported artifact is built for it.
    native_lowering_platforms = ["tpu"]

  def export(params_spec, batch_spec):
    return jax.export.export(jax.jit(model_fn), platforms=native_lowering_platforms)(params_spec, batch_spec)

  return export


def save(
    *,
    model: DecoderOnlyModel,
    batch_size: int,
    prompt_length: int,
    create_inference_function_fn: Callable[..., Any] = create_inference_function,
    create_decoding_state_callback_fn: Optional[CreateDecodingStateCallbackFn] = create_decoding_progress_callback_fn,
    native_lowering_platforms: Optional[Sequence[str]] = None,
):
  decoding_state_callback_fn = None
  if create_decoding_state_callback_fn is not None:
    decoding_state_callback_fn = create_decoding_state_callback_fn()
  export = create_inference_function_fn(
      model=model,
      decoding_state_callback_fn=decoding_state_callback_fn,
      native_lowering_platforms=native_lowering_platforms,
  )
  params_spec = jax.eval_shape(model.init_params, jax.random.key(0))
  batch_spec = {"inputs": jax.ShapeDtypeStruct((batch_size, prompt_length), jnp.int32)}
  exported = export(params_spec, batch_spec)
  logging.info("exported for %s", exported.platforms)
  return exported


if __name__ == "__main__":
  save(model=DecoderOnlyModel(), batch_size=4, prompt_length=6)

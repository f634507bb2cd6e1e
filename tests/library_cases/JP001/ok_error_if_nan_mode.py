"""Regression step with a runtime check on the loss whose behaviour comes from the environment."""

import functools
import os

import jax
import jax.numpy as jnp
from jax import lax

ON_ERROR = os.environ.get("TRAINER_ON_ERROR", "nan")
HARDWARE = "tpu"


class RuntimeCheckError(RuntimeError):
  pass


def error_if(x, pred, msg, on_error=None):
  """Returns `x`, or NaNs / a host error when `pred` is true at runtime."""
  on_error = on_error or ON_ERROR
  if on_error == "raise":

    def raises(_x):
      raise RuntimeCheckError(msg)

    struct = jax.eval_shape(lambda: x)
    return lax.cond(pred, lambda: jax.pure_callback(raises, struct, x), lambda: x)
  elif on_error == "nan":
    return lax.cond(pred, lambda: jnp.full_like(x, jnp.nan), lambda: x)
  elif on_error == "off":
    return x
  raise ValueError(f"unknown on_error={on_error!r}")


def loss_fn(w, x, y):
  return jnp.mean((x @ w - y) ** 2)


def train_step(w, x, y, *, learning_rate):
  loss, grad = jax.value_and_grad(loss_fn)(w, x, y)
  loss = error_if(loss, ~jnp.isfinite(loss), "non-finite loss")
  return w - learning_rate * grad, loss


def compile_train_step(hardware, learning_rate=1e-2):
  step = functools.partial(train_step, learning_rate=learning_rate)
  args = (
      jax.ShapeDtypeStruct((16,), jnp.float32),
      jax.ShapeDtypeStruct((32, 16), jnp.float32),
      jax.ShapeDtypeStruct((32,), jnp.float32),
  )
  return jax.jit(step).trace(*args).lower(lowering_platforms=(hardware,))


if __name__ == "__main__":
  lowered = compile_train_step(HARDWARE)
  print(len(lowered.as_text()))

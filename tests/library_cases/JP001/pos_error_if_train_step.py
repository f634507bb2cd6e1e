"""Regression step with a runtime check on the loss, lowered ahead of time for the configured hardware."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

CONFIG = {
    "hardware": "tpu",
    "learning_rate": 1e-2,
    "batch_size": 32,
    "features": 16,
}


class RuntimeCheckError(RuntimeError):
  pass


def error_if(x, pred, msg):
  """Returns `x`; raises on the host when `pred` is true at runtime."""

  def raises(_x):
    raise RuntimeCheckError(msg)

  def handle_error():
    struct = jax.eval_shape(lambda: x)
    return jax.pure_callback(raises, struct, x)

  return lax.cond(pred, handle_error, lambda: x)


def loss_fn(w, batch):
  pred = batch["x"] @ w
  return jnp.mean((pred - batch["y"]) ** 2)


def train_step(w, batch, *, learning_rate):
  loss, grad = jax.value_and_grad(loss_fn)(w, batch)
  loss = error_if(loss, ~jnp.isfinite(loss), "non-finite loss")
  return w - learning_rate * grad, loss


def compile_train_step(config):
  step = functools.partial(train_step, learning_rate=config["learning_rate"])
  w = jax.ShapeDtypeStruct((config["features"],), jnp.float32)
  batch = {
      "x": jax.ShapeDtypeStruct((config["batch_size"], config["features"]), jnp.float32),
      "y": jax.ShapeDtypeStruct((config["batch_size"],), jnp.float32),
  }
  traced = jax.jit(step, donate_argnums=0).trace(w, batch)
  return traced.lower(lowering_platforms=(config["hardware"],))


if __name__ == "__main__":
  lowered = compile_train_step(CONFIG)
  print(np.size(lowered.as_text()))

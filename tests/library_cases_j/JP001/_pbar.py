"""Progress bars for scanned loops (shaped like jax-tqdm's build_tqdm / scan_tqdm)."""
import functools
import sys

import jax
from jax.debug import callback


def build_bar(n, print_rate=None, desc=None):
  if print_rate is None:
    print_rate = max(1, n // 20)
  if print_rate > n:
    raise ValueError(f"Print rate should be less than the number of steps {n}, got {print_rate}")
  remainder = n % print_rate or print_rate
  state = {"done": 0}
  label = desc or f"Running for {n:,} iterations"

  def _define(bar_id):
    state["done"] = 0

  def _update(bar_id):
    state["done"] += print_rate
    print(f"{label}: {state['done']}/{n}", file=sys.stderr)

  def _close(bar_id):
    state["done"] += remainder

  def update(carry, iter_num, bar_id=0):
    def _init(i, c):
      callback(_define, bar_id, ordered=True)
      return c

    def _step(i, c):
      jax.lax.cond(i % print_rate == 0, lambda: callback(_update, bar_id, ordered=True), lambda: None)
      return c

    return jax.lax.cond(iter_num == 0, _init, _step, iter_num, carry)

  def close(result, iter_num, bar_id=0):
    def _fin(r):
      callback(_close, bar_id, ordered=True)
      return r

    return jax.lax.cond(iter_num + 1 == n, _fin, lambda r: r, result)

  return update, close


def scan_bar(n, print_rate=None, **kwargs):
  update, close = build_bar(n, print_rate, **kwargs)

  def decorate(body):
    @functools.wraps(body)
    def wrapped(carry, x):
      iter_num = x[0] if isinstance(x, tuple) else x
      carry = update(carry, iter_num)
      carry, y = body(carry, x)
      return close(carry, iter_num), y

    return wrapped

  return decorate


def maybe_scan_bar(enabled, n, **kwargs):
  """Identity decorator when progress reporting is off."""
  if not enabled:
    return lambda body: body
  return scan_bar(n, **kwargs)

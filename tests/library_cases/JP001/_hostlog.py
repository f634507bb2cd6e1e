"""Host-side logging helpers shared by the training and solver programs."""

import logging
import threading

import numpy as np

_LOG = logging.getLogger("trainer")
_LOCK = threading.Lock()
HISTORY: dict[str, list[float]] = {}


def log(user_str: str) -> None:
  _LOG.info(user_str, stacklevel=2)


def record_scalars(step, **scalars) -> None:
  with _LOCK:
    for name, value in scalars.items():
      HISTORY.setdefault(name, []).append(float(np.asarray(value)))
  log(f"step {int(np.asarray(step))}: " + ", ".join(f"{k}={float(np.asarray(v)):.4f}" for k, v in scalars.items()))

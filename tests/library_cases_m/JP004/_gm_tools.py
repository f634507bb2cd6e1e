"""Gemma-shaped tool use: tools are Python objects run on the host; the tool
manager turns a batch of tool requests emitted during sampling into results
through `jax.pure_callback`. With no tools there is nothing to call."""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np


@dataclasses.dataclass(frozen=True)
class Tool:
  name: str = "tool"

  def call(self, arg: int) -> int:
    raise NotImplementedError


@dataclasses.dataclass(frozen=True)
class Calculator(Tool):
  name: str = "calculator"

  def call(self, arg: int) -> int:
    return (arg * arg) % 997


@dataclasses.dataclass(frozen=True)
class FileExplorer(Tool):
  name: str = "file_explorer"

  def call(self, arg: int) -> int:
    return arg % 17


class ToolManager:
  def __init__(self, tools):
    self.tools = tuple(tools)

  def _run_on_host(self, tool_ids, args):
    out = np.zeros_like(np.asarray(args))
    for i, (t, a) in enumerate(zip(np.asarray(tool_ids), np.asarray(args))):
      out[i] = self.tools[int(t) % len(self.tools)].call(int(a))
    return out

  def maybe_call(self, wants_tool, tool_ids, args):
    if not self.tools:
      return jnp.zeros_like(args)
    results = jax.pure_callback(self._run_on_host, jax.ShapeDtypeStruct(args.shape, args.dtype),
                                tool_ids, args)
    return jnp.where(wants_tool, results, 0)

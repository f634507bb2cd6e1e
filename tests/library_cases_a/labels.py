#!/usr/bin/env python3
"""Label the library-shaped cases by running them under real JAX.

    python tests/library_cases/labels.py [--check] [--jobs N] [--python PY] [CASE ...]

Every ``JP00N/pos_*.py`` is a POSITIVE of rule JP00N: it must raise an error that
matches ``PREDICTED[JP00N]`` of ``tests/oracle/run.py`` (``re.search`` against
``"Type: message"``).  Every ``JP00N/ok_*.py`` is a NEAR MISS: it must run clean.
Files starting with ``_`` are helper modules imported by the cases, not cases.

Each case runs alone in a fresh interpreter through ``tests/oracle/harness.py``
with cwd = the case's directory (so sibling helpers import as they would with
``python CASE.py``).  The harness's observer turns JAX's silent splitting of a
bare-string ``platforms`` into a ValueError (JP005).

Without ``--check`` the results are written to ``labels.json`` (one entry per case:
file, rule, line, raised, type, message, inspired_by).  ``line`` is the 1-based line
the user must change, found from the anchor text in ``META`` (it must occur on
exactly one line of the case).  With ``--check`` nothing is written: the cases are
re-run and compared with ``labels.json``; exit status 1 on any disagreement (a
positive that no longer raises its rule's error, a near miss that raises, a
changed type/message/line, a case missing from or extra in the labels).

The interpreter must have jax 0.12.0.1 (default: ``/work/main/.venv-jax/bin/python``
if it exists, else ``$ORACLE_PYTHON``, else ``python3.12``).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
HARNESS = ROOT / "tests" / "oracle" / "harness.py"
LABELS = HERE / "labels.json"
TIMEOUT_S = 180
JAX_VERSION = "0.12.0.1"

sys.path.insert(0, str(ROOT / "tests" / "oracle"))
from run import PREDICTED  # noqa: E402

# case -> (anchor of the line to change, or None for near misses; library files that gave the structure)
META: dict[str, tuple[str | None, list[str]]] = {
    # JP001: host callback lowered for a platform other than the backend
    "JP001/pos_overflow_layer_serving.py": (
        "return traced.lower(lowering_platforms=(cfg.platform,))",
        ["praxis/layers/quantization/overflow_check.py (OverflowChecker mixin, debug.callback in cond)"],
    ),
    "JP001/pos_train_step_metrics_export.py": (
        "return jax.export.export(fn, platforms=self.config.export.platforms)(*specs)",
        ["levanter/logging.py (jittable_wandb_log)", "levanter/trainer.py (TrainerConfig nested dataclasses)"],
    ),
    "JP001/pos_optimizer_chain_aot_loop.py": (
        "artifacts[platform] = traced.lower(lowering_platforms=(platform,))",
        ["optax/_src/base.py (GradientTransformation)", "optax/_src/combine.py (chain)"],
    ),
    "JP001/pos_host_lookup_jitted_wrapper.py": (
        "return Jitted(model).lower(spec, lowering_platforms=(platform,))",
        ["penzai/toolshed/jit_wrapper.py (Jitted layer wrapper)"],
    ),
    "JP001/ok_overflow_layer_host_backend.py": (None, ["praxis/layers/quantization/overflow_check.py"]),
    "JP001/ok_train_step_metrics_host_only.py": (None, ["levanter/logging.py", "levanter/trainer.py"]),
    "JP001/ok_optimizer_chain_per_platform.py": (None, ["optax/_src/combine.py (chain)"]),
    # JP002: Pallas compiler params of one platform lowered for another
    "JP002/pos_norm_registry_config.py": (
        "return pl.pallas_call(",
        ["levanter/models/*.py (LmConfig.register_subclass registry)"],
    ),
    "JP002/pos_softmax_factory_export.py": (
        "call = functools.partial(pl.pallas_call, compiler_params=params)",
        ["levanter/trainer.py (nested config dataclasses)", "flax/nnx/transforms/compilation.py (factory returning jitted fn)"],
    ),
    "JP002/pos_fused_add_fleet_export.py": (
        "return pl.pallas_call(",
        ["praxis (module constants from sibling modules)", "JAX facts: platform_dependent in multi-platform export"],
    ),
    "JP002/pos_pallas_op_hierarchy_loop.py": (
        "return pl.pallas_call(",
        ["praxis/base_layer.py (layer class hierarchy with overridden methods)"],
    ),
    "JP002/ok_norm_registry_by_target.py": (None, ["levanter/models/*.py (LmConfig.register_subclass registry)"]),
    "JP002/ok_fused_add_per_platform_export.py": (None, ["praxis (module constants)"]),
    "JP002/ok_pallas_op_hierarchy_interpret.py": (None, ["praxis/base_layer.py (class hierarchy)"]),
    # JP003: AbstractMesh-only computation lowered without lowering_platforms
    "JP003/pos_trainer_mesh_config.py": (
        "return jitted.trace(params, batch).lower()",
        ["levanter/trainer.py (TrainerConfig.device_mesh, compute_axis_mapping)"],
    ),
    "JP003/pos_named_jit_axis_context.py": (
        "return jax.jit(self._fn, out_shardings=self._out_shardings()).lower(*args)",
        ["haliax/partitioning.py (named_jit, _NamedJitWrapper.lower, axis_mapping context)"],
    ),
    "JP003/pos_abstract_opt_state_helper.py": (
        "return traced.lower(lowering_platforms=platforms)",
        ["optax/_src/base.py (state NamedTuples)", "levanter (eval_shape of optimizer state)"],
    ),
    "JP003/pos_logical_rules_model_apply.py": (
        "return jax.jit(module.apply).trace(params, x).lower()",
        ["flax/linen/partitioning.py (logical axis rules)", "flax/core/meta.py (get_global_mesh)"],
    ),
    "JP003/ok_trainer_device_mesh.py": (None, ["levanter/trainer.py (device_mesh from jax.devices())"]),
    "JP003/ok_abstract_opt_state_target_kwargs.py": (None, ["optax/_src/base.py"]),
    "JP003/ok_logical_rules_abstract_device.py": (None, ["flax/core/meta.py (get_global_mesh)"]),
    # JP004: AbstractMesh + primitive that needs devices during lowering
    "JP004/pos_step_host_metrics_export.py": (
        "return jax.export.export(jax.jit(eval_step), platforms=cfg.serve.platforms)(*specs)",
        ["levanter/logging.py (host logging from jit)", "levanter/trainer.py (nested config)"],
    ),
    "JP004/pos_visualize_shardings_debug.py": (
        "return jax.jit(attention_scores).trace(params, x).lower(lowering_platforms=(platform,))",
        ["haliax/debug.py (debug helpers)", "flax/core/meta.py (get_global_mesh)", "penzai/toolshed/sharding_util.py (tree-wide sharding helpers)"],
    ),
    "JP004/pos_sharded_logsumexp_registry.py": (
        "return fn.trace(logits, labels, reduction=cfg.reduction).lower(lowering_platforms=(cfg.platform,))",
        ["optax/losses (cross-entropy)", "levanter/models/*.py (register_subclass registry)"],
    ),
    "JP004/pos_detokenize_step_factory.py": (
        "return step.trace(spec).lower(lowering_platforms=(\"cpu\",))",
        ["penzai/toolshed/token_visualization.py (host-side vocab lookups)", "flax/nnx/transforms/compilation.py (factory)"],
    ),
    "JP004/ok_overflow_check_abstract_lowering.py": (None, ["praxis/layers/quantization/overflow_check.py (debug.callback)"]),
    "JP004/ok_step_host_metrics_local_mesh.py": (None, ["levanter/logging.py", "levanter/trainer.py (device_mesh)"]),
    "JP004/ok_visualize_shardings_flag_off.py": (None, ["haliax/debug.py"]),
    # JP005: bare string as platforms
    "JP005/pos_export_config_overrides.py": (
        "return jax.export.export(jax.jit(embed_tokens), platforms=cfg.platforms)(*specs)",
        ["levanter/config.py (draccus-style CLI overrides into dataclasses)"],
    ),
    "JP005/pos_serving_constant_lowering.py": (
        "return traced.lower(lowering_platforms=SERVING_PLATFORMS)",
        ["praxis (module constants)", "penzai/models (decoding loops)"],
    ),
    "JP005/pos_aot_lowerer_partial.py": (
        "return functools.partial(_lower, lowering_platforms=platform, **jit_kwargs)",
        ["flax/nnx/transforms/compilation.py (stage wrappers)", "levanter/trainer.py (jax.default_backend())"],
    ),
    "JP005/pos_export_platform_loop.py": (
        "jax.export.export(jitted, platforms=platform)(*specs)",
        ["chex/_src/variants.py (test variants parameterized by backend)"],
    ),
    "JP005/ok_export_config_overrides_split.py": (None, ["levanter/config.py"]),
    "JP005/ok_serving_canary_lowering.py": (None, ["praxis (module constants)"]),
    "JP005/ok_export_platform_loop_list.py": (None, ["chex/_src/variants.py"]),
}


def pick_python(explicit: str | None) -> str:
  if explicit:
    return explicit
  default = ROOT / ".venv-jax" / "bin" / "python"
  if default.exists():
    return str(default)
  return os.environ.get("ORACLE_PYTHON", "python3.12")


def discover() -> list[str]:
  cases = []
  for path in sorted(HERE.glob("JP*/*.py")):
    if path.name.startswith("_"):
      continue
    cases.append(f"{path.parent.name}/{path.name}")
  return cases


def expected_rule(case: str) -> str | None:
  rule_dir, name = case.split("/")
  if name.startswith("pos_"):
    return rule_dir
  if name.startswith("ok_"):
    return None
  raise ValueError(f"{case}: name must start with pos_ or ok_")


def anchor_line(case: str, anchor: str | None) -> int | None:
  if anchor is None:
    return None
  lines = (HERE / case).read_text(encoding="utf-8").splitlines()
  hits = [i + 1 for i, line in enumerate(lines) if anchor in line]
  if len(hits) != 1:
    raise ValueError(f"{case}: anchor {anchor!r} found on lines {hits}, need exactly one")
  return hits[0]


def run_case(python: str, case: str) -> dict:
  path = HERE / case
  env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", TF_CPP_MIN_LOG_LEVEL="3")
  try:
    proc = subprocess.run(
        [python, str(HARNESS), path.name],
        cwd=path.parent, env=env, capture_output=True, text=True, timeout=TIMEOUT_S,
    )
  except subprocess.TimeoutExpired:
    return {"error": f"timed out after {TIMEOUT_S} s"}
  for line in reversed(proc.stdout.splitlines()):
    try:
      obj = json.loads(line)
    except ValueError:
      continue
    if isinstance(obj, dict) and "raised" in obj:
      return obj
  tail = (proc.stderr.strip().splitlines() or ["<no output>"])[-1]
  return {"error": f"harness exited {proc.returncode} without a result: {tail}"}


def verdict(case: str, rule: str | None, result: dict) -> str | None:
  """None when the run agrees with the case's kind, else a problem description."""
  if "error" in result:
    return result["error"]
  if result.get("jax") != JAX_VERSION:
    return f"ran jax {result.get('jax')}, need {JAX_VERSION}"
  got = f"{result['type']}: {result['message']}" if result["raised"] else "no exception"
  if rule is None:
    return None if not result["raised"] else f"near miss raised {got[:300]}"
  if not result["raised"]:
    return f"positive of {rule} ran clean"
  if not re.search(PREDICTED[rule], got):
    return f"expected /{PREDICTED[rule]}/, got {got[:300]}"
  return None


def main() -> int:
  ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
  ap.add_argument("--check", action="store_true", help="re-run and compare with labels.json; write nothing")
  ap.add_argument("--jobs", type=int, default=2)
  ap.add_argument("--python", default=None)
  ap.add_argument("cases", nargs="*", help="JP00N/name.py (default: all)")
  args = ap.parse_args()
  python = pick_python(args.python)

  all_cases = discover()
  problems: list[str] = []
  for case in all_cases:
    if case not in META:
      problems.append(f"{case}: no META entry")
  for case in META:
    if case not in all_cases:
      problems.append(f"{case}: in META but no such file")
  cases = args.cases or all_cases
  cases = [c for c in cases if c in META]

  entries: dict[str, dict] = {}
  with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
    futures = {pool.submit(run_case, python, c): c for c in cases}
    for fut in concurrent.futures.as_completed(futures):
      case = futures[fut]
      result = fut.result()
      rule = expected_rule(case)
      anchor, inspired_by = META[case]
      try:
        line = anchor_line(case, anchor)
      except ValueError as e:
        problems.append(str(e))
        line = None
      if rule is not None and anchor is None:
        problems.append(f"{case}: positive without an anchor")
      problem = verdict(case, rule, result)
      status = "ok  " if problem is None else "FAIL"
      print(f"{status} {case}: " + (problem or (f"{result['type']}" if result.get("raised") else "clean")), flush=True)
      if problem:
        problems.append(f"{case}: {problem}")
      entries[case] = {
          "file": case,
          "rule": rule,
          "line": line,
          "raised": result.get("raised"),
          "type": result.get("type"),
          "message": result.get("message"),
          "inspired_by": inspired_by,
      }

  ordered = [entries[c] for c in sorted(entries)]
  if args.check:
    stored = {e["file"]: e for e in json.loads(LABELS.read_text(encoding="utf-8"))}
    if not args.cases:
      for f in stored:
        if f not in entries:
          problems.append(f"{f}: in labels.json but not a case")
    for e in ordered:
      old = stored.get(e["file"])
      if old is None:
        problems.append(f"{e['file']}: missing from labels.json")
        continue
      for key in ("rule", "line", "raised", "type", "message"):
        if old.get(key) != e[key]:
          problems.append(f"{e['file']}: {key} changed: {old.get(key)!r} -> {e[key]!r}")
  elif not problems:
    if args.cases:
      stored = {e["file"]: e for e in json.loads(LABELS.read_text(encoding="utf-8"))} if LABELS.exists() else {}
      stored.update(entries)
      ordered = [stored[c] for c in sorted(stored)]
    LABELS.write_text(json.dumps(ordered, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {LABELS} ({len(ordered)} cases)")

  pos = sum(1 for e in ordered if e["rule"])
  print(f"{len(ordered)} cases ({pos} positives, {len(ordered) - pos} near misses), {len(problems)} problem(s)")
  for p in problems:
    print("  " + p)
  return 1 if problems else 0


if __name__ == "__main__":
  sys.exit(main())

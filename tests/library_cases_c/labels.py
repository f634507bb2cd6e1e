#!/usr/bin/env python3
"""Label the library-shaped cases by running them under real JAX.

    python labels.py [--check] [--jobs N] [--python PY] [CASE ...]

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
    # JP001: host callback lowered for another platform
    "JP001/pos_solver_progress_export.py": (
        'exported = jax.export.export(fn, platforms=[cfg["export_platform"]])(y0)',
        ["diffrax/_progress_meter.py (TextProgressMeter, io_callback)", "diffrax/_solver/heun.py"],
    ),
    "JP001/pos_module_debug_chain.py": (
        "return traced.lower(lowering_platforms=(self.config.model.platform,))",
        ["equinox/_module (Module, field(static=True))", "equinox/debug (debug prints)"],
    ),
    "JP001/pos_sampler_kwargs_partial.py": (
        "return jax.jit(self.step).trace(state_spec).lower(**lower_kwargs)",
        ["gemma/gm/text/_sampler.py (Sampler)", "equinox/_callback.py (pure_callback)"],
    ),
    "JP001/pos_graphnet_platform_loop.py": (
        "artifacts[platform] = traced.lower(lowering_platforms=(platform,))",
        ["jraph/_src/graph.py (GraphsTuple)", "jraph/_src/models.py (GraphNetwork, segment_sum)"],
    ),
    "JP001/ok_solver_no_meter_export.py": (None, ["diffrax/_progress_meter.py (NoProgressMeter)"]),
    "JP001/ok_module_debug_default_backend.py": (None, ["equinox/_module", "equinox/debug"]),
    "JP001/ok_platform_dependent_stop.py": (None, ["gemma/gm/text/_sampler.py", "equinox/_callback.py"]),
    # JP002: Pallas compiler params of one platform lowered for another
    "JP002/pos_lru_scan_type_config.py": (
        "return pl.pallas_call(",
        ["recurrentgemma/jax/scan.py (ScanType, resolve_scan_type)", "recurrentgemma/jax/pallas.py (linear_rnn_pallas_call)"],
    ),
    "JP002/pos_norm_impl_getattr.py": (
        "return pl.pallas_call(",
        ["tokamax/_src/ops/normalization/api.py (IMPLEMENTATIONS)", "tokamax/_src/ops/normalization/pallas_triton.py"],
    ),
    "JP002/pos_hparams_partial_pallas.py": (
        "_tiled_call = functools.partial(pl.pallas_call",
        ["maxtext/configs/pyconfig.py (HyperParameters.__getattr__)", "maxtext/kernels/megablox/backend.py"],
    ),
    "JP002/pos_platform_dependent_fleet.py": (
        "return pl.pallas_call(",
        ["tokamax/_src/ops/op.py", "maxtext/trainers/pre_train/train_compile.py (compile_topology)"],
    ),
    "JP002/ok_lru_scan_type_auto.py": (None, ["recurrentgemma/jax/scan.py (ScanType.AUTO via local_devices)"]),
    "JP002/ok_norm_impl_getattr_mosaic.py": (None, ["tokamax/_src/ops/normalization/api.py"]),
    "JP002/ok_platform_dependent_per_pool.py": (None, ["tokamax/_src/ops/op.py"]),
    # JP003: AbstractMesh-only computation lowered without lowering_platforms
    "JP003/pos_topology_yaml_train_step.py": (
        "lowered = jitted.trace(*args).lower()",
        ["maxtext/trainers/pre_train/train_compile.py (get_topology_mesh, get_shaped_inputs, jit_and_compile)",
         "maxtext/configs/base.yml"],
    ),
    "JP003/pos_module_mesh_property.py": (
        "return jax.jit(fn, **kwargs).lower(*args)",
        ["equinox/_module (frozen dataclass module)", "equinox/_jit.py (filter_jit wrapper)"],
    ),
    "JP003/pos_compile_options_property.py": (
        "return jitted.trace(params, tokens).lower(lowering_platforms=opts.lowering_platforms)",
        ["maxtext/training_engine/maxtext_engine_compile.py", "gemma (json-configured export options)"],
    ),
    "JP003/pos_decorator_abstract_context.py": (
        "return jitted.trace(spec, spec).lower()",
        ["maxtext/kernels/mhc/common.py (tpu_mesh_context, use_abstract_mesh)"],
    ),
    "JP003/ok_compile_options_property.py": (None, ["maxtext/training_engine/maxtext_engine_compile.py"]),
    "JP003/ok_decorator_abstract_device.py": (None, ["maxtext/kernels/mhc/common.py (AbstractDevice)"]),
    "JP003/ok_module_mesh_export.py": (None, ["equinox/_module", "tokamax export tests"]),
    # JP004: AbstractMesh + a primitive that needs devices during lowering
    "JP004/pos_module_error_if_export.py": (
        "return jax.export.export(jitted, platforms=platforms)(y, dt)",
        ["equinox/_errors.py (error_if, pure_callback)", "diffrax/_term.py (ODETerm vector_field)"],
    ),
    "JP004/pos_debug_sharding_getattr.py": (
        "return traced.lower(lowering_platforms=(config.hardware,))",
        ["maxtext/configs/pyconfig.py (__getattr__)", "maxtext/configs/base.yml (debug_sharding)"],
    ),
    "JP004/pos_metrics_io_callback_partial.py": (
        'lowered = sgd_step.trace(*args).lower(lowering_platforms=("cpu",))',
        ["equinox/internal/_progress_meter.py (io_callback)", "maxtext/utils/max_logging.py"],
    ),
    "JP004/pos_partitioned_op_topology.py": (
        "return jax.jit(op, in_shardings=P(\"rows\"), out_shardings=P(\"rows\")).trace(x).lower()",
        ["tokamax/_src/ops/op.py (op class)", "maxtext/utils/accelerator_to_spec_map.py (topologies)"],
    ),
    "JP004/ok_module_error_if_disabled.py": (None, ["equinox/_errors.py"]),
    "JP004/ok_debug_sharding_default_off.py": (None, ["maxtext/configs/pyconfig.py", "maxtext/configs/base.yml"]),
    "JP004/ok_metrics_debug_callback_partial.py": (None, ["equinox/debug (jax.debug.callback)"]),
    # JP005: bare string as lowering_platforms / platforms
    "JP005/pos_checkpoint_export_yaml.py": (
        'return jax.export.export(jax.jit(forward), platforms=cfg["export_platforms"])(shapes, tokens)',
        ["gemma/gm (checkpoint export)", "maxtext/configs/base.yml"],
    ),
    "JP005/pos_default_arg_paren.py": (
        "return self.trace(*args, **kwargs).lower(lowering_platforms=platforms)",
        ["equinox/_jit.py (stage wrapper)", "flax-style Traced/Lowered stages"],
    ),
    "JP005/pos_module_platform_property.py": (
        "return traced.lower(lowering_platforms=model.lowering_platforms)",
        ["jraph/_src/models.py (GCN)", "maxtext/utils/accelerator_to_spec_map.py"],
    ),
    "JP005/pos_platform_list_comprehension.py": (
        "return traced.lower(lowering_platforms=platforms)",
        ["maxtext/inference (argparse CLIs)"],
    ),
    "JP005/ok_checkpoint_export_split.py": (None, ["gemma/gm (checkpoint export)"]),
    "JP005/ok_default_arg_tuple.py": (None, ["equinox/_jit.py"]),
    "JP005/ok_platform_tuple_generator.py": (None, ["maxtext/inference (argparse CLIs)"]),
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

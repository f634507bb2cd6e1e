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
    # JP001: host callback lowered for another platform
    "JP001/pos_sampler_runner_precompile.py": (
        "lowered = traced.lower(lowering_platforms=(self.platform,))",
        ["tpu_inference/runner/compilation_manager.py (precompile, fn.trace/lower)",
         "tpu_inference/envs.py (environment defaults)", "tpu_inference/layers/jax/sample/sampling.py"],
    ),
    "JP001/pos_serving_module_export.py": (
        "return jax.export.export(fn, platforms=self.platforms)(*input_specs)",
        ["orbax/export/modules/obm_module.py (module holding params + export kwargs)",
         "orbax/export/jax_module.py", "tpu_inference/runner/compilation_manager.py"],
    ),
    "JP001/pos_aot_cli_forward_kwargs.py": (
        "lowered = aot_lower(jax.jit(decode_step), specs, lowering_platforms=(args.target,))",
        ["tpu_inference/tools/kernel/tuner/v1/inspect_result_cli.py (argparse CLI)",
         "tpu_inference/runner/compilation_manager.py (_run_compilation forwarding **kwargs)"],
    ),
    "JP001/pos_jit_manager_rollout.py": (
        "self._lowered[pool] = traced.lower(lowering_platforms=platforms)",
        ["tpu_inference/runner/mm_encoder_jit_manager.py (jit manager class)",
         "orbax/export/constants.py (platform constants in a sibling module)"],
    ),
    "JP001/ok_sampler_runner_host_backend.py": (None, ["tpu_inference/runner/compilation_manager.py",
                                                       "tpu_inference/layers/jax/sample/sampling.py"]),
    "JP001/ok_host_branch_platform_dependent.py": (None, ["tpu_inference/runner/compilation_manager.py (**kwargs)",
                                                          "tokamax/_src/ops/op.py (platform-specific paths)"]),
    "JP001/ok_stats_flag_disabled.py": (None, ["tpu_inference/envs.py (env_bool flags)",
                                               "tpu_inference/runner/compilation_manager.py"]),
    # JP002: Pallas compiler params of one platform lowered for another
    "JP002/pos_partial_tpu_params_gpu_export.py": (
        "call = functools.partial(pl.pallas_call,",
        ["tpu_inference/kernels/quantized_matmul/kernel.py (pltpu.CompilerParams, vmem_limit_bytes)",
         "tokamax/_src/ops/ragged_gather/pallas_mosaic_tpu.py",
         "orbax/export/jax_module.py (export helper taking platforms)"],
    ),
    "JP002/pos_norm_registry_engine.py": (
        "return pl.pallas_call(",
        ["tokamax/_src/ops/normalization/api.py (IMPLEMENTATIONS registry)",
         "jax/experimental/pallas/ops/gpu/rms_norm.py (Triton CompilerParams num_warps/num_stages)"],
    ),
    "JP002/pos_lifted_call_forward_kwargs.py": (
        "out = pl.pallas_call(kernel",
        ["qwix/_src/core/pallas.py (lifted pallas_call forwarding **kwargs)",
         "jax/experimental/pallas/ops/gpu/softmax.py (Triton params)", "tpu_inference/envs.py"],
    ),
    "JP002/pos_fleet_export_platform_dependent.py": (
        "return pl.pallas_call(",
        ["tokamax/_src/ops/gated_linear_unit/api.py (kernel implementation vs reference)",
         "orbax/export/utils.py (get_lowering_platforms, several platforms)"],
    ),
    "JP002/ok_fleet_export_per_platform.py": (None, ["tokamax/_src/ops/gated_linear_unit/api.py", "orbax/export/utils.py"]),
    "JP002/ok_norm_registry_gpu_topology.py": (None, ["tokamax/_src/ops/normalization/api.py",
                                                      "tokamax/_src/ops/normalization/triton.py"]),
    "JP002/ok_lifted_call_interpret_env.py": (None, ["qwix/_src/core/pallas.py", "tpu_inference/envs.py"]),
    # JP003: AbstractMesh-only computation lowered without lowering_platforms
    "JP003/pos_runner_topology_precompile.py": (
        "lowered = self._step.trace(*specs).lower()",
        ["tpu_inference/runner/compilation_manager.py (self.runner.mesh)",
         "tpu_inference/utils.py (get_mesh_shape_product)"],
    ),
    "JP003/pos_serving_mesh_context.py": (
        "lowered = jitted.trace(tokens, embed).lower()",
        ["tpu_inference/runner/compilation_manager.py (with jax.set_mesh(...): fn.lower)",
         "tpu_inference/runner/compilation_manager.py (prefill bucket precompile)"],
    ),
    "JP003/pos_restore_struct_cost.py": (
        "lowered = jax.jit(lambda p: jax.tree.map(lambda v: v * 1.0, p)).trace(targets).lower()",
        ["orbax/export/dtensor_utils.py (mesh helpers)", "orbax/export/jax_module.py (param shardings)"],
    ),
    "JP003/pos_abstract_state_partial_jit.py": (
        "return traced.lower(**lower_kwargs)",
        ["tpu_inference/runner/compilation_manager.py (functools.partial unwrap, **call_kwargs)",
         "tpu_inference/layers/jax (state init under shardings)"],
    ),
    "JP003/ok_runner_local_topology.py": (None, ["tpu_inference/runner/compilation_manager.py"]),
    "JP003/ok_serving_mesh_abstract_device.py": (None, ["tpu_inference/runner/compilation_manager.py",
                                                        "tpu_inference/kernels/megablox/common.py (device kind)"]),
    "JP003/ok_abstract_state_default_kwargs.py": (None, ["tpu_inference/runner/compilation_manager.py"]),
    # JP004: AbstractMesh + a primitive that needs devices during lowering
    "JP004/pos_engine_stop_check_export.py": (
        "return jax.export.export(jitted, platforms=platforms)(spec)",
        ["tpu_inference/layers/jax/sample/sampling.py", "orbax/export/modules/obm_module.py (export)"],
    ),
    "JP004/pos_inspect_sharding_env.py": (
        "return traced.lower(lowering_platforms=(config.platform,))",
        ["tpu_inference/envs.py (environment flags)", "tpu_inference/runner/compilation_manager.py"],
    ),
    "JP004/pos_metrics_topology_context.py": (
        "return traced.lower()",
        ["tpu_inference/kernels/megablox/common.py (device kind)", "tpu_inference/runner/compilation_manager.py"],
    ),
    "JP004/pos_host_stats_platform_dependent.py": (
        "return jax.export.export(jitted, platforms=platforms)(spec)",
        ["orbax/export/jax_module.py (export with platforms)", "tokamax/_src/ops/op.py (platform branches)"],
    ),
    "JP004/ok_engine_stop_check_on_device.py": (None, ["tpu_inference/layers/jax/sample/sampling.py"]),
    "JP004/ok_inspect_sharding_env_off.py": (None, ["tpu_inference/envs.py"]),
    "JP004/ok_metrics_local_mesh.py": (None, ["tpu_inference/runner/compilation_manager.py (jax.set_mesh)"]),
    # JP005: bare string as lowering_platforms / platforms
    "JP005/pos_obm_module_kwargs.py": (
        "exported[name] = jax.export.export(jitted, platforms=self.lowering_platforms())(input_spec)",
        ["orbax/export/modules/obm_module.py (apply_fn_map, jax2obm_kwargs)",
         "orbax/export/constants.py (NATIVE_SERIALIZATION_PLATFORMS)"],
    ),
    "JP005/pos_cli_lowering_platform.py": (
        "return traced.lower(lowering_platforms=a.platform)",
        ["tpu_inference/tools/kernel/tuner/v1/inspect_result_cli.py (argparse)", "tpu_inference/layers/jax/rope.py"],
    ),
    "JP005/pos_env_default_export_helper.py": (
        "exported = jax.export.export(jax.jit(fn), platforms=platforms, **export_kwargs)(*specs)",
        ["tpu_inference/envs.py (environment defaults)", "orbax/export/jax_module.py (export helper)"],
    ),
    "JP005/pos_engine_target_list.py": (
        "return traced.lower(lowering_platforms=self.lowering_targets)",
        ["tpu_inference/runner/kv_cache.py", "tpu_inference/runner/compilation_manager.py (precompile buckets)"],
    ),
    "JP005/ok_obm_module_normalized.py": (None, ["orbax/export/utils.py (get_lowering_platforms str -> list)"]),
    "JP005/ok_cli_platforms_nargs.py": (None, ["tpu_inference/tools/kernel/tuner/v1/inspect_result_cli.py (argparse)"]),
    "JP005/ok_engine_target_tuple_env.py": (None, ["tpu_inference/envs.py (env_str_list)"]),
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

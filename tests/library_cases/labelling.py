"""The labelling runner shared by the library-shaped case sets: each set's
`labels.py` holds its META and calls `main` (what it does: tests/library_cases/labels.py)."""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
HARNESS = ROOT / "tests" / "oracle" / "harness.py"
TIMEOUT_S = 180
JAX_VERSION = "0.12.0.1"

sys.path.insert(0, str(ROOT / "tests" / "oracle"))
from run import PREDICTED  # noqa: E402


def pick_python(explicit: str | None) -> str:
  if explicit:
    return explicit
  default = ROOT / ".venv-jax" / "bin" / "python"
  if default.exists():
    return str(default)
  return os.environ.get("ORACLE_PYTHON", "python3.12")


def discover(here: Path) -> list[str]:
  cases = []
  for path in sorted(here.glob("JP*/*.py")):
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


def anchor_line(here: Path, case: str, anchor: str | None) -> int | None:
  if anchor is None:
    return None
  lines = (here / case).read_text(encoding="utf-8").splitlines()
  hits = [i + 1 for i, line in enumerate(lines) if anchor in line]
  if len(hits) != 1:
    raise ValueError(f"{case}: anchor {anchor!r} found on lines {hits}, need exactly one")
  return hits[0]


def content_key(here: Path, case: str) -> str:
  """What a case's JAX outcome depends on: the jax version, the harness, the case's
  text and the set's helper modules (`_*.py`, which cases import). A label whose key
  is unchanged needs no new run under --check."""
  h = hashlib.sha256(JAX_VERSION.encode())
  h.update(HARNESS.read_bytes())
  h.update(b"\0" + (here / case).read_bytes())
  for helper in sorted(here.rglob("_*.py")):
    h.update(b"\0" + helper.relative_to(here).as_posix().encode() + b"\0" + helper.read_bytes())
  return h.hexdigest()[:16]


def run_case(python: str, path: Path) -> dict:
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


def main(here: Path, meta: dict[str, tuple[str | None, list[str]]], doc: str | None) -> int:
  """Labels (or, with --check, re-checks) the cases of the set in `here`. `meta`: case ->
  (anchor of the line to change, or None for near misses; library files that gave the structure)."""
  labels = here / "labels.json"
  ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
  ap.add_argument("--check", action="store_true",
                  help="compare with labels.json, re-running the cases whose key (text, helpers, "
                  "harness, jax version) changed; write nothing")
  ap.add_argument("--full", action="store_true", help="with --check: re-run every case under JAX")
  ap.add_argument("--jobs", type=int, default=2)
  ap.add_argument("--python", default=None)
  ap.add_argument("cases", nargs="*", help="JP00N/name.py (default: all)")
  args = ap.parse_args()
  python = pick_python(args.python)

  all_cases = discover(here)
  problems: list[str] = []
  for case in all_cases:
    if case not in meta:
      problems.append(f"{case}: no META entry")
  for case in meta:
    if case not in all_cases:
      problems.append(f"{case}: in META but no such file")
  cases = args.cases or all_cases
  cases = [c for c in cases if c in meta]

  stored = {e["file"]: e for e in json.loads(labels.read_text(encoding="utf-8"))} if labels.exists() else {}
  keys = {c: content_key(here, c) for c in cases}
  results: dict[str, dict] = {}
  if args.check and not args.full:
    # A case whose key matches its label ran under JAX with this exact text: its
    # stored outcome is checked again (the rule's expected error, the anchor line).
    for c in cases:
      old = stored.get(c)
      if old is not None and old.get("key") == keys[c]:
        results[c] = {"raised": old.get("raised"), "type": old.get("type"),
                      "message": old.get("message"), "jax": JAX_VERSION, "cached": True}
    if results:
      print(f"{len(results)} case(s) unchanged since labelled (same key): outcome from labels.json; "
            "--full re-runs them")
  with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
    futures = {pool.submit(run_case, python, here / c): c for c in cases if c not in results}
    for fut in concurrent.futures.as_completed(futures):
      results[futures[fut]] = fut.result()

  entries: dict[str, dict] = {}
  for case in cases:
    result = results[case]
    rule = expected_rule(case)
    anchor, inspired_by = meta[case]
    try:
      line = anchor_line(here, case, anchor)
    except ValueError as e:
      problems.append(str(e))
      line = None
    if rule is not None and anchor is None:
      problems.append(f"{case}: positive without an anchor")
    problem = verdict(case, rule, result)
    if problem:
      problems.append(f"{case}: {problem}")
    if not result.get("cached") or problem:
      status = "ok  " if problem is None else "FAIL"
      print(f"{status} {case}: " + (problem or (f"{result['type']}" if result.get("raised") else "clean")), flush=True)
    entries[case] = {
        "file": case,
        "rule": rule,
        "line": line,
        "raised": result.get("raised"),
        "type": result.get("type"),
        "message": result.get("message"),
        "inspired_by": inspired_by,
        "key": keys[case],
    }

  ordered = [entries[c] for c in sorted(entries)]
  if args.check:
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
      stored.update(entries)
      ordered = [stored[c] for c in sorted(stored)]
    labels.write_text(json.dumps(ordered, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {labels.relative_to(ROOT)} ({len(ordered)} cases)")

  pos = sum(1 for e in ordered if e["rule"])
  print(f"{len(ordered)} cases ({pos} positives, {len(ordered) - pos} near misses), {len(problems)} problem(s)")
  for p in problems:
    print("  " + p)
  return 1 if problems else 0


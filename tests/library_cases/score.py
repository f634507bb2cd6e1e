#!/usr/bin/env python3
"""Score a checker's findings on the library-shaped cases.

Usage:
  jax-lsp check --output-format json tests/library_cases > findings.json
  python3 tests/library_cases/score.py findings.json [-v]      # or: ... | score.py -
  python3 tests/library_cases/score.py --set tests/library_cases_a a.json   # another set

Input: a ruff-style JSON array of findings, each with "code", "filename",
"location": {"row": N} and optionally "end_location": {"row": M}.  Filenames may be
absolute or relative; they are matched by their "JP00N/name.py" suffix.

* Recall: a positive of rule JP00N is FOUND when some finding with code JP00N is in
  its case file (any line).  EXACT counts those where such a finding covers the
  labelled line (row <= line <= end row).
* Near misses: per rule, the fraction of that rule's near misses (JP00N/ok_*.py)
  with any finding of code JP00N in the file (false alarm).  "any JP" counts near
  misses with a finding of any code, and positives' findings of other codes are
  listed with -v.
* Findings in helper modules (JP00N/_*.py) are listed separately: both positives and
  near misses import them.

Standard library only.  Exit status is always 0 unless the input cannot be read.
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RULES = ("JP001", "JP002", "JP003", "JP004", "JP005")


def case_key(here: Path, filename: str) -> str | None:
  parts = Path(filename).as_posix().split("/")
  if len(parts) < 2:
    return None
  key = "/".join(parts[-2:])
  return key if (here / key).is_file() else None


def covers(finding: dict, line: int) -> bool:
  start = finding["location"]["row"]
  end = (finding.get("end_location") or {}).get("row", start)
  return start <= line <= max(start, end)


def pct(n: int, d: int) -> str:
  return f"{n}/{d} ({100.0 * n / d:.0f}%)" if d else "-"


def main() -> int:
  ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
  ap.add_argument("findings", help="JSON findings file, or - for stdin")
  ap.add_argument("-v", "--verbose", action="store_true", help="list misses, false alarms and helper findings")
  ap.add_argument("--set", type=Path, default=HERE,
                  help="the case set's directory (default: this one; tests/library_cases_a, _b, _c)")
  args = ap.parse_args()
  here = args.set.resolve()
  text = sys.stdin.read() if args.findings == "-" else Path(args.findings).read_text(encoding="utf-8")
  findings = json.loads(text) if text.strip() else []
  labels = json.loads((here / "labels.json").read_text(encoding="utf-8"))

  by_file: dict[str, list[dict]] = collections.defaultdict(list)
  helpers: list[dict] = []
  unknown = 0
  for f in findings:
    key = case_key(here, f.get("filename", ""))
    if key is None:
      unknown += 1
    elif Path(key).name.startswith("_"):
      helpers.append(f)
    else:
      by_file[key].append(f)

  rows = []
  tot = collections.Counter()
  notes: list[str] = []
  for rule in RULES:
    pos = [e for e in labels if e["rule"] == rule]
    oks = [e for e in labels if e["rule"] is None and e["file"].startswith(rule + "/")]
    found = exact = false_alarm = any_jp = 0
    for e in pos:
      mine = [f for f in by_file.get(e["file"], []) if f["code"] == rule]
      if mine:
        found += 1
        if any(covers(f, e["line"]) for f in mine):
          exact += 1
        else:
          notes.append(f"  off-line {e['file']}:{e['line']} (findings at {[f['location']['row'] for f in mine]})")
      else:
        others = sorted({f["code"] for f in by_file.get(e["file"], [])})
        notes.append(f"  MISS     {e['file']}:{e['line']}" + (f" (other codes: {', '.join(others)})" if others else ""))
    for e in oks:
      fs = by_file.get(e["file"], [])
      if any(f["code"] == rule for f in fs):
        false_alarm += 1
        rows_ = [f["location"]["row"] for f in fs if f["code"] == rule]
        notes.append(f"  FALSE    {e['file']} ({rule} at {rows_})")
      if fs:
        any_jp += 1
        other = sorted({f["code"] for f in fs if f["code"] != rule})
        if other:
          notes.append(f"  other    {e['file']} ({', '.join(other)})")
    rows.append((rule, len(pos), found, exact, len(oks), false_alarm, any_jp))
    tot.update(pos=len(pos), found=found, exact=exact, oks=len(oks), fa=false_alarm, any=any_jp)

  header = f"{'rule':<7} {'recall (any line)':<19} {'exact line':<15} {'near-miss false alarms':<24} {'near misses w/ any JP':<21}"
  print(header)
  print("-" * len(header))
  for rule, npos, found, exact, nok, fa, anyjp in rows:
    print(f"{rule:<7} {pct(found, npos):<19} {pct(exact, npos):<15} {pct(fa, nok):<24} {pct(anyjp, nok):<21}")
  print("-" * len(header))
  print(f"{'all':<7} {pct(tot['found'], tot['pos']):<19} {pct(tot['exact'], tot['pos']):<15} "
        f"{pct(tot['fa'], tot['oks']):<24} {pct(tot['any'], tot['oks']):<21}")
  print(f"\n{len(findings)} findings; {len(helpers)} in helper modules; {unknown} outside this set")
  if args.verbose:
    if notes:
      print("\ndetails:")
      print("\n".join(notes))
    for f in helpers:
      print(f"  helper   {case_key(here, f['filename'])}:{f['location']['row']} {f['code']}")
  return 0


if __name__ == "__main__":
  sys.exit(main())

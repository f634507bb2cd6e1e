#!/usr/bin/env python3
"""Check that jax-lsp gives every rewritten fixture ("variant") the verdict it gives the original.

    python3 tests/variants/check.py --jax-lsp BIN [--python PY] [--jobs N]
                                    [--write-docs] [--update-known]

1. Generates the variants (generate.py) into a temporary directory.
2. Every variant needs a recorded JAX outcome in outcomes.json; with --python
   the missing ones are run (oracle.py), without it the check fails and lists them.
3. Runs ``BIN check --output-format json --isolated DIR`` once over all variants
   and once over the original fixtures.
4. Verdicts, per file set: a positive of rule X is FOUND when some finding has
   code X; a near miss of X is a FALSE ALARM when some finding has one of its
   ``# ok:`` codes.  A variant counts only when JAX kept it (same outcome as the
   original) and the original's verdict is right (found / clean); it PASSES
   when its verdict equals the original's.
5. Ratchet: known_misses.txt lists the counted variants that do not pass (one
   id a line, sorted).  The exit status is 1 when a variant fails that is not
   listed (a regression) or a listed one passes or no longer exists (keep the
   file exact: --update-known rewrites it).

Prints a table per transform and closes with one summary line (variants with the
original's verdict, and differing ones).
--write-docs writes docs/variants.md (the table, the transforms, the variants
JAX treats differently from their original).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in tests/
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402
import oracle  # noqa: E402
import transforms  # noqa: E402
from generate import JAX_VERSION, ROOT  # noqa: E402

KNOWN = HERE / "known_misses.txt"
DOCS = ROOT / "docs" / "variants.md"
CI_COMMAND = "python3 tests/variants/check.py --jax-lsp target/debug/jax-lsp --python .venv-jax/bin/python"


def run_checker(binary: str, paths: list[Path]) -> list[dict]:
    proc = subprocess.run(
        [binary, "check", "--output-format", "json", "--isolated", *map(str, paths)],
        capture_output=True,
        text=True,
    )
    if proc.returncode not in (0, 1):
        sys.exit(f"check.py: {binary} check exited {proc.returncode}: {proc.stderr.strip()[-2000:]}")
    return json.loads(proc.stdout or "[]")


def codes_by_file(findings: list[dict]) -> dict[Path, set[str]]:
    out: dict[Path, set[str]] = defaultdict(set)
    for f in findings:
        out[Path(f["filename"]).resolve()].add(f["code"])
    return out


def verdict(positive: bool, codes: list[str], found: set[str]) -> bool:
    """True when the checker is right: a positive found, a near miss left clean. A near
    miss runs clean under JAX, so a finding of any rule on it is a false alarm (one of
    another rule than the fixture's once hid a JP001 behind a JP002 near miss)."""
    if positive:
        return codes[0] in found
    return not found


def same_error(o: dict) -> tuple:
    """An outcome, compared without addresses (0x7f...) and temporary directories."""
    msg = re.sub(r"0x[0-9a-fA-F]+", "0x?", o["message"] or "")
    msg = re.sub(r"jax-variant-[^/\s]+", "jax-variant-?", msg)
    return (o["raised"], o["type"], msg)


def shown(o: dict) -> str:
    got = f"{o['type']}: {o['message']}" if o["raised"] else "ran clean"
    got = " ".join(got.split())
    if len(got) > 220:
        got = got[:217] + "..."
    return got.replace("|", "\\|").replace("`", "'")


def pct(n: int, d: int) -> str:
    return f"{100 * n / d:.0f}%" if d else "-"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jax-lsp", required=True, help="the jax-lsp binary to check")
    ap.add_argument("--python", help="interpreter with jax 0.12.0.1: run JAX on variants without an outcome")
    ap.add_argument("--jobs", "-j", type=int, default=2, help="JAX programs run at once (default 2)")
    ap.add_argument("--fresh", action="store_true", help="oracle: a fresh interpreter per variant")
    ap.add_argument("--write-docs", action="store_true", help="write docs/variants.md")
    ap.add_argument("--update-known", action="store_true", help="rewrite known_misses.txt")
    ap.add_argument(
        "--baseline",
        help="another jax-lsp build: count the kept variants (JAX's outcome as label) that one build "
        "gets right and the other wrong, per transform (what a change to the model proves)",
    )
    opts = ap.parse_args()
    started = time.monotonic()

    variants = generate.generate()
    originals = {o.fixture: o for o in generate.originals()}
    everything = list(originals.values()) + variants
    outcomes = oracle.load()
    missing = [v for v in everything if v.key not in outcomes]
    if missing:
        if not opts.python:
            print(f"check.py: {len(missing)} variants have no recorded JAX outcome:", file=sys.stderr)
            for v in missing[:50]:
                print(f"  {v.id} {v.key}", file=sys.stderr)
            print(
                "run `python3 tests/variants/oracle.py --python .venv-jax/bin/python` (or pass --python) "
                "and commit tests/variants/outcomes.json",
                file=sys.stderr,
            )
            return 1
        outcomes = oracle.ensure(everything, opts.python, opts.jobs, fresh=opts.fresh, prune=True)

    binary = str(Path(opts.jax_lsp).resolve())
    with tempfile.TemporaryDirectory(prefix="jax-lsp-variants-") as tmp:
        root = Path(tmp).resolve()
        dirs = {v.id: v.write(root) for v in variants}
        found_variant = codes_by_file(run_checker(binary, [root]))
        fixtures = sorted({v.fixture for v in variants})
        found_orig = codes_by_file(run_checker(binary, fixtures))
        variant_codes = {}
        for v in variants:
            codes: set[str] = set()
            for name in v.files:
                codes |= found_variant.get((dirs[v.id] / name).resolve(), set())
            variant_codes[v.id] = codes
        baseline_codes = {}
        if opts.baseline:
            found_base = codes_by_file(run_checker(str(Path(opts.baseline).resolve()), [root]))
            for v in variants:
                codes = set()
                for name in v.files:
                    codes |= found_base.get((dirs[v.id] / name).resolve(), set())
                baseline_codes[v.id] = codes

    # ---- verdicts
    rows = {t: defaultdict(int) for t in transforms.TRANSFORMS}
    rule_rows = {r: defaultdict(int) for r in sorted({v.rule for v in variants})}
    failed, dropped, orig_wrong, other_error = [], [], [], []
    for v in variants:
        o = outcomes[v.key]
        for r in (rows[v.transform], rule_rows[v.rule]):
            r["generated"] += 1
            r["kept"] += bool(o["kept"])
            r["dropped"] += not o["kept"]
        if not o["kept"]:
            dropped.append((v, o))
            continue
        orig = outcomes[originals[v.fixture].key]
        if v.positive and same_error(orig) != same_error(o):
            other_error.append((v, o, orig))
        if not verdict(v.positive, v.codes, found_orig.get(v.fixture, set())):
            orig_wrong.append(v)
            continue
        ok = verdict(v.positive, v.codes, variant_codes[v.id])
        for r in (rows[v.transform], rule_rows[v.rule]):
            if v.positive:
                r["pos"] += 1
                r["found"] += ok
            else:
                r["neg"] += 1
                r["alarms"] += not ok
        if not ok:
            failed.append(v.id)
    passed = sum(r["pos"] + r["neg"] for r in rows.values()) - len(failed)

    table = render_table(rows, "transform")
    print(table)
    if opts.baseline:
        print_against_baseline(variants, outcomes, variant_codes, baseline_codes)
    rule_table = render_table(rule_rows, "rule")
    if other_error:
        print(f"\n{len(other_error)} kept positives raise another error than their original (see docs/variants.md)")
    if orig_wrong:
        print(f"\n{len(orig_wrong)} kept variants not counted: the checker is wrong on their original fixture")

    known = [line.strip() for line in KNOWN.read_text().splitlines() if line.strip()] if KNOWN.exists() else []
    failed_sorted = sorted(failed)
    regressions = sorted(set(failed) - set(known))
    stale = sorted(set(known) - set(failed))
    status = 0
    if opts.update_known:
        KNOWN.write_text("".join(f"{i}\n" for i in failed_sorted))
        print(f"\nwrote {KNOWN.relative_to(ROOT)} ({len(failed_sorted)} ids)")
    else:
        if regressions:
            status = 1
            print(f"\nREGRESSIONS: {len(regressions)} variants now differ from their original's verdict:")
            for i in regressions:
                print(f"  {i}")
        if stale:
            status = 1
            print(
                f"\n{len(stale)} ids in known_misses.txt now pass (or are gone); "
                "remove them (--update-known):"
            )
            for i in stale:
                print(f"  {i}")
    if opts.write_docs:
        DOCS.write_text(render_docs(table, rule_table, dropped, other_error, failed_sorted), encoding="utf-8")
        print(f"wrote {DOCS.relative_to(ROOT)}")
    print(f"({time.monotonic() - started:.1f} s)")
    # Not the "N passed, N failed" form: a known miss is not a failure of
    # this check (the ratchet fails only on regressions and stale entries).
    print(
        f"variants: {passed} with the original's verdict, {len(failed)} differing "
        f"(all listed in known_misses.txt unless reported above); exit {status}"
    )
    return status


def print_against_baseline(variants, outcomes, new_codes, old_codes) -> None:
    """Per transform: kept variants (labelled by JAX: positives raise their
    error, near misses run clean) that this build gets right and the
    baseline wrong, and the reverse."""
    gained, lost = defaultdict(int), defaultdict(int)
    examples = []
    for v in variants:
        if not outcomes[v.key]["kept"]:
            continue
        new = verdict(v.positive, v.codes, new_codes[v.id])
        old = verdict(v.positive, v.codes, old_codes[v.id])
        if new and not old:
            gained[v.transform] += 1
            examples.append(v.id)
        elif old and not new:
            lost[v.transform] += 1
    print("\n| transform | right now, wrong in the baseline | wrong now, right in the baseline |")
    print("|---|---:|---:|")
    for t in transforms.TRANSFORMS:
        print(f"| {t} | {gained[t]} | {lost[t]} |")
    print(f"| **all** | {sum(gained.values())} | {sum(lost.values())} |")
    for i in sorted(examples)[:12]:
        print(f"  e.g. {i}")


def render_table(rows, what: str) -> str:
    head = (
        f"| {what} | generated | kept | dropped | recall (kept positives found) "
        "| false alarms (kept near misses) |\n|---|---:|---:|---:|---:|---:|"
    )
    lines = [head]
    tot = defaultdict(int)
    for t, r in rows.items():
        for k, n in r.items():
            tot[k] += n
        lines.append(row(t, r))
    lines.append(row("**all**", tot))
    return "\n".join(lines)


def row(name, r) -> str:
    return (
        f"| {name} | {r['generated']} | {r['kept']} | {r['dropped']} "
        f"| {r['found']}/{r['pos']} ({pct(r['found'], r['pos'])}) "
        f"| {r['alarms']}/{r['neg']} ({pct(r['alarms'], r['neg'])}) |"
    )


def render_docs(table: str, rule_table: str, dropped, other_error, failed: list[str]) -> str:
    out = [
        "# Variants: rewritten fixtures",
        "",
        "<!-- Generated by `python3 tests/variants/check.py --jax-lsp BIN --write-docs`; do not edit by hand. -->",
        "",
        "Every positive (`# ruleid:`) and near-miss (`# ok:`) fixture in `tests/fixtures/JP*/` is",
        "rewritten by semantics-preserving transforms (`tests/variants/transforms.py`): the",
        "interesting value (`lowering_platforms=`/`platforms=`, `compiler_params=`, `interpret=`,",
        "`backend=`, `in_shardings=`/`out_shardings=`/`mesh=`/`device=`/`abstract_device=`,",
        "`AbstractMesh(...)`/`Mesh(...)`/`make_mesh(...)` calls) moves somewhere else, or the",
        "lowering call or the kernel function is restructured.  At most",
        f"{generate.MAX_PER_TRANSFORM} rewrites per transform and fixture.  Real JAX {JAX_VERSION} runs every",
        "variant (`tests/variants/oracle.py`, outcomes cached in `tests/variants/outcomes.json`);",
        "a variant is **kept** when JAX does to it what it does to the original (a positive raises",
        "the rule's predicted error, a near miss runs clean), else **dropped**.  jax-lsp must give a",
        "kept variant the verdict it gives the original: a positive found, a near miss without any",
        "finding (of any rule: JAX runs it clean).",
        "",
        "## Results",
        "",
        table,
        "",
        "*recall*: kept positives whose rule the checker reports; *false alarms*: kept near misses",
        "where it reports anything.  Only variants whose original fixture the checker",
        "gets right are counted (today: all of them).",
        "",
        "The same, per rule:",
        "",
        rule_table,
        "",
        "## How to run",
        "",
        "```sh",
        CI_COMMAND,
        "```",
        "",
        "JAX runs only for variants whose content hash is not in `outcomes.json` (`--python` is",
        "needed only then).  Re-run JAX on everything (e.g. after changing the predicted errors in",
        "`tests/oracle/run.py` or upgrading JAX):",
        "",
        "```sh",
        "python3 tests/variants/oracle.py --python .venv-jax/bin/python --all",
        "```",
        "",
        "`tests/variants/known_misses.txt` lists the variants whose verdict differs from the",
        "original's today; the check fails on a new one (a regression) and on a listed one that",
        "now passes (`--update-known` rewrites the list).",
        "",
        "## Transforms",
        "",
    ]
    for name, (_, _, desc) in transforms.TRANSFORMS.items():
        out.append(f"- `{name}`: {desc}.")
    out += [
        "",
        f"## Dropped variants ({len(dropped)}): the rewrite changed what JAX does",
        "",
        "Each line is a variant whose JAX outcome differs from its original fixture's, and what",
        "JAX (or Python) did instead.",
        "",
    ]
    out += _by_transform(dropped, lambda v, o: f"- `{v.id}` (original: {'raise' if v.positive else 'run clean'}): {shown(o)}")
    out += [
        "",
        f"## Kept, but another error ({len(other_error)})",
        "",
        "Positives that still raise an error matching the rule's prediction, but not the",
        "original's error (type or message): facts about where JAX fails first.",
        "",
    ]
    out += _by_transform(
        [(v, (o, orig)) for v, o, orig in other_error],
        lambda v, p: f"- `{v.id}`: {shown(p[0])} (original: {shown(p[1])})",
    )
    out += [
        "",
        f"## Known misses ({len(failed)})",
        "",
        "Kept variants where jax-lsp's verdict differs from the original's (a positive no longer",
        "found, or a near miss now flagged); the same list as `tests/variants/known_misses.txt`.",
        "",
    ]
    by_t = defaultdict(list)
    for i in failed:
        by_t[i.rsplit("__", 2)[1] if i.rsplit("__", 1)[1].isdigit() else i.rsplit("__", 1)[1]].append(i)
    for t in transforms.TRANSFORMS:
        if by_t[t]:
            out += [f"### {t} ({len(by_t[t])})", "", ", ".join(f"`{i}`" for i in by_t[t]), ""]
    if not failed:
        out.append("(none)")
    return "\n".join(out).rstrip("\n") + "\n"


def _by_transform(items, fmt) -> list[str]:
    if not items:
        return ["(none)"]
    by_t = defaultdict(list)
    for v, x in items:
        by_t[v.transform].append((v, x))
    out = []
    for t in transforms.TRANSFORMS:
        if by_t[t]:
            out += [f"### {t}", ""]
            out += [fmt(v, x) for v, x in sorted(by_t[t], key=lambda p: p[0].id)]
            out.append("")
    return out


if __name__ == "__main__":
    sys.exit(main())

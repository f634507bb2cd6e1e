#!/usr/bin/env python3
"""Oracle: run every rule fixture under real JAX and check it fails as predicted.

    python tests/oracle/run.py [--jobs N] [--python PY] [paths, rule dirs or codes ...]

Default: every ``tests/fixtures/JP*/*.py`` and ``tests/fixtures/contracts/*.py``
(a project's own contracts: their codes are the project's, so each positive
says what JAX raises in an ``# oracle-expect:`` header).  Each fixture runs alone in a fresh
interpreter (``harness.py``), a few at a time, with a per-file timeout.

* A file with a ``# ruleid: JPxxx`` marker is a POSITIVE: it must raise, and
  ``"Type: message"`` must match (``re.search``) the rule's predicted error
  below, or the file's own header override ``# oracle-expect: <regex>``.
* A file with only ``# ok: JPxxx`` markers is a NEAR MISS: it must run to the
  end without raising.
* A header ``# oracle-skip: <reason>`` skips the file (use only when the
  failure needs hardware this host lacks).
* JP012's mistake is a DeprecationWarning: for files in a ``JP012`` directory
  harness.py turns DeprecationWarning into an error, so positives raise it and
  near misses must not emit any DeprecationWarning.

Prints one line per file and closes with ``N passed, N failed, N skipped``.
Exit status: 0 when nothing failed, 1 when something failed, 2 on usage errors.
The interpreter must have jax==0.12.0.1 (see requirements.txt); pass
``--python`` or set ``ORACLE_PYTHON`` when it is not the one running this script.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
HARNESS = HERE / "harness.py"
TIMEOUT_S = 120
JAX_VERSION = "0.12.0.1"

# What JAX raises for each rule, matched with re.search against "Type: message".
PREDICTED = {
    "JP001": r"the platform for the specified backend \w+ is different from the lowering platform \w+",
    # E2, or the bare AssertionError that TPU params lowered for cuda give in a fresh
    # process (jax-facts.md 2e: the Mosaic TPU registration is imported lazily).
    "JP002": r"Compiler params for platform (tpu|gpu) cannot be used for (gpu|tpu) lowering"
    r"|\AAssertionError: \Z",
    "JP003": r"Passing lowering_platforms via jax\.export or jit\(f\)\.trace\(\*args\)\.lower\("
    r"lowering_platforms=\.\.\.\) is required when only AbstractMesh exists in a jitted computation",
    "JP004": r"AbstractMesh cannot be used when jaxpr contains primitives that require devices "
    r"to be present during lowering",
    # JAX is silent here; harness.py's observer raises the first alternative.
    "JP005": r"oracle: JAX lowered for platforms .* split from a string|TypeError: unhashable type: 'list'",
    # An unknown name fails only where a platform-specific rule is needed (debug_print, eigh,
    # pallas_call, host callbacks) or on Exported.call; 'gpu' fails on a host without a GPU.
    "JP006": r"MLIR translation rule for primitive '.*' not found for platform"
    r"|Unknown backend: 'gpu' requested|`EmitPythonCallback` not supported on"
    r"|Unsupported platform:|was exported for platforms",
    # pure_callback/io_callback, or the JAX bug hit by jax.debug.print/debug.callback.
    "JP007": r"multi-platform lowering for python_callback"
    r"|can only concatenate list \(not \"tuple\"\) to list",
    "JP008": r"Use 'cuda', 'rocm', or 'oneapi' for lax\.platform_dependent"
    r"|MLIR translation rule for primitive .* not found for platform",
    "JP009": r"Expected mesh of type `jax\.sharding\.Mesh`\. Got <class 'jax\._src\.mesh\.AbstractMesh'>",
    "JP010": r"Only interpret mode is supported on CPU backend",
    "JP011": r"`buffer_callback` not supported on|multi-platform lowering for buffer_callback",
    # JAX only warns; harness.py turns DeprecationWarning into an error for JP012 fixtures.
    "JP012": r"backend and device argument on jit is deprecated"
    r"|can't specify both a device and a backend for jit"
    r"|If backend or device is specified on jit, then (in|out)_shardings should not be specified"
    r"|Mesh context manager should not be used with jit when backend or device",
    # A dict of hashable leaves passes tracing and fails at lowering (mlir.py LoweringCacheKey); a
    # list leaf (e.g. allow_input_fusion=[...]) already fails at trace time (partial_eval.py).
    "JP013": r"TypeError: unhashable type: 'dict'"
    r"|TypeError: As of JAX v0\.7, parameters to jaxpr equations must have __hash__ and __eq__ methods\."
    r" In a call to primitive pallas_call, the value of parameter compiler_params was not hashable",
    "JP014": r"is not supported by the Mosaic GPU backend|mpmd_map does not support multi-platform lowering"
    r"|mesh is not supported in the Triton backend|mpmd_map requires the mesh to define"
    r"|Unsupported platform",
    "JP015": r"safe_zip\(\) argument|device_assignment cannot be .None. during compilation",
    # A declaration is the author's word; the fixtures declare real TPU-only kernels
    # (Mosaic-only primitives, TPU compiler params) that fail to lower elsewhere.
    "JP016": r"Unimplemented primitive in Pallas Triton lowering"
    r"|Compiler params for platform (tpu|gpu) cannot be used for (gpu|tpu) lowering|\AAssertionError: \Z",
}

# Built-in codes (JP016) and contract codes (TPU001).
MARKER = re.compile(r"^\s*#\s*(ruleid|ok):\s*([A-Z]+\d+)\s*$")
HEADER = re.compile(r"^\s*#\s*oracle-(expect|skip):\s*(.*?)\s*$")


@dataclass
class Fixture:
    path: Path
    ruleids: list[str]
    oks: list[str]
    expect: str | None
    skip: str | None
    problems: list[str]

    @property
    def positive(self) -> bool:
        return bool(self.ruleids)


def parse(path: Path) -> Fixture:
    lines = path.read_text(encoding="utf-8").splitlines()
    ruleids, oks, problems = [], [], []
    expect = skip = None
    in_header = True
    for i, line in enumerate(lines):
        stripped = line.strip()
        if in_header and stripped and not stripped.startswith("#"):
            in_header = False
        h = HEADER.match(line)
        if h:
            if not in_header:
                problems.append(f"line {i + 1}: oracle-{h.group(1)} outside the header comment")
            elif h.group(1) == "expect":
                expect = h.group(2)
            else:
                skip = h.group(2) or "no reason given"
            continue
        m = MARKER.match(line)
        if not m:
            continue
        (ruleids if m.group(1) == "ruleid" else oks).append(m.group(2))
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if not nxt or nxt.startswith("#"):
            problems.append(f"line {i + 1}: marker is not directly above a code line")
    if len(ruleids) > 1:
        problems.append(f"{len(ruleids)} ruleid markers (a positive has exactly one)")
    if not ruleids and not oks:
        problems.append("no '# ruleid:' or '# ok:' marker")
    for code in ruleids:
        if code not in PREDICTED and expect is None:
            problems.append(f"no predicted error for {code}; add '# oracle-expect: <regex>'")
    if expect is not None:
        try:
            re.compile(expect)
        except re.error as e:
            problems.append(f"bad oracle-expect regex: {e}")
    return Fixture(path, ruleids, oks, expect, skip, problems)


def run_one(python: str, fx: Fixture) -> tuple[str, str]:
    """Returns (verdict, detail); verdict is PASS, FAIL or SKIP."""
    if fx.problems:
        return "FAIL", "; ".join(fx.problems)
    if fx.skip is not None:
        return "SKIP", fx.skip
    env = dict(os.environ)
    env.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    started = time.monotonic()
    try:
        proc = subprocess.run(
            [python, str(HARNESS), str(fx.path)],
            cwd=fx.path.parent,
            env=env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        return "FAIL", f"timed out after {TIMEOUT_S} s"
    elapsed = time.monotonic() - started
    result = None
    for line in reversed(proc.stdout.splitlines()):
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict) and "raised" in obj:
            result = obj
            break
    if result is None:
        tail = (proc.stderr.strip().splitlines() or ["<no output>"])[-1]
        return "FAIL", f"harness exited {proc.returncode} without a result: {tail}"
    if result.get("jax") not in (None, JAX_VERSION):
        return "FAIL", f"runs jax {result.get('jax')}, the oracle needs jax {JAX_VERSION}"
    got = f"{result['type']}: {result['message']}" if result["raised"] else "no exception"
    got_short = got if len(got) <= 300 else got[:297] + "..."
    got_short = got_short.replace("\n", "\\n")  # keep one line per fixture
    timing = f"({elapsed:.1f} s)"
    if fx.positive:
        pattern = fx.expect if fx.expect is not None else PREDICTED[fx.ruleids[0]]
        if not result["raised"]:
            return "FAIL", f"expected {fx.ruleids[0]} to raise /{pattern}/, but it ran clean {timing}"
        if not re.search(pattern, got):
            return "FAIL", f"expected /{pattern}/, got {got_short} {timing}"
        return "PASS", f"{fx.ruleids[0]} raised {got_short} {timing}"
    if result["raised"]:
        return "FAIL", f"near miss ({', '.join(sorted(set(fx.oks)))}) raised {got_short} {timing}"
    return "PASS", f"near miss ran clean {timing}"


def collect(args: list[str]) -> list[Path]:
    if not args:
        return sorted(FIXTURES.glob("JP*/*.py")) + sorted(FIXTURES.glob("contracts/*.py"))
    out: list[Path] = []
    for a in args:
        p = Path(a)
        if not p.exists() and re.fullmatch(r"JP\d{3}", a):
            p = FIXTURES / a
        if p.is_dir():
            out.extend(sorted(p.resolve().glob("*.py")))
        elif p.is_file():
            out.append(p.resolve())
        else:
            print(f"run.py: no such fixture, rule dir or rule code: {a}", file=sys.stderr)
            raise SystemExit(2)
    return out


def pick_python(explicit: str | None) -> str:
    """--python, else $ORACLE_PYTHON, else this interpreter if it has jax, else a
    .venv-jax beside or above the checkout (how jax-facts.md sets one up)."""
    python = explicit or os.environ.get("ORACLE_PYTHON")
    if python:
        return python
    import importlib.util

    if importlib.util.find_spec("jax") is not None:
        return sys.executable
    for venv in (ROOT / ".venv-jax", ROOT.parent / ".venv-jax"):
        candidate = venv / "bin" / "python"
        if candidate.is_file():
            return str(candidate)
    print(
        f"run.py: jax is not importable from {sys.executable} and no .venv-jax was found; "
        "install tests/oracle/requirements.txt (Python >= 3.12) and pass --python PY",
        file=sys.stderr,
    )
    raise SystemExit(2)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", help="fixture files, rule dirs, or rule codes (JP003)")
    ap.add_argument("--jobs", "-j", type=int, default=2, help="fixtures run at once (default 2)")
    ap.add_argument("--python", help="interpreter with jax installed (default: this one)")
    opts = ap.parse_args()
    python = pick_python(opts.python)
    files = collect(opts.paths)
    if not files:
        print("run.py: no fixtures found", file=sys.stderr)
        return 2
    print(f"oracle: {len(files)} fixtures, {opts.jobs} at a time, python {python}", flush=True)
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        futures = [pool.submit(run_one, python, parse(f)) for f in files]
        for f, fut in zip(files, futures):  # report in a stable order
            verdict, detail = fut.result()
            counts[verdict] += 1
            try:
                shown = f.resolve().relative_to(ROOT)
            except ValueError:
                shown = f
            print(f"{verdict} {shown}: {detail}", flush=True)
    print(f"{counts['PASS']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped")
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())

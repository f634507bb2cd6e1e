#!/usr/bin/env python3
"""Run the variants under real JAX and record what happened in outcomes.json.

    python3 tests/variants/oracle.py [--python PY] [--jobs N] [--all] [--fresh] [FIXTURE ...]
    python3 tests/variants/oracle.py --verify [--python PY] [--jobs N]

Each variant (generate.py) runs alone: its files are written to a temporary
directory and tests/oracle/harness.py runs its program there (cwd and
sys.path[0] = the program's directory).  A variant is KEPT when JAX does to it
what it does to the original fixture: a positive still raises an error matching
the rule's predicted regex from tests/oracle/run.py (or the fixture's
``# oracle-expect:``), a near miss still runs clean.  Otherwise it is DROPPED:
the transform changed what JAX does, a fact about JAX that docs/variants.md lists.

outcomes.json maps the sha256 of a variant's files and the jax version
(generate.content_hash) to {"id", "raised", "type", "message" (first 300
characters), "kept"}.  The original fixtures are recorded the same way (id
``JP002/pos_x``, "kept" = the oracle passes it), so check.py can tell a kept
variant whose error differs from the original's.  Only variants whose hash is missing are run; --all runs
every variant again and rewrites the file.  A run over all fixtures also drops
the entries of variants that are no longer generated.

By default the programs run in forks of a warm interpreter that has done
``import jax`` (forkserver.py, about three times faster); --fresh starts a new
interpreter per variant like tests/oracle/run.py.  --verify runs every fixture
both ways and fails unless the outcomes are identical.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in tests/
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402
from generate import JAX_VERSION, Variant  # noqa: E402
from run import HARNESS, TIMEOUT_S, parse, pick_python  # noqa: E402  (tests/oracle/run.py)

OUTCOMES = HERE / "outcomes.json"
FORKSERVER = HERE / "forkserver.py"
MESSAGE_CHARS = 300


def env() -> dict:
    e = dict(os.environ)
    e.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    e.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    return e


def _result_from_stdout(stdout: str) -> dict | None:
    for line in reversed(stdout.splitlines()):
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict) and "raised" in obj:
            return obj
    return None


class Fresh:
    """One new interpreter per program (what tests/oracle/run.py does)."""

    def __init__(self, python: str):
        self.python = python

    def run(self, program: Path) -> dict:
        try:
            proc = subprocess.run(
                [self.python, str(HARNESS), str(program)],
                cwd=program.parent,
                env=env(),
                capture_output=True,
                text=True,
                timeout=TIMEOUT_S,
            )
        except subprocess.TimeoutExpired:
            return {"raised": True, "type": "OracleTimeout", "message": f"timed out after {TIMEOUT_S} s"}
        res = _result_from_stdout(proc.stdout)
        if res is None:
            tail = (proc.stderr.strip().splitlines() or ["<no output>"])[-1]
            return {"raised": True, "type": "HarnessError", "message": f"exit {proc.returncode}: {tail}"}
        return res

    def close(self):
        pass


class ForkServer:
    """A warm interpreter (forkserver.py) that forks once per program."""

    def __init__(self, python: str):
        self.proc = subprocess.Popen(
            [python, str(FORKSERVER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env(),
            text=True,
            bufsize=1,
        )
        hello = json.loads(self.proc.stdout.readline() or "{}")
        if not hello.get("ready"):
            raise RuntimeError("forkserver.py did not start")

    def run(self, program: Path) -> dict:
        self.proc.stdin.write(json.dumps({"path": str(program), "timeout": TIMEOUT_S}) + "\n")
        self.proc.stdin.flush()
        reply = json.loads(self.proc.stdout.readline())
        if not reply["ok"]:
            return {"raised": True, "type": "OracleTimeout", "message": reply["error"]}
        res = _result_from_stdout(reply["stdout"])
        if res is None:
            return {"raised": True, "type": "HarnessError", "message": f"child status {reply.get('status')}"}
        return res

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except Exception:  # noqa: BLE001
            self.proc.kill()


class Pool:
    """`jobs` runners (fork servers or fresh-process runners), one per worker thread."""

    def __init__(self, python: str, jobs: int, fresh: bool):
        self.python, self.fresh = python, fresh
        self.local = threading.local()
        self.runners = []
        self.lock = threading.Lock()
        self.executor = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs))

    def _runner(self):
        r = getattr(self.local, "runner", None)
        if r is None:
            r = Fresh(self.python) if self.fresh else ForkServer(self.python)
            self.local.runner = r
            with self.lock:
                self.runners.append(r)
        return r

    def run_files(self, rule: str, files: dict[str, str], main: str) -> dict:
        tmp = Path(tempfile.mkdtemp(prefix="jax-variant-"))
        try:
            d = tmp / rule
            d.mkdir()
            for name, text in files.items():
                (d / name).parent.mkdir(parents=True, exist_ok=True)
                (d / name).write_text(text, encoding="utf-8")
            started = time.monotonic()
            res = self._runner().run(d / main)
            res["elapsed"] = time.monotonic() - started
            return res
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def submit(self, *args):
        return self.executor.submit(self.run_files, *args)

    def close(self):
        self.executor.shutdown()
        for r in self.runners:
            r.close()


def got_text(res: dict) -> str:
    return f"{res['type']}: {res['message']}" if res["raised"] else "no exception"


def judge(v: Variant, res: dict) -> bool:
    if v.positive:
        return bool(res["raised"]) and re.search(v.pattern, got_text(res)) is not None
    return not res["raised"]


def load() -> dict:
    if OUTCOMES.exists():
        return json.loads(OUTCOMES.read_text(encoding="utf-8"))
    return {}


def save(outcomes: dict):
    tmp = OUTCOMES.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(outcomes, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(OUTCOMES)


def ensure(
    variants: list[Variant], python: str, jobs: int = 2, rerun_all: bool = False, fresh: bool = False,
    prune: bool = False, log=print,
) -> dict:
    """Run JAX on every variant without a recorded outcome; returns the outcomes."""
    outcomes = load()  # with rerun_all, entries are overwritten as they come (an interrupted run loses nothing)
    todo, seen = [], set()
    for v in variants:
        k = v.key
        if k in seen:
            continue
        seen.add(k)
        if rerun_all or k not in outcomes:
            todo.append(v)
    if prune:
        outcomes = {k: o for k, o in outcomes.items() if k in seen}
    if not todo:
        if prune:
            save(outcomes)
        return outcomes
    mode = "fresh interpreters" if fresh else "fork servers"
    log(f"oracle: running {len(todo)} of {len(seen)} variants, {jobs} at a time ({mode}), python {python}")
    pool = Pool(python, jobs, fresh)
    started, done, last_save = time.monotonic(), 0, time.monotonic()
    try:
        futures = {pool.submit(v.rule, v.files, v.main_file): v for v in todo}
        for fut in concurrent.futures.as_completed(futures):
            v = futures[fut]
            res = fut.result()
            if res.get("jax") not in (None, JAX_VERSION):
                raise SystemExit(f"oracle: runs jax {res.get('jax')}, the variants need jax {JAX_VERSION}")
            kept = judge(v, res)
            outcomes[v.key] = {
                "id": v.id,
                "raised": bool(res["raised"]),
                "type": res["type"],
                "message": None if res["message"] is None else res["message"][:MESSAGE_CHARS],
                "kept": kept,
            }
            done += 1
            shown = got_text(res).replace("\n", "\\n")[:160]
            log(f"[{done}/{len(todo)}] {'KEPT' if kept else 'DROPPED'} {v.id}: {shown} ({res['elapsed']:.1f} s)")
            if time.monotonic() - last_save > 30:
                save(outcomes)
                last_save = time.monotonic()
    finally:
        pool.close()
        save(outcomes)
    log(f"oracle: {done} variants in {time.monotonic() - started:.0f} s")
    return outcomes


def verify(python: str, jobs: int, log=print) -> int:
    """Every fixture in a fork server and in a fresh interpreter: the outcomes must be identical."""
    fixtures = generate.fixture_files()
    results = {}
    for fresh in (True, False):
        pool = Pool(python, jobs, fresh)
        try:
            futs = {}
            for p in fixtures:
                futs[p] = pool.submit(p.parent.name, {p.name: p.read_text(encoding="utf-8")}, p.name)
            results[fresh] = {p: f.result() for p, f in futs.items()}
        finally:
            pool.close()
    bad = 0
    for p in fixtures:
        a, b = results[True][p], results[False][p]
        same = all(a.get(k) == b.get(k) for k in ("raised", "type", "message", "jax"))
        fx = parse(p)
        if not same:
            bad += 1
            log(f"DIFFERENT {p.relative_to(generate.ROOT)}: fresh {got_text(a)[:150]!r} / fork {got_text(b)[:150]!r}")
        else:
            log(f"same {p.relative_to(generate.ROOT)}: {got_text(a)[:100]!r}" + (" (positive)" if fx.positive else ""))
    log(f"verify: {len(fixtures) - bad} identical, {bad} different")
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fixtures", nargs="*", help="only the variants of these fixtures / rule dirs")
    ap.add_argument("--python", help="interpreter with jax 0.12.0.1 (default: as tests/oracle/run.py picks)")
    ap.add_argument("--jobs", "-j", type=int, default=2, help="programs run at once (default 2)")
    ap.add_argument("--all", action="store_true", help="run every variant again, not only the unrecorded ones")
    ap.add_argument("--fresh", action="store_true", help="a fresh interpreter per variant instead of fork servers")
    ap.add_argument("--verify", action="store_true", help="compare fork-server and fresh outcomes on every fixture")
    opts = ap.parse_args()
    python = pick_python(opts.python)
    if opts.verify:
        return verify(python, opts.jobs)
    variants = generate.generate(opts.fixtures)
    outcomes = ensure(
        generate.originals(opts.fixtures) + variants,
        python,
        opts.jobs,
        rerun_all=opts.all,
        fresh=opts.fresh,
        prune=not opts.fixtures,
    )
    kept = sum(1 for v in variants if outcomes[v.key]["kept"])
    print(f"{len(variants)} variants: {kept} kept, {len(variants) - kept} dropped")
    return 0


if __name__ == "__main__":
    sys.exit(main())

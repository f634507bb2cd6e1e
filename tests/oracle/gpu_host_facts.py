#!/usr/bin/env python3
"""Record JAX platform facts on a host with a GPU; not run in CI.

    python3 tests/oracle/gpu_host_facts.py --out DIR [--jobs 8] [--snippets-only] [fixtures ...]

Why: the shared jax-facts.md was verified on a CPU-only machine, and several facts
the rules rest on (E1 with arguments committed to a GPU, the bare AssertionError vs E2
for TPU params on a real GPU, the 'gpu' alias, jit(backend=...), platform_dependent)
can only be observed where a GPU exists.  This script gathers them in one short run.

Part 1 runs each snippet below in a fresh interpreter (sys.executable, 120 s each, up
to --jobs at once) and writes DIR/gpu_host_facts.json: jax version, default backend,
whether it raised, exception type, message (400 chars), the raising frame, the values
the snippet reported and the warnings it emitted.  A compact table goes to stdout.

Part 2 (skipped by --snippets-only) runs the whole fixture oracle (tests/oracle/run.py,
imported as a module, its version check set to the running jax) on this host and
writes DIR/oracle_on_this_host.json.  Fixtures not started within --budget-s seconds
of the script's start are recorded as NOT RUN, so the run fits a borrowed machine.
Stdlib only; runs under jax 0.11.x and 0.12.x.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import importlib.metadata
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
TIMEOUT_S = 120
MARK = "@@gpu_host_facts@@ "
ENV = {"XLA_PYTHON_CLIENT_PREALLOCATE": "false", "TF_CPP_MIN_LOG_LEVEL": "3",
       "PYTHONDONTWRITEBYTECODE": "1"}
# Snippets only: keep JAX's internal frames so "where" names the raising line.
SNIPPET_ENV = {**ENV, "JAX_TRACEBACK_FILTERING": "off"}

# Runs one snippet (read from stdin); prints one MARK-prefixed JSON line on stdout.
RUNNER = r'''
import contextlib, json, sys, traceback, warnings
body = sys.stdin.read()
out = {"jax": None, "backend": None, "raised": False, "type": None, "message": None,
       "where": None, "values": {}, "warnings": []}
def report(key, value):
    ok = isinstance(value, (bool, int, float, str, type(None)))
    out["values"][key] = value if ok else repr(value)[:300]
def attempt(key, fn):
    try:
        report(key, fn())
    except Exception as e:
        report(key, f"raised {type(e).__name__}: {str(e)[:300]}")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        with contextlib.redirect_stdout(sys.stderr):
            import jax
            out["jax"] = jax.__version__
            attempt("default_backend", jax.default_backend)
            out["backend"] = out["values"].pop("default_backend")
            exec(compile(body, "<snippet>", "exec"),
                 {"report": report, "attempt": attempt, "__name__": "__main__"})
    except BaseException as e:
        frame = (traceback.extract_tb(e.__traceback__) or [None])[-1]
        where = f"{frame.filename.split('site-packages/')[-1]}:{frame.lineno}" if frame else None
        out.update(raised=True, type=type(e).__name__, message=str(e)[:400], where=where)
    seen = []
    for w in caught:
        text = f"{w.category.__name__}: {str(w.message)[:200]}"
        if text not in seen:
            seen.append(text)
    out["warnings"] = seen[:8]
sys.stdout.write("@@gpu_host_facts@@ " + json.dumps(out) + "\n")
'''

COMMON = """
import jax, jax.numpy as jnp
from jax import lax
x = jnp.ones((8, 128), jnp.float32)
def with_pure_callback(x):
    return jax.pure_callback(lambda a: a, jax.ShapeDtypeStruct(x.shape, x.dtype), x) + 1
def with_debug_print(x):
    jax.debug.print("x00={}", x[0, 0])
    return x + 1
def plain(x):
    return jnp.sin(x) + 1
"""

PALLAS = """
from jax.experimental import pallas as pl
def _kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1.0
def kernel_call(params=None, **kw):
    out = jax.ShapeDtypeStruct((8, 128), jnp.float32)
    return pl.pallas_call(_kernel, out_shape=out, compiler_params=params, **kw)
def _params(module, *names):
    cls = next(getattr(module, n) for n in names if hasattr(module, n))
    report("params", f"{cls.__module__}.{cls.__qualname__}")
    return cls()
def tpu_params():
    from jax.experimental.pallas import tpu as pltpu
    return _params(pltpu, "CompilerParams", "TPUCompilerParams")
def triton_params():
    from jax.experimental.pallas import triton as pltriton
    return _params(pltriton, "CompilerParams", "TritonCompilerParams")
def run(f):
    report("result_sum", float(jax.jit(f)(x).sum()))  # 2048.0 when the kernel ran
"""

# name -> (description, body).  Bodies use COMMON (and PALLAS when they start with "P|").
SNIPPETS = {
    "A": ("TPU params pallas_call, jit(f)(x)", "P|run(kernel_call(tpu_params()))"),
    "B": ("TPU params, lower(lowering_platforms=('cuda',))",
          "P|jax.jit(kernel_call(tpu_params())).trace(x).lower(lowering_platforms=('cuda',))\n"
          "report('lowered', True)"),
    "C": ("Triton params pallas_call, jit(f)(x) (control)", "P|run(kernel_call(triton_params()))"),
    "D": ("pallas_call without compiler_params, jit(f)(x)", "P|run(kernel_call())"),
    "E": ("TPU params + interpret=True, jit(f)(x)", "P|run(kernel_call(tpu_params(), interpret=True))"),
    "F1": ("pure_callback, x uncommitted, lower(('cpu',))",
           "jax.jit(with_pure_callback).trace(x).lower(lowering_platforms=('cpu',))\n"
           "report('lowered', True)"),
    "F2": ("debug.print, x uncommitted, lower(('cpu',))",
           "jax.jit(with_debug_print).trace(x).lower(lowering_platforms=('cpu',))\n"
           "report('lowered', True)"),
    "G1": ("pure_callback, x on devices('gpu')[0], lower(('cpu',))",
           "x = jax.device_put(x, jax.devices('gpu')[0])\nreport('x_device', str(x.devices()))\n"
           "jax.jit(with_pure_callback).trace(x).lower(lowering_platforms=('cpu',))\n"
           "report('lowered', True)"),
    "G2": ("debug.print, x on devices('gpu')[0], lower(('cpu',))",
           "x = jax.device_put(x, jax.devices('gpu')[0])\n"
           "jax.jit(with_debug_print).trace(x).lower(lowering_platforms=('cpu',))\n"
           "report('lowered', True)"),
    "G3": ("pure_callback, x on devices('cuda')[0], lower(('cpu',))",
           "report('cuda_devices', repr(jax.devices('cuda')))\n"
           "x = jax.device_put(x, jax.devices('cuda')[0])\n"
           "jax.jit(with_pure_callback).trace(x).lower(lowering_platforms=('cpu',))\n"
           "report('lowered', True)"),
    "H": ("pure_callback, x on devices('cpu')[0], lower(('cuda',))",
          "x = jax.device_put(x, jax.devices('cpu')[0])\n"
          "jax.jit(with_pure_callback).trace(x).lower(lowering_platforms=('cuda',))\n"
          "report('lowered', True)"),
    "I": ("host platform names",
          "report('devices0_platform', jax.devices()[0].platform)\n"
          "report('devices0_kind', jax.devices()[0].device_kind)\n"
          "attempt('devices_gpu', lambda: repr(jax.devices('gpu')))\n"
          "attempt('devices_cuda', lambda: repr(jax.devices('cuda')))\n"
          "from jax._src import xla_bridge as xb\n"
          "attempt('canonicalize_gpu', lambda: xb.canonicalize_platform('gpu'))\n"
          "attempt('backend_platform', lambda: xb.get_backend().platform)"),
    "J1": ("plain f, lower(('gpu',))",
           "lo = jax.jit(plain).trace(x).lower(lowering_platforms=('gpu',))\n"
           "attempt('platforms', lambda: repr(lo._lowering._platforms))\n"
           "report('result_sum', float(lo.compile()(x).sum()))"),
    "J2": ("pure_callback, lower(('gpu',))",
           "jax.jit(with_pure_callback).trace(x).lower(lowering_platforms=('gpu',))\n"
           "report('lowered', True)"),
    "K1": ("jit(f, backend='gpu') with pure_callback, called",
           "report('result_sum', float(jax.jit(with_pure_callback, backend='gpu')(x).sum()))"),
    "K2": ("jit(f, backend='cuda') with pure_callback, called",
           "report('result_sum', float(jax.jit(with_pure_callback, backend='cuda')(x).sum()))"),
    "L": ("lax.platform_dependent(cuda=+1, default=-1), jit(f)(x)",
          "f = lambda x: lax.platform_dependent(x, cuda=lambda x: x + 1, default=lambda x: x - 1)\n"
          "v = float(jax.jit(f)(x)[0, 0])\n"
          "report('branch', {2.0: 'cuda', 0.0: 'default'}.get(v, repr(v)))"),
    "M": ("jax.export(jit(f), platforms=['cpu'])(x) with pure_callback",
          "exp = jax.export.export(jax.jit(with_pure_callback), platforms=['cpu'])(x)\n"
          "report('exported_platforms', repr(exp.platforms))"),
    "N": ("Mosaic GPU params pallas_call, jit(f)(x)",
          "P|from jax.experimental.pallas import mosaic_gpu as plgpu\n"
          "run(kernel_call(_params(plgpu, 'CompilerParams', 'GPUCompilerParams')))"),
    "O": ("import mosaic registration, TPU params, jit(f)(x)",
          "P|import jax._src.pallas.mosaic.pallas_call_registration\n"
          "run(kernel_call(tpu_params()))"),
    "P": ("Triton params, lower(('tpu',))",
          "P|jax.jit(kernel_call(triton_params())).trace(x).lower(lowering_platforms=('tpu',))\n"
          "report('lowered', True)"),
}


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(SNIPPET_ENV)
    return env


def run_snippet(name: str) -> dict:
    desc, body = SNIPPETS[name]
    source = COMMON + (PALLAS + body[2:] if body.startswith("P|") else body)
    rec = {"name": name, "description": desc, "code": body.removeprefix("P|")}
    started = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, "-c", RUNNER], input=source, env=child_env(),
                              capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        rec.update(raised=True, type="Timeout", message=f"no result within {TIMEOUT_S} s")
        return rec
    rec["elapsed_s"] = round(time.monotonic() - started, 1)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(MARK)]
    if not lines:  # the interpreter died (abort, segfault) before reporting
        tail = proc.stderr.strip()[-600:]
        rec.update(raised=True, type="Crash", message=f"exit {proc.returncode}: {tail}")
        return rec
    rec.update(json.loads(lines[-1][len(MARK):]))
    return rec


def outcome(rec: dict) -> str:
    if not rec.get("raised"):
        return "ok"
    where = f" @ {rec['where']}" if rec.get("where") else ""
    return f"{rec['type']}: {rec['message']!r}{where}".replace("\n", "\\n")


def run_snippets(out_dir: Path, jobs: int, only: list[str]) -> None:
    names = only or list(SNIPPETS)
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        recs = list(pool.map(run_snippet, names))
    first = next((r for r in recs if r.get("jax")), {})
    host = {"python": sys.version.split()[0], "jax": first.get("jax"), "backend": first.get("backend")}
    (out_dir / "gpu_host_facts.json").write_text(
        json.dumps({"host": host, "snippets": recs}, indent=1) + "\n", encoding="utf-8")
    print(f"== snippets: jax {host['jax']}, default backend {host['backend']}, python {host['python']}")
    for r in recs:  # one line per snippet, then its reported values and warnings
        line = f"{r['name']:<3} {r['description'][:56]:<56} | {outcome(r)}"
        print(line if len(line) <= 300 else line[:297] + "...")
        extra = [f"{k}={v}" for k, v in (r.get("values") or {}).items()]
        extra += [f"warning {w}" for w in r.get("warnings") or []]
        for text in extra:
            print(f"{'':<60} |   {text[:200]}")


def run_oracle(out_dir: Path, jobs: int, deadline: float, paths: list[str]) -> int:
    sys.path.insert(0, str(HERE))
    import run as oracle  # tests/oracle/run.py

    version = importlib.metadata.version("jax")
    oracle.JAX_VERSION = version  # its version check then accepts this host's jax
    os.environ.update(ENV)  # run_one copies os.environ into every fixture's interpreter
    files = oracle.collect(paths)
    print(f"== oracle: {len(files)} fixtures, {jobs} at a time, jax {version}", flush=True)

    def one(path: Path) -> tuple[str, str]:
        if time.monotonic() > deadline:
            return "NOT RUN", "time budget spent before it started"
        return oracle.run_one(sys.executable, oracle.parse(path))

    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0, "NOT RUN": 0}
    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for path, (verdict, detail) in zip(files, pool.map(one, files)):
            counts[verdict] += 1
            try:
                shown = str(path.resolve().relative_to(ROOT))
            except ValueError:
                shown = str(path)
            rows.append({"path": shown, "verdict": verdict, "detail": detail})
    (out_dir / "oracle_on_this_host.json").write_text(
        json.dumps({"jax": version, "counts": counts, "fixtures": rows}, indent=1) + "\n",
        encoding="utf-8")
    for row in rows:
        if row["verdict"] == "FAIL":
            print(f"FAIL {row['path']}: {row['detail']}")
    print(f"oracle on this host: {counts['PASS']} passed, {counts['FAIL']} failed, "
          f"{counts['SKIP']} skipped, {counts['NOT RUN']} not run")
    return 0


def main() -> int:
    start = time.monotonic()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", help="fixtures for part 2 (default: all, as run.py)")
    ap.add_argument("--out", required=True, type=Path, help="folder for the JSON results")
    ap.add_argument("--jobs", "-j", type=int, default=8, help="interpreters at once (default 8)")
    ap.add_argument("--snippets-only", action="store_true", help="skip part 2 (the fixture oracle)")
    ap.add_argument("--only", default="", help="comma-separated snippet names (default: all)")
    ap.add_argument("--budget-s", type=float, default=360,
                    help="start no fixture later than this many seconds after start (default 360)")
    opts = ap.parse_args()
    only = [n for n in opts.only.split(",") if n]
    unknown = [n for n in only if n not in SNIPPETS]
    if unknown:
        ap.error(f"unknown snippets: {', '.join(unknown)}")
    opts.out.mkdir(parents=True, exist_ok=True)
    jobs = max(1, opts.jobs)
    run_snippets(opts.out, jobs, only)
    if not opts.snippets_only:
        run_oracle(opts.out, jobs, start + opts.budget_s, opts.paths)
    print(f"== done in {time.monotonic() - start:.0f} s; results in {opts.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

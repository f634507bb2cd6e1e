#!/usr/bin/env python3
"""Typing latency as a client sees it over stdio: jax-lsp server and ruff server,
side by side in one run, on the same generated 10,000-line JAX module.

    python3 benches/typing_vs_ruff.py --jax-lsp target/release/jax-lsp --ruff .venv-jax/bin/ruff [--keys 200] [--opens 7]

For each server:
- open: didOpen of the module (a fresh URI each time) -> textDocument/diagnostic answered;
- typing into a syntax error: an expression is typed one character at a time at
  the end of a `return` in the middle of the module (`return y1+1+1...`, so the
  text is a syntax error between keystrokes); each keystroke is a didChange
  (an incremental insert) then textDocument/diagnostic, timed to the answer;
- typing that keeps the file valid: letters appended to a name, same protocol.
Each of the module's functions stands alone (no helper named by all of them),
so edits re-analyse one unit of statements; `--also BIN` measures another
jax-lsp build in the same run.
Reports median and p99 in milliseconds. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

HEADER = '''import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P

mesh = AbstractMesh((8,), ("data",))

'''


def module(lines: int) -> tuple[str, int]:
    """The module text and the 0-based line of the `return` to type at."""
    text = HEADER
    i = 0
    while text.count("\n") < lines:
        platforms = '("tpu",)' if i % 100 == 0 else '("cpu",)'
        text += (
            f"\ndef layer_{i}(x):\n"
            f"    y = jnp.tanh(x) * {i}\n"
            f"    jax.debug.print(\"layer {i}: {{}}\", y.sum())\n"
            f"    return y\n"
            f"\n\ndef lower_{i}(spec):\n"
            # A finding in one lowering of a hundred, as in real code.
            f"    return jax.jit(layer_{i}).trace(spec).lower(lowering_platforms={platforms})\n"
        )
        i += 1
    lines_list = text.split("\n")
    middle = len(lines_list) // 2
    target = next(n for n in range(middle, len(lines_list)) if lines_list[n] == "    return y")
    return text, target


class Client:
    def __init__(self, argv: list[str], cwd: str):
        self.proc = subprocess.Popen(
            argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.next_id = 0

    def send(self, msg: dict) -> None:
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read(self) -> dict:
        length = 0
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("server closed its output")
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def request(self, method: str, params) -> dict:
        self.next_id += 1
        rid = self.next_id
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            msg = self.read()
            if msg.get("id") == rid and "method" not in msg:
                return msg
            if "id" in msg and "method" in msg:  # a request from the server
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": None})

    def notify(self, method: str, params) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def measure(name: str, argv: list[str], text: str, target: int, keys: int, opens: int, root: Path):
    client = Client(argv, str(root))
    client.request(
        "initialize",
        {
            "processId": None,
            "rootUri": root.as_uri(),
            "capabilities": {
                "textDocument": {
                    "diagnostic": {"dynamicRegistration": False},
                    "synchronization": {"didSave": True},
                },
                "general": {"positionEncodings": ["utf-16"]},
            },
        },
    )
    client.notify("initialized", {})
    open_ms = []
    for n in range(opens):
        uri = (root / f"open_{n}.py").as_uri()
        started = time.perf_counter()
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}},
        )
        client.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        open_ms.append((time.perf_counter() - started) * 1000)
        client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    uri = (root / "typing.py").as_uri()
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}},
    )
    client.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
    results = {"open": open_ms}
    version = 1
    for label, chars in (("syntax error", "1+" * (keys // 2)), ("valid", "z" * keys)):
        col = len("    return y")
        samples = []
        for ch in chars[:keys]:
            version += 1
            started = time.perf_counter()
            client.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [
                        {
                            "range": {
                                "start": {"line": target, "character": col},
                                "end": {"line": target, "character": col},
                            },
                            "text": ch,
                        }
                    ],
                },
            )
            client.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
            samples.append((time.perf_counter() - started) * 1000)
            col += 1
        # Undo the typing: back to the original line for the next phase.
        version += 1
        client.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [
                    {
                        "range": {
                            "start": {"line": target, "character": len("    return y")},
                            "end": {"line": target, "character": col},
                        },
                        "text": "",
                    }
                ],
            },
        )
        client.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        results[label] = samples
    client.close()
    return results


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jax-lsp", required=True)
    ap.add_argument("--ruff", required=True)
    ap.add_argument("--also", help="another jax-lsp binary to measure in the same run (an older build)")
    ap.add_argument("--lines", type=int, default=10_000)
    ap.add_argument("--keys", type=int, default=200)
    ap.add_argument("--opens", type=int, default=7)
    opts = ap.parse_args()
    text, target = module(opts.lines)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "pyproject.toml").write_text("[tool.jax-lsp]\n")
        servers = {
            "jax-lsp": [str(Path(opts.jax_lsp).resolve()), "server"],
            "ruff": [str(Path(opts.ruff).resolve()), "server"],
        }
        if opts.also:
            servers["other"] = [str(Path(opts.also).resolve()), "server"]
        print(f"{text.count(chr(10))}-line module; typing at line {target + 1}; {opts.keys} keys; {opts.opens} opens")
        print(f"{'server':8} {'phase':13} {'median ms':>10} {'p99 ms':>8}")
        for name, argv in servers.items():
            results = measure(name, argv, text, target, opts.keys, opts.opens, root)
            for phase in ("syntax error", "valid", "open"):
                samples = results[phase]
                print(f"{name:8} {phase:13} {statistics.median(samples):10.2f} {percentile(samples, 0.99):8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

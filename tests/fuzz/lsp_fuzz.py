#!/usr/bin/env python3
"""Black-box fuzzer for `jax-lsp server` over stdio (Python 3.11+, standard library only).

    python3 tests/fuzz/lsp_fuzz.py --jax-lsp BIN --seconds 60 --seed 1 --encoding utf-16 [--trace FILE]
    python3 tests/fuzz/lsp_fuzz.py --jax-lsp BIN --replay FILE

One server process gets a random, seed-reproducible mix of document edits
(valid incremental edits, typing, pastes, EOL churn, astral/CJK/combining text,
and undefined edits followed by a full-text resync), malformed JSON-RPC, and
hover/codeAction/diagnostic requests. Checked: the process never dies and exits
with 0 after shutdown/exit; every request with an id gets exactly one response
within 10 s; at checkpoints (every CHECK_EVERY steps and at the end) the pulled
diagnostics of each document equal those of a fresh server opened on the
fuzzer's copy of the texts. The generated messages depend only on the seed (not
on the server's answers), so a run is a prefix of any longer run with the seed.
"""

from __future__ import annotations

import argparse
import bisect
import collections
import itertools
import json
import os
import random
import re
import select
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ROOT = "file:///jax-lsp-fuzz/ws"  # never on disk: nothing is read from it
TIMEOUT = 10.0
CHECK_EVERY = 100
MAX_IN_FLIGHT = 32
MAX_TEXT = 30_000
EOL = re.compile(r"\r\n|\r|\n")
LONE_CR = re.compile(r"\r(?!\n)")
WIDE = {"utf-16": re.compile("[\U00010000-\U0010ffff]"), "utf-8": re.compile("[^\x00-\x7f]")}
NOTIFICATION_METHODS = {"textDocument/didSave", "$/setTrace", "workspace/didChangeWatchedFiles"}
UNICODE = ["😀", "🎉", "𝔘𝔫𝔦", "👩\u200d💻", "日本語", "한국어", "中文注释", "e\u0301", "a\u0308\u0323", "Ω≈ç", "\u00a0"]
HEADER = ('import jax\nimport jax.numpy as jnp\n'
          'from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P\n'
          'mesh = AbstractMesh((8,), ("data",))\n'
          'f = jax.jit(lambda x: x * 2, in_shardings=NamedSharding(mesh, P("data")))\n')
FINDING = 's{i} = "# {u}"; lowered{i} = f.trace(jax.ShapeDtypeStruct((64, 32), jnp.float32)).lower()\n'
KERNELS = ('import jax\nimport jax.experimental.pallas as pl\nfrom jax.experimental.pallas import tpu as pltpu\n\n\n'
           'def add_kernel(x_ref, o_ref):\n    o_ref[...] = x_ref[...] + 1\n\n\n'
           'def add(x):\n    return pl.pallas_call(\n        add_kernel,\n'
           '        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),\n'
           '        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),\n    )(x)\n')
MAIN = ('import jax\nimport jax.numpy as jnp\nfrom kernels import add\n\n'
        'x = jax.ShapeDtypeStruct((8, 128), jnp.float32)\n'
        'lowered = jax.jit(add).trace(x).lower(lowering_platforms=("cuda",))\n')
TYPED = [
    'lowered = f.trace(jax.ShapeDtypeStruct((8, 8), jnp.float32)).lower(lowering_platforms=("tpu",))\n',
    "def kernel(x_ref, o_ref):\n    o_ref[...] = x_ref[...] * 2\n",
    's = "日本語 😀 e\u0301"  # コメント 🎉\n', "名前 = jnp.ones((2,))  # 識別子\n",
    "@jax.jit\ndef g(x):\n    return jnp.tanh(x) + 1\n", 'print("👩\u200d💻", "a\u0308\u0323")\n',
    "y = jax.jit(add).trace(x).lower()\n", "(((", "]]):", '"""unterminated\n', "    return y1+1+1+1\n",
]


# ---------------------------------------------------------------------------
# The text model, in LSP semantics: lines end at \r\n, \n or a lone \r.

def width(s: str, enc: str) -> int:
    """Length of `s` in the position encoding's code units."""
    return len(s.encode("utf-16-le")) // 2 if enc == "utf-16" else len(s.encode("utf-8"))


def line_starts(text: str) -> list[int]:
    """Code-point offsets at which the lines of `text` start."""
    return [0] + [m.end() for m in EOL.finditer(text)]


def line_span(text: str, starts: list[int], line: int) -> tuple[int, int]:
    """Offsets of the start and the end (before its line end) of `line`."""
    end = starts[line + 1] if line + 1 < len(starts) else len(text)
    while end > starts[line] and text[end - 1] in "\r\n":
        end -= 1
    return starts[line], end


def position(text: str, offset: int, enc: str) -> dict:
    """The LSP position of a code-point offset (never one inside a \\r\\n pair)."""
    assert not (0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n")
    starts = line_starts(text)
    line = bisect.bisect_right(starts, offset) - 1
    return {"line": line, "character": width(text[starts[line]:offset], enc)}


def valid_offset(text: str, offset: int) -> bool:
    """Whether `offset` has an LSP position (it is not between \\r and \\n)."""
    return not (0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n")


def range_ok(text: str, rng: dict, enc: str) -> bool:
    """Whether an LSP range lies inside `text`, on character boundaries, start <= end."""
    starts, ends = line_starts(text), []
    for pos in (rng["start"], rng["end"]):
        line, col = pos["line"], pos["character"]
        if not 0 <= line < len(starts):
            return False
        s, e = line_span(text, starts, line)
        cols = list(itertools.accumulate((width(ch, enc) for ch in text[s:e]), initial=0))
        if col not in cols:
            return False
        ends.append((line, col))
    return ends[0] <= ends[1]


# ---------------------------------------------------------------------------
# One server process.

def initialize_params(enc: str) -> dict:
    """Initialize params of a pull-diagnostics client offering only `enc`."""
    return {"processId": None, "rootUri": ROOT, "clientInfo": {"name": "lsp_fuzz"},
            "workspaceFolders": [{"uri": ROOT, "name": "ws"}],
            "capabilities": {
                "general": {"positionEncodings": [enc]},
                "window": {"workDoneProgress": True},
                "workspace": {"configuration": True, "workspaceFolders": True,
                              "diagnostics": {"refreshSupport": True}, "diagnostic": {"refreshSupport": True},
                              "didChangeWatchedFiles": {"dynamicRegistration": True},
                              "workspaceEdit": {"documentChanges": True}},
                "textDocument": {
                    "diagnostic": {"dynamicRegistration": False, "relatedDocumentSupport": False},
                    "synchronization": {"didSave": True},
                    "hover": {"contentFormat": ["markdown", "plaintext"]},
                    "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix"]}}},
                }}}


class Server:
    """A `jax-lsp server` process: frames out, a reader thread for frames in.

    Requests from the server are answered at once by the reader thread; the
    responses to our requests are queued in `inbox` with their arrival time."""

    def __init__(self, binary: str):
        self.proc = subprocess.Popen([binary, "server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.fd = self.proc.stdin.fileno()
        os.set_blocking(self.fd, False)
        self.lock = threading.Lock()
        self.cond = threading.Condition()
        self.inbox: list[tuple[float, dict]] = []
        self.bad_output: list[str] = []
        self.stderr = collections.deque(maxlen=40)
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr), daemon=True).start()

    def write(self, body: bytes) -> bool:
        """Sends one frame; False if the input is closed or not read for TIMEOUT seconds."""
        data = b"Content-Length: %d\r\n\r\n" % len(body) + body
        with self.lock:
            while data:
                try:
                    if not select.select([], [self.fd], [], TIMEOUT)[1]:
                        return False
                    data = data[os.write(self.fd, data):]
                except BlockingIOError:
                    continue
                except (OSError, ValueError):
                    return False
            return True

    def _read(self) -> None:
        """Reads frames until the output closes; answers server requests."""
        out = self.proc.stdout
        while True:
            length = None
            while (line := out.readline()) not in (b"", b"\r\n", b"\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if line == b"":
                break
            if length is None:
                continue
            try:
                msg = json.loads(out.read(length))
            except ValueError as e:
                self.bad_output.append(f"not JSON: {e}")
                continue
            if isinstance(msg, dict) and "method" in msg and "id" in msg:
                reply = json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": client_answer(msg)}).encode()
                threading.Thread(target=self.write, args=(reply,), daemon=True).start()
            elif isinstance(msg, dict) and "id" in msg:
                with self.cond:
                    self.inbox.append((time.monotonic(), msg))
                    self.cond.notify_all()
        with self.cond:
            self.cond.notify_all()

    def call(self, method: str, params, msg_id) -> dict | None:
        """A synchronous request (for the fresh server); None after TIMEOUT."""
        msg = {"jsonrpc": "2.0", "id": msg_id, "method": method}
        if params is not None:
            msg["params"] = params
        self.write(json.dumps(msg).encode())
        deadline = time.monotonic() + TIMEOUT
        with self.cond:
            while time.monotonic() < deadline:
                for n, (_, got) in enumerate(self.inbox):
                    if got.get("id") == msg_id:
                        return self.inbox.pop(n)[1]
                self.cond.wait(0.05)
        return None

    def notify(self, method: str, params) -> None:
        """Sends a notification."""
        self.write(json.dumps({"jsonrpc": "2.0", "method": method, "params": params}).encode())

    def stop(self) -> int | None:
        """Waits for the process to exit (killing it after TIMEOUT); its exit code or None."""
        try:
            return self.proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None


def client_answer(msg: dict):
    """What the fuzzer answers to a server-to-client request."""
    if msg["method"] == "workspace/configuration":
        return [None] * len((msg.get("params") or {}).get("items") or [])
    if msg["method"] == "workspace/applyEdit":
        return {"applied": False}
    return None


def normalize(items: list) -> list:
    """Diagnostics as sorted JSON texts of [range, code, message, severity]."""
    return sorted(json.dumps([d.get("range"), d.get("code"), d.get("message"), d.get("severity")],
                             sort_keys=True, ensure_ascii=False) for d in items)


# ---------------------------------------------------------------------------
# The driver: executes trace entries (fuzzing and replay alike) and checks.

class Driver:
    """Sends trace entries to the fuzzed server and records what went wrong.

    An entry is {"step", "send": msg, "expect": "result" | "answer" | None},
    {"step", "raw": hex}, or {"step", "check": {uri: {...}}}; `expect` says
    whether a result (well-formed request), any response (malformed one) or
    nothing is due."""

    def __init__(self, binary: str, enc: str, trace):
        self.binary, self.enc, self.trace = binary, enc, trace
        self.server = Server(binary)
        self.pending: dict[str, dict] = {}
        self.done: dict[str, dict] = {}
        self.failures: dict[str, list] = collections.defaultdict(list)
        self.messages = self.requests = 0
        self.dead = False
        self.step = 0
        self.equal: tuple[int, int] | None = (0, 0)  # at the last check; None once the server is gone
        self.reported_epochs: set = set()

    def fail(self, kind: str, step: int, detail: str) -> None:
        """Records a failure of `kind` at `step`."""
        self.failures[kind].append((step, detail))

    def execute(self, entry: dict) -> None:
        """Appends one entry to the trace and executes it."""
        if self.trace:
            self.trace.write(json.dumps(entry, ensure_ascii=False) + "\n")
        if not self.dead:
            self.step = entry["step"]
            if "check" in entry:
                self.check(entry["check"])
            else:
                self.send(entry)

    def send(self, entry: dict) -> None:
        """Sends a `send` or `raw` entry; waits for the answer if it is `sync`."""
        msg = entry.get("send")
        method = msg.get("method") if isinstance(msg, dict) else None
        if method == "shutdown":  # everything in flight gets its TIMEOUT first
            self.wait(lambda: not self.pending)
        key = json.dumps(msg.get("id")) if isinstance(msg, dict) else None
        if key and entry.get("expect"):
            self.requests += 1
            notes = ["a $/ request"] if method and method.startswith("$/") else []
            notes += ["a notification method, sent with an id"] if method in NOTIFICATION_METHODS else []
            label = (method or "(no method)") + (f" ({'; '.join(notes)})" if notes else "")
            self.pending[key] = {"label": label, "expect": entry["expect"], "step": self.step,
                                 "sent": time.monotonic(), "msg": msg}
        if method == "$/cancelRequest":
            cancelled = self.pending.get(json.dumps((msg.get("params") or {}).get("id")))
            if cancelled:
                cancelled["expect"] = "answer"
        self.messages += 1
        ok = self.server.write(bytes.fromhex(entry["raw"]) if "raw" in entry
                               else json.dumps(msg, ensure_ascii=False).encode())
        if method == "exit":
            self.dead = True
            code = self.server.stop()
            if code != 0:
                self.fail("exit code", self.step, "after shutdown and exit the server " + (
                    f"exited with {code}" if code is not None else "did not exit (killed)"))
        elif not ok or self.server.proc.poll() is not None:
            self.crashed()
        elif entry.get("sync"):
            self.wait(lambda: key not in self.pending)

    def crashed(self) -> None:
        """Records the server's death (or that it stopped reading its input; it is killed then)."""
        self.dead = True
        self.equal = None
        how = "died" if self.server.proc.poll() is not None else "stopped reading its input (killed)"
        if how != "died":
            self.server.proc.kill()
        code = self.server.stop()
        tail = b"".join(list(self.server.stderr)[-8:]).decode(errors="replace")
        self.fail("crash", self.step, f"server {how} (exit code {code}); stderr tail:\n{tail}")

    def collect(self) -> None:
        """Matches queued responses to pending requests; expires the overdue."""
        with self.server.cond:
            inbox, self.server.inbox = self.server.inbox, []
        for arrived, msg in inbox:
            key = json.dumps(msg.get("id"))
            req = self.pending.pop(key, None)
            if req is None:
                if key in self.done and not self.done[key].get("late"):
                    self.fail("duplicate or unexpected response", self.done[key]["step"], json.dumps(msg)[:300])
                elif key not in self.done and msg.get("id") is not None:
                    self.fail("duplicate or unexpected response", -1, json.dumps(msg)[:300])
                continue
            self.done[key] = req
            if key.startswith('"check-'):  # only the checks read results
                req["response"] = msg
            if arrived - req["sent"] > TIMEOUT:
                self.unanswered(req)
            elif req["label"] == "initialize" and req["expect"] == "result":
                self.negotiated(req, msg)
            elif "error" in msg and req["expect"] == "result" and msg["error"].get("code") not in (-32801, -32802):
                kind = "shutdown answered with an error" if req["label"] == "shutdown" \
                    else "error answer to a well-formed request"
                self.fail(kind, req["step"], f"{json.dumps(req['msg'], ensure_ascii=False)[:200]} -> "
                                             f"{json.dumps(msg['error'], ensure_ascii=False)[:200]}")
        now = time.monotonic()
        for key, req in list(self.pending.items()):
            if now - req["sent"] > TIMEOUT:
                del self.pending[key]
                req["late"] = True
                self.done[key] = req
                self.unanswered(req)
        for line in self.server.bad_output[len(self.failures["malformed output"]):]:
            self.fail("malformed output", -1, line)

    def negotiated(self, req: dict, msg: dict) -> None:
        """Checks the initialize result: the offered encoding and pull diagnostics."""
        caps = (msg.get("result") or {}).get("capabilities") or {}
        if caps.get("positionEncoding") != self.enc or "diagnosticProvider" not in caps:
            self.fail("negotiation", req["step"], f"positionEncoding {caps.get('positionEncoding')!r} (offered "
                                                  f"{self.enc}), diagnosticProvider {caps.get('diagnosticProvider')}")

    def unanswered(self, req: dict) -> None:
        """Records a request without a response within TIMEOUT."""
        self.fail("unanswered request", req["step"],
                  f"{req['label']}: {json.dumps(req['msg'], ensure_ascii=False)[:200]}")

    def wait(self, until, limit: float = TIMEOUT + 1) -> None:
        """Collects responses until `until()` holds (or `limit` seconds pass)."""
        deadline = time.monotonic() + limit
        while True:
            self.collect()
            if until() or time.monotonic() > deadline:
                return
            if self.server.proc.poll() is not None and not self.dead:
                return self.crashed()
            with self.server.cond:
                if not self.server.inbox:
                    self.server.cond.wait(0.02)

    def throttle(self) -> None:
        """Keeps at most MAX_IN_FLIGHT well-formed requests unanswered."""
        self.wait(lambda: sum(r["expect"] == "result" for r in self.pending.values()) <= MAX_IN_FLIGHT)

    def pull(self, n: int, uri: str) -> list | None:
        """Pulls the fuzzed server's diagnostics for `uri` (None: no answer)."""
        msg_id = f"check-{self.step}-{n}"
        self.send({"send": {"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/diagnostic",
                            "params": {"textDocument": {"uri": uri}}}, "expect": "result", "sync": True})
        result = self.done.get(json.dumps(msg_id), {}).get("response", {}).get("result")
        return result.get("items") if isinstance(result, dict) else None

    def check(self, docs: dict) -> None:
        """Compares the fuzzed server's diagnostics with a fresh server's on the same texts."""
        step = self.step
        fuzzed = {uri: self.pull(n, uri) for n, uri in enumerate(docs)}
        fresh = fresh_diagnostics(self.binary, self.enc, {uri: d["text"] for uri, d in docs.items()})
        equal = 0
        for uri, doc in docs.items():
            name = uri.rsplit("/", 1)[-1]
            if fresh.get(uri) is None or fuzzed[uri] is None:
                which = "fuzzed" if fuzzed[uri] is None else "fresh"
                self.fail("no diagnostics", step, f"{name}: no diagnostic report from the {which} server")
                continue
            for d in fresh[uri]:
                if not range_ok(doc["text"], d["range"], self.enc):
                    lone = len(LONE_CR.findall(doc["text"]))
                    cr = f", {lone} of them ending in a lone \\r" if lone else ""
                    self.fail("diagnostic range outside the text", step, f"{name}: {json.dumps(d['range'])} "
                              f"({d.get('code')}); the text has {len(line_starts(doc['text']))} lines in LSP "
                              f"terms{cr}")
            a, b = normalize(fuzzed[uri]), normalize(fresh[uri])
            if a == b:
                equal += 1
            elif (uri, doc["epoch"]) not in self.reported_epochs:
                self.reported_epochs.add((uri, doc["epoch"]))
                why = (" after EOL churn: edits were made while the text had a lone \\r (not treated as a line"
                       " end?)" if doc["lone_cr"] else "")
                first = next((x, y) for x, y in itertools.zip_longest(a, b, fillvalue="(none)") if x != y)
                self.fail("diverged from a fresh server", step,
                          f"{name} (in sync since step {doc['since']}){why}: fuzzed {first[0]} vs fresh {first[1]}")
        self.equal = (equal, len(docs))


def fresh_diagnostics(binary: str, enc: str, texts: dict) -> dict:
    """The diagnostics of a fresh server with `texts` open, by URI (None: none came)."""
    server = Server(binary)
    result: dict = {}
    if server.call("initialize", initialize_params(enc), 0) is not None:
        server.notify("initialized", {})
        for uri, text in texts.items():
            server.notify("textDocument/didOpen",
                          {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})
        for n, uri in enumerate(texts, 1):
            got = server.call("textDocument/diagnostic", {"textDocument": {"uri": uri}}, n)
            items = ((got or {}).get("result") or {}).get("items")
            result[uri] = items if isinstance(items, list) else None
        server.call("shutdown", None, len(texts) + 1)
        server.notify("exit", None)
    server.proc.stdin.close()
    server.stop()
    return result


# ---------------------------------------------------------------------------
# The fuzzer: generates entries from the seed and the documents' model.

class Doc:
    """The fuzzer's copy of one open document; `exact` while the server's text is known."""

    def __init__(self, uri: str, text: str, step: int):
        self.uri, self.version, self.epoch = uri, 1, 0
        self.reset(text, step)

    def reset(self, text: str, step: int) -> None:
        """A full replacement: the model is exact again."""
        self.text, self.exact, self.lone_cr, self.since = text, True, False, step
        self.epoch += 1


class Fuzzer:
    """Random actions on a few documents, each one step of the trace."""

    def __init__(self, driver: Driver, seed: int, enc: str):
        self.driver, self.rng, self.enc = driver, random.Random(seed), enc
        files = sorted(REPO.glob("tests/fixtures/**/*.py")) + sorted(REPO.glob("examples/*.py"))
        self.corpus = [p.read_text(encoding="utf-8") for p in files]
        self.findings = [t for p, t in zip(files, self.corpus) if p.name.startswith("pos_")] or self.corpus
        self.step = self.next_id = 0
        self.docs: list[Doc] = []
        self.actions = {"type": 16, "delete": 8, "paste": 7, "replace": 2, "eol": 12, "unicode": 7, "multi": 6,
                        "undefined": 7, "request": 16, "malformed": 8, "cancel": 4, "burst": 1, "reopen": 1}

    # -- messages ----------------------------------------------------------
    def send(self, msg, expect=None, sync=False) -> None:
        """Executes a `send` entry (`sync`: wait for its answer)."""
        self.driver.execute({"step": self.step, "send": msg, "expect": expect, **({"sync": True} if sync else {})})

    def new_id(self):
        """A fresh request id, an integer or (sometimes) a string."""
        self.next_id += 1
        return f"r{self.next_id}" if self.rng.random() < 0.2 else self.next_id

    def request(self, method: str, params, expect="result"):
        """Sends a request; returns its id."""
        msg_id = self.new_id()
        self.send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}, expect)
        return msg_id

    def notify(self, method: str, params) -> None:
        """Sends a notification."""
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def did_change(self, doc: Doc, changes: list, version=None) -> None:
        """Sends one didChange; a new version unless `version` is given."""
        if version is None:
            doc.version += 1
            version = doc.version
        self.notify("textDocument/didChange", {"textDocument": {"uri": doc.uri, "version": version},
                                               "contentChanges": changes})

    # -- the model -----------------------------------------------------------
    def offset(self, doc: Doc) -> int:
        """A random valid offset in `doc`, often a line start or end."""
        text = doc.text
        if self.rng.random() < 0.3:
            starts = line_starts(text)
            off = self.rng.choice(line_span(text, starts, self.rng.randrange(len(starts))))
        else:
            off = self.rng.randint(0, len(text))
        return off if valid_offset(text, off) else off - 1

    def edit(self, doc: Doc, start: int, end: int, new: str) -> dict:
        """A valid ranged change of `doc` (offsets), applied to the model."""
        text = doc.text
        change = {"range": {"start": position(text, start, self.enc), "end": position(text, end, self.enc)},
                  "text": new}
        doc.lone_cr |= bool(LONE_CR.search(text))
        doc.text = text[:start] + new + text[end:]
        return change

    def random_change(self, doc: Doc) -> dict:
        """One random valid change: an insertion, a deletion or a replacement."""
        a = self.offset(doc)
        b = min(len(doc.text), a + self.rng.choice([0, 0, 1, 3, 40]))
        b = b if valid_offset(doc.text, b) else b + 1
        new = self.rng.choice(["", "x", "(", "\n", "    ", self.rng.choice(UNICODE), self.rng.choice(TYPED)])
        return self.edit(doc, a, b, new)

    def text(self) -> str:
        """A document text: a fixture, or a generated module with findings, unicode and mixed EOLs."""
        if self.rng.random() < 0.5:
            return self.rng.choice(self.corpus)
        parts = [HEADER]
        for i in range(self.rng.randint(2, 14)):
            r = self.rng.random()
            parts.append(FINDING.format(i=i, u=self.rng.choice(UNICODE)) if r < 0.45 else
                         self.rng.choice(self.findings) if r < 0.7 else self.rng.choice(TYPED))
        eols = self.rng.choice([["\n"], ["\r\n"], ["\r"], ["\n", "\r\n", "\r"]])
        return re.sub("\n", lambda _: self.rng.choice(eols), "".join(parts))

    def replace(self, doc: Doc, text: str) -> None:
        """A full-text replacement (didChange without a range)."""
        self.did_change(doc, [{"text": text}])
        doc.reset(text, self.step)

    # -- actions ---------------------------------------------------------------
    def act_type(self, doc: Doc) -> None:
        """Types a snippet key by key (with some backspaces), pulling now and then."""
        cursor, typed = self.offset(doc), []
        for key in re.findall(r"\r\n|.", self.rng.choice(TYPED), re.S):
            if typed and self.rng.random() < 0.1 and valid_offset(doc.text, cursor - len(typed[-1])):
                start = cursor - len(typed.pop())
                self.did_change(doc, [self.edit(doc, start, cursor, "")])
                cursor = start
            key = "\r\n" if key == "\n" and self.rng.random() < 0.2 else key
            self.did_change(doc, [self.edit(doc, cursor, cursor, key)])
            cursor += len(key)
            typed.append(key)
            if self.rng.random() < 0.15:
                self.request("textDocument/diagnostic", {"textDocument": {"uri": doc.uri}})

    def act_delete(self, doc: Doc) -> None:
        """Deletes a random range."""
        a = self.offset(doc)
        b = min(len(doc.text), a + self.rng.choice([1, 1, 2, 5, 20, 200]))
        self.did_change(doc, [self.edit(doc, a, b if valid_offset(doc.text, b) else b + 1, "")])

    def act_paste(self, doc: Doc) -> None:
        """Pastes lines of a fixture, sometimes over a selection."""
        lines = EOL.split(self.rng.choice(self.corpus))
        i = self.rng.randrange(len(lines))
        snippet = self.rng.choice(["\n", "\r\n"]).join(lines[i:i + self.rng.randint(1, 12)]) + "\n"
        a = self.offset(doc)
        b = a if self.rng.random() < 0.6 else max(a, self.offset(doc))
        self.did_change(doc, [self.edit(doc, a, b, snippet)])

    def act_replace(self, doc: Doc) -> None:
        """Replaces the whole text."""
        self.replace(doc, self.text())

    def act_eol(self, doc: Doc) -> None:
        """Inserts, deletes or changes line ends (leaving lone \\r behind too)."""
        spans = [m.span() for m in EOL.finditer(doc.text)]
        if not spans or self.rng.random() < 0.35:
            at = self.offset(doc)
            change = self.edit(doc, at, at, self.rng.choice(["\r", "\n", "\r\n"]))
        else:
            s, e = self.rng.choice(spans)
            new = "\r" if doc.text[s:e] == "\r\n" and self.rng.random() < 0.5 else \
                self.rng.choice(["", "\r", "\n", "\r\n", doc.text[s:e] * 2])
            change = self.edit(doc, s, e, new)
        self.did_change(doc, [change])

    def act_unicode(self, doc: Doc) -> None:
        """Inserts astral-plane, CJK or combining text."""
        at = self.offset(doc)
        self.did_change(doc, [self.edit(doc, at, at, self.rng.choice(UNICODE))])

    def act_multi(self, doc: Doc) -> None:
        """One didChange with several changes, each against the text left by the previous."""
        self.did_change(doc, [self.random_change(doc) for _ in range(self.rng.randint(2, 6))])

    def act_undefined(self, doc: Doc) -> None:
        """An edit whose effect LSP leaves undefined; the model is unknown afterwards."""
        text, rng, enc = doc.text, self.rng, self.enc
        starts = line_starts(text)
        line = rng.randrange(len(starts))
        s, e = line_span(text, starts, line)
        kind = rng.choice(["past line end", "past document end", "inverted", "split", "stale version"])
        pos = {"line": line, "character": width(text[s:e], enc) + rng.randint(1, 9)}
        changes = []
        if kind == "past document end":
            pos = {"line": len(starts) + rng.randint(0, 5), "character": rng.randint(0, 9)}
        elif kind == "inverted":
            a, b = sorted((self.offset(doc), self.offset(doc)))
            if a < b:
                changes.append({"range": {"start": position(text, b, enc), "end": position(text, a, enc)},
                                "text": "inv"})
        elif kind == "split":
            wide = [m.start() for m in WIDE[enc].finditer(text)]
            if not wide:
                at = self.offset(doc)
                changes.append(self.edit(doc, at, at, "😀"))
                wide = [at]
            k = rng.choice(wide)
            p = position(doc.text, k, enc)
            pos = {"line": p["line"], "character": p["character"] + rng.randint(1, width(doc.text[k], enc) - 1)}
        if not changes or kind == "split":
            end = pos if rng.random() < 0.5 else {"line": pos["line"] + rng.randint(0, 2), "character": 0}
            changes.append({"range": {"start": pos, "end": end}, "text": rng.choice(["", "z", "\n", "😀"])})
        version = doc.version - rng.randint(0, 2) if kind == "stale version" else None
        self.did_change(doc, changes, version)
        doc.exact = False

    def act_request(self, doc: Doc) -> None:
        """A hover, codeAction or diagnostic request, at valid or out-of-range positions."""
        ident = {"uri": doc.uri}
        valid = self.rng.random() < 0.7
        expect = "result" if valid and doc.exact else "answer"
        if valid:
            a, b = sorted((self.offset(doc), self.offset(doc)))
            start, end = position(doc.text, a, self.enc), position(doc.text, b, self.enc)
        else:
            start = {"line": len(line_starts(doc.text)) + self.rng.randint(-1, 9),
                     "character": self.rng.choice([0, 3, 200, 2**31 - 1])}
            end = start
        method = self.rng.choice(["textDocument/hover", "textDocument/codeAction", "textDocument/diagnostic"])
        if method == "textDocument/hover":
            self.request(method, {"textDocument": ident, "position": start}, expect)
        elif method == "textDocument/codeAction":
            self.request(method, {"textDocument": ident, "range": {"start": start, "end": end},
                                  "context": {"diagnostics": []}}, expect)
        else:
            params = {"textDocument": ident}
            if self.rng.random() < 0.2:
                params["previousResultId"] = str(self.rng.randint(0, 50))
            self.request(method, params)

    def act_malformed(self, doc: Doc) -> None:
        """A body that is bad JSON-RPC (the framing stays valid)."""
        rng, i = self.rng, self.new_id()
        hover = {"textDocument": {"uri": doc.uri}, "position": {"line": 0, "character": 0}}
        kind = rng.randrange(12)
        if kind == 0:
            raw = rng.choice([b"{not json", b'{"jsonrpc":"2.0","id":', b"\xff\xfe\x00garbage", b"", b"  "])
            self.driver.execute({"step": self.step, "raw": raw.hex()})
        elif kind == 1:
            self.send(rng.choice([[], 42, "hello", None, [{"jsonrpc": "2.0", "id": i, "method":
                                                           "textDocument/hover", "params": hover}]]))
        elif kind == 2:
            self.send({"jsonrpc": "2.0", "id": i, "params": hover}, "answer")
        elif kind == 3:
            self.send({"jsonrpc": "2.0", "id": i, "method": rng.choice(
                ["textDocument/hover", "textDocument/codeAction", "textDocument/diagnostic"]),
                       "params": rng.choice([{"textDocument": 42}, "nope", None, [1],
                                             {"textDocument": {"uri": 5}, "position": {"line": -1}}])}, "answer")
        elif kind == 4:
            self.notify("textDocument/didChange", rng.choice([{"contentChanges": "x"}, {"textDocument": {
                "uri": doc.uri, "version": "seven"}, "contentChanges": [{"text": 1}]}]))
            doc.exact = False
        elif kind == 5:
            self.send({"jsonrpc": "2.0", "id": i, "method": rng.choice(["jax/doesNotExist", "textDocument/nope"]),
                       "params": {}}, "answer")
        elif kind == 6:
            self.notify(rng.choice(["jax/unknownNotification", "$/unknownNotification"]), {"x": 1})
        elif kind == 7:
            self.send({"jsonrpc": "2.0", "id": i, "method": "$/unknown", "params": {}}, "answer")
        elif kind == 8:
            method, params = rng.choice([("textDocument/didSave", {"textDocument": {"uri": doc.uri}}),
                                         ("$/setTrace", {"value": "off"}),
                                         ("workspace/didChangeWatchedFiles", {"changes": []})])
            self.send({"jsonrpc": "2.0", "id": i, "method": method, "params": params}, "answer")
        elif kind == 9:
            self.send({"jsonrpc": "1.0", "id": i, "method": "textDocument/hover", "params": hover}, "answer")
        elif kind == 10:
            self.send({"jsonrpc": "2.0", "id": 10**9 + rng.randrange(1000), "result": None})
        else:
            self.send({"jsonrpc": "2.0", "id": i, "method": "initialize",
                       "params": initialize_params(self.enc)}, "answer")

    def act_cancel(self, doc: Doc) -> None:
        """$/cancelRequest for a request just sent (in flight) or for an unknown id."""
        if self.rng.random() < 0.7:
            target = self.request("textDocument/diagnostic", {"textDocument": {"uri": doc.uri}})
        else:
            target = self.rng.choice([10**9 + self.rng.randrange(1000), "nobody"])
        self.notify("$/cancelRequest", {"id": target})

    def act_burst(self, doc: Doc) -> None:
        """200 didChange without waiting, then a diagnostic request."""
        for _ in range(200):
            self.did_change(doc, [self.random_change(doc)])
        self.request("textDocument/diagnostic", {"textDocument": {"uri": doc.uri}})

    def act_reopen(self, doc: Doc) -> None:
        """didClose, then didOpen with a new text and version."""
        self.notify("textDocument/didClose", {"textDocument": {"uri": doc.uri}})
        text, doc.version = self.text(), self.rng.randint(0, 5)
        self.notify("textDocument/didOpen", {"textDocument": {"uri": doc.uri, "languageId": "python",
                                                              "version": doc.version, "text": text}})
        doc.reset(text, self.step)

    # -- the run ---------------------------------------------------------------
    def checkpoint(self) -> None:
        """Resyncs unknown documents (then edits them validly) and checks all against a fresh server."""
        for doc in self.docs:
            if not doc.exact:
                self.replace(doc, doc.text)
                for _ in range(self.rng.randint(1, 6)):
                    self.did_change(doc, [self.random_change(doc)])
        self.driver.execute({"step": self.step, "check": {d.uri: {
            "text": d.text, "epoch": d.epoch, "lone_cr": d.lone_cr, "since": d.since} for d in self.docs}})

    def run(self, seconds: float, steps: int | None) -> None:
        """Initialize, open, fuzz until time or steps run out, check, shut down."""
        self.send({"jsonrpc": "2.0", "id": self.new_id(), "method": "initialize",
                   "params": initialize_params(self.enc)}, "result", sync=True)
        self.notify("initialized", {})
        for name, text in [("kernels.py", KERNELS), ("main.py", MAIN), ("model.py", None), ("scratch.py", None)]:
            doc = Doc(f"{ROOT}/{name}", text or self.text(), 0)
            self.notify("textDocument/didOpen", {"textDocument": {"uri": doc.uri, "languageId": "python",
                                                                  "version": 1, "text": doc.text}})
            self.docs.append(doc)
        names, weights = list(self.actions), list(self.actions.values())
        end = time.monotonic() + seconds
        while time.monotonic() < end and (steps is None or self.step < steps) and not self.driver.dead:
            self.step += 1
            doc = self.rng.choice(self.docs)
            action = "replace" if len(doc.text) > MAX_TEXT else self.rng.choices(names, weights)[0]
            getattr(self, "act_" + action)(doc)
            if self.step % CHECK_EVERY == 0:
                self.checkpoint()
            self.driver.throttle()
        self.step += 1
        self.checkpoint()
        self.send({"jsonrpc": "2.0", "id": self.new_id(), "method": "shutdown", "params": None}, "result", sync=True)
        self.notify("exit", None)


# ---------------------------------------------------------------------------

def report(driver: Driver, title: str, seconds: float, args, trace_path: str | None) -> int:
    """Prints the summary and the failures; the exit status."""
    f = driver.failures
    print(f"fuzz: {title}, {seconds:.0f} s: {driver.messages} messages, {driver.requests} requests, "
          f"{len(f['unanswered request'])} unanswered, {len(f['crash'])} crashes, "
          + (f"{driver.equal[0]}/{driver.equal[1]} documents equal to a fresh server" if driver.equal
             else "documents not compared at the end"))
    kinds = {k: v for k, v in f.items() if v}
    for kind, items in kinds.items():
        labels = collections.Counter(d.split(":")[0] for _, d in items) if kind == "unanswered request" else {}
        print(f"FAIL {kind}: {len(items)}" + "".join(f"\n    {n} x {m}" for m, n in labels.items()))
        for step, detail in items[:2]:
            print(f"  e.g. step {step}: {detail}")
    if kinds:
        first = min((s for items in kinds.values() for s, _ in items if s >= 0), default=-1)
        print(f"reproduce: first failure at step {first}; trace saved to {trace_path}\n"
              f"  python3 {sys.argv[0]} --jax-lsp {args.jax_lsp} --replay {trace_path}")
        if not args.replay:
            print(f"  python3 {sys.argv[0]} --jax-lsp {args.jax_lsp} --seed {args.seed} --encoding {args.encoding}"
                  f" --steps {max(first, 1)}")
    return 1 if kinds else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jax-lsp", required=True, help="the jax-lsp binary")
    ap.add_argument("--seconds", type=float, help="run time (default 60, unlimited with --steps)")
    ap.add_argument("--steps", type=int, help="stop after this many steps (deterministic length)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--encoding", choices=["utf-16", "utf-8"], default="utf-16")
    ap.add_argument("--trace", help="write the trace of sent messages here (kept on failure anyway)")
    ap.add_argument("--replay", help="replay a trace written by --trace")
    args = ap.parse_args()
    started = time.monotonic()
    if args.replay:
        with open(args.replay, encoding="utf-8") as fh:
            header = json.loads(fh.readline())
            driver = Driver(args.jax_lsp, header["encoding"], None)
            for line in fh:
                driver.execute(json.loads(line))
                driver.throttle()
        if not driver.dead:  # a trace cut short: no shutdown
            driver.server.proc.kill()
        title = f"replay of {args.replay} (seed {header['seed']}, {header['encoding']})"
        return report(driver, title, time.monotonic() - started, args, args.replay)
    if not (trace_path := args.trace):
        fd, trace_path = tempfile.mkstemp(prefix=f"lsp_fuzz-{args.seed}-", suffix=".jsonl")
        os.close(fd)
    with open(trace_path, "w", encoding="utf-8") as trace:
        trace.write(json.dumps({"seed": args.seed, "encoding": args.encoding}) + "\n")
        driver = Driver(args.jax_lsp, args.encoding, trace)
        fuzzer = Fuzzer(driver, args.seed, args.encoding)
        fuzzer.run(args.seconds or (float("inf") if args.steps else 60), args.steps)
    status = report(driver, f"seed {args.seed}, {args.encoding}", time.monotonic() - started, args, trace_path)
    if status == 0 and not args.trace:
        os.unlink(trace_path)
    return status


if __name__ == "__main__":
    sys.exit(main())

"""Fork server for the variants oracle: run harness.py's ``run`` in a fork of a warm interpreter.

    PY tests/variants/forkserver.py        (PY has jax 0.12.0.1)

Imports harness.py and jax once, then reads one JSON request per stdin line,
``{"path": "/tmp/.../JP002/pos_x.py", "timeout": 120}``, forks, and in the
child does what ``python harness.py PATH`` does in a fresh process: cwd and
``sys.path[0]`` become the program's directory, ``sys.argv`` is
``[harness.py, PATH]`` (``harness.run`` makes it ``[PATH]``, as ``python PATH`` has it), then ``harness.run(PATH)`` prints its JSON line (into a
pipe to the parent).  The parent answers one JSON line per request:
``{"ok": true, "stdout": "..."}`` or ``{"ok": false, "error": "..."}``.

Only ``import jax`` happens in the parent: no backend is initialised, no
Pallas/Mosaic module is imported, so every child starts from the state of a
fresh process right after ``import jax``.  oracle.py --verify compares this
with fresh processes on every fixture (the TPU-params-on-cuda bare
AssertionError case included).
"""

import json
import os
import select
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESS_DIR = os.path.join(os.path.dirname(HERE), "oracle")
sys.path.insert(0, HARNESS_DIR)

import harness  # noqa: E402
import jax  # noqa: E402,F401  (the warm import this server exists for)

del sys.path[0]


def child(path, wfd):
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(wfd, 1)
    os.dup2(devnull, 2)
    os.close(wfd)
    os.close(devnull)
    sys.stdout = os.fdopen(1, "w", closefd=False)
    sys.stderr = os.fdopen(2, "w", closefd=False)
    d = os.path.dirname(os.path.abspath(path))
    os.chdir(d)
    sys.path[0] = d
    sys.argv = [harness.__file__, path]
    try:
        harness.run(path)
        sys.stdout.flush()
    finally:
        os._exit(0)


def serve_one(req):
    path, timeout = req["path"], float(req.get("timeout", 120))
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        try:
            child(path, wfd)
        finally:
            os._exit(1)
    os.close(wfd)
    chunks, deadline, timed_out = [], time.monotonic() + timeout, False
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True
            os.kill(pid, signal.SIGKILL)
            break
        ready, _, _ = select.select([rfd], [], [], left)
        if ready:
            data = os.read(rfd, 65536)
            if not data:
                break
            chunks.append(data)
    os.close(rfd)
    _, status = os.waitpid(pid, 0)
    if timed_out:
        return {"ok": False, "error": f"timed out after {timeout:.0f} s"}
    out = b"".join(chunks).decode("utf-8", errors="replace")
    return {"ok": True, "stdout": out, "status": status}


def main():
    sys.stdout.write(json.dumps({"ready": True, "jax": jax.__version__}) + "\n")
    sys.stdout.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        sys.stdout.write(json.dumps(serve_one(json.loads(line))) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

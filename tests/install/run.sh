#!/usr/bin/env bash
# Installs jax-lsp the way a JAX user does, and checks what the README promises:
#   1. `pip install .` (maturin builds the binary; pyproject.toml) into a fresh Python 3.12
#      venv beside jax==0.12.0.1: `jax-lsp --version`,
#      `python -m jax_lsp --version`, `jax-lsp check examples/` (exit 1, the examples'
#      findings), and an LSP handshake with `jax-lsp server` (initialize, shutdown, exit 0);
#   2. the wheel (`pip wheel .`) installed into another venv: `jax-lsp --version`;
#   3. the real pre-commit (PyPI) running both hooks of .pre-commit-hooks.yaml from this
#      checkout on a temporary git repository: `jax-lsp` fails on a positive file and passes
#      on a clean one; `jax-lsp-fix` rewrites a JAX string platform into a tuple.
#
#   tests/install/run.sh            (needs Python 3.12, Rust, PyPI; about 3 minutes)
#   WHEEL_PROFILE=dev tests/install/run.sh   (CI: a debug build, reusing target/debug)
#
# CARGO_TARGET_DIR is this checkout's target/ so the wheel builds (and pre-commit's
# own install of the hook repository) reuse compiled dependencies.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
export PIP_DISABLE_PIP_VERSION_CHECK=1
profile="${WHEEL_PROFILE:-release}"
# pip's (and so pre-commit's) PEP 517 builds take the same profile.
export MATURIN_PEP517_ARGS="--profile=$profile"
py312="$(PYENV_VERSION=3.12.1 pyenv which python3.12 2>/dev/null || command -v python3.12 || true)"
if [[ -z "$py312" ]]; then echo "FAIL no Python 3.12 found"; exit 1; fi
work="$(mktemp -d "${TMPDIR:-/tmp}/jax-lsp-install.XXXXXX")"
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
ok() { echo "PASS $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1"; failed=$((failed + 1)); }

echo "== pip install . (the README's command) into a fresh venv beside jax==0.12.0.1"
"$py312" -m venv "$work/user"
"$work/user/bin/pip" install --quiet "$root" jax==0.12.0.1
bin="$work/user/bin/jax-lsp"
version="$(grep -m1 '^version' Cargo.toml | cut -d'"' -f2)"
if [[ "$("$bin" --version)" == "jax-lsp $version" ]]; then ok "jax-lsp --version is $version (Cargo.toml's)"; else bad "jax-lsp --version: $("$bin" --version)"; fi
if [[ "$("$work/user/bin/python" -m jax_lsp --version)" == "jax-lsp $version" ]]; then ok "python -m jax_lsp --version"; else bad "python -m jax_lsp"; fi
set +e
(cd "$work" && "$bin" check "$root/examples" > "$work/examples.txt")
code=$?
set -e
if [[ $code -eq 1 ]] && grep -q "JP00" "$work/examples.txt"; then
  ok "jax-lsp check examples/ exits 1 with findings ($(grep -cE ': JP[0-9]+' "$work/examples.txt") of them)"
else
  bad "jax-lsp check examples/ exited $code"; tail -5 "$work/examples.txt"
fi
if "$work/user/bin/python" - "$bin" <<'PY'
import json, subprocess, sys
proc = subprocess.Popen([sys.argv[1], "server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
def send(msg):
    body = json.dumps(msg).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()
def answer(rid):
    while True:
        length = 0
        while (line := proc.stdout.readline().strip()):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        msg = json.loads(proc.stdout.read(length))
        if msg.get("id") == rid and "method" not in msg:
            return msg
send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}})
info = answer(1)["result"]["serverInfo"]
assert info["name"] == "jax-lsp", info
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
assert answer(2)["result"] is None
send({"jsonrpc": "2.0", "method": "exit"})
sys.exit(proc.wait(timeout=10))
PY
then ok "LSP handshake with the venv's jax-lsp server (initialize, shutdown, exit 0)"; else bad "LSP handshake"; fi

echo "== the built wheel, installed apart"
"$py312" -m venv "$work/wheel"
"$work/wheel/bin/pip" wheel --quiet --no-deps "$root" -w "$work/dist"
wheel="$(ls "$work"/dist/jax_lsp-*.whl)"
"$work/wheel/bin/pip" install --quiet "$wheel"
if [[ "$("$work/wheel/bin/jax-lsp" --version)" == "jax-lsp $version" ]]; then
  ok "pip install $(basename "$wheel") puts jax-lsp $version on the venv's PATH"
else
  bad "the wheel's jax-lsp"
fi

echo "== pre-commit with the hooks of this checkout"
"$work/user/bin/pip" install --quiet pre-commit
repo="$work/project"
mkdir -p "$repo"
cat > "$repo/export_model.py" <<'PY'
import jax
import jax.numpy as jnp


def f(x):
    return jnp.sin(x)


exported = jax.export.export(jax.jit(f), platforms="tpu")(jax.ShapeDtypeStruct((8,), jnp.float32))
PY
cat > "$repo/clean.py" <<'PY'
import jax
import jax.numpy as jnp


def f(x):
    return jnp.sin(x)


exported = jax.export.export(jax.jit(f), platforms=("tpu",))(jax.ShapeDtypeStruct((8,), jnp.float32))
PY
git -C "$repo" init --quiet
git -C "$repo" -c user.email=ci@example.com -c user.name=ci add .
git -C "$repo" -c user.email=ci@example.com -c user.name=ci commit --quiet -m "two files"
pc() { (cd "$repo" && PRE_COMMIT_HOME="$work/pre-commit-home" "$work/user/bin/pre-commit" try-repo "$root" "$@"); }
if pc jax-lsp --files export_model.py > "$work/pc1.txt" 2>&1; then
  bad "jax-lsp hook passed on a positive file"; tail -20 "$work/pc1.txt"
elif grep -q "JP005" "$work/pc1.txt"; then ok "jax-lsp hook fails on export_model.py (JP005)"
else bad "jax-lsp hook failed without JP005"; tail -20 "$work/pc1.txt"; fi
if pc jax-lsp --files clean.py > "$work/pc2.txt" 2>&1; then ok "jax-lsp hook passes on clean.py"
else bad "jax-lsp hook failed on clean.py"; tail -20 "$work/pc2.txt"; fi
pc jax-lsp-fix --files export_model.py > "$work/pc3.txt" 2>&1 || true
if grep -q 'platforms=("tpu",)' "$repo/export_model.py" && grep -q "files were modified by this hook" "$work/pc3.txt"; then
  ok "jax-lsp-fix hook rewrites platforms=\"tpu\" into (\"tpu\",) and reports the change"
else
  bad "jax-lsp-fix hook"; tail -20 "$work/pc3.txt"; cat "$repo/export_model.py"
fi

echo "${passed} passed, ${failed} failed"
[[ $failed -eq 0 ]]

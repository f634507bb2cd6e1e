#!/usr/bin/env bash
# Editor integration checks, for CI:
#   1. VS Code extension: npm ci, tsc --strict, esbuild bundle, vsce package, node --test
#      (unit tests, manifest, .vsix contents, the bundle driving a recording server and the real one);
#   2. Neovim: a real headless Neovim (installed from PyPI) against the real server;
#   3. Emacs: a real Emacs in batch mode with eglot (Debian's emacs-nox and elpa-eglot:
#      Emacs 28, eglot 1.9) against the real server.
#
#   editors/ci.sh path/to/jax-lsp          (or JAX_LSP_BIN=path/to/jax-lsp editors/ci.sh)
#
# Needs Node 20+, python3 with venv, and the npm registry and PyPI; and Emacs with eglot, which
# it installs with apt-get when they are missing and it runs as root (else the Emacs section
# counts as one failure). Ends with one `N passed, N failed` line over all three; exits non-zero
# if anything failed.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="${1:-${JAX_LSP_BIN:-}}"
if [[ -z "$bin" || ! -x "$bin" ]]; then
  echo "error: pass the jax-lsp binary (cargo build first): editors/ci.sh target/debug/jax-lsp" >&2
  echo "0 passed, 1 failed"
  exit 2
fi
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"

passed=0
failed=0
logs="$(mktemp -d "${TMPDIR:-/tmp}/jax-lsp-editors.XXXXXX")"
trap 'rm -rf "$logs"' EXIT

echo "===== VS Code extension (editors/vscode/build.sh)"
# JAX_LSP_BIN is build.sh's "bundle this binary" switch: not wanted here.
env -u JAX_LSP_BIN JAX_LSP_TEST_SERVER="$bin" "$here/vscode/build.sh" 2>&1 | tee "$logs/vscode.txt"
rc=${PIPESTATUS[0]}
p="$(grep -E '^# pass [0-9]+$' "$logs/vscode.txt" | tail -1 | awk '{print $3}')"
f="$(grep -E '^# fail [0-9]+$' "$logs/vscode.txt" | tail -1 | awk '{print $3}')"
passed=$((passed + ${p:-0}))
failed=$((failed + ${f:-0}))
if [[ $rc -ne 0 && ${f:-0} -eq 0 ]]; then
  echo "FAIL editors/vscode/build.sh exited with $rc before its tests finished"
  failed=$((failed + 1))
fi

echo "===== Neovim (editors/nvim/test/run.sh)"
"$here/nvim/test/run.sh" "$bin" 2>&1 | tee "$logs/nvim.txt"
rc=${PIPESTATUS[0]}
summary="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$logs/nvim.txt" | tail -1)"
p="$(sed -E 's/^([0-9]+) passed.*/\1/' <<<"$summary")"
f="$(sed -E 's/.*, ([0-9]+) failed$/\1/' <<<"$summary")"
passed=$((passed + ${p:-0}))
failed=$((failed + ${f:-0}))
if [[ $rc -ne 0 && ${f:-0} -eq 0 ]]; then
  echo "FAIL editors/nvim/test/run.sh exited with $rc"
  failed=$((failed + 1))
fi

echo "===== Emacs (editors/emacs/test/run.sh)"
if ! "$here/emacs/test/run.sh" --check-deps >/dev/null 2>&1 &&
   [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "== installing emacs-nox and elpa-eglot (apt-get)"
  if ! { DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
         DEBIAN_FRONTEND=noninteractive apt-get install -y -qq emacs-nox elpa-eglot; } \
       >"$logs/apt.txt" 2>&1; then
    tail -20 "$logs/apt.txt"
  fi
fi
if ! "$here/emacs/test/run.sh" --check-deps >/dev/null; then
  echo "FAIL Emacs test skipped: Emacs with eglot is not installed and apt-get is not usable as root"
  echo "     (apt-get install emacs-nox elpa-eglot)"
  failed=$((failed + 1))
else
  "$here/emacs/test/run.sh" "$bin" 2>&1 | tee "$logs/emacs.txt"
  rc=${PIPESTATUS[0]}
  summary="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$logs/emacs.txt" | tail -1)"
  p="$(sed -E 's/^([0-9]+) passed.*/\1/' <<<"$summary")"
  f="$(sed -E 's/.*, ([0-9]+) failed$/\1/' <<<"$summary")"
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-0}))
  if [[ $rc -ne 0 && ${f:-0} -eq 0 ]]; then
    echo "FAIL editors/emacs/test/run.sh exited with $rc"
    failed=$((failed + 1))
  fi
fi

echo "===== editors: VS Code, Neovim and Emacs together"
echo "${passed} passed, ${failed} failed"
[[ $failed -eq 0 ]]

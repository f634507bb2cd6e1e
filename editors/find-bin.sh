# Sourced by the editor tests: sets `bin` to the absolute path of the jax-lsp
# binary to test — the first argument, else $JAX_LSP_BIN, else a debug build
# under the repository ($repo must be set) — or prints why not and exits 2
# with the `0 passed, 1 failed` line the CI sums.
bin="${1:-${JAX_LSP_BIN:-}}"
if [[ -z "$bin" ]]; then
  for candidate in "${CARGO_TARGET_DIR:-$repo/target}/debug/jax-lsp" "$repo/target/debug/jax-lsp"; do
    if [[ -x "$candidate" ]]; then bin="$candidate"; break; fi
  done
fi
if [[ -z "$bin" || ! -x "$bin" ]]; then
  echo "error: no jax-lsp binary: pass its path as the first argument or set JAX_LSP_BIN (cargo build first)" >&2
  echo "0 passed, 1 failed"
  exit 2
fi
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"

#!/usr/bin/env bash
# Builds and tests the VS Code extension, and packages it as editors/vscode/jax-lsp.vsix
# (npm ci, tsc --strict, vsce package, which bundles with esbuild first, node --test).
#   JAX_LSP_BIN=/path/to/jax-lsp          bundle that binary under bin/ (platform-specific .vsix)
#   JAX_LSP_TEST_SERVER=/path/to/jax-lsp  also run the extension against that server in the tests
#                                         (without it that one test is skipped)
# Needs Node 20+ and the npm registry (npm ci). Non-interactive.
set -euo pipefail
cd "$(dirname "$0")"

export npm_config_yes=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

echo "== npm ci"
npm ci --no-progress

echo "== tsc --strict --noEmit"
npx --no-install tsc --strict --noEmit -p .

rm -rf bin dist   # dist/ is rebuilt by vsce package (vscode:prepublish)
if [[ -n "${JAX_LSP_BIN:-}" ]]; then
  echo "== bundling $JAX_LSP_BIN as bin/jax-lsp"
  mkdir -p bin
  cp "$JAX_LSP_BIN" bin/jax-lsp
  chmod 755 bin/jax-lsp
fi

# The same command as a bare `npx vsce package`: its `vscode:prepublish` script makes the esbuild
# bundle (dist/extension.js), and the manifest's "vsce" field supplies --no-dependencies and
# --allow-missing-repository. stdin is closed so that any prompt fails instead of waiting.
echo "== vsce package (vscode:prepublish: esbuild bundle)"
rm -f jax-lsp.vsix
npx --no-install vsce package --out jax-lsp.vsix </dev/null

echo "== node --test"
node esbuild.mjs --tests
node --test --test-timeout=60000 out/test/*.test.js

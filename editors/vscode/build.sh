#!/usr/bin/env bash
# Builds and tests the VS Code extension, and packages it as editors/vscode/jax-lsp.vsix.
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

echo "== esbuild bundle"
node esbuild.mjs --production

rm -rf bin
if [[ -n "${JAX_LSP_BIN:-}" ]]; then
  echo "== bundling $JAX_LSP_BIN as bin/jax-lsp"
  mkdir -p bin
  cp "$JAX_LSP_BIN" bin/jax-lsp
  chmod 755 bin/jax-lsp
fi

echo "== vsce package"
rm -f jax-lsp.vsix
npx --no-install vsce package --no-dependencies --allow-missing-repository --out jax-lsp.vsix </dev/null

echo "== node --test"
node esbuild.mjs --tests
node --test --test-timeout=60000 out/test/*.test.js

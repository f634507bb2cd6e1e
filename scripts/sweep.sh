#!/usr/bin/env bash
# Real-world sweep: run `jax-lsp check` over the published wheels of JAX and
# projects built on it (and jax's own tests/ when given), to find false alarms.
#
#   scripts/sweep.sh [JAX_TESTS_DIR]
#
# Downloads with pip into the git-ignored ./sweep/ (never commit it), unpacks,
# and prints statistics, then every finding. Triage goes into docs/sweep.md.
set -euo pipefail
cd "$(dirname "$0")/.."
SWEEP=sweep
PIP="${PIP:-pip}"
if [ -x .venv-jax/bin/pip ]; then PIP=.venv-jax/bin/pip; fi
mkdir -p "$SWEEP/wheels" "$SWEEP/src"
for pkg in jax==0.12.0.1 tokamax tpu-inference maxtext flax qwix; do
  "$PIP" download --quiet --no-deps --disable-pip-version-check -d "$SWEEP/wheels" "$pkg"
done
for wheel in "$SWEEP"/wheels/*.whl; do
  name=$(basename "$wheel" .whl)
  [ -d "$SWEEP/src/$name" ] || (mkdir -p "$SWEEP/src/$name" && cd "$SWEEP/src/$name" && python3 -m zipfile -e "../../../$wheel" .)
done
targets=("$SWEEP/src")
if [ $# -gt 0 ]; then targets+=("$1"); fi
cargo build --release --quiet
./target/release/jax-lsp check --isolated --statistics --exit-zero "${targets[@]}"
./target/release/jax-lsp check --isolated --exit-zero --output-format json "${targets[@]}" > "$SWEEP/findings.json"
./target/release/jax-lsp check --isolated --exit-zero "${targets[@]}" | grep -E '^[^ ].*:[0-9]+:[0-9]+: JP' || true
echo "findings: $SWEEP/findings.json"

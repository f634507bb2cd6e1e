#!/usr/bin/env bash
# The sweep: `jax-lsp check` over real libraries, as a user would run it on
# their dependencies. It must not crash (a worker thread once overflowed its
# stack on maxtext's `layers/moe.py`; a single-file run, on the main thread's
# larger stack, hid it) and must report no error-severity finding: none of
# these files is a deliberate trigger. Run with no target platforms and with
# each of cpu, cuda and tpu declared.
#
#   tests/sweep/run.sh [JAX_LSP]      (default target/release/jax-lsp)
#   SWEEP_PLATFORMS="none cuda" tests/sweep/run.sh target/debug/jax-lsp
#                                     (CI: a debug build takes ~1 min a run)
#
# Wheels are downloaded from PyPI once (pinned, --no-deps) into sweep/wheels
# and unpacked into sweep/src (both ignored by git).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="${1:-target/release/jax-lsp}"
py="${SWEEP_PYTHON:-${JAX_VENV:-$PWD/.venv-jax}/bin/python}"
wheels=(jax==0.12.0.1 flax==0.12.12 maxtext==0.2.5 qwix==0.1.8 tokamax==0.0.17 tpu-inference==0.32.0)
mkdir -p sweep/wheels sweep/src
"$py" -m pip download --quiet --disable-pip-version-check --no-deps -d sweep/wheels "${wheels[@]}"
for wheel in sweep/wheels/*.whl; do
  dest="sweep/src/$(basename "$wheel" .whl)"
  [[ -d "$dest" ]] || "$py" -m zipfile -e "$wheel" "$dest"
done
files=$(find sweep/src -name '*.py' | wc -l)
failed=0
for platforms in ${SWEEP_PLATFORMS:-none cpu cuda tpu}; do
  args=(check --isolated --exit-zero --output-format json)
  [[ "$platforms" != none ]] && args+=(--target-platforms "$platforms")
  out="$(mktemp)"
  rc=0
  "$bin" "${args[@]}" sweep/src > "$out" || rc=$?
  if [[ "$rc" -ne 0 ]]; then
    echo "FAIL sweep (target platforms: $platforms): jax-lsp exited $rc"
    failed=1
    continue
  fi
  summary="$(python3 - "$out" <<'EOF'
import json, sys
findings = json.load(open(sys.argv[1]))
errors = [f for f in findings if f.get("severity") == "error"]
for f in errors[:20]:
    print(f"  {f['filename']}:{f['location']['row']}: {f['code']} {f['message'][:120]}")
print(f"{len(findings)} findings, {len(errors)} errors")
sys.exit(1 if errors else 0)
EOF
)" || failed=1
  echo "sweep (target platforms: $platforms), $files files: $summary"
  rm -f "$out"
done
exit "$failed"

#!/usr/bin/env bash
# End-to-end test of jax-lsp in a real Emacs (batch mode) with eglot, configured as README.md's
# Emacs section says. Written for Emacs 28 with eglot 1.9 from Debian 12 (elpa-eglot).
#
#   editors/emacs/test/run.sh [path/to/jax-lsp]      (or JAX_LSP_BIN=path/to/jax-lsp)
#   editors/emacs/test/run.sh --check-deps           (exit 0 if Emacs and eglot are installed)
#
# Installs nothing: Emacs and eglot must be there (Debian/Ubuntu:
# `apt-get install emacs-nox elpa-eglot`; Emacs 29+ has eglot built in). editors/ci.sh installs
# them when missing. JAX_LSP_TEST_KEEP=1 keeps the scratch directory (workspace, eglot's events
# log with every JSON-RPC message, Emacs's messages).
# Ends with `N passed, N failed`; exits non-zero on any failure.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
install_hint="install them with: apt-get install emacs-nox elpa-eglot (Debian 12 / Ubuntu: Emacs 28, eglot 1.9), or use Emacs 29+ (eglot built in)"

# --- Emacs and eglot -------------------------------------------------------------------------
# -Q leaves Debian's /usr/share/emacs/site-lisp out of load-path; e2e.el names its elpa directory
# for package.el, and so does this probe.
probe='(progn
  (require (quote package))
  (dolist (d (quote ("/usr/share/emacs/site-lisp/elpa" "/usr/local/share/emacs/site-lisp/elpa")))
    (when (file-directory-p d) (add-to-list (quote package-directory-list) d)))
  (setq package-user-dir (make-temp-name "/nonexistent/elpa"))
  (package-initialize)
  (when (< emacs-major-version 28) (kill-emacs 4))
  (if (not (require (quote eglot) nil t))
      (kill-emacs 3)
    (princ (format "GNU Emacs %s, eglot %s\n" emacs-version
                   (let ((d (cadr (assq (quote eglot) package-alist))))
                     (if d (package-version-join (package-desc-version d)) "(built in)"))))
    (kill-emacs 0)))'
check_deps() {
  if ! command -v emacs >/dev/null 2>&1; then
    echo "error: emacs is not installed; $install_hint" >&2
    return 1
  fi
  local out rc
  out="$(timeout 60 emacs --batch -Q --eval "$probe" 2>&1 </dev/null)"
  rc=$?
  if [[ $rc -eq 3 ]]; then
    echo "error: eglot is not installed for $(emacs --version | head -1); $install_hint" >&2
    return 1
  elif [[ $rc -eq 4 ]]; then
    echo "error: Emacs 28 or later is needed, this is $(emacs --version | head -1); $install_hint" >&2
    return 1
  elif [[ $rc -ne 0 ]]; then
    echo "error: emacs --batch failed ($rc): $out" >&2
    return 1
  fi
  echo "$out"
}

if [[ "${1:-}" == "--check-deps" ]]; then
  check_deps
  exit
fi

# shellcheck source=../../find-bin.sh
source "$repo/editors/find-bin.sh"

if ! versions="$(check_deps)"; then
  echo "0 passed, 1 failed"
  exit 2
fi
echo "== $versions ($(command -v emacs))"
echo "== jax-lsp: $bin ($(timeout 10 "$bin" --version 2>&1 | head -1))"

# --- Run -------------------------------------------------------------------------------------
scratch="$(mktemp -d "${TMPDIR:-/tmp}/jax-lsp-emacs.XXXXXX")"
if [[ "${JAX_LSP_TEST_KEEP:-}" == 1 ]]; then
  echo "== keeping $scratch"
else
  trap 'rm -rf "$scratch"' EXIT
fi
mkdir -p "$scratch/workspace" "$scratch/home"
log="$scratch/out.txt"
events="$scratch/eglot-events.txt"
started=$SECONDS
# Own HOME: nothing from ~/.emacs.d. Every wait inside has its own timeout (5 s) and the run
# stops waiting after 90 s in all; the outer timeout only catches a hang.
HOME="$scratch/home" JAX_LSP_BIN="$bin" JAX_LSP_TEST_WORKSPACE="$scratch/workspace" \
JAX_LSP_TEST_EVENTS_LOG="$events" \
  timeout 150 emacs --batch -Q -l "$here/e2e.el" >"$log" 2>"$scratch/messages.txt" </dev/null
rc=$?
cat "$log"
echo "== emacs ran for $((SECONDS - started))s, exit status $rc"

summary="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)"
if [[ -z "$summary" ]]; then
  echo "FAIL emacs exited with $rc before finishing (timeout or crash)"
  p=0
  f=1
else
  p="$(sed -E 's/^([0-9]+) passed.*/\1/' <<<"$summary")"
  f="$(sed -E 's/.*, ([0-9]+) failed$/\1/' <<<"$summary")"
  if [[ $rc -ne 0 && $f -eq 0 ]]; then
    echo "FAIL emacs exited with $rc"
    f=1
  fi
fi
if [[ $rc -ne 0 ]]; then
  echo "---- Emacs's messages (stderr), last lines"
  tail -25 "$scratch/messages.txt"
  if [[ -s "$events" ]]; then
    echo "---- error replies in eglot's events log ($events; it writes JSON null as nil)"
    grep -n -B2 -A4 -E '^\[server-reply\].* ERROR' "$events" | head -60
  fi
  echo "----"
fi
echo "${p} passed, ${f} failed"
[[ $f -eq 0 ]]

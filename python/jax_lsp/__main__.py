"""`python -m jax_lsp ARGS`: runs the installed `jax-lsp` binary with ARGS."""

import os
import subprocess
import sys

from jax_lsp import find_jax_lsp_bin


def main() -> int:
    binary = find_jax_lsp_bin()
    if sys.platform == "win32":
        return subprocess.run([binary, *sys.argv[1:]]).returncode
    # Replace this process: the server's stdio and exit code stay the client's.
    os.execvp(binary, [binary, *sys.argv[1:]])
    return 1  # not reached


if __name__ == "__main__":
    sys.exit(main())

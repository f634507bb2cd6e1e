"""jax-lsp: the `jax-lsp` binary, installed by this wheel into the environment's scripts."""

import os
import sys
import sysconfig


def find_jax_lsp_bin() -> str:
    """The path of the `jax-lsp` binary this package installed."""
    exe = "jax-lsp.exe" if sys.platform == "win32" else "jax-lsp"
    schemes = [sysconfig.get_default_scheme()]
    if "user" not in schemes[0]:
        schemes.append(f"{os.name}_user")
    places = []
    for scheme in schemes:
        try:
            scripts = sysconfig.get_path("scripts", scheme=scheme)
        except KeyError:
            continue
        path = os.path.join(scripts, exe)
        places.append(path)
        if os.path.isfile(path):
            return path
    # An environment that is not the running interpreter's (pip --target, a
    # copied tree): the binary beside the package's directory, as pip lays it out.
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for relative in ("../../../bin", "../../../Scripts", "bin"):
        path = os.path.normpath(os.path.join(here, relative, exe))
        places.append(path)
        if os.path.isfile(path):
            return path
    raise FileNotFoundError("jax-lsp binary not found; looked in: " + ", ".join(places))

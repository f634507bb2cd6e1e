"""Run one fixture program under real JAX and report how it ended.

Usage: python harness.py FIXTURE.py

Executes FIXTURE.py with ``runpy.run_path(path, run_name="__main__")`` and
prints exactly one JSON line on stdout:

    {"raised": bool, "type": "ValueError", "message": "...", "jax": "0.12.0.1"}

Anything the fixture itself prints goes to stderr, so stdout carries only the
JSON line.  ``type``/``message`` are null when nothing was raised.

Before the fixture runs, ``jax._src.interpreters.mlir.lower_jaxpr_to_module``
is wrapped by an observer for JP005: JAX accepts a bare string as lowering
platforms and silently lowers for its characters (``"cpu"`` -> ``('c', 'p',
'u')``).  When the ``platforms`` argument is a ``str``, or a tuple of more than
one item whose items are all 1-character strings, the observer raises
``ValueError("oracle: JAX lowered for platforms <tuple> split from a string")``.
pxla calls ``mlir.lower_jaxpr_to_module`` through the module attribute, so
patching the attribute is enough.  Every other call goes through unchanged.

For fixtures in a ``JP012`` directory only, ``DeprecationWarning`` is turned
into an error (``warnings.simplefilter("error", DeprecationWarning)``, set
after ``import jax``), so the deprecation of ``jax.jit(..., backend=/device=)``
is raised and reported like any other error.  Fixtures of other rules keep
Python's default warning filters.
"""

import contextlib
import json
import runpy
import sys


def _split_from_string(platforms):
    if isinstance(platforms, str):
        return True
    return (
        isinstance(platforms, tuple)
        and len(platforms) > 1
        and all(isinstance(p, str) and len(p) == 1 for p in platforms)
    )


def install_observer():
    import functools

    from jax._src.interpreters import mlir

    original = mlir.lower_jaxpr_to_module
    if getattr(original, "_oracle_observer", False):
        return

    @functools.wraps(original)
    def observed(*args, **kwargs):
        platforms = kwargs.get("platforms")
        if platforms is not None and _split_from_string(platforms):
            raise ValueError(
                f"oracle: JAX lowered for platforms {tuple(platforms)} split from a string"
            )
        return original(*args, **kwargs)

    observed._oracle_observer = True
    mlir.lower_jaxpr_to_module = observed


def deprecations_are_errors(path):
    """JP012's mistake is only a DeprecationWarning; make it raise for its fixtures."""
    import os

    return os.path.basename(os.path.dirname(os.path.abspath(path))) == "JP012"


def run(path):
    import warnings

    import jax

    install_observer()
    if deprecations_are_errors(path):
        warnings.simplefilter("error", DeprecationWarning)
    result = {"raised": False, "type": None, "message": None, "jax": jax.__version__}
    # As `python FIXTURE.py` has it: the program's own path, no arguments.
    sys.argv = [path]
    try:
        with contextlib.redirect_stdout(sys.stderr):
            runpy.run_path(path, run_name="__main__")
    except SystemExit as e:
        if e.code not in (None, 0):
            result.update(raised=True, type="SystemExit", message=str(e.code))
    except BaseException as e:  # noqa: BLE001 - report whatever the program raised
        if isinstance(e, KeyboardInterrupt):
            raise
        result.update(raised=True, type=type(e).__name__, message=str(e))
    sys.stderr.flush()
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: harness.py FIXTURE.py")
    # The fixture's directory first on sys.path, as `python FIXTURE.py` would have it.
    import os

    sys.path[0] = os.path.dirname(os.path.abspath(sys.argv[1]))
    run(sys.argv[1])

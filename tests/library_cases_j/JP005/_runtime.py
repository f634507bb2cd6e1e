"""Runtime settings read from the environment (shaped like mpi4jax's environment switches:
MPI4JAX_USE_CUDA_MPI, MPI4JAX_NO_WARN_JAX_VERSION, read once at import)."""
import os


def _truthy(name, default=""):
  return os.environ.get(name, default).lower() in ("1", "true", "on")


NO_WARN_JAX_VERSION = _truthy("MPI4JAX_NO_WARN_JAX_VERSION")
USE_CUDA_MPI = _truthy("MPI4JAX_USE_CUDA_MPI")
# Platform(s) the AOT artifacts are built for; comma separated.
LOWERING_TARGET = os.environ.get("MPI4JAX_AOT_TARGET", "cpu")


def lowering_platforms():
  return tuple(p.strip() for p in LOWERING_TARGET.split(",") if p.strip())

"""Mach-Zehnder interferometer sweep, evaluated by a pluggable circuit backend.

Follows sax: component models are functions of the wavelength returning an
S-matrix as a dict keyed by port pairs, a netlist names instances and their
connections, and ``circuit(netlist, models, backend=...)`` resolves the backend
name through a ``circuit_backends`` registry of ``(analyze, evaluate)`` pairs.
The "pallas" backend evaluates the transmitted power with a fused Pallas
kernel.  The sweep is exported once as a portable artifact for the lab's
accelerators.
"""

from __future__ import annotations

from typing import Callable, Dict, Tuple

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

SDict = Dict[Tuple[str, str], jax.Array]


# --------------------------------------------------------------------------
# models
# --------------------------------------------------------------------------


def coupler(wl, coupling: float = 0.5) -> SDict:
  kappa = jnp.sqrt(coupling) * jnp.ones_like(wl)
  tau = jnp.sqrt(1.0 - coupling) * jnp.ones_like(wl)
  return {
      ("in0", "out0"): tau + 0j, ("in0", "out1"): 1j * kappa,
      ("in1", "out0"): 1j * kappa, ("in1", "out1"): tau + 0j,
  }


def waveguide(wl, length: float = 10.0, neff: float = 2.34, ng: float = 3.4, wl0: float = 1.55) -> SDict:
  dwl = wl - wl0
  phase = 2 * jnp.pi * (neff - (ng - neff) * dwl / wl0) * length / wl
  return {("in0", "out0"): jnp.exp(1j * phase)}


MODELS = {"coupler": coupler, "waveguide": waveguide}


# --------------------------------------------------------------------------
# backends
# --------------------------------------------------------------------------


def _power_kernel(re_ref, im_ref, o_ref):
  re = re_ref[...]
  im = im_ref[...]
  o_ref[...] = re * re + im * im


def _power_pallas(s: jax.Array) -> jax.Array:
  rows, cols = s.shape
  spec = pl.BlockSpec((8, cols), lambda i: (i, 0))
  return pl.pallas_call(
      _power_kernel,
      out_shape=jax.ShapeDtypeStruct(s.shape, jnp.float32),
      grid=(rows // 8,),
      in_specs=[spec, spec],
      out_specs=spec,
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
  )(jnp.real(s).astype(jnp.float32), jnp.imag(s).astype(jnp.float32))


def _power_reference(s: jax.Array) -> jax.Array:
  return jnp.abs(s) ** 2


def analyze_mzi(netlist):
  """Checks that the netlist is the two-coupler, two-arm topology we evaluate."""
  kinds = sorted(inst["component"] for inst in netlist["instances"].values())
  if kinds != ["coupler", "coupler", "waveguide", "waveguide"]:
    raise ValueError(f"unsupported topology {kinds}")
  return netlist


def _evaluate_mzi(analyzed, instances: Dict[str, SDict], power_fn: Callable) -> jax.Array:
  lft, rgt = instances["lft"], instances["rgt"]
  top, btm = instances["top"], instances["btm"]
  s = (lft[("in0", "out0")] * top[("in0", "out0")] * rgt[("in0", "out0")] +
       lft[("in0", "out1")] * btm[("in0", "out0")] * rgt[("in1", "out0")])
  return power_fn(s)


circuit_backends: Dict[str, Tuple[Callable, Callable]] = {
    "pallas": (analyze_mzi, lambda a, inst: _evaluate_mzi(a, inst, _power_pallas)),
    "reference": (analyze_mzi, lambda a, inst: _evaluate_mzi(a, inst, _power_reference)),
}
circuit_backends["default"] = circuit_backends["pallas"]


def circuit(netlist, models, backend: str = "default"):
  analyze_fn, evaluate_fn = circuit_backends[backend]
  analyzed = analyze_fn(netlist)

  def _circuit(wl, **settings):
    instances = {}
    for name, inst in netlist["instances"].items():
      kwargs = {**inst.get("settings", {}), **settings.get(name, {})}
      instances[name] = models[inst["component"]](wl, **kwargs)
    return evaluate_fn(analyzed, instances)

  return _circuit


# --------------------------------------------------------------------------
# application
# --------------------------------------------------------------------------

MZI_NETLIST = {
    "instances": {
        "lft": {"component": "coupler"},
        "top": {"component": "waveguide", "settings": {"length": 25.0}},
        "btm": {"component": "waveguide", "settings": {"length": 15.0}},
        "rgt": {"component": "coupler"},
    },
    "ports": {"in0": "lft,in0", "out0": "rgt,out0"},
}

LAB_PLATFORMS = ("tpu", "cuda")


def export_sweep(platforms=LAB_PLATFORMS, backend: str = "default"):
  mzi = circuit(MZI_NETLIST, MODELS, backend=backend)
  sweep = jax.jit(lambda wl: mzi(wl))
  wl_spec = jax.ShapeDtypeStruct((16, 128), jnp.float32)
  return jax.export.export(sweep, platforms=platforms)(wl_spec)


def main():
  exported = export_sweep()
  print("portable sweep for", exported.platforms)


if __name__ == "__main__":
  main()

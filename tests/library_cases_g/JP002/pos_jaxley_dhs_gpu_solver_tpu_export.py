"""Export a multi-cell voltage integration for the simulation service's TPU pods.

Modelled on a differentiable neuron simulator: modules infer a ``_solver_device``
when built, ``_init_morph_jaxley_dhs_solve(allowed_nodes_per_level=...)`` switches
it between a serial (cpu) and a parallel (gpu) ordering, and ``integrate`` maps
``voltage_solver="jaxley.dhs"`` to a concrete solver from a table.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as pltriton


def infer_device() -> str:
    platform = jax.devices()[0].platform
    if platform == "gpu":
        return "gpu"
    elif platform == "tpu":
        return "tpu"
    return "cpu"


def _membrane_kernel(v_ref, i_ref, g_ref, o_ref, *, dt, e_leak, capacitance):
    v = v_ref[...]
    o_ref[...] = v + dt * (i_ref[...] - g_ref[...] * (v - e_leak)) / capacitance


def _dhs_parallel_step(v, i_ext, g_leak, *, dt, e_leak, capacitance, compiler_params):
    rows, cols = v.shape
    block = (8, cols)
    spec = pl.BlockSpec(block, lambda r: (r, 0))
    kernel = partial(_membrane_kernel, dt=dt, e_leak=e_leak, capacitance=capacitance)
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct(v.shape, v.dtype),
        grid=(rows // block[0],),
        in_specs=[spec, spec, spec],
        out_specs=spec,
        compiler_params=compiler_params,
    )(v, i_ext, g_leak)


def _dhs_serial_step(v, i_ext, g_leak, *, dt, e_leak, capacitance):
    def one_comp(carry, cols):
        vc, ic, gc = cols
        return carry, vc + dt * (ic - gc * (vc - e_leak)) / capacitance

    _, out = jax.lax.scan(one_comp, None, (v.T, i_ext.T, g_leak.T))
    return out.T


VOLTAGE_SOLVERS = {
    "jaxley.dhs.cpu": _dhs_serial_step,
    "jaxley.dhs.gpu": partial(_dhs_parallel_step,
                              compiler_params=pltriton.CompilerParams(num_warps=4, num_stages=2)),
}


class Cell:
    def __init__(self, ncomp: int, radius: float = 1.0):
        self.ncomp = ncomp
        self.radius = radius
        self.g_leak = 1e-4
        self.e_leak = -70.0
        self.capacitance = 1.0
        self._solver_device = infer_device()
        self._dhs_solve_indexer = None

    def _init_morph_jaxley_dhs_solve(self, allowed_nodes_per_level=None):
        if allowed_nodes_per_level is None:
            allowed_nodes_per_level = 1 if self._solver_device == "cpu" else 32
        else:
            self._solver_device = "cpu" if allowed_nodes_per_level == 1 else "gpu"
        levels = np.arange(self.ncomp) // allowed_nodes_per_level
        self._dhs_solve_indexer = {"levels": levels, "per_level": allowed_nodes_per_level}


class Network:
    def __init__(self, cells):
        self.cells = cells
        self._solver_device = cells[0]._solver_device

    @property
    def shape(self):
        return (len(self.cells), self.cells[0].ncomp)


def integrate(module, i_ext, t_max=5.0, delta_t=0.025, voltage_solver="jaxley.dhs"):
    if voltage_solver == "jaxley.dhs":
        if module._solver_device in ["gpu", "tpu"]:
            voltage_solver = "jaxley.dhs.gpu"
        else:
            voltage_solver = "jaxley.dhs.cpu"
    step_fn = VOLTAGE_SOLVERS[voltage_solver]
    cell = module.cells[0]
    g = jnp.full(module.shape, cell.g_leak, jnp.float32)
    step = partial(step_fn, dt=delta_t, e_leak=cell.e_leak, capacitance=cell.capacitance)

    def body(v, i_t):
        v = step(v, i_t, g)
        return v, v[:, 0]

    v0 = jnp.full(module.shape, cell.e_leak, jnp.float32)
    _, recording = jax.lax.scan(body, v0, i_ext)
    return recording


SERVICE = {"platforms": ("tpu",), "n_cells": 64, "ncomp": 128, "steps": 200}


def build_network(service):
    cells = []
    for _ in range(service["n_cells"]):
        cell = Cell(ncomp=service["ncomp"])
        # Many compartments per level: the parallel ordering is what accelerators want.
        cell._init_morph_jaxley_dhs_solve(allowed_nodes_per_level=32)
        cells.append(cell)
    return Network(cells)


def export_simulation(service):
    net = build_network(service)
    stim = jax.ShapeDtypeStruct((service["steps"],) + net.shape, jnp.float32)
    simulate = jax.jit(partial(integrate, net))
    return jax.export.export(simulate, platforms=service["platforms"])(stim)


if __name__ == "__main__":
    exp = export_simulation(SERVICE)
    print(exp.platforms, exp.out_avals)

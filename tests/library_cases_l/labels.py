#!/usr/bin/env python3
"""Label set L's cases by running them under real JAX.

    python tests/library_cases_l/labels.py [--check] [--jobs N] [--python PY] [CASE ...]

Set L is held out: written from RULES.md and jax-facts.md without seeing the
checker, its queries, fixtures or the other sets' programs; structure taken
from libraries no earlier set used (see README.md).  What a label is and what
--check compares: tests/library_cases/labels.py; the runner:
tests/library_cases/labelling.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "library_cases"))
from labelling import main  # noqa: E402

META: dict[str, tuple[str | None, list[str]]] = {
    # JP001: host callback lowered for another platform
    "JP001/pos_jaxfdm_sparse_model_gpu_export.py": (
        "return jax.export.export(fn, platforms=(spec.platform,))(q, xyz_fixed, loads)",
        ["jax_fdm/equilibrium/sparse.py (register_sparse_solver picks spsolve by jax.default_backend(); spsolve_cpu is a pure_callback)",
         "jax_fdm/equilibrium/models.py (EquilibriumModel, EquilibriumModelSparse swaps linearsolve_fn)"],
    ),
    "JP001/pos_fdtdx_progress_aot_backend_env.py": (
        "return traced.lower(lowering_platforms=(config.aot_backend,))",
        ["fdtdx/config.py (SimulationConfig.backend with CPU fallback in __post_init__)",
         "fdtdx/core/progress.py (SimulationProgressBar ordered io_callbacks, _make_pbar, _wrap_body_with_progress)"],
    ),
    "JP001/pos_brainpy_memory_efficient_env_tpu.py": (
        "return traced.lower(lowering_platforms=(platform,))",
        ["brainpy/math/environment.py (environment, _DecoratorContextManager)",
         "brainpy/runners.py (DSRunner memory_efficient: jax.debug.callback(self._step_mon_on_cpu, mon))"],
    ),
    "JP001/pos_sysid_adam_iprint_cli_cuda.py": (
        "lowered = traced.lower(lowering_platforms=(args.platform,))",
        ["jax_sysid/_solvers.py (Adam scan with iprint: ordered jax.debug.callback under lax.cond)",
         "jax_sysid/_linear_model.py (LinearModel A, B, C, x0)"],
    ),
    "JP001/ok_jaxfdm_dense_model_gpu_export.py": (None, ["jax_fdm/equilibrium/sparse.py", "jax_fdm/equilibrium/models.py"]),
    "JP001/ok_fdtdx_progress_off_aot_backend_env.py": (None, ["fdtdx/config.py", "fdtdx/core/progress.py (_make_pbar returns None)"]),
    "JP001/ok_sysid_adam_quiet_cli_cuda.py": (None, ["jax_sysid/_solvers.py (iprint=0: no callback)"]),
    # JP002: Pallas compiler params of one platform lowered for another
    "JP002/pos_flashattn2_gpu_preset_tpu_export.py": (
        "return pl.pallas_call(",
        ["jax_flash_attn2/flash_attention.py (Backend/Platform str enums, AttentionConfig.__post_init__, "
         "FlashAttention._compute_pallas falls back to Triton on GPU, create_flash_attention)"],
    ),
    "JP002/pos_brainevent_loop_registered_pallas_tpu.py": (
        "return [pl.pallas_call(",
        ["brainevent/_op/main.py (XLACustomKernel, KernelEntry, def_kernel, def_pallas_kernel, "
         "_register_fallback_lowering with mlir.lower_fun per platform)",
         "brainevent/_compatible_import.py (pallas_triton_params, pallas_mosaic_tpu_params)"],
    ),
    "JP002/pos_mbirjax_cached_tile_policy_fleet.py": (
        "return pl.pallas_call(",
        ["mbirjax/_pallas_kernels.py (availability: GPU arch allowlist, MBIRJAX_DISABLE_PALLAS; Triton forward kernel)",
         "mbirjax/projectors.py (tiles.fwd_pallas dispatch)"],
    ),
    "JP002/pos_xlb_pallas_backend_portable_export.py": (
        "return pl.pallas_call(",
        ["xlb/default_config.py (DefaultConfig, init)",
         "xlb/operator/operator.py (Operator.register_backend, dispatch on compute_backend)",
         "xlb/operator/stepper/nse_stepper.py (collision + stream stepper)"],
    ),
    "JP002/ok_flashattn2_tpu_preset_tpu_export.py": (None, ["jax_flash_attn2/flash_attention.py"]),
    "JP002/ok_brainevent_partial_registered_pallas_tpu.py": (None, ["brainevent/_op/main.py", "brainevent/_compatible_import.py"]),
    "JP002/ok_mbirjax_per_target_tile_policy_fleet.py": (None, ["mbirjax/_pallas_kernels.py"]),
    # JP003: AbstractMesh-only computation lowered without lowering_platforms
    "JP003/pos_mbirjax_planned_placement_memory_plan.py": (
        "lowered = back.trace(sino).lower()",
        ["mbirjax/_sharding/placement.py (Placement: devices, axis, 1-D mesh, shard_structure)",
         "mbirjax/tomography_model.py (sino/recon placements)"],
    ),
    "JP003/pos_xlb_target_devices_env_stepper.py": (
        "lowered = stepper.jitted.lower(grid.field_spec(9, jnp.float32))",
        ["xlb/grid/jax_grid.py (JaxGrid._initialize_backend: (cardinality, x, y) mesh and sharding)",
         "xlb/operator/stepper/nse_stepper.py"],
    ),
    "JP003/pos_jaxpm_static_config_abstract_mesh_lpt.py": (
        "lowered = step.trace(config.initial_conditions_spec(), 0.1, config=config).lower()",
        ["jaxpm/pm.py (lpt)", "jaxpm/kernels.py (fftk, invlaplace_kernel, gradient_kernel)",
         "jaxpm/distributed.py (Mesh | AbstractMesh accepted for the pencil mesh)"],
    ),
    "JP003/pos_brainpy_environment_planning_mesh.py": (
        "return step.trace(v, v).lower()",
        ["brainpy/math/environment.py (environment as context manager and decorator)",
         "brainpy/math/sharding.py"],
    ),
    "JP003/ok_mbirjax_local_placement_memory_plan.py": (None, ["mbirjax/_sharding/placement.py"]),
    "JP003/ok_xlb_target_devices_env_stepper_cuda.py": (None, ["xlb/grid/jax_grid.py"]),
    "JP003/ok_brainpy_environment_planning_mesh_device.py": (None, ["brainpy/math/environment.py"]),
    # JP004: AbstractMesh + a primitive that needs devices during lowering
    "JP004/pos_jaxfdm_host_solver_design_sweep_plan.py": (
        "return traced.lower(lowering_platforms=(\"cpu\",))",
        ["jax_fdm/equilibrium/sparse.py (solver table by default backend, pure_callback on CPU)",
         "jax_fdm/equilibrium/models.py (EquilibriumModel.linearsolve_fn)"],
    ),
    "JP004/pos_jaxgalsim_reference_profile_survey_tpu.py": (
        "return traced.lower(lowering_platforms=(\"tpu\",))",
        ["jax_galsim/integ.py (int1d jitted with static func; hidden _wrap_as_callback -> pure_callback)"],
    ),
    "JP004/pos_xlb_monitor_callbacks_planned_grid_cuda.py": (
        "return run.trace(f).lower(lowering_platforms=(config.platform,))",
        ["xlb/operator/operator.py (callback= on operator calls)", "xlb/grid/jax_grid.py",
         "xlb/operator/macroscopic (rho, u)"],
    ),
    "JP004/pos_fdtdx_debug_log_sharding_planned_export.py": (
        "return jax.export.export(step, platforms=(\"tpu\",))(field, field, eps)",
        ["fdtdx/core/jax/sharding.py (get_named_sharding_from_shape, pretty_print_sharding)",
         "fdtdx/fdtd/fdtd.py (field updates)"],
    ),
    "JP004/ok_jaxfdm_host_solver_design_sweep_local.py": (None, ["jax_fdm/equilibrium/sparse.py"]),
    "JP004/ok_jaxgalsim_jax_profile_survey_tpu.py": (None, ["jax_galsim/integ.py"]),
    "JP004/ok_fdtdx_info_log_sharding_planned_export.py": (None, ["fdtdx/core/jax/sharding.py"]),
    # JP005: bad lowering_platforms / platforms values
    "JP005/pos_fdtdx_compile_options_export_kwargs.py": (
        "return jax.export.export(fn, **options.export_kwargs())(E, H, a)",
        ["fdtdx/typing.py (BackendOption literal)", "fdtdx/config.py (frozen config dataclasses)"],
    ),
    "JP005/pos_probdiffeq_backend_aot_platforms_env.py": (
        "return traced.lower(lowering_platforms=platforms)",
        ["probdiffeq/backend/func.py, flow.py, np.py (thin backend namespaces over JAX)",
         "probdiffeq/ivpsolve.py (fixed-grid solve)"],
    ),
    "JP005/pos_brainevent_benchmark_config_platforms_list.py": (
        "lowered = traced.lower(lowering_platforms=config.platforms)",
        ["brainevent/_op/benchmark.py (BenchmarkRecord, benchmark_function)",
         "brainevent/_op/main.py (def_benchmark_data)"],
    ),
    "JP005/pos_jaxkan_cli_platforms_nargs_export.py": (
        "exported = jax.export.export(jax.jit(model), platforms=args.platforms)(model.param_spec(), x)",
        ["jaxkan/layers/__init__.py (get_layer)", "jaxkan/models/KAN.py (KAN(layer_dims, layer_type, required_parameters))",
         "jaxkan/layers/Chebyshev.py"],
    ),
    "JP005/ok_probdiffeq_backend_aot_platforms_parsed.py": (None, ["probdiffeq/backend/func.py"]),
    "JP005/ok_brainevent_benchmark_config_platforms_tuple.py": (None, ["brainevent/_op/benchmark.py"]),
    "JP005/ok_jaxkan_cli_platforms_nargs_list_export.py": (None, ["jaxkan/models/KAN.py"]),
}


if __name__ == "__main__":
  sys.exit(main(HERE, META, __doc__))

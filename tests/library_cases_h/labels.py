#!/usr/bin/env python3
"""Label set H's cases by running them under real JAX.

    python tests/library_cases_h/labels.py [--check] [--jobs N] [--python PY] [CASE ...]

What a label is and what --check compares: tests/library_cases/labels.py; the
runner: tests/library_cases/labelling.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "library_cases"))
from labelling import main  # noqa: E402

# case -> (anchor of the line to change, or None for near misses; library files that gave the structure)
META: dict[str, tuple[str | None, list[str]]] = {
    # JP001: host callback lowered for another platform
    "JP001/pos_kfac_host_eigh_cache_update.py": (
        "return traced.lower(lowering_platforms=(self.config.target_platform,))",
        ["kfac_jax/_src/utils/math.py (_host_eigh with jax.pure_callback, _eigh(force_on_host=...))",
         "kfac_jax/_src/curvature_blocks/kronecker_factored.py (block update_cache)",
         "kfac_jax/_src/curvature_estimator/block_diagonal.py (blocks per layer)",
         "kfac_jax/_src/optimizer.py (Optimizer.from_dict)"],
    ),
    "JP001/pos_scico_pnp_admm_denoiser_export.py": (
        "return jax.export.export(jax.jit(admm.solve), platforms=args.platforms)(spec)",
        ["scico/denoiser.py (bm3d/bm4d through jax.pure_callback)",
         "scico/functional/_denoiser.py (denoiser functionals with prox)",
         "scico/functional/_functional.py (Functional, has_eval/has_prox)",
         "scico/optimize/_admm.py (ADMM step/solve)"],
    ),
    "JP001/pos_jaxsim_raise_if_integrator_export.py": (
        "return jax.export.export(fn, platforms=platforms)(data_spec, tau_spec)",
        ["jaxsim/exceptions.py (raise_if: jax.debug.callback behind lax.cond)",
         "jaxsim/api/data.py (JaxSimModelData)", "jaxsim/api/integrators.py (integrator functions)",
         "jaxsim/api/model.py (step)"],
    ),
    "JP001/pos_mjx_cpp_impl_rollout_lowering.py": (
        "return fn.trace(m, d, ctrls).lower(lowering_platforms=(cfg.platform,))",
        ["mujoco/mjx/_src/io.py (_resolve_device, put_model/put_data with device_put, _put_data_cpp io_callback)",
         "mujoco/mjx/_src/types.py (Impl enum with _missing_)", "mujoco/mjx/viewer.py (jit(...).lower(...).compile())"],
    ),
    "JP001/ok_kfac_device_eigh_cache_update.py": (None, ["kfac_jax/_src/utils/math.py", "kfac_jax/_src/optimizer.py"]),
    "JP001/ok_jaxsim_raise_if_disabled_for_export.py": (None, ["jaxsim/exceptions.py", "jaxsim/api/integrators.py"]),
    "JP001/ok_mjx_cpp_impl_rollout_device_platform.py": (None, ["mujoco/mjx/_src/io.py (_resolve_device)"]),
    # JP002: Pallas compiler params of one platform lowered for another
    "JP002/pos_jaxonnx_fastgelu_handler_device.py": (
        "return pl.pallas_call(",
        ["jaxonnxruntime/core/handler.py (Handler, register_op, version_N, get_since_version)",
         "jaxonnxruntime/config_class.py (Config, define_*_state, update)",
         "jaxonnxruntime/backend.py (Backend.prepare/run_model with device string, device.lower())",
         "jaxonnxruntime/call_onnx.py (graph walk over nodes)"],
    ),
    "JP002/pos_einshape_tiled_transpose_export.py": (
        "return pl.pallas_call(",
        ["einshape/src/engine.py (equation -> ops)", "einshape/src/abstract_ops.py (Reshape, Transpose)",
         "einshape/src/backend.py (Backend.exec over ops)", "einshape/src/jax/jax_ops.py (JAX backend)"],
    ),
    "JP002/pos_jaxdf_fourier_laplacian_portable_export.py": (
        "return pl.pallas_call(",
        ["jaxdf/core.py (operator(init_params=...), Field, params=)", "jaxdf/discretization.py (FourierSeries, replace_params)",
         "jaxdf/operators/differential.py (laplacian with k_vec params)"],
    ),
    "JP002/pos_cosmo_power_spectrum_kernel_per_site.py": (
        "return pl.pallas_call(",
        ["jax_cosmo/core.py (Cosmology pytree)", "jax_cosmo/parameters.py (Planck15)",
         "jax_cosmo/transfer.py (transfer functions)", "jax_cosmo/power.py (linear_matter_power)",
         "jax_cosmo/likelihood.py (gaussian log-likelihood)"],
    ),
    "JP002/ok_jaxonnx_fastgelu_handler_tpu_device.py": (None, ["jaxonnxruntime/core/handler.py", "jaxonnxruntime/backend.py"]),
    "JP002/ok_einshape_tiled_transpose_interpret_export.py": (None, ["einshape/src/backend.py", "einshape/src/jax/jax_ops.py"]),
    "JP002/ok_jaxdf_fourier_laplacian_per_platform_export.py": (None, ["jaxdf/core.py", "jaxdf/operators/differential.py"]),
    # JP003: AbstractMesh-only computation lowered without lowering_platforms
    "JP003/pos_kfac_optimizer_dry_run_pod_mesh.py": (
        "lowered = traced.lower()",
        ["kfac_jax/_src/utils/parallel.py (mesh and NamedSharding helpers, replicate_all_local_devices)",
         "kfac_jax/_src/optimizer.py (Optimizer.from_dict, multi_device, pmap_axis_name)"],
    ),
    "JP003/pos_mjx_batched_env_step_topology.py": (
        "lowered = jax.jit(batched).trace(m, d_specs, a_spec).lower()",
        ["mujoco/mjx/_src/types.py (Model, Data dataclass pytrees)", "mujoco/mjx/_src/forward.py (step)",
         "mujoco/mjx/warp/visualize_render.py (NamedSharding over a batch axis)"],
    ),
    "JP003/pos_jaxfem_residual_partition_plan.py": (
        "return residual.lower(sol, cell_points)",
        ["jax_fem/problem.py (Problem, custom_init, get_tensor_map/get_mass_map hooks)",
         "jax_fem/generate_mesh.py (rectangle mesh)", "jax_fem/solver.py (solver_options dict)"],
    ),
    "JP003/pos_scico_linop_planning_context.py": (
        "lowered = fn.trace(x_spec).lower()",
        ["scico/operator/_operator.py (Operator, input_shape, jit())", "scico/linop/_linop.py (LinearOperator @, *)",
         "scico/linop/_diag.py (Diagonal, Identity)"],
    ),
    "JP003/ok_kfac_optimizer_dry_run_pod_platform.py": (None, ["kfac_jax/_src/utils/parallel.py", "kfac_jax/_src/optimizer.py"]),
    "JP003/ok_mjx_batched_env_step_local_mesh.py": (None, ["mujoco/mjx/_src/types.py", "mujoco/mjx/_src/forward.py"]),
    "JP003/ok_jaxfem_residual_partition_export.py": (None, ["jax_fem/problem.py", "jax_fem/solver.py"]),
    # JP004: AbstractMesh + a primitive that needs devices during lowering
    "JP004/pos_scico_host_xray_projector_views.py": (
        "return recon.trace(y_spec, x_spec).lower(lowering_platforms=(cfg.platform,))",
        ["scico/linop/xray/astra.py (projector forward/adjoint through jax.pure_callback)",
         "scico/linop/xray/svmbir.py (host projector)", "scico/linop/_linop.py (LinearOperator, .T)"],
    ),
    "JP004/pos_jaxfem_custom_solver_sharded_export.py": (
        "return jax.export.export(solver, platforms=platforms)(spec)",
        ["jax_fem/solver.py (linear_solver dispatch on solver_options keys, AMGX_solve via jax.pure_callback)",
         "jax_fem/solver.py (Newton solve)"],
    ),
    "JP004/pos_kfac_sharding_report_hook_pod.py": (
        "return step.trace(params, x, y).lower(lowering_platforms=(cfg.platform,))",
        ["kfac_jax/_src/optimizer.py (step with hooks)", "kfac_jax/_src/utils/parallel.py (NamedSharding helpers)",
         "kfac_jax/_src/utils/misc.py (debug utilities)"],
    ),
    "JP004/pos_jaxsim_contact_recorder_topology.py": (
        "lowered = fn.trace(spec, spec).lower()",
        ["jaxsim/rbda/contacts/soft.py (soft contact model)", "jaxsim/api/model.py (JaxSimModel.build)",
         "jaxsim/api/contact.py (contact model plug-in)"],
    ),
    "JP004/ok_scico_host_xray_projector_cpu_mesh.py": (None, ["scico/linop/xray/astra.py", "scico/linop/_linop.py"]),
    "JP004/ok_jaxfem_jax_solver_sharded_export.py": (None, ["jax_fem/solver.py"]),
    "JP004/ok_kfac_sharding_report_hook_train_mode.py": (None, ["kfac_jax/_src/optimizer.py"]),
    # JP005: bare string (or list) as lowering_platforms / platforms
    "JP005/pos_jaxonnx_config_export_platforms.py": (
        "return jax.export.export(fn, platforms=platforms)(initializers, spec)",
        ["jaxonnxruntime/config_class.py (Config.add_option, define_string_state, update hooks)",
         "jaxonnxruntime/core/handler.py (register_op)", "jaxonnxruntime/call_onnx.py (call_onnx_model)"],
    ),
    "JP005/pos_cosmo_survey_pipeline_default_platforms.py": (
        "return traced.lower(lowering_platforms=self.config.platforms)",
        ["jax_cosmo/core.py (Cosmology pytree)", "jax_cosmo/redshift.py (smail_nz pytree)",
         "jax_cosmo/probes.py (WeakLensing)", "jax_cosmo/angular_cl.py (angular_cl)",
         "jax_cosmo/likelihood.py (gaussian_log_likelihood)"],
    ),
    "JP005/pos_jaxsim_controller_targets_list.py": (
        "return traced.lower(lowering_platforms=platforms)",
        ["jaxsim/api/model.py (JaxSimModel.build_from_model_description)", "jaxsim/api/data.py (JaxSimModelData)",
         "jaxsim/rbda/forward_kinematics.py", "jaxsim/rbda/rnea.py (gravity terms)"],
    ),
    "JP005/pos_einshape_precompile_cli_platforms.py": (
        "return traced.lower(lowering_platforms=spec.platforms)",
        ["einshape/src/engine.py (generate_ops from an equation with grouping)",
         "einshape/src/jax/jax_ops.py (backend singleton, einshape(equation, x, **sizes))"],
    ),
    "JP005/ok_jaxonnx_config_export_platforms_split.py": (None, ["jaxonnxruntime/config_class.py"]),
    "JP005/ok_cosmo_survey_pipeline_platforms_tuple.py": (None, ["jax_cosmo/core.py", "jax_cosmo/angular_cl.py"]),
    "JP005/ok_jaxsim_controller_targets_list_export.py": (None, ["jaxsim/api/model.py", "jaxsim/api/data.py"]),
}


if __name__ == "__main__":
  sys.exit(main(HERE, META, __doc__))

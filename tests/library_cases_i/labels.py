#!/usr/bin/env python3
"""Label set I's cases by running them under real JAX.

    python tests/library_cases_i/labels.py [--check] [--jobs N] [--python PY] [CASE ...]

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
    "JP001/pos_tinygp_quasisep_gp_export.py": (
        "return jax.export.export(fn, platforms=platforms)(params, vec, vec)",
        ["tinygp/solvers/quasisep/solver.py (QuasisepSolver: jax.debug.callback(_check_sorted) unless assume_sorted)",
         "tinygp/gp.py (GaussianProcess(kernel, X, diag=..., solver=..., **solver kwargs))",
         "tinygp/solvers/direct.py (DirectSolver)"],
    ),
    "JP001/pos_gpjax_fit_progress_aot.py": (
        "return traced.lower(lowering_platforms=(plan.platform,))",
        ["gpjax/scan.py (vscan, _callback: jax.debug.callback behind lax.cond every log_rate steps)",
         "gpjax/fit.py (fit(..., verbose=...) scanning the optimiser step)"],
    ),
    "JP001/pos_axlearn_vprint_aot_topology.py": (
        "return {\"train_step\": traced.lower(lowering_platforms=(target.platform,))}",
        ["axlearn/common/module.py (Module.vlog_is_on / vprint with jax.debug.print, vlog inherited from the parent)",
         "axlearn/common/config.py (Configurable.default_config().set(...), clone, instantiate(parent=...))",
         "axlearn/common/aot_compilation.py (USER_FACING_NAME_TO_SYSTEM_CHARACTERISTICS, compile_trainer_programs)"],
    ),
    "JP001/pos_jaxwt_host_designed_wavelet_cli.py": (
        "lowered = traced.lower(lowering_platforms=(args.platform,))",
        ["jaxwt/utils.py (_as_wavelet: a name or a wavelet object)",
         "jaxwt/conv_fwt.py (wavedec, _get_filter_arrays, _fwt_pad)"],
    ),
    "JP001/ok_tinygp_quasisep_presorted_export.py": (None, ["tinygp/solvers/quasisep/solver.py", "tinygp/gp.py"]),
    "JP001/ok_axlearn_vprint_cpu_topology.py": (None, ["axlearn/common/module.py", "axlearn/common/aot_compilation.py"]),
    "JP001/ok_jaxwt_builtin_wavelet_cli.py": (None, ["jaxwt/utils.py", "jaxwt/conv_fwt.py"]),
    # JP002: Pallas compiler params of one platform lowered for another
    "JP002/pos_axlearn_flash_softmax_topology.py": (
        "return pl.pallas_call(",
        ["axlearn/common/flash_attention/utils.py (flash_attention_implementation(backend, ...) factory)",
         "axlearn/common/flash_attention/gpu_attention.py (Triton pallas_call with num_warps/num_stages)",
         "axlearn/common/config.py (config_for_function(...).set(...).instantiate())",
         "axlearn/common/aot_compilation.py (SystemCharacteristics table)"],
    ),
    "JP002/pos_keras_fused_norm_export_archive.py": (
        "return pl.pallas_call(",
        ["keras/src/backend/common/global_state.py (set_global_attribute / get_global_attribute(default, set_to_default))",
         "keras/src/backend/config.py (module-level setters and getters with environment defaults)",
         "keras/src/export/saved_model_export_archive.py (ExportArchive.track / add_endpoint / write_out)"],
    ),
    "JP002/pos_tunix_sampler_logits_export_fleet.py": (
        "return pl.pallas_call(",
        ["tunix/cli/config.py (raw keys, yaml_key_to_env_key environment overrides)",
         "tunix/models/registry.py and tunix/models/naming.py (MODEL_CATALOG of ModelNaming, model_family)",
         "tunix/generate/sampler.py (sampling step over logits)"],
    ),
    "JP002/pos_quax_lora_fused_matmul_planning.py": (
        "return pl.pallas_call(_lora_kernel, out_shape=out, compiler_params=type(lora).compiler_params)(",
        ["quax/examples/lora/_core.py (LoraArray value, materialise, matmul rule)",
         "quax/_quaxify.py (quaxify wrapper)", "quax/_dispatch.py (register rules per primitive)"],
    ),
    "JP002/ok_axlearn_flash_softmax_tpu_backend.py": (None, ["axlearn/common/flash_attention/utils.py", "axlearn/common/config.py"]),
    "JP002/ok_keras_fused_norm_export_same_target.py": (None, ["keras/src/backend/common/global_state.py", "keras/src/backend/config.py"]),
    "JP002/ok_tunix_sampler_logits_export_per_platform.py": (None, ["tunix/cli/config.py", "tunix/models/registry.py"]),
    # JP003: AbstractMesh-only computation lowered without lowering_platforms
    "JP003/pos_keras_layout_map_dry_run.py": (
        "lowered = traced.lower()",
        ["keras/src/distribution/distribution_lib.py (DeviceMesh, TensorLayout, LayoutMap regex keys, ModelParallel)",
         "keras/src/backend/jax/distribution_lib.py (_to_backend_mesh, _to_backend_layout -> NamedSharding)"],
    ),
    "JP003/pos_privacy_dp_noise_zero_redundancy_plan.py": (
        "return step.trace(flat, flat, key).lower()",
        ["jax_privacy/sharding_utils.py (flatten_with_zero_redundancy: ShapeDtypeStruct with a sharding over all mesh axes)",
         "jax_privacy/noise_addition.py (matrix-factorization privatizer, noise state)"],
    ),
    "JP003/pos_tunix_policy_mesh_from_yaml.py": (
        "return fn.lower(specs, tokens)",
        ["tunix/cli/config.py (parse_mesh_config: shape / axis_names from the model's mesh section)",
         "tunix/utils/mesh.py (create_mesh)", "tunix/models/llama3/model.py (ShardingConfig.get_default_sharding)"],
    ),
    "JP003/pos_flowjax_flow_sampling_sharded_context.py": (
        "lowered = sampler.trace(noise).lower()",
        ["flowjax/bijections/affine.py, tanh.py, chain.py (bijection classes)",
         "flowjax/distributions.py (Transformed)", "flowjax/flows.py (flow factories)"],
    ),
    "JP003/ok_keras_layout_map_dry_run_tpu.py": (None, ["keras/src/distribution/distribution_lib.py"]),
    "JP003/ok_privacy_dp_noise_zero_redundancy_export.py": (None, ["jax_privacy/sharding_utils.py", "jax_privacy/noise_addition.py"]),
    "JP003/ok_tunix_reference_mesh_from_yaml.py": (None, ["tunix/cli/config.py", "tunix/utils/mesh.py"]),
    # JP004: AbstractMesh + a primitive that needs devices during lowering
    "JP004/pos_sympy2jax_dispersion_model_sharded.py": (
        "return traced.lower(lowering_platforms=(cfg.platform,))",
        ["sympy2jax/sympy_module.py (_lookup of operator names, _reduce, _single_args, SymbolicModule over expressions)"],
    ),
    "JP004/pos_privacy_canary_audit_export.py": (
        "return jax.export.export(make_step(cfg), platforms=cfg.platforms)(params, x, y, key)",
        ["jax_privacy/clipping.py (clipped_grad: per-example gradients, norms, clipping factor)",
         "jax_privacy/auditing.py (canary auditing)"],
    ),
    "JP004/pos_keras_sharding_report_callback_aot.py": (
        "return traced.lower(lowering_platforms=(platform,))",
        ["keras/src/distribution/distribution_lib.py (DeviceMesh, DataParallel, set_distribution / distribution)",
         "keras/src/callbacks/callback.py (Callback)", "keras/src/backend/jax/trainer.py (make_train_function)"],
    ),
    "JP004/pos_gpjax_gram_custom_partitioned_export.py": (
        "return jax.export.export(fn, platforms=opts[\"platforms\"])(xs, z, mu)",
        ["gpjax/kernels/computations/base.py (AbstractKernelComputation.cross_covariance)",
         "gpjax/kernels/stationary/rbf.py (RBF with compute_engine)"],
    ),
    "JP004/ok_sympy2jax_dispersion_model_device_only.py": (None, ["sympy2jax/sympy_module.py"]),
    "JP004/ok_privacy_canary_audit_off_export.py": (None, ["jax_privacy/clipping.py"]),
    "JP004/ok_keras_sharding_report_callback_local.py": (None, ["keras/src/distribution/distribution_lib.py", "keras/src/backend/jax/trainer.py"]),
    # JP005: bare string (or list) as lowering_platforms / platforms
    "JP005/pos_axlearn_aot_flag_into_config.py": (
        "return traced.lower(lowering_platforms=cfg.lowering_platforms)",
        ["axlearn/common/launch_trainer.py (flags read into the trainer config)",
         "axlearn/experiments/run_aot_compilation.py (--topology flag, _compile_and_dump_programs)",
         "axlearn/common/config.py (clone, set)"],
    ),
    "JP005/pos_torchax_module_export_env_platforms.py": (
        "exported = jax.export.export(jitted, platforms=platforms)(weights, jax.ShapeDtypeStruct(sample_shape, jnp.float32))",
        ["torchax/interop.py (JittableModule, make_jitted, jax_jit(kwargs_for_jax_jit))",
         "torchax/export.py (exported_program_to_stablehlo -> jax.export.export(jax.jit(func)))"],
    ),
    "JP005/pos_flowjax_density_fit_site_platforms.py": (
        "return traced.lower(lowering_platforms=platforms)",
        ["flowjax/train/losses.py (MaximumLikelihoodLoss)", "flowjax/train/train_utils.py (step)",
         "flowjax/bijections/affine.py (inverse_and_log_det)"],
    ),
    "JP005/pos_tinygp_matern_export_registry.py": (
        "artifacts[name] = jax.export.export(jax.jit(fn), platforms=entry[\"platforms\"])(*specs)",
        ["tinygp/kernels/stationary.py (Matern32)", "tinygp/gp.py (GaussianProcess.condition)"],
    ),
    "JP005/ok_axlearn_aot_flag_into_config_tuple.py": (None, ["axlearn/common/launch_trainer.py", "axlearn/common/config.py"]),
    "JP005/ok_torchax_module_export_env_platforms_split.py": (None, ["torchax/interop.py", "torchax/export.py"]),
    "JP005/ok_flowjax_density_fit_site_platforms_tuple.py": (None, ["flowjax/train/losses.py"]),
}


if __name__ == "__main__":
  sys.exit(main(HERE, META, __doc__))

#!/usr/bin/env python3
"""Label the library-shaped cases by running them under real JAX.

    python tests/library_cases/labels.py [--check] [--jobs N] [--python PY] [CASE ...]

Every ``JP00N/pos_*.py`` is a POSITIVE of rule JP00N: it must raise an error that
matches ``PREDICTED[JP00N]`` of ``tests/oracle/run.py`` (``re.search`` against
``"Type: message"``).  Every ``JP00N/ok_*.py`` is a NEAR MISS: it must run clean.
Files starting with ``_`` are helper modules imported by the cases, not cases.

Each case runs alone in a fresh interpreter through ``tests/oracle/harness.py``
with cwd = the case's directory (so sibling helpers import as they would with
``python CASE.py``).  The harness's observer turns JAX's silent splitting of a
bare-string ``platforms`` into a ValueError (JP005).

Without ``--check`` the results are written to ``labels.json`` (one entry per case:
file, rule, line, raised, type, message, inspired_by).  ``line`` is the 1-based line
the user must change, found from the anchor text in ``META`` (it must occur on
exactly one line of the case), and ``key``, a hash of what the outcome depends on
(jax version, the harness, the case's text, the set's ``_*.py`` helpers).  With
``--check`` nothing is written: the cases whose key changed are re-run (``--full``:
every case), and every case is compared with ``labels.json``; exit status 1 on any
disagreement (a positive that no longer raises its rule's error, a near miss that
raises, a changed type/message/line, a case missing from or extra in the labels).
CI runs ``--check``, so JAX runs only for cases edited since they were labelled.

The interpreter must have jax 0.12.0.1 (default: ``/work/main/.venv-jax/bin/python``
if it exists, else ``$ORACLE_PYTHON``, else ``python3.12``).
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
    "JP001/pos_progress_meter_solver.py": (
        "jax.export.export(fn, platforms=cfg.platforms)",
        ["equinox/internal/_progress_meter.py", "tokamax/tokamax_test.py"],
    ),
    "JP001/pos_error_if_train_step.py": (
        "traced.lower(lowering_platforms=(config[\"hardware\"],))",
        ["equinox/_errors.py", "maxtext/configs/base.yml (hardware)"],
    ),
    "JP001/pos_aot_metrics_topology.py": (
        "traced.lower(lowering_platforms=(system.platform,))",
        ["maxtext/trainers/pre_train/train_compile.py", "maxtext/utils/accelerator_to_spec_map.py",
         "maxtext/utils/max_logging.py"],
    ),
    "JP001/pos_backward_nan_cli.py": (
        "grad_fn.trace(params, x).lower(lowering_platforms=(args.target,))",
        ["equinox/debug/_backward_nan.py", "maxtext/inference/vllm_decode.py (flags)"],
    ),
    "JP001/pos_nnx_traced_stage.py": (
        "traced.lower(lowering_platforms=(\"rocm\",))",
        ["flax/nnx/transforms/compilation.py (Traced/Lowered stages)"],
    ),
    "JP001/pos_tokenizer_serving_loop.py": (
        "jax.export.export(fn, platforms=(platform,))",
        ["equinox/_callback.py (filter_pure_callback)", "tokamax/_src/ops/attention/api_test.py (export)"],
    ),
    "JP001/ok_progress_meter_host.py": (None, ["equinox/internal/_progress_meter.py"]),
    "JP001/ok_error_if_nan_mode.py": (None, ["equinox/_errors.py (on_error modes, EQX_ON_ERROR)"]),
    "JP001/ok_metrics_after_step.py": (None, ["maxtext/trainers/pre_train/train_compile.py", "maxtext/utils/max_logging.py"]),
    "JP001/ok_debug_flag_off.py": (None, ["equinox/debug/_backward_nan.py", "maxtext/configs/base.yml (debug flags)"]),
    "JP001/ok_nnx_traced_default.py": (None, ["flax/nnx/transforms/compilation.py"]),
    "JP001/ok_platform_dependent_host_branch.py": (None, ["equinox/_callback.py", "tokamax/_src/ops/attention/api_test.py"]),
    # JP002: Pallas compiler params of one platform lowered for another
    "JP002/pos_norm_impl_registry.py": (
        "return pl.pallas_call(",
        ["tokamax/_src/ops/normalization/api.py (IMPLEMENTATIONS)", "tokamax/_src/ops/attention/pallas_triton.py (Config)"],
    ),
    "JP002/pos_gmm_fleet_export.py": (
        "call_gmm = pl.pallas_call(",
        ["maxtext/kernels/megablox/backend.py (gmm pallas_call, metadata, cost_estimate)"],
    ),
    "JP002/pos_partial_kernel_cfg.py": (
        "_pallas_call = functools.partial(",
        ["tokamax/_src/ops/ragged_gather/pallas_mosaic_tpu_kernel.py (functools.partial)",
         "maxtext/kernels/mhc/common.py (module constants)"],
    ),
    "JP002/pos_op_hierarchy_loop.py": (
        "return pl.pallas_call(",
        ["tokamax/_src/ops/op.py (Op base class, _fwd override)", "tokamax/_src/ops/*/pallas_mosaic_tpu.py"],
    ),
    "JP002/pos_softmax_static_argnames_cli.py": (
        "return pl.pallas_call(",
        ["tokamax/_src/ops/attention/pallas_triton.py (_get_heuristics_config)",
         "tokamax/_src/ops/ragged_gather/pallas_mosaic_tpu_kernel.py (static_argnames)"],
    ),
    "JP002/pos_mgpu_params_gated_linear.py": (
        "return pl.pallas_call(",
        ["tokamax/_src/ops/gated_linear_unit/pallas_mosaic_gpu.py", "maxtext/kernels/mhc/common.py (abstract device)"],
    ),
    "JP002/ok_norm_impl_by_target.py": (None, ["tokamax/tokamax_test.py (impl by backend)", "tokamax/_src/ops/normalization/api.py"]),
    "JP002/ok_gmm_interpret_fleet.py": (None, ["maxtext/kernels/megablox/backend.py (interpret)"]),
    "JP002/ok_params_by_platform_table.py": (None, ["maxtext/kernels/mhc/common.py", "tokamax/_src/ops/normalization/triton.py"]),
    "JP002/ok_platform_dependent_kernel.py": (None, ["tokamax/_src/ops/op.py", "tokamax/_src/ops/*/reference.py"]),
    "JP002/ok_tpu_topology_context.py": (None, ["maxtext/kernels/mhc/common.py (tpu_mesh_context)"]),
    "JP002/ok_triton_export_disabled_checks.py": (None, ["tokamax/_src/hlo_utils.py (DISABLE_JAX_EXPORT_CHECKS)",
                                                         "tokamax/tokamax_test.py"]),
    # JP003: AbstractMesh-only computation lowered without lowering_platforms
    "JP003/pos_train_compile_shortcut.py": (
        "lowered = jitted.lower(*func_input_args)",
        ["maxtext/trainers/pre_train/train_compile.py (jit_and_compile, get_shaped_inputs)"],
    ),
    "JP003/pos_as_abstract_module.py": (
        "lowered = jax.jit(apply).trace(params, x).lower()",
        ["flax/nnx/spmd.py (as_abstract)", "flax/core/meta.py (get_global_mesh)"],
    ),
    "JP003/pos_restore_targets_cost.py": (
        "lowered = jax.jit(fn).trace(*args).lower()",
        ["orbax/checkpoint/_src/arrays/abstract_arrays.py (to_shape_dtype_struct with sharding)",
         "orbax/checkpoint/checkpoint_utils.py (construct_restore_args)"],
    ),
    "JP003/pos_partial_out_shardings_init.py": (
        "return jit_init.trace(key).lower()",
        ["maxtext/utils/maxtext_utils.py (get_abstract_state, out_shardings)"],
    ),
    "JP003/pos_rehome_avals_topology.py": (
        "lowered = jax.jit(eval_step).trace(params, batch).lower()",
        ["maxtext/training_engine/maxtext_engine_compile.py (_propagation_mesh, _rehome_aval)"],
    ),
    "JP003/pos_eager_init_in_context.py": (
        "opt_state = adam_init(shapes)",
        ["flax/nnx/spmd.py (eval_shape under a mesh)", "maxtext/kernels/mhc/common.py (use_abstract_mesh)"],
    ),
    "JP003/ok_train_compile_platforms.py": (None, ["maxtext/trainers/pre_train/train_compile.py"]),
    "JP003/ok_serving_export_abstract.py": (None, ["tokamax/_src/ops/attention/api_test.py (export)"]),
    "JP003/ok_abstract_device_topology.py": (None, ["maxtext/trainers/pre_train/train_compile.py (get_topology_mesh)",
                                                    "maxtext/kernels/mhc/common.py"]),
    "JP003/ok_auto_axes_constraint.py": (None, ["maxtext/utils/gradient_accumulation.py (maybe_shard_with_name)"]),
    "JP003/ok_concrete_local_mesh.py": (None, ["maxtext/utils/maxtext_utils.py (create_device_mesh)"]),
    "JP003/ok_eval_shape_in_context.py": (None, ["flax/nnx/spmd.py (eval_shape)"]),
    # JP004: AbstractMesh + a primitive that needs devices during lowering
    "JP004/pos_progress_meter_sharded.py": (
        "return jax.export.export(jax.jit(fixed_point, static_argnames=\"num_iters\"))(a, b)",
        ["equinox/internal/_progress_meter.py (io_callback)"],
    ),
    "JP004/pos_error_if_sharded_step.py": (
        "return jitted.trace(params, x).lower(lowering_platforms=(cfg.target,))",
        ["equinox/_errors.py (pure_callback in cond)", "maxtext/trainers/pre_train/train_compile.py"],
    ),
    "JP004/pos_debug_sharding_inspect.py": (
        "return traced.lower(lowering_platforms=(config[\"hardware\"],))",
        ["maxtext/configs/base.yml (debug_sharding)", "maxtext/utils/max_logging.py"],
    ),
    "JP004/pos_token_lengths_gpu_topology.py": (
        "lowered = jax.jit(length_penalty, in_shardings=P(\"data\")).trace(logits).lower()",
        ["maxtext/kernels/mhc/common.py (abstract device context)", "equinox/_callback.py"],
    ),
    "JP004/pos_custom_partitioned_op.py": (
        "return jax.jit(op, in_shardings=rows, out_shardings=rows).trace(x).lower(lowering_platforms=(platform,))",
        ["tokamax/_src/ops/op.py (op class; no custom_partitioning user in the five libraries, API from JAX docs)"],
    ),
    "JP004/pos_platform_dependent_host_branch.py": (
        "return jax.export.export(jax.jit(postprocess), platforms=EXPORT_PLATFORMS)(logits)",
        ["equinox/_errors.py (tpu-specific branch)", "tokamax/_src/ops/attention/api_test.py"],
    ),
    "JP004/ok_debug_print_abstract_host.py": (None, ["equinox/debug/_backward_nan.py (debug.print)"]),
    "JP004/ok_error_if_local_mesh.py": (None, ["equinox/_errors.py", "maxtext/utils/maxtext_utils.py"]),
    "JP004/ok_inspect_disabled.py": (None, ["maxtext/configs/base.yml (debug_sharding)"]),
    "JP004/ok_lengths_on_host_after_export.py": (None, ["equinox/_callback.py", "tokamax/_src/ops/attention/api_test.py (export)"]),
    "JP004/ok_error_if_nan_sharded.py": (None, ["equinox/_errors.py (on_error='nan')"]),
    "JP004/ok_custom_partitioned_local.py": (None, ["tokamax/_src/ops/op.py"]),
    # JP005: bare string as lowering_platforms / platforms
    "JP005/pos_flags_export_platform.py": (
        "exported = jax.export.export(jax.jit(embed), platforms=FLAGS.platforms)(*specs)",
        ["maxtext/checkpoint_conversion/to_huggingface.py (absl flags)", "orbax/checkpoint/_src/multihost/multihost.py"],
    ),
    "JP005/pos_config_paren_platforms.py": (
        "return traced.lower(lowering_platforms=cfg.platforms)",
        ["tokamax/_src/ops/attention/pallas_triton.py (frozen kw_only Config)"],
    ),
    "JP005/pos_default_backend_helper.py": (
        "return self.traced.lower(lowering_platforms=platform)",
        ["flax/nnx/transforms/compilation.py (stage wrappers)", "tokamax/tokamax_test.py (jax.default_backend())"],
    ),
    "JP005/pos_hardware_config_abstract.py": (
        "return traced.lower(lowering_platforms=self.config[\"hardware\"])",
        ["maxtext/configs/base.yml (hardware: 'tpu')", "maxtext/trainers/pre_train/train_compile.py"],
    ),
    "JP005/pos_env_platform_export.py": (
        "return jax.export.export(jax.jit(rank), platforms=platforms)(*specs)",
        ["equinox/_errors.py (EQX_ON_ERROR from the environment)", "tokamax/tokamax_test.py (export)"],
    ),
    "JP005/pos_traced_stage_keyword.py": (
        "lowered = traced.lower(lowering_platforms=TARGET_PLATFORM)",
        ["flax/nnx/transforms/compilation.py (Traced.lower keyword)"],
    ),
    "JP005/ok_flags_list_platforms.py": (None, ["maxtext/checkpoint_conversion/to_huggingface.py (absl flags)"]),
    "JP005/ok_config_tuple_platforms.py": (None, ["tokamax/_src/ops/attention/pallas_triton.py"]),
    "JP005/ok_default_backend_tuple.py": (None, ["flax/nnx/transforms/compilation.py"]),
    "JP005/ok_hardware_to_platforms.py": (None, ["maxtext/configs/base.yml", "maxtext/utils/accelerator_to_spec_map.py"]),
    "JP005/ok_env_platforms_split.py": (None, ["equinox/_errors.py (environment)"]),
    "JP005/ok_normalize_platforms_helper.py": (None, ["tokamax/_src/ops/normalization/api.py (str -> tuple normalization)"]),
}


if __name__ == "__main__":
  sys.exit(main(HERE, META, __doc__))

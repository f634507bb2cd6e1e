#!/usr/bin/env python3
"""Label set B's cases by running them under real JAX.

    python tests/library_cases_b/labels.py [--check] [--jobs N] [--python PY] [CASE ...]

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
    "JP001/pos_sampler_runner_precompile.py": (
        "lowered = traced.lower(lowering_platforms=(self.platform,))",
        ["tpu_inference/runner/compilation_manager.py (precompile, fn.trace/lower)",
         "tpu_inference/envs.py (environment defaults)", "tpu_inference/layers/jax/sample/sampling.py"],
    ),
    "JP001/pos_serving_module_export.py": (
        "return jax.export.export(fn, platforms=self.platforms)(*input_specs)",
        ["orbax/export/modules/obm_module.py (module holding params + export kwargs)",
         "orbax/export/jax_module.py", "tpu_inference/runner/compilation_manager.py"],
    ),
    "JP001/pos_aot_cli_forward_kwargs.py": (
        "lowered = aot_lower(jax.jit(decode_step), specs, lowering_platforms=(args.target,))",
        ["tpu_inference/tools/kernel/tuner/v1/inspect_result_cli.py (argparse CLI)",
         "tpu_inference/runner/compilation_manager.py (_run_compilation forwarding **kwargs)"],
    ),
    "JP001/pos_jit_manager_rollout.py": (
        "self._lowered[pool] = traced.lower(lowering_platforms=platforms)",
        ["tpu_inference/runner/mm_encoder_jit_manager.py (jit manager class)",
         "orbax/export/constants.py (platform constants in a sibling module)"],
    ),
    "JP001/ok_sampler_runner_host_backend.py": (None, ["tpu_inference/runner/compilation_manager.py",
                                                       "tpu_inference/layers/jax/sample/sampling.py"]),
    "JP001/ok_host_branch_platform_dependent.py": (None, ["tpu_inference/runner/compilation_manager.py (**kwargs)",
                                                          "tokamax/_src/ops/op.py (platform-specific paths)"]),
    "JP001/ok_stats_flag_disabled.py": (None, ["tpu_inference/envs.py (env_bool flags)",
                                               "tpu_inference/runner/compilation_manager.py"]),
    # JP002: Pallas compiler params of one platform lowered for another
    "JP002/pos_partial_tpu_params_gpu_export.py": (
        "call = functools.partial(pl.pallas_call,",
        ["tpu_inference/kernels/quantized_matmul/kernel.py (pltpu.CompilerParams, vmem_limit_bytes)",
         "tokamax/_src/ops/ragged_gather/pallas_mosaic_tpu.py",
         "orbax/export/jax_module.py (export helper taking platforms)"],
    ),
    "JP002/pos_norm_registry_engine.py": (
        "return pl.pallas_call(",
        ["tokamax/_src/ops/normalization/api.py (IMPLEMENTATIONS registry)",
         "jax/experimental/pallas/ops/gpu/rms_norm.py (Triton CompilerParams num_warps/num_stages)"],
    ),
    "JP002/pos_lifted_call_forward_kwargs.py": (
        "out = pl.pallas_call(kernel",
        ["qwix/_src/core/pallas.py (lifted pallas_call forwarding **kwargs)",
         "jax/experimental/pallas/ops/gpu/softmax.py (Triton params)", "tpu_inference/envs.py"],
    ),
    "JP002/pos_fleet_export_platform_dependent.py": (
        "return pl.pallas_call(",
        ["tokamax/_src/ops/gated_linear_unit/api.py (kernel implementation vs reference)",
         "orbax/export/utils.py (get_lowering_platforms, several platforms)"],
    ),
    "JP002/ok_fleet_export_per_platform.py": (None, ["tokamax/_src/ops/gated_linear_unit/api.py", "orbax/export/utils.py"]),
    "JP002/ok_norm_registry_gpu_topology.py": (None, ["tokamax/_src/ops/normalization/api.py",
                                                      "tokamax/_src/ops/normalization/triton.py"]),
    "JP002/ok_lifted_call_interpret_env.py": (None, ["qwix/_src/core/pallas.py", "tpu_inference/envs.py"]),
    # JP003: AbstractMesh-only computation lowered without lowering_platforms
    "JP003/pos_runner_topology_precompile.py": (
        "lowered = self._step.trace(*specs).lower()",
        ["tpu_inference/runner/compilation_manager.py (self.runner.mesh)",
         "tpu_inference/utils.py (get_mesh_shape_product)"],
    ),
    "JP003/pos_serving_mesh_context.py": (
        "lowered = jitted.trace(tokens, embed).lower()",
        ["tpu_inference/runner/compilation_manager.py (with jax.set_mesh(...): fn.lower)",
         "tpu_inference/runner/compilation_manager.py (prefill bucket precompile)"],
    ),
    "JP003/pos_restore_struct_cost.py": (
        "lowered = jax.jit(lambda p: jax.tree.map(lambda v: v * 1.0, p)).trace(targets).lower()",
        ["orbax/export/dtensor_utils.py (mesh helpers)", "orbax/export/jax_module.py (param shardings)"],
    ),
    "JP003/pos_abstract_state_partial_jit.py": (
        "return traced.lower(**lower_kwargs)",
        ["tpu_inference/runner/compilation_manager.py (functools.partial unwrap, **call_kwargs)",
         "tpu_inference/layers/jax (state init under shardings)"],
    ),
    "JP003/ok_runner_local_topology.py": (None, ["tpu_inference/runner/compilation_manager.py"]),
    "JP003/ok_serving_mesh_abstract_device.py": (None, ["tpu_inference/runner/compilation_manager.py",
                                                        "tpu_inference/kernels/megablox/common.py (device kind)"]),
    "JP003/ok_abstract_state_default_kwargs.py": (None, ["tpu_inference/runner/compilation_manager.py"]),
    # JP004: AbstractMesh + a primitive that needs devices during lowering
    "JP004/pos_engine_stop_check_export.py": (
        "return jax.export.export(jitted, platforms=platforms)(spec)",
        ["tpu_inference/layers/jax/sample/sampling.py", "orbax/export/modules/obm_module.py (export)"],
    ),
    "JP004/pos_inspect_sharding_env.py": (
        "return traced.lower(lowering_platforms=(config.platform,))",
        ["tpu_inference/envs.py (environment flags)", "tpu_inference/runner/compilation_manager.py"],
    ),
    "JP004/pos_metrics_topology_context.py": (
        "return traced.lower()",
        ["tpu_inference/kernels/megablox/common.py (device kind)", "tpu_inference/runner/compilation_manager.py"],
    ),
    "JP004/pos_host_stats_platform_dependent.py": (
        "return jax.export.export(jitted, platforms=platforms)(spec)",
        ["orbax/export/jax_module.py (export with platforms)", "tokamax/_src/ops/op.py (platform branches)"],
    ),
    "JP004/ok_engine_stop_check_on_device.py": (None, ["tpu_inference/layers/jax/sample/sampling.py"]),
    "JP004/ok_inspect_sharding_env_off.py": (None, ["tpu_inference/envs.py"]),
    "JP004/ok_metrics_local_mesh.py": (None, ["tpu_inference/runner/compilation_manager.py (jax.set_mesh)"]),
    # JP005: bare string as lowering_platforms / platforms
    "JP005/pos_obm_module_kwargs.py": (
        "exported[name] = jax.export.export(jitted, platforms=self.lowering_platforms())(input_spec)",
        ["orbax/export/modules/obm_module.py (apply_fn_map, jax2obm_kwargs)",
         "orbax/export/constants.py (NATIVE_SERIALIZATION_PLATFORMS)"],
    ),
    "JP005/pos_cli_lowering_platform.py": (
        "return traced.lower(lowering_platforms=a.platform)",
        ["tpu_inference/tools/kernel/tuner/v1/inspect_result_cli.py (argparse)", "tpu_inference/layers/jax/rope.py"],
    ),
    "JP005/pos_env_default_export_helper.py": (
        "exported = jax.export.export(jax.jit(fn), platforms=platforms, **export_kwargs)(*specs)",
        ["tpu_inference/envs.py (environment defaults)", "orbax/export/jax_module.py (export helper)"],
    ),
    "JP005/pos_engine_target_list.py": (
        "return traced.lower(lowering_platforms=self.lowering_targets)",
        ["tpu_inference/runner/kv_cache.py", "tpu_inference/runner/compilation_manager.py (precompile buckets)"],
    ),
    "JP005/ok_obm_module_normalized.py": (None, ["orbax/export/utils.py (get_lowering_platforms str -> list)"]),
    "JP005/ok_cli_platforms_nargs.py": (None, ["tpu_inference/tools/kernel/tuner/v1/inspect_result_cli.py (argparse)"]),
    "JP005/ok_engine_target_tuple_env.py": (None, ["tpu_inference/envs.py (env_str_list)"]),
}


if __name__ == "__main__":
  sys.exit(main(HERE, META, __doc__))

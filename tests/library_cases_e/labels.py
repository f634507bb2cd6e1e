#!/usr/bin/env python3
"""Label set E's cases by running them under real JAX.

    python tests/library_cases_e/labels.py [--check] [--jobs N] [--python PY] [CASE ...]

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
    "JP001/pos_t5x_decoding_state_callback_export.py": (
        "return jax.export.export(jax.jit(model_fn), platforms=native_lowering_platforms)(params_spec, batch_spec)",
        ["t5x/export_lib.py (save, create_inference_function: decoding_state_callback_fn, native_lowering_platforms default)",
         "t5x/decoding.py (state_callback_fn in the decoding loop)"],
    ),
    "JP001/pos_jaxopt_verbose_solver_aot.py": (
        "return traced.lower(lowering_platforms=(spec.platform,))",
        ["jaxopt/_src/base.py (IterativeSolver: run/while_loop, log_info with jax.debug.print)",
         "jaxopt/_src/gradient_descent.py (dataclass solver, verbose)"],
    ),
    "JP001/pos_acme_actor_backend_cpu.py": (
        "return traced.lower(lowering_platforms=(platform,))",
        ["acme/agents/jax/actors.py (GenericActor, jax.jit(..., backend='cpu'))",
         "acme/agents/jax/actor_core.py (ActorCore, batched_feed_forward_to_actor_core)"],
    ),
    "JP001/pos_mctx_host_simulator_platform_loop.py": (
        "lowered[platform] = traced.lower(lowering_platforms=(platform,))",
        ["mctx/_src/base.py (RootFnOutput, RecurrentFnOutput, RecurrentFn)",
         "mctx/_src/policies.py (muzero_policy: recurrent_fn, loop_fn)"],
    ),
    "JP001/ok_t5x_decoding_state_callback_optional.py": (
        None, ["t5x/export_lib.py (create_decoding_state_callback_fn=None)", "t5x/decoding.py"]),
    "JP001/ok_jaxopt_verbose_solver_quiet_deploy.py": (
        None, ["jaxopt/_src/base.py", "jaxopt/_src/gradient_descent.py"]),
    "JP001/ok_mctx_host_simulator_platform_dependent.py": (
        None, ["mctx/_src/base.py", "mctx/_src/policies.py"]),
    # JP002: Pallas compiler params of one platform lowered for another
    "JP002/pos_easydel_operation_backend_metadata.py": (
        "return pl.pallas_call(",
        ["easydel/operations/_base_operation.py (BaseOperation backend dispatch, OperationRegistry)",
         "easydel/infra/etils.py (EasyDeLBackends)"],
    ),
    "JP002/pos_fiddle_kernel_config_multi_export.py": (
        "return pl.pallas_call(",
        ["fiddle/_src/config.py (Config, Buildable)", "fiddle/_src/partial.py (Partial)",
         "fiddle/_src/building.py (build)"],
    ),
    "JP002/pos_big_vision_registry_kernel_string.py": (
        "return pl.pallas_call(",
        ["big_vision/pp/registry.py (Registry.register/lookup, parse_name with ast)",
         "big_vision/configs/common.py (get_config)"],
    ),
    "JP002/pos_objax_module_kernel_subclass.py": (
        "return pl.pallas_call(",
        ["objax/module.py (Module.vars, Jit threading a VarCollection)", "objax/variable.py (TrainVar, VarCollection)"],
    ),
    "JP002/ok_easydel_operation_backend_from_topology.py": (
        None, ["easydel/operations/_base_operation.py", "easydel/infra/etils.py"]),
    "JP002/ok_fiddle_kernel_config_per_platform.py": (
        None, ["fiddle/_src/config.py", "fiddle/_src/building.py"]),
    "JP002/ok_big_vision_registry_kernel_string_mosaic.py": (
        None, ["big_vision/pp/registry.py", "big_vision/configs/common.py"]),
    # JP003: AbstractMesh-only computation lowered without lowering_platforms
    "JP003/pos_big_vision_infer_sharding_topology.py": (
        "lowered = step.trace(params, x).lower()",
        ["big_vision/sharding.py (infer_sharding with regex rules, registered fsdp/replicate ops)",
         "big_vision/utils.py (create_device_mesh from [(axis, size)] with -1)"],
    ),
    "JP003/pos_kauldron_root_cfg_ref_aot.py": (
        "return traced.lower(**lower_kwargs)",
        ["kauldron/utils/config_util.py (ROOT_CFG_REF, UpdateFromRootCfg.update_from_root_cfg)",
         "kauldron/train/train_step.py (TrainStep fields copied from the root config)"],
    ),
    "JP003/pos_t5x_partitioner_logical_rules.py": (
        "return self._pjitted_fn.trace(*args).lower()",
        ["t5x/partitioning.py (standard_logical_axis_rules, BasePartitioner, PjittedFnWithContext.lower)"],
    ),
    "JP003/pos_seqio_feature_converter_specs.py": (
        "return jax.jit(score_batch).trace(params, batch).lower()",
        ["seqio/dataset_providers.py (TaskRegistry.add, Task)", "seqio/utils.py (Feature)",
         "seqio/feature_converters.py (EncDecFeatureConverter)"],
    ),
    "JP003/ok_big_vision_infer_sharding_topology_platform.py": (
        None, ["big_vision/sharding.py", "big_vision/utils.py"]),
    "JP003/ok_kauldron_root_cfg_ref_aot_platforms.py": (
        None, ["kauldron/utils/config_util.py", "kauldron/train/train_step.py"]),
    "JP003/ok_t5x_partitioner_logical_rules_chip_type.py": (
        None, ["t5x/partitioning.py"]),
    # JP004: AbstractMesh + a primitive that needs devices during lowering
    "JP004/pos_grain_host_transform_export.py": (
        "return jax.export.export(step)(params, batch_spec)",
        ["grain/_src/core/transforms.py (Map transform with map(element))",
         "grain/_src/python/data_loader.py (DataLoader applying operations)"],
    ),
    "JP004/pos_mctx_invalid_actions_pod_search.py": (
        "return jitted.trace(params, key, boards).lower(lowering_platforms=(platform,))",
        ["mctx/_src/policies.py (gumbel_muzero_policy: invalid_actions, max_num_considered_actions)",
         "mctx/_src/base.py (RootFnOutput, RecurrentFnOutput)"],
    ),
    "JP004/pos_jmp_policy_sharding_debug.py": (
        "return step.trace(params, scale, x, y).lower(lowering_platforms=(cfg.target_platform,))",
        ["jmp/_src/policy.py (Policy, get_policy string grammar)", "jmp/_src/loss_scale.py (DynamicLossScale)"],
    ),
    "JP004/pos_objax_custom_partitioned_norm_export.py": (
        "return jax.export.export(jitted)(tensors, x)",
        ["objax/module.py (Module.vars, swapping variables into a functional call)",
         "objax/variable.py (TrainVar, VarCollection)"],
    ),
    "JP004/ok_grain_host_transform_in_loader.py": (
        None, ["grain/_src/core/transforms.py", "grain/_src/python/data_loader.py"]),
    "JP004/ok_mctx_invalid_actions_local_mesh.py": (
        None, ["mctx/_src/policies.py", "mctx/_src/base.py"]),
    "JP004/ok_jmp_policy_sharding_debug_off.py": (
        None, ["jmp/_src/policy.py", "jmp/_src/loss_scale.py"]),
    # JP005: bare string (or list) as lowering_platforms / platforms
    "JP005/pos_fiddle_tagged_platforms_export.py": (
        "exported = jax.export.export(jax.jit(self.model.__call__), platforms=self.platforms)(params, x)",
        ["fiddle/_src/tagging.py (Tag, TaggedValue, set_tagged)", "fiddle/_src/building.py (build)"],
    ),
    "JP005/pos_t5x_gin_bindings_export_platforms.py": (
        "exported = jax.export.export(jax.jit(score_fn), platforms=native_lowering_platforms)(params, tokens)",
        ["t5x/export_lib.py (save(native_lowering_platforms=None) and its default)",
         "t5x/gin_utils.py (bindings files plus --gin. flag overrides)"],
    ),
    "JP005/pos_big_vision_parse_arg_platforms.py": (
        "lowered = traced.lower(lowering_platforms=config.aot.platforms)",
        ["big_vision/configs/common.py (parse_arg: single-string config argument, types from defaults)"],
    ),
    "JP005/pos_kauldron_konfig_flag_platforms_list.py": (
        "return traced.lower(lowering_platforms=self.aot.platforms)",
        ["kauldron/konfig/configdict_base.py (dicts with __qualname__ resolved to objects)",
         "kauldron/konfig/flags_utils.py (--cfg.path=value overrides)"],
    ),
    "JP005/ok_fiddle_tagged_platforms_tuple.py": (
        None, ["fiddle/_src/tagging.py", "fiddle/_src/building.py"]),
    "JP005/ok_big_vision_parse_arg_platforms_split.py": (
        None, ["big_vision/configs/common.py"]),
    "JP005/ok_kauldron_konfig_flag_platforms_normalized.py": (
        None, ["kauldron/konfig/configdict_base.py", "kauldron/konfig/flags_utils.py"]),
}


if __name__ == "__main__":
  sys.exit(main(HERE, META, __doc__))

#!/usr/bin/env python3
"""Label set F's cases by running them under real JAX.

    python tests/library_cases_f/labels.py [--check] [--jobs N] [--python PY] [CASE ...]

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
    "JP001/pos_optx_verbose_newton_export.py": (
        "return jax.export.export(steady_state, platforms=platforms)(rates_spec)",
        ["optimistix/_misc.py (default_verbose, _default_verbose with jax.debug.print)",
         "optimistix/_solver/gauss_newton.py (self.verbose(...) in step)", "optimistix/_root_find.py (root_find driver)"],
    ),
    "JP001/pos_jaxline_update_streams_metrics.py": (
        "return traced.lower(lowering_platforms=(check_config.platform,))",
        ["jaxline/experiment.py (AbstractExperiment step/evaluate)", "jaxline/utils.py (kwargs_only, Writer protocol)",
         "jaxline/platform.py (main dispatching on jaxline_mode)", "jaxline/train.py (train loop)"],
    ),
    "JP001/pos_cfd_trajectory_frame_stream.py": (
        "lowered[name] = rollout.trace(c0).lower(lowering_platforms=(platform,))",
        ["jax_cfd/base/funcutils.py (trajectory(step_fn, steps, post_process))", "jax_cfd/base/grids.py (Grid)",
         "jax_cfd/base/equations.py (step factories)"],
    ),
    "JP001/pos_rax_click_model_discount.py": (
        "return traced.lower(lowering_platforms=(self.platform,))",
        ["rax/_src/metrics.py (dcg_metric/ndcg_metric with gain_fn, discount_fn)", "rax/_src/t12n.py (approx_t12n)",
         "rax/_src/utils.py (ranks, approx_ranks)"],
    ),
    "JP001/ok_optx_verbose_off_newton_export.py": (None, ["optimistix/_misc.py", "optimistix/_solver/gauss_newton.py"]),
    "JP001/ok_jaxline_update_host_loop_writes.py": (None, ["jaxline/experiment.py", "jaxline/train.py (writer.write_scalars from the host loop)"]),
    "JP001/ok_cfd_trajectory_stream_cpu_branch.py": (None, ["jax_cfd/base/funcutils.py"]),
    # JP002: Pallas compiler params of one platform lowered for another
    "JP002/pos_distrax_fused_affine_flow_export.py": (
        "return pl.pallas_call(",
        ["distrax/_src/bijectors/bijector.py (Bijector base, forward from forward_and_log_det)",
         "distrax/_src/bijectors/chain.py (Chain)", "distrax/_src/distributions/transformed.py (Transformed)"],
    ),
    "JP002/pos_trax_fastmath_backend_kernel_params.py": (
        "y = pl.pallas_call(",
        ["trax/fastmath/ops.py (Backend enum, _backend_dict, override_backend, backend(), use_backend)",
         "trax/layers/base.py (Layer.pure_fn)", "trax/layers/combinators.py (Serial)"],
    ),
    "JP002/pos_sax_circuit_backend_portable_export.py": (
        "return pl.pallas_call(",
        ["sax/backends/__init__.py (circuit_backends registry)", "sax/circuits.py (circuit(netlist, models, backend=...))",
         "sax/models (SDict component models)"],
    ),
    "JP002/pos_alphafold_runmodel_topology_kernels.py": (
        "return pl.pallas_call(",
        ["alphafold/model/config.py (CONFIG, CONFIG_DIFFS, model_config, update_from_flattened_dict)",
         "alphafold/model/model.py (RunModel)", "alphafold/model/modules.py (Transition, global_config)"],
    ),
    "JP002/ok_distrax_fused_affine_family_by_platform.py": (None, ["distrax/_src/bijectors/bijector.py", "distrax/_src/bijectors/chain.py"]),
    "JP002/ok_trax_fastmath_use_backend_for_slice.py": (None, ["trax/fastmath/ops.py (use_backend)"]),
    "JP002/ok_sax_circuit_backend_export_per_platform.py": (None, ["sax/backends/__init__.py", "sax/circuits.py"]),
    # JP003: AbstractMesh-only computation lowered without lowering_platforms
    "JP003/pos_levanter_trainer_dry_run_mesh.py": (
        "lowered = traced.lower()",
        ["levanter/trainer.py (TrainerConfig: device_mesh, compute_axis_mapping, parameter_axis_mapping)",
         "levanter/trainer.py (Trainer with named_jit(in_axis_resources=...))"],
    ),
    "JP003/pos_nt_kernel_plan_sharded_inputs.py": (
        'lowered = jax.jit(kernel_fn, static_argnames="get").lower(x1, x2, get=plan.get)',
        ["neural_tangents/_src/stax/requirements.py (@layer)", "neural_tangents/_src/stax/combinators.py (serial)",
         "neural_tangents/_src/batching.py (batch(kernel_fn, device_count=...))"],
    ),
    "JP003/pos_dmpix_augment_pipeline_input_mesh.py": (
        "lowered = traced.lower()",
        ["dm_pix/_src/augment.py (random_flip_left_right, random_brightness, random_contrast, random_gamma)"],
    ),
    "JP003/pos_rax_scoring_service_bucket_warmup.py": (
        "self._lowered[list_size] = scorer.trace(*self._specs(batch, list_size)).lower()",
        ["rax/_src/utils.py (ranks, sort_by)", "rax/_src/losses.py (softmax_loss)"],
    ),
    "JP003/ok_levanter_trainer_dry_run_platform.py": (None, ["levanter/trainer.py"]),
    "JP003/ok_nt_kernel_plan_local_mesh.py": (None, ["neural_tangents/_src/stax/requirements.py", "neural_tangents/_src/batching.py"]),
    "JP003/ok_dmpix_augment_pipeline_device_mesh.py": (None, ["dm_pix/_src/augment.py"]),
    # JP004: AbstractMesh + a primitive that needs devices during lowering
    "JP004/pos_lineax_host_sparse_operator_export.py": (
        "return jax.export.export(solve, platforms=(platform,))(rhs_spec)",
        ["lineax/_operator.py (AbstractLinearOperator, MatrixLinearOperator, FunctionLinearOperator, tags)",
         "lineax/_solver/cg.py (CG)", "lineax/_solve.py (linear_solve)"],
    ),
    "JP004/pos_dopamine_host_replay_pod_compile.py": (
        "return traced.lower(lowering_platforms=(platform,))",
        ["dopamine/jax/agents/dqn/dqn_agent.py (create_optimizer, train with static_argnums, JaxDQNAgent)",
         "dopamine/discrete_domains/run_experiment.py (gin.configurable runner)"],
    ),
    "JP004/pos_trax_sharding_probe_layer.py": (
        "return step.trace(weight_specs, token_spec).lower(lowering_platforms=(spec.platform,))",
        ["trax/layers/base.py (Layer)", "trax/layers/combinators.py (Serial, Residual, flattened sublayers)",
         "trax/models (model constructors taking mode=)"],
    ),
    "JP004/pos_cfd_ensemble_spectral_filter_topology.py": (
        "return forecast.trace(members).lower()",
        ["jax_cfd/base/funcutils.py (repeated)", "jax_cfd/spectral (rfft-based steps)", "jax_cfd/base/grids.py (Grid)"],
    ),
    "JP004/ok_lineax_dense_operator_small_system.py": (None, ["lineax/_operator.py", "lineax/_solver/cg.py"]),
    "JP004/ok_dopamine_host_replay_local_profile.py": (None, ["dopamine/jax/agents/dqn/dqn_agent.py"]),
    "JP004/ok_trax_sharding_probe_eval_mode.py": (None, ["trax/layers/base.py", "trax/models (mode='eval')"]),
    # JP005: bare string (or list) as lowering_platforms / platforms
    "JP005/pos_alphafold_config_diffs_export_platforms.py": (
        "return jax.export.export(fn, platforms=cfg.export.platforms)(act_spec)",
        ["alphafold/model/config.py (CONFIG_DIFFS flattened overrides, model_config)",
         "alphafold/common/confidence.py (compute_plddt)"],
    ),
    "JP005/pos_dopamine_runner_compile_policy_list.py": (
        "self._actor_programs[platform] = traced.lower(lowering_platforms=[platform])",
        ["dopamine/jax/agents/dqn/dqn_agent.py (select_action, linearly_decaying_epsilon)",
         "dopamine/discrete_domains/run_experiment.py (create_runner, Runner)"],
    ),
    "JP005/pos_jaxline_checkpoint_compile_manifest.py": (
        'return traced.lower(lowering_platforms=manifest["platforms"])',
        ["jaxline/utils.py (InMemoryCheckpointer)", "jaxline/experiment.py (CHECKPOINT_ATTRS)",
         "jaxline/train.py (train/evaluate drivers)"],
    ),
    "JP005/pos_nt_empirical_ntk_platform_helper.py": (
        "return traced.lower(lowering_platforms=canonicalize_platforms(platforms))",
        ["neural_tangents/_src/empirical.py (empirical_ntk_fn, implementations)",
         "neural_tangents/_src/utils/utils.py (canonicalize_axis, wraps)"],
    ),
    "JP005/ok_alphafold_config_diffs_tuple_coercion.py": (None, ["alphafold/model/config.py"]),
    "JP005/ok_dopamine_runner_export_policy_list.py": (None, ["dopamine/jax/agents/dqn/dqn_agent.py", "dopamine/discrete_domains/run_experiment.py"]),
    "JP005/ok_jaxline_checkpoint_compile_manifest_split.py": (None, ["jaxline/utils.py", "jaxline/train.py"]),
}


if __name__ == "__main__":
  sys.exit(main(HERE, META, __doc__))

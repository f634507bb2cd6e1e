#!/usr/bin/env python3
"""Label set D's cases by running them under real JAX.

    python tests/library_cases_d/labels.py [--check] [--jobs N] [--python PY] [CASE ...]

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
    "JP001/pos_mcmc_progress_export.py": (
        "return jax.export.export(run, platforms=platforms)(key, init_params)",
        ["numpyro/util.py (progress_bar_factory, io_callback in lax.cond)", "numpyro/infer/mcmc.py (MCMC driver)"],
    ),
    "JP001/pos_hk_config_context_lower.py": (
        "return traced.lower(lowering_platforms=(cfg.target_platform,))",
        ["haiku/_src/config.py (Config dataclass, context manager, thread-local stack)", "haiku/_src/basic.py (Linear, MLP)"],
    ),
    "JP001/pos_brax_progress_fn_argparse.py": (
        "lowered = traced.lower(lowering_platforms=(args.deploy_platform,))",
        ["brax/training/agents/ppo/train.py (train(..., progress_fn=...))"],
    ),
    "JP001/pos_blackjax_sampler_registry_aot.py": (
        "lowered[name] = traced.lower(lowering_platforms=spec.platforms)",
        ["blackjax/base.py (SamplingAlgorithm NamedTuple)", "blackjax/mcmc/random_walk.py (rmh, irmh factories)"],
    ),
    "JP001/ok_mcmc_export_without_progress.py": (None, ["numpyro/util.py", "numpyro/infer/mcmc.py"]),
    "JP001/ok_hk_config_platform_dependent_log.py": (None, ["haiku/_src/config.py", "haiku/_src/basic.py"]),
    "JP001/ok_brax_progress_fn_local_only.py": (None, ["brax/training/agents/ppo/train.py"]),
    # JP002: Pallas compiler params of one platform lowered for another
    "JP002/pos_triton_meta_partial_export.py": (
        "return pl.pallas_call(",
        ["jax_triton/triton_lib.py (triton_call with launch meta-parameters)"],
    ),
    "JP002/pos_flashbax_device_factory_loop.py": (
        "return pl.pallas_call(",
        ["flashbax/buffers/prioritised_trajectory_buffer.py (make_prioritised_trajectory_buffer(device=...), functools.partial, frozen dataclass of pure functions)",
         "flashbax/buffers/sum_tree.py"],
    ),
    "JP002/pos_evojax_policy_subclass_backend.py": (
        "return pl.pallas_call(",
        ["evojax/policy/base.py (PolicyNetwork ABC)", "evojax/policy/mlp.py (MLPPolicy)", "evojax/trainer.py (Trainer)"],
    ),
    "JP002/pos_mlcollections_platform_dependent_multi.py": (
        "return pl.pallas_call(",
        ["ml_collections/config_dict/config_dict.py (ConfigDict, get_config())"],
    ),
    "JP002/ok_triton_meta_params_by_platform.py": (None, ["jax_triton/triton_lib.py"]),
    "JP002/ok_flashbax_device_factory_per_platform.py": (None, ["flashbax/buffers/prioritised_trajectory_buffer.py"]),
    "JP002/ok_mlcollections_platform_dependent_per_platform.py": (None, ["ml_collections/config_dict/config_dict.py"]),
    # JP003: AbstractMesh-only computation lowered without lowering_platforms
    "JP003/pos_haiku_layer_stack_topology.py": (
        "lowered = jitted.trace(params, batch).lower()",
        ["haiku/_src/layer_stack.py (stacked params applied with lax.scan)"],
    ),
    "JP003/pos_mlcollections_lower_kwargs_placeholder.py": (
        "lowered = traced.lower(**lower_kwargs_from(config))",
        ["ml_collections/config_dict/config_dict.py (ConfigDict, placeholder None)", "ml_collections/config_flags/config_flags.py (--config.x overrides)"],
    ),
    "JP003/pos_rlax_partial_jit_out_shardings.py": (
        "return traced.lower()",
        ["rlax/_src/multistep.py (lambda_returns)", "rlax/_src/value_learning.py (td_lambda)"],
    ),
    "JP003/pos_brax_abstract_mesh_context.py": (
        "return step.trace(self.state_spec(), action).lower()",
        ["brax/training/agents/ppo/train.py (num_envs split across devices)"],
    ),
    "JP003/ok_haiku_layer_stack_topology_platform.py": (None, ["haiku/_src/layer_stack.py"]),
    "JP003/ok_mlcollections_lower_kwargs_override.py": (None, ["ml_collections/config_dict/config_dict.py", "ml_collections/config_flags/config_flags.py"]),
    "JP003/ok_brax_abstract_mesh_context_device.py": (None, ["brax/training/agents/ppo/train.py"]),
    # JP004: AbstractMesh + a primitive that needs devices during lowering
    "JP004/pos_numpyro_vectorized_chains_export.py": (
        "return jax.export.export(jitted, **self.export_kwargs)(key, init)",
        ["numpyro/infer/mcmc.py (chain_method='vectorized')", "numpyro/util.py (progress_bar_factory)"],
    ),
    "JP004/pos_blackjax_smc_host_logdensity.py": (
        "return traced.lower(lowering_platforms=deployment.platforms)",
        ["blackjax/smc/tempered.py (tempered SMC)", "blackjax/smc/base.py (SMCState, reweighting)"],
    ),
    "JP004/pos_clu_sharding_writer_flags.py": (
        "return traced.lower(lowering_platforms=(FLAGS.target_platform,))",
        ["clu/metric_writers/interface.py (MetricWriter)", "absl.flags usage in clu/ml_collections launchers"],
    ),
    "JP004/pos_flashbax_custom_partitioned_priorities.py": (
        "return {platform: traced.lower(lowering_platforms=(platform,)) for platform in platforms}",
        ["flashbax/buffers/prioritised_trajectory_buffer.py (priorities, frozen dataclass of functions)"],
    ),
    "JP004/ok_numpyro_vectorized_chains_no_progress.py": (None, ["numpyro/infer/mcmc.py"]),
    "JP004/ok_blackjax_smc_host_logdensity_concrete_mesh.py": (None, ["blackjax/smc/tempered.py"]),
    "JP004/ok_clu_sharding_writer_abstract_guard.py": (None, ["clu/metric_writers/interface.py"]),
    # JP005: bare string (or list) as lowering_platforms / platforms
    "JP005/pos_numpyro_env_platforms_export.py": (
        "return jax.export.export(jax.jit(posterior_predictive), platforms=platforms)(samples, x)",
        ["numpyro/util.py (set_platform: comma-separated env value, validated by split)"],
    ),
    "JP005/pos_evojax_argparse_nargs_default.py": (
        "lowered = traced.lower(lowering_platforms=tuple(config.platforms))",
        ["evojax examples (argparse launchers, main(config))", "evojax/policy/mlp.py"],
    ),
    "JP005/pos_jaxmd_dataclass_paren_default.py": (
        "return traced.lower(lowering_platforms=spec.platforms)",
        ["jax_md/space.py (periodic)", "jax_md/energy.py (soft_sphere)", "jax_md/simulate.py (nve)"],
    ),
    "JP005/pos_clu_aot_decorator_kwargs.py": (
        "return self.jitted.trace(*specs).lower(**self.lower_kwargs)",
        ["clu/metrics.py (metric functions)", "clu/periodic_actions.py (wrapper classes)"],
    ),
    "JP005/ok_numpyro_env_platforms_split.py": (None, ["numpyro/util.py"]),
    "JP005/ok_evojax_argparse_nargs_list_default.py": (None, ["evojax examples (argparse launchers)"]),
    "JP005/ok_jaxmd_dataclass_tuple_default.py": (None, ["jax_md/simulate.py"]),
}


if __name__ == "__main__":
  sys.exit(main(HERE, META, __doc__))

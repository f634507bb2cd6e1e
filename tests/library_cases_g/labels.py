#!/usr/bin/env python3
"""Label set G's cases by running them under real JAX.

    python tests/library_cases_g/labels.py [--check] [--jobs N] [--python PY] [CASE ...]

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
    "JP001/pos_ott_sinkhorn_progress_export.py": (
        "return jax.export.export(jax.jit(transport_cost), platforms=(cfg.target,))(spec, spec)",
        ["ott/utils.py (default_progress_fn returning a progress_callback)",
         "ott/solvers/linear/sinkhorn.py (Sinkhorn(progress_fn=...), jax.debug.callback in one_iteration)",
         "ott/math/fixed_point_loop.py (fixpoint_iter with inner_iterations)"],
    ),
    "JP001/pos_cola_cg_pbar_gp_lowering.py": (
        "return traced.lower(lowering_platforms=dep.platforms)",
        ["cola/utils/jax_tqdm.py (pbar_while: jax.debug.callback / io_callback progress in a while loop)",
         "cola/linalg/inverse/cg.py (CG algorithm dataclass with pbar, cg(..., pbar=...))",
         "cola/backends/jax_fns.py (while_loop_winfo)", "cola/linalg/inverse/inv.py (Auto algorithm)"],
    ),
    "JP001/pos_netket_numba_hamiltonian_rule_aot.py": (
        "return traced.lower(lowering_platforms=(config.netket_aot_platform,))",
        ["netket/sampler/rules/hamiltonian.py (HamiltonianRuleNumba.transition via jax.pure_callback)",
         "netket/utils/config_flags.py (config.define with env-var defaults)",
         "netket/sampler/metropolis.py (MetropolisHamiltonian picking the rule)"],
    ),
    "JP001/pos_gymnax_logwrapper_debug_rollout_export.py": (
        'exported = jax.export.export(evaluate, platforms=CONFIG["EXPORT_PLATFORMS"])(param_specs, key_spec)',
        ["gymnax/registration.py (_registry of factories, make(env_id) -> env, default params)",
         "gymnax/wrappers/purerl.py (GymnaxWrapper.__getattr__, LogWrapper, LogEnvState)",
         "gymnax/environments/classic_control/cartpole.py (EnvState, EnvParams, step_env)"],
    ),
    "JP001/ok_ott_sinkhorn_progress_local_only_export.py": (None, ["ott/utils.py", "ott/solvers/linear/sinkhorn.py"]),
    "JP001/ok_cola_cg_pbar_small_train_set.py": (None, ["cola/utils/jax_tqdm.py", "cola/linalg/inverse/inv.py (Auto picks a dense solve for small operators)"]),
    "JP001/ok_netket_jax_hamiltonian_rule_aot.py": (None, ["netket/sampler/rules/hamiltonian.py (HamiltonianRuleJax for jax operators)"]),
    # JP002: Pallas compiler params of one platform lowered for another
    "JP002/pos_jaxley_dhs_gpu_solver_tpu_export.py": (
        "return pl.pallas_call(",
        ["jaxley/integrate.py (voltage_solver='jaxley.dhs' -> .gpu for _solver_device in ['gpu', 'tpu'])",
         "jaxley/modules/base.py (_init_morph_jaxley_dhs_solve(allowed_nodes_per_level) sets _solver_device)",
         "jaxley/utils/jax_utils.py (infer_device)", "jaxley/modules/network.py (Network._solver_device)"],
    ),
    "JP002/pos_evosax_open_es_fused_ask_gpu_eval.py": (
        "return pl.pallas_call(",
        ["evosax/algorithms/base.py (EvolutionaryAlgorithm init/ask/tell -> _init/_ask/_tell, _default_params)",
         "evosax/algorithms/distribution_based/open_es.py (Open_ES, antithetic sampling)",
         "evosax/algorithms/__init__.py (algorithms registry by name)"],
    ),
    "JP002/pos_paxml_registry_serving_experiment_export.py": (
        "return pl.pallas_call(",
        ["paxml/experiment_registry.py (register decorator, get by partial key)",
         "paxml/base_experiment.py (BaseExperiment.task, subclasses overriding class attributes)",
         "paxml/tasks_lib.py / pax_fiddle (Config trees built with instantiate)"],
    ),
    "JP002/pos_pgx_az_baseline_selfplay_tpu_topology.py": (
        "return pl.pallas_call(",
        ["pgx/core.py (make(env_id) with lazy per-game construction, State with legal_action_mask)",
         "pgx/_src/baseline.py (make_baseline_model dispatching to _make_az_/_make_minatar_baseline_model)",
         "pgx/tic_tac_toe.py (init/step/observe)"],
    ),
    "JP002/ok_jaxley_dhs_serial_solver_tpu_export.py": (None, ["jaxley/integrate.py", "jaxley/modules/base.py (allowed_nodes_per_level=1 -> cpu)"]),
    "JP002/ok_evosax_open_es_fused_ask_platform_dependent.py": (None, ["evosax/algorithms/base.py", "evosax/algorithms/distribution_based/open_es.py"]),
    "JP002/ok_paxml_registry_serving_experiment_interpret.py": (None, ["paxml/experiment_registry.py", "paxml/base_experiment.py"]),
    # JP003: AbstractMesh-only computation lowered without lowering_platforms
    "JP003/pos_paxml_pjit_partitioner_aot_topology.py": (
        "return pjitted_fn.trace(*args).lower(**kwargs)",
        ["paxml/partitioning.py (PjitPartitioner from ici/dcn mesh shapes, compile_for_auto_sharding)",
         "paxml/trainer_lib.py (bind_mesh wrapping call and lower in the mesh context)"],
    ),
    "JP003/pos_netket_mcstate_expect_plan_abstract.py": (
        "return traced.lower()",
        ["netket/vqs/mc/mc_state/state.py (NamedSharding(jax.sharding.get_abstract_mesh(), P()))",
         "netket/_src/ngd/sr.py (reshard to the context mesh)", "netket/utils/config_flags.py (sharding mesh setup)"],
    ),
    "JP003/pos_jumanji_vmap_rollout_throughput_plan.py": (
        "return rollout.trace(keys).lower()",
        ["jumanji/registration.py (register(id, entry_point='module:Class', **kwargs), make, load)",
         "jumanji/wrappers.py (VmapWrapper, AutoResetWrapper)", "jumanji/types.py (TimeStep, restart, transition)"],
    ),
    "JP003/pos_tfp_hmc_sample_chain_shape_check.py": (
        "lowered = run_chains.lower(init_spec, seed_spec)",
        ["tensorflow_probability/substrates/jax/mcmc/sample.py (sample_chain(num_results, current_state, kernel, trace_fn, seed))",
         "tensorflow_probability/substrates/jax/mcmc/hmc.py (HamiltonianMonteCarlo, kernel results namedtuples)",
         "tensorflow_probability/substrates/jax/internal/samplers.py (split_seed)"],
    ),
    "JP003/ok_paxml_pjit_partitioner_aot_topology_platform.py": (None, ["paxml/partitioning.py", "paxml/trainer_lib.py"]),
    "JP003/ok_netket_mcstate_expect_plan_local.py": (None, ["netket/vqs/mc/mc_state/state.py", "netket/utils/config_flags.py"]),
    "JP003/ok_jumanji_vmap_rollout_throughput_plan_tpu.py": (None, ["jumanji/registration.py", "jumanji/wrappers.py"]),
    # JP004: AbstractMesh + a primitive that needs devices during lowering
    "JP004/pos_netket_numpy_sampler_sharded_chains_plan.py": (
        "return fn.trace(params, key, sigma).lower(lowering_platforms=(platform,))",
        ["netket/sampler/rules/hamiltonian.py (pure_callback transition over get_conn_flattened)",
         "netket/sampler/metropolis_numpy.py (host-side sampler)", "netket/jax/sharding (chains along 'S')"],
    ),
    "JP004/pos_oryx_harvest_sharding_audit_pod.py": (
        "lowered = jitted.trace(params, x).lower(lowering_platforms=(cfg.platform,))",
        ["oryx/core/interpreters/harvest.py (sow(value, tag=, name=), reap(f, tag=, allowlist=, blocklist=), HarvestSettings)"],
    ),
    "JP004/pos_bayeux_guarded_density_chain_sharded_lowering.py": (
        "return run.trace(init, seed).lower(lowering_platforms=(platform,))",
        ["bayeux/_src/shared.py (Base: log_density, test_point, transform_fn, constrained_log_density, get_kwargs)",
         "bayeux/_src/bayeux.py (Model with namespaces bound on construction)",
         "bayeux/_src/debug.py (verbosity-gated debug checks)"],
    ),
    "JP004/pos_dynamax_lgssm_batch_partitioned_export.py": (
        "return jax.export.export(total, platforms=platforms)(params_spec, emissions)",
        ["dynamax/linear_gaussian_ssm/inference.py (ParamsLGSSM, ParamsLGSSMInitial/Dynamics/Emissions)",
         "dynamax/linear_gaussian_ssm/models.py (LinearGaussianSSM.initialize, marginal_log_prob)"],
    ),
    "JP004/ok_netket_numpy_sampler_sharded_chains_device_mesh.py": (None, ["netket/sampler/rules/hamiltonian.py", "netket/sampler/metropolis_numpy.py"]),
    "JP004/ok_oryx_harvest_sharding_audit_none_selected.py": (None, ["oryx/core/interpreters/harvest.py"]),
    "JP004/ok_bayeux_guarded_density_debug_level_one.py": (None, ["bayeux/_src/shared.py", "bayeux/_src/bayeux.py"]),
    # JP005: bare string (or list) as lowering_platforms / platforms
    "JP005/pos_sbx_sac_policy_export_env_platforms.py": (
        "return jax.export.export(jax.jit(act), platforms=platforms)(param_spec, obs_spec)",
        ["sbx/common/policies.py (BaseJaxPolicy static jitted select_action/sample_action)",
         "sbx/sac/policies.py (SACPolicy.build, _predict)", "sbx/common/distributions.py (TanhTransformedDistribution.mode)"],
    ),
    "JP005/pos_evosax_bbob_snes_loop_json_platforms.py": (
        'return traced.lower(lowering_platforms=run_cfg["aot"]["platforms"])',
        ["evosax/problems/problem.py (Problem init/eval/sample)", "evosax/problems/bbob/bbob.py (BBOBProblem)",
         "evosax/algorithms/distribution_based (SNES-style ask/tell, default params)"],
    ),
    "JP005/pos_coix_svi_program_compile_options.py": (
        "return step.trace(params, key).lower(lowering_platforms=opts.platforms)",
        ["coix/core.py (register_backend, set_backend, get_backend, traced_evaluate)",
         "coix/api.py (propose(p, q, loss_fn=...))", "coix/algo.py (svi = propose(target, proposal, loss_fn=elbo_loss))"],
    ),
    "JP005/pos_pgx_baseline_export_cli_platforms.py": (
        "exported = jax.export.export(jax.jit(make_act(forward)), platforms=args.platforms)(param_spec, obs, mask)",
        ["pgx/core.py (make(env_id))", "pgx/_src/baseline.py (make_baseline_model returning forward and params)",
         "pgx/connect_four.py (State, legal_action_mask)"],
    ),
    "JP005/ok_sbx_sac_policy_export_env_platforms_split.py": (None, ["sbx/common/policies.py", "sbx/sac/policies.py"]),
    "JP005/ok_evosax_bbob_snes_loop_json_platforms_tuple.py": (None, ["evosax/problems/problem.py", "evosax/problems/bbob/bbob.py"]),
    "JP005/ok_pgx_baseline_export_cli_platforms_list_default.py": (None, ["pgx/core.py", "pgx/_src/baseline.py"]),
}


if __name__ == "__main__":
  sys.exit(main(HERE, META, __doc__))

#!/usr/bin/env python3
"""Label set J's cases by running them under real JAX.

    python tests/library_cases_j/labels.py [--check] [--jobs N] [--python PY] [CASE ...]

What a label is and what --check compares: tests/library_cases/labels.py; the
runner: tests/library_cases/labelling.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "library_cases"))
from labelling import main  # noqa: E402

META: dict[str, tuple[str | None, list[str]]] = {
    # JP001: host callback lowered for another platform
    "JP001/pos_tqdm_rollout_export_target.py": (
        "exported = jax.export.export(fn, platforms=DEPLOY_TARGETS[args.fleet])(spec, spec)",
        ["jax_tqdm/base.py (build_tqdm: jax.debug.callback(ordered=True) behind lax.cond)",
         "jax_tqdm/scan_pbar.py (scan_tqdm decorator)"],
    ),
    "JP001/pos_navix_sweep_debug_aot.py": (
        "return traced.lower(lowering_platforms=(exp.platform,))",
        ["navix/agents/agent.py (HParams.debug, frozen hparams with .replace)",
         "navix/agents/ppo.py (if self.hparams.debug: jax.debug.callback(self.log_to_wandb, ...))"],
    ),
    "JP001/pos_jaxns_numpy_likelihood_sampler.py": (
        "return traced.lower(lowering_platforms=(self.config.target,))",
        ["jaxns/jaxify.py (jaxify_likelihood: pure_callback around a NumPy likelihood)"],
    ),
    "JP001/pos_jaxlie_pose_solver_committed_cpu.py": (
        "lowered = traced.lower(lowering_platforms=(\"cuda\",))",
        ["jaxlie/utils/_utils.py (register_lie_group decorator)", "jaxlie/_so2.py (SO2 unit_complex)",
         "jax_dataclasses/_dataclasses.py (pytree_dataclass, Static)", "jax_dataclasses/_copy_and_mutate.py"],
    ),
    "JP001/ok_tqdm_rollout_export_quiet.py": (None, ["jax_tqdm/base.py", "jax_tqdm/scan_pbar.py"]),
    "JP001/ok_navix_sweep_aot_quiet.py": (None, ["navix/agents/agent.py", "navix/agents/ppo.py"]),
    "JP001/ok_jaxns_jax_likelihood_sampler.py": (None, ["jaxns/jaxify.py"]),
    # JP002: Pallas compiler params of one platform lowered for another
    "JP002/pos_ringattention_recipe_backend.py": (
        "return pl.pallas_call(",
        ["ringattention/__init__.py (backend-keyed choice of ring_flash_attention_tpu / _gpu / ring_attention)",
         "ringattention/ringattention_pallas_tpu.py (BlockSizes.get_default)"],
    ),
    "JP002/pos_ringattention_blocksizes_export_fleet.py": (
        "return pl.pallas_call(",
        ["ringattention/ringattention_pallas_tpu.py (BlockSizes, SegmentIds, _flash_attention_impl pallas_call)"],
    ),
    "JP002/pos_eformer_int8_matmul_fleet_loop.py": (
        "return pl.pallas_call(",
        ["eformer/ops/quantization/quantization_functions.py (TPU pallas_call, interpret=local platform == 'cpu', _USE_KERNEL_ON_TPU)",
         "eformer/ops/quantization/_config.py (QuantizationConfig)"],
    ),
    "JP002/pos_jdc_triton_params_tpu_plan.py": (
        "return pl.pallas_call(",
        ["jax_dataclasses/_dataclasses.py (pytree_dataclass with static fields)"],
    ),
    "JP002/ok_ringattention_recipe_backend_tpu.py": (None, ["ringattention/__init__.py", "ringattention/ringattention_pallas_tpu.py"]),
    "JP002/ok_ringattention_blocksizes_export_pods.py": (None, ["ringattention/ringattention_pallas_tpu.py"]),
    "JP002/ok_eformer_int8_matmul_kernel_on_tpu.py": (None, ["eformer/ops/quantization/quantization_functions.py"]),
    # JP003: AbstractMesh-only computation lowered without lowering_platforms
    "JP003/pos_eformer_dry_run_mesh_forward.py": (
        "lowered = fn.trace(x, w).lower()",
        ["eformer/escale/mesh/creation.py (create_mesh / _cached_mesh, backend or jax.default_backend())",
         "eformer/escale/partition/manager.py (PartitionAxis.resolve_spec)"],
    ),
    "JP003/pos_quadax_partial_out_shardings.py": (
        "lowered = integrate_all.lower(ks, ks)",
        ["quadax/_adaptive.py (quadgk(fun, interval, args) signature)", "quadax/_fixed_order.py (Gauss-Kronrod rule)"],
    ),
    "JP003/pos_xminigrid_registry_batched_reset.py": (
        "lowered = jax.jit(lambda k: reset(k)).trace(keys).lower()",
        ["xminigrid/registration.py (EnvSpec, _REGISTRY, register, load, make)"],
    ),
    "JP003/pos_jaxlie_se3_batch_context_mesh.py": (
        "lowered = traced.lower()",
        ["jaxlie/utils/_utils.py (register_lie_group)", "jaxlie/_se3.py (wxyz_xyz, apply)"],
    ),
    "JP003/ok_eformer_dry_run_mesh_forward_tpu.py": (None, ["eformer/escale/mesh/creation.py", "eformer/escale/partition/manager.py"]),
    "JP003/ok_quadax_partial_out_shardings_platforms.py": (None, ["quadax/_adaptive.py"]),
    "JP003/ok_xminigrid_registry_batched_reset_planned_tpu.py": (None, ["xminigrid/registration.py"]),
    # JP004: AbstractMesh + a primitive that needs devices during lowering
    "JP004/pos_jaxns_sharded_live_points_export.py": (
        "exp = jax.export.export(make_sweep(model), platforms=(\"tpu\",))(U)",
        ["jaxns/jaxify.py (jaxify_likelihood, vectorised -> vmap_method='broadcast_all')"],
    ),
    "JP004/pos_eformer_partition_manager_debug_aot.py": (
        "return traced.lower(lowering_platforms=(\"tpu\",))",
        ["eformer/escale/partition/manager.py (PartitionManager context manager)",
         "eformer/escale/partition/constraints.py (with_sharding_constraint by semantic axes)"],
    ),
    "JP004/pos_quadax_special_integrand_registry.py": (
        "lowered = build(name).trace(ks).lower(lowering_platforms=(\"cpu\",))",
        ["quadax/_adaptive.py (quadgk API)"],
    ),
    "JP004/pos_xminigrid_benchmark_ruleset_export.py": (
        "exp = jax.export.export(reset, platforms=[\"tpu\"])(keys)",
        ["xminigrid/benchmarks.py (Benchmark, get_ruleset, sample_ruleset, load_benchmark)"],
    ),
    "JP004/ok_jaxns_sharded_live_points_jax_model.py": (None, ["jaxns/jaxify.py"]),
    "JP004/ok_eformer_partition_manager_debug_off.py": (None, ["eformer/escale/partition/manager.py"]),
    "JP004/ok_quadax_special_integrand_local_mesh.py": (None, ["quadax/_adaptive.py"]),
    # JP005: bad lowering_platforms / platforms values
    "JP005/pos_eformer_aparser_export_platforms.py": (
        "exported = jax.export.export(jax.jit(embed), platforms=args.platforms)(*specs)",
        ["eformer/aparser/_aparser.py (Argu, DataClassArgumentParser.parse_args_into_dataclasses)"],
    ),
    "JP005/pos_mpi4jax_env_aot_target.py": (
        "return traced.lower(lowering_platforms=_runtime.LOWERING_TARGET)",
        ["mpi4jax/_src/jax_compat.py (environment switches read with os.environ.get)"],
    ),
    "JP005/pos_jaxmarl_env_export_table.py": (
        "return jax.export.export(jax.jit(env.step), platforms=entry[\"platforms\"])(spec, spec, spec)",
        ["jaxmarl/registration.py (make(env_id, **env_kwargs), registered_envs)"],
    ),
    "JP005/pos_jdc_solver_targets_list.py": (
        "return traced.lower(lowering_platforms=list(cfg.targets))",
        ["jax_dataclasses/_dataclasses.py (Static fields)", "jax_dataclasses/_copy_and_mutate.py"],
    ),
    "JP005/ok_eformer_aparser_export_platforms_nargs.py": (None, ["eformer/aparser/_aparser.py"]),
    "JP005/ok_mpi4jax_env_aot_target_split.py": (None, ["mpi4jax/_src/jax_compat.py"]),
    "JP005/ok_jaxmarl_env_export_table_tuple.py": (None, ["jaxmarl/registration.py"]),
}


if __name__ == "__main__":
  sys.exit(main(HERE, META, __doc__))

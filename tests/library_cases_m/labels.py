#!/usr/bin/env python3
"""Label set M's cases by running them under real JAX.

    python tests/library_cases_m/labels.py [--check] [--jobs N] [--python PY] [CASE ...]

Set M is held out: written from RULES.md and jax-facts.md without seeing the
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
    "JP001/pos_jaxsph_cavity_matscipy_gpu_aot.py": (
        "lowered = traced.lower(lowering_platforms=aot_platforms(cfg))",
        ["jax_sph/defaults.py (set_defaults fills a nested config; cfg.gpu = 0 picks the GPU)",
         "jax_sph/partition.py (neighbor_list: BACKENDS table; matscipy backend is a jax.pure_callback)",
         "jax_sph/case_setup.py (SimulationSetup parent class, case classes loaded by name)"],
    ),
    "JP001/pos_praxis_fp16_overflow_checks_tpu_export.py": (
        "return jax.export.export(fprop, platforms=exp.SERVING_PLATFORMS)(params, x)",
        ["praxis/layers/quantization/overflow_check.py (OverflowChecker mixin: jax.debug.callback under lax.cond; "
         "FeedForwardOverflowCheck(FeedForward, OverflowChecker))",
         "praxis/base_layer.py (instance_field), praxis/pax_fiddle.py (templates instantiated later)",
         "paxml experiment registry (class attributes overridden by subclasses)"],
    ),
    "JP001/pos_diffrax_reject_log_clip_controller_rocm.py": (
        "lowered = solve.trace(y0, rates).lower(lowering_platforms=(args.target,))",
        ["diffrax/_step_size_controller/clip.py (ClipStepSizeController wraps a controller; "
         "_callback_on_reject runs through jax.pure_callback)",
         "diffrax/_integrate.py (diffeqsolve while_loop driven by the controller)"],
    ),
    "JP001/pos_vbjax_host_streaming_monitor_cluster_cuda.py": (
        "lowered = sweep.trace(ks, x0, zs, w).lower(lowering_platforms=(cfg.platform,))",
        ["vbjax/__init__.py (platform, is_cpu, is_gpu probed at import)",
         "vbjax/loops.py (make_sde returns (step, loop))",
         "vbjax/app/dopa/sweep.py (vmapped parameter sweeps, branches on vb.is_cpu)"],
    ),
    "JP001/ok_jaxsph_periodic_vmap_gpu_aot.py": (None, ["jax_sph/partition.py", "jax_sph/case_setup.py"]),
    "JP001/ok_praxis_no_overflow_checks_tpu_export.py": (None, ["praxis/layers/quantization/overflow_check.py"]),
    "JP001/ok_vbjax_host_streaming_monitor_workstation_cpu.py": (None, ["vbjax/__init__.py", "vbjax/app/dopa/sweep.py"]),
    # JP002: Pallas compiler params of one platform lowered for another
    "JP002/pos_recurrentgemma_forced_pallas_scan_tpu_export.py": (
        "return jax.export.export(jax.jit(lru.__call__), platforms=(\"tpu\",))(params, x, h0)",
        ["recurrentgemma/common.py (ScanType, Preset.config_dict match, GriffinConfig NamedTuple)",
         "recurrentgemma/jax/scan.py (resolve_scan_type on jax.local_devices()[0].platform, match dispatch)",
         "recurrentgemma/jax/pallas.py (compute_pallas_kernel_spec reads jax.devices()[0].platform; "
         "linear_rnn_pallas_call)"],
    ),
    "JP002/pos_praxis_pallas_norm_fleet_experiment_export.py": (
        "return pl.pallas_call(",
        ["praxis/layers/gpu_fast_attention.py (GpuTritonFusedLayerNorm subclasses LayerNorm)",
         "praxis/layers/normalizations.py", "paxml experiment classes (class attributes, registry by class name)"],
    ),
    "JP002/pos_penzai_rewired_triton_softmax_tpu_plan.py": (
        "return pl.pallas_call(",
        ["penzai/core/selectors.py (pz.select(...).at_instances_of(...).apply)",
         "penzai/toolshed/jit_wrapper.py (Jitted layer)", "penzai/nn layers as frozen dataclasses"],
    ),
    "JP002/pos_gemma_pallas_softcap_manifest_loop_export.py": (
        "return pl.pallas_call(",
        ["gemma/gm/text/_sampler.py (frozen kw_only Sampler, strategy fields with default_factory)",
         "gemma/gm/text/_sampling.py (Greedy)", "gemma/gm/nn/_config.py (final logit soft-cap)"],
    ),
    "JP002/ok_recurrentgemma_preset_auto_scan_tpu_export.py": (None, ["recurrentgemma/jax/scan.py", "recurrentgemma/common.py"]),
    "JP002/ok_penzai_rewired_triton_softmax_h100_plan.py": (None, ["penzai/core/selectors.py"]),
    "JP002/ok_gemma_pallas_softcap_manifest_tpu_only_export.py": (None, ["gemma/gm/text/_sampler.py"]),
    # JP003: AbstractMesh-only computation lowered without lowering_platforms
    "JP003/pos_haliax_named_jit_planned_fsdp_mesh.py": (
        "lowered = step.lower(*params, batch)",
        ["haliax/partitioning.py (thread-local axis_mapping, named_jit wrapper whose lower() infers "
         "in/out shardings from axis names, infer_resource_partitions, pspec_for_axis)",
         "haliax/axis.py (Axis)"],
    ),
    "JP003/pos_jraph_plan_mode_flag_graph_predictions.py": (
        "lowered = predict.lower(spec)",
        ["jraph/ogb_examples/train.py (absl flags with DEFINE_enum mode, pad_graph_to_nearest_power_of_two)",
         "jraph/_src/models.py (GraphNetwork factory over update functions)", "jraph/_src/graph.py (GraphsTuple)"],
    ),
    "JP003/pos_penzai_named_shape_structs_topology_plan.py": (
        "return traced.lower()",
        ["penzai/toolshed/sharding_util.py (name_to_name_sharding with as_shape_dtype_struct=True)",
         "penzai/core/named_axes.py (NamedArray: named_axes OrderedDict + data_array)"],
    ),
    "JP003/pos_praxis_dry_run_explicit_mesh_eager_init.py": (
        "variables = [layer.init(k) for layer, k in zip(layers, keys)]",
        ["praxis/py_utils.py (create_device_mesh from ici_mesh_shape and dcn_mesh_shape)",
         "praxis/base_layer.py (ICI_MESH_SHAPE, mesh_axis_names; variables initialised under the mesh)"],
    ),
    "JP003/ok_haliax_named_jit_local_fsdp_mesh.py": (None, ["haliax/partitioning.py"]),
    "JP003/ok_jraph_train_mode_flag_graph_predictions.py": (None, ["jraph/ogb_examples/train.py"]),
    "JP003/ok_praxis_dry_run_auto_mesh_eager_init.py": (None, ["praxis/py_utils.py"]),
    # JP004: AbstractMesh + a primitive that needs devices during lowering
    "JP004/pos_diffrax_env_text_progress_ensemble_tpu.py": (
        "return solve.trace(y0).lower(lowering_platforms=(\"tpu\",))",
        ["diffrax/_progress_meter.py (AbstractProgressMeter, NoProgressMeter, TextProgressMeter; "
         "_ProgressMeterManager uses io_callback)"],
    ),
    "JP004/pos_gemma_tool_sampler_default_tools_tpu_plan.py": (
        "return traced.lower(lowering_platforms=(\"tpu\",))",
        ["gemma/gm/text/_tool_sampler.py (sampler with tools)", "gemma/gm/tools/_manager.py, _tools.py, "
         "_calculator.py (tools run in Python)", "gemma/gm/text/_sampler.py (frozen kw_only dataclass)"],
    ),
    "JP004/pos_jaxsph_relaxation_matscipy_sharded_export.py": (
        "return jax.export.export(step, platforms=(\"cpu\",))(r, idx)",
        ["jax_sph/partition.py (matscipy backend: jax.pure_callback)", "jax_sph/defaults.py (nested defaults)",
         "jax_sph/case_setup.py (set_relaxation overrides)", "jax_sph/kernel.py (Wendland C2)"],
    ),
    "JP004/pos_penzai_inspect_sharding_rewire_planned_cuda.py": (
        "return forward.trace(x).lower(lowering_platforms=(config.platform,))",
        ["penzai/toolshed/sharding_util.py (ConstrainSharding layers)",
         "penzai/core/selectors.py (insert_after on selected instances)",
         "penzai/toolshed/save_intermediates.py (layers inserted for debugging)"],
    ),
    "JP004/ok_diffrax_env_no_progress_ensemble_tpu.py": (None, ["diffrax/_progress_meter.py"]),
    "JP004/ok_gemma_tool_sampler_no_default_tools_tpu_plan.py": (None, ["gemma/gm/tools/_manager.py"]),
    "JP004/ok_jaxsph_relaxation_vmap_sharded_export.py": (None, ["jax_sph/partition.py"]),
    # JP005: bad lowering_platforms / platforms values
    "JP005/pos_chex_learner_allowed_backends_no_comma.py": (
        "with restrict_backends(allowed=LEARNER_BACKENDS):",
        ["chex/_src/restrict_backends.py (restrict_backends(allowed=..., forbidden=...) normalises with tuple())"],
    ),
    "JP005/pos_flowmc_bundle_export_target_strenum.py": (
        "export_targets = Target.TPU",
        ["flowMC/Sampler.py (resources/strategies dicts, strategy_order)",
         "flowMC/resource_strategy_bundle/base.py, RQSpline_MALA.py (bundle subclasses pre-configure)"],
    ),
    "JP005/pos_jraph_export_platforms_string_flag.py": (
        "return jax.export.export(jax.jit(net_fn), platforms=FLAGS.export_platforms)(*args)",
        ["jraph/ogb_examples/train.py (absl flags)", "jraph/_src/utils.py (segment_mean)"],
    ),
    "JP005/pos_vbjax_cli_aot_platforms_type_split.py": (
        "lowered = traced.lower(lowering_platforms=args.platforms)",
        ["vbjax/__main__.py (argparse sub-commands with set_defaults(func=...))", "vbjax/loops.py (make_ode)",
         "vbjax/neural_mass.py (MPR model)"],
    ),
    "JP005/ok_chex_learner_allowed_backends_tuple.py": (None, ["chex/_src/restrict_backends.py"]),
    "JP005/ok_jraph_export_platforms_list_flag.py": (None, ["jraph/ogb_examples/train.py"]),
    "JP005/ok_vbjax_cli_aot_platforms_type_tuple.py": (None, ["vbjax/__main__.py"]),
}


if __name__ == "__main__":
  sys.exit(main(HERE, META, __doc__))

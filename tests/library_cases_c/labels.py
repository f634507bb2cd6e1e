#!/usr/bin/env python3
"""Label set C's cases by running them under real JAX.

    python tests/library_cases_c/labels.py [--check] [--jobs N] [--python PY] [CASE ...]

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
    "JP001/pos_solver_progress_export.py": (
        'exported = jax.export.export(fn, platforms=[cfg["export_platform"]])(y0)',
        ["diffrax/_progress_meter.py (TextProgressMeter, io_callback)", "diffrax/_solver/heun.py"],
    ),
    "JP001/pos_module_debug_chain.py": (
        "return traced.lower(lowering_platforms=(self.config.model.platform,))",
        ["equinox/_module (Module, field(static=True))", "equinox/debug (debug prints)"],
    ),
    "JP001/pos_sampler_kwargs_partial.py": (
        "return jax.jit(self.step).trace(state_spec).lower(**lower_kwargs)",
        ["gemma/gm/text/_sampler.py (Sampler)", "equinox/_callback.py (pure_callback)"],
    ),
    "JP001/pos_graphnet_platform_loop.py": (
        "artifacts[platform] = traced.lower(lowering_platforms=(platform,))",
        ["jraph/_src/graph.py (GraphsTuple)", "jraph/_src/models.py (GraphNetwork, segment_sum)"],
    ),
    "JP001/ok_solver_no_meter_export.py": (None, ["diffrax/_progress_meter.py (NoProgressMeter)"]),
    "JP001/ok_module_debug_default_backend.py": (None, ["equinox/_module", "equinox/debug"]),
    "JP001/ok_platform_dependent_stop.py": (None, ["gemma/gm/text/_sampler.py", "equinox/_callback.py"]),
    # JP002: Pallas compiler params of one platform lowered for another
    "JP002/pos_lru_scan_type_config.py": (
        "return pl.pallas_call(",
        ["recurrentgemma/jax/scan.py (ScanType, resolve_scan_type)", "recurrentgemma/jax/pallas.py (linear_rnn_pallas_call)"],
    ),
    "JP002/pos_norm_impl_getattr.py": (
        "return pl.pallas_call(",
        ["tokamax/_src/ops/normalization/api.py (IMPLEMENTATIONS)", "tokamax/_src/ops/normalization/pallas_triton.py"],
    ),
    "JP002/pos_hparams_partial_pallas.py": (
        "_tiled_call = functools.partial(pl.pallas_call",
        ["maxtext/configs/pyconfig.py (HyperParameters.__getattr__)", "maxtext/kernels/megablox/backend.py"],
    ),
    "JP002/pos_platform_dependent_fleet.py": (
        "return pl.pallas_call(",
        ["tokamax/_src/ops/op.py", "maxtext/trainers/pre_train/train_compile.py (compile_topology)"],
    ),
    "JP002/ok_lru_scan_type_auto.py": (None, ["recurrentgemma/jax/scan.py (ScanType.AUTO via local_devices)"]),
    "JP002/ok_norm_impl_getattr_mosaic.py": (None, ["tokamax/_src/ops/normalization/api.py"]),
    "JP002/ok_platform_dependent_per_pool.py": (None, ["tokamax/_src/ops/op.py"]),
    # JP003: AbstractMesh-only computation lowered without lowering_platforms
    "JP003/pos_topology_yaml_train_step.py": (
        "lowered = jitted.trace(*args).lower()",
        ["maxtext/trainers/pre_train/train_compile.py (get_topology_mesh, get_shaped_inputs, jit_and_compile)",
         "maxtext/configs/base.yml"],
    ),
    "JP003/pos_module_mesh_property.py": (
        "return jax.jit(fn, **kwargs).lower(*args)",
        ["equinox/_module (frozen dataclass module)", "equinox/_jit.py (filter_jit wrapper)"],
    ),
    "JP003/pos_compile_options_property.py": (
        "return jitted.trace(params, tokens).lower(lowering_platforms=opts.lowering_platforms)",
        ["maxtext/training_engine/maxtext_engine_compile.py", "gemma (json-configured export options)"],
    ),
    "JP003/pos_decorator_abstract_context.py": (
        "return jitted.trace(spec, spec).lower()",
        ["maxtext/kernels/mhc/common.py (tpu_mesh_context, use_abstract_mesh)"],
    ),
    "JP003/ok_compile_options_property.py": (None, ["maxtext/training_engine/maxtext_engine_compile.py"]),
    "JP003/ok_decorator_abstract_device.py": (None, ["maxtext/kernels/mhc/common.py (AbstractDevice)"]),
    "JP003/ok_module_mesh_export.py": (None, ["equinox/_module", "tokamax export tests"]),
    # JP004: AbstractMesh + a primitive that needs devices during lowering
    "JP004/pos_module_error_if_export.py": (
        "return jax.export.export(jitted, platforms=platforms)(y, dt)",
        ["equinox/_errors.py (error_if, pure_callback)", "diffrax/_term.py (ODETerm vector_field)"],
    ),
    "JP004/pos_debug_sharding_getattr.py": (
        "return traced.lower(lowering_platforms=(config.hardware,))",
        ["maxtext/configs/pyconfig.py (__getattr__)", "maxtext/configs/base.yml (debug_sharding)"],
    ),
    "JP004/pos_metrics_io_callback_partial.py": (
        'lowered = sgd_step.trace(*args).lower(lowering_platforms=("cpu",))',
        ["equinox/internal/_progress_meter.py (io_callback)", "maxtext/utils/max_logging.py"],
    ),
    "JP004/pos_partitioned_op_topology.py": (
        "return jax.jit(op, in_shardings=P(\"rows\"), out_shardings=P(\"rows\")).trace(x).lower()",
        ["tokamax/_src/ops/op.py (op class)", "maxtext/utils/accelerator_to_spec_map.py (topologies)"],
    ),
    "JP004/ok_module_error_if_disabled.py": (None, ["equinox/_errors.py"]),
    "JP004/ok_debug_sharding_default_off.py": (None, ["maxtext/configs/pyconfig.py", "maxtext/configs/base.yml"]),
    "JP004/ok_metrics_debug_callback_partial.py": (None, ["equinox/debug (jax.debug.callback)"]),
    # JP005: bare string as lowering_platforms / platforms
    "JP005/pos_checkpoint_export_yaml.py": (
        'return jax.export.export(jax.jit(forward), platforms=cfg["export_platforms"])(shapes, tokens)',
        ["gemma/gm (checkpoint export)", "maxtext/configs/base.yml"],
    ),
    "JP005/pos_default_arg_paren.py": (
        "return self.trace(*args, **kwargs).lower(lowering_platforms=platforms)",
        ["equinox/_jit.py (stage wrapper)", "flax-style Traced/Lowered stages"],
    ),
    "JP005/pos_module_platform_property.py": (
        "return traced.lower(lowering_platforms=model.lowering_platforms)",
        ["jraph/_src/models.py (GCN)", "maxtext/utils/accelerator_to_spec_map.py"],
    ),
    "JP005/pos_platform_list_comprehension.py": (
        "return traced.lower(lowering_platforms=platforms)",
        ["maxtext/inference (argparse CLIs)"],
    ),
    "JP005/ok_checkpoint_export_split.py": (None, ["gemma/gm (checkpoint export)"]),
    "JP005/ok_default_arg_tuple.py": (None, ["equinox/_jit.py"]),
    "JP005/ok_platform_tuple_generator.py": (None, ["maxtext/inference (argparse CLIs)"]),
}


if __name__ == "__main__":
  sys.exit(main(HERE, META, __doc__))

#!/usr/bin/env python3
"""Label set A's cases by running them under real JAX.

    python tests/library_cases_a/labels.py [--check] [--jobs N] [--python PY] [CASE ...]

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
    # JP001: host callback lowered for a platform other than the backend
    "JP001/pos_overflow_layer_serving.py": (
        "return traced.lower(lowering_platforms=(cfg.platform,))",
        ["praxis/layers/quantization/overflow_check.py (OverflowChecker mixin, debug.callback in cond)"],
    ),
    "JP001/pos_train_step_metrics_export.py": (
        "return jax.export.export(fn, platforms=self.config.export.platforms)(*specs)",
        ["levanter/logging.py (jittable_wandb_log)", "levanter/trainer.py (TrainerConfig nested dataclasses)"],
    ),
    "JP001/pos_optimizer_chain_aot_loop.py": (
        "artifacts[platform] = traced.lower(lowering_platforms=(platform,))",
        ["optax/_src/base.py (GradientTransformation)", "optax/_src/combine.py (chain)"],
    ),
    "JP001/pos_host_lookup_jitted_wrapper.py": (
        "return Jitted(model).lower(spec, lowering_platforms=(platform,))",
        ["penzai/toolshed/jit_wrapper.py (Jitted layer wrapper)"],
    ),
    "JP001/ok_overflow_layer_host_backend.py": (None, ["praxis/layers/quantization/overflow_check.py"]),
    "JP001/ok_train_step_metrics_host_only.py": (None, ["levanter/logging.py", "levanter/trainer.py"]),
    "JP001/ok_optimizer_chain_per_platform.py": (None, ["optax/_src/combine.py (chain)"]),
    # JP002: Pallas compiler params of one platform lowered for another
    "JP002/pos_norm_registry_config.py": (
        "return pl.pallas_call(",
        ["levanter/models/*.py (LmConfig.register_subclass registry)"],
    ),
    "JP002/pos_softmax_factory_export.py": (
        "call = functools.partial(pl.pallas_call, compiler_params=params)",
        ["levanter/trainer.py (nested config dataclasses)", "flax/nnx/transforms/compilation.py (factory returning jitted fn)"],
    ),
    "JP002/pos_fused_add_fleet_export.py": (
        "return pl.pallas_call(",
        ["praxis (module constants from sibling modules)", "JAX facts: platform_dependent in multi-platform export"],
    ),
    "JP002/pos_pallas_op_hierarchy_loop.py": (
        "return pl.pallas_call(",
        ["praxis/base_layer.py (layer class hierarchy with overridden methods)"],
    ),
    "JP002/ok_norm_registry_by_target.py": (None, ["levanter/models/*.py (LmConfig.register_subclass registry)"]),
    "JP002/ok_fused_add_per_platform_export.py": (None, ["praxis (module constants)"]),
    "JP002/ok_pallas_op_hierarchy_interpret.py": (None, ["praxis/base_layer.py (class hierarchy)"]),
    # JP003: AbstractMesh-only computation lowered without lowering_platforms
    "JP003/pos_trainer_mesh_config.py": (
        "return jitted.trace(params, batch).lower()",
        ["levanter/trainer.py (TrainerConfig.device_mesh, compute_axis_mapping)"],
    ),
    "JP003/pos_named_jit_axis_context.py": (
        "return jax.jit(self._fn, out_shardings=self._out_shardings()).lower(*args)",
        ["haliax/partitioning.py (named_jit, _NamedJitWrapper.lower, axis_mapping context)"],
    ),
    "JP003/pos_abstract_opt_state_helper.py": (
        "return traced.lower(lowering_platforms=platforms)",
        ["optax/_src/base.py (state NamedTuples)", "levanter (eval_shape of optimizer state)"],
    ),
    "JP003/pos_logical_rules_model_apply.py": (
        "return jax.jit(module.apply).trace(params, x).lower()",
        ["flax/linen/partitioning.py (logical axis rules)", "flax/core/meta.py (get_global_mesh)"],
    ),
    "JP003/ok_trainer_device_mesh.py": (None, ["levanter/trainer.py (device_mesh from jax.devices())"]),
    "JP003/ok_abstract_opt_state_target_kwargs.py": (None, ["optax/_src/base.py"]),
    "JP003/ok_logical_rules_abstract_device.py": (None, ["flax/core/meta.py (get_global_mesh)"]),
    # JP004: AbstractMesh + primitive that needs devices during lowering
    "JP004/pos_step_host_metrics_export.py": (
        "return jax.export.export(jax.jit(eval_step), platforms=cfg.serve.platforms)(*specs)",
        ["levanter/logging.py (host logging from jit)", "levanter/trainer.py (nested config)"],
    ),
    "JP004/pos_visualize_shardings_debug.py": (
        "return jax.jit(attention_scores).trace(params, x).lower(lowering_platforms=(platform,))",
        ["haliax/debug.py (debug helpers)", "flax/core/meta.py (get_global_mesh)", "penzai/toolshed/sharding_util.py (tree-wide sharding helpers)"],
    ),
    "JP004/pos_sharded_logsumexp_registry.py": (
        "return fn.trace(logits, labels, reduction=cfg.reduction).lower(lowering_platforms=(cfg.platform,))",
        ["optax/losses (cross-entropy)", "levanter/models/*.py (register_subclass registry)"],
    ),
    "JP004/pos_detokenize_step_factory.py": (
        "return step.trace(spec).lower(lowering_platforms=(\"cpu\",))",
        ["penzai/toolshed/token_visualization.py (host-side vocab lookups)", "flax/nnx/transforms/compilation.py (factory)"],
    ),
    "JP004/ok_overflow_check_abstract_lowering.py": (None, ["praxis/layers/quantization/overflow_check.py (debug.callback)"]),
    "JP004/ok_step_host_metrics_local_mesh.py": (None, ["levanter/logging.py", "levanter/trainer.py (device_mesh)"]),
    "JP004/ok_visualize_shardings_flag_off.py": (None, ["haliax/debug.py"]),
    # JP005: bare string as platforms
    "JP005/pos_export_config_overrides.py": (
        "return jax.export.export(jax.jit(embed_tokens), platforms=cfg.platforms)(*specs)",
        ["levanter/config.py (draccus-style CLI overrides into dataclasses)"],
    ),
    "JP005/pos_serving_constant_lowering.py": (
        "return traced.lower(lowering_platforms=SERVING_PLATFORMS)",
        ["praxis (module constants)", "penzai/models (decoding loops)"],
    ),
    "JP005/pos_aot_lowerer_partial.py": (
        "return functools.partial(_lower, lowering_platforms=platform, **jit_kwargs)",
        ["flax/nnx/transforms/compilation.py (stage wrappers)", "levanter/trainer.py (jax.default_backend())"],
    ),
    "JP005/pos_export_platform_loop.py": (
        "jax.export.export(jitted, platforms=platform)(*specs)",
        ["chex/_src/variants.py (test variants parameterized by backend)"],
    ),
    "JP005/ok_export_config_overrides_split.py": (None, ["levanter/config.py"]),
    "JP005/ok_serving_canary_lowering.py": (None, ["praxis (module constants)"]),
    "JP005/ok_export_platform_loop_list.py": (None, ["chex/_src/variants.py"]),
}


if __name__ == "__main__":
  sys.exit(main(HERE, META, __doc__))

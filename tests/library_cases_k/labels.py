#!/usr/bin/env python3
"""Label set K's cases by running them under real JAX.

    python tests/library_cases_k/labels.py [--check] [--jobs N] [--python PY] [CASE ...]

Set K is held out: written from RULES.md and jax-facts.md without seeing the
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
    "JP001/pos_dynamiqs_default_meter_export.py": (
        "return jax.export.export(solve, platforms=(\"tpu\",))(H, psi0, tsave)",
        ["dynamiqs/progress_meter.py (AbstractProgressMeter, TextProgressMeter)",
         "dynamiqs/utils/global_settings.py (_DEFAULT_PROGRESS_METER, set_progress_meter)",
         "dynamiqs/options.py (Options.initialise resolves progress_meter=None)"],
    ),
    "JP001/pos_rejax_host_env_eval_cuda.py": (
        "return traced.lower(lowering_platforms=(target,))",
        ["rejax/algos/algorithm.py (Algorithm.create(**config), create_env, eval_callback)",
         "rejax/compat/__init__.py (create: prefix table + importlib)",
         "rejax/compat/gymnasium2gymnax.py (pure_callback step/reset, cached_property shape dtypes)"],
    ),
    "JP001/pos_s2fft_method_table_cli.py": (
        "lowered = traced.lower(lowering_platforms=(args.platform,))",
        ["s2fft/transforms/spherical.py (forward: method string, _forward_functions table)"],
    ),
    "JP001/pos_craftax_logged_env_committed_tpu.py": (
        "lowered = traced.lower(lowering_platforms=(\"tpu\",))",
        ["craftax/craftax_env.py (make_craftax_env_from_name(name, auto_reset))",
         "craftax/craftax/envs (auto-reset / log wrappers over an env object)"],
    ),
    "JP001/ok_dynamiqs_meter_off_export.py": (None, ["dynamiqs/progress_meter.py", "dynamiqs/options.py"]),
    "JP001/ok_rejax_native_env_eval_cuda.py": (None, ["rejax/algos/algorithm.py", "rejax/compat/__init__.py"]),
    "JP001/ok_s2fft_method_table_cli_jax.py": (None, ["s2fft/transforms/spherical.py"]),
    # JP002: Pallas compiler params of one platform lowered for another
    "JP002/pos_ejkernel_registry_config_triton.py": (
        "return pl.pallas_call(",
        ["ejkernel/kernels/_registry.py (Platform/Backend StrEnum, KernelSpec, KernelRegistry.register/get)",
         "ejkernel/modules/base.py (detect_platform: explicit platform wins, KernelConfig)",
         "ejkernel/kernels/_pallas/gpu/ragged_decode_attention/_pallas_impl_fwd.py (triton CompilerParams)"],
    ),
    "JP002/pos_fjformer_match_platform_fleet_export.py": (
        "return pl.pallas_call(",
        ["fjformer/kernels/gemm.py (module-level PLATFORM, match PLATFORM dispatch)",
         "fjformer/kernels/tpu_ops/pallas_gemm.py (block-size heuristic, 3-D grid TPU matmul)"],
    ),
    "JP002/pos_cueq_uniform_1d_targets_export.py": (
        "return pl.pallas_call(",
        ["cuequivariance_jax/segmented_polynomials/segmented_polynomial.py (required method=, options dict, match method)"],
    ),
    "JP002/pos_e3nn_global_config_mosaic_multiplatform.py": (
        "return pl.pallas_call(",
        ["e3nn_jax/_src/config.py (process-wide config(name, value) dict)"],
    ),
    "JP002/ok_ejkernel_registry_config_pallas.py": (None, ["ejkernel/kernels/_registry.py", "ejkernel/modules/base.py"]),
    "JP002/ok_fjformer_match_platform_nightly_export.py": (None, ["fjformer/kernels/gemm.py", "fjformer/kernels/tpu_ops/pallas_gemm.py"]),
    "JP002/ok_cueq_naive_targets_export.py": (None, ["cuequivariance_jax/segmented_polynomials/segmented_polynomial.py"]),
    # JP003: AbstractMesh-only computation lowered without lowering_platforms
    "JP003/pos_jaxdecomp_config_dry_run_pfft.py": (
        "return traced.lower(lowering_platforms=config.lowering_platforms)",
        ["jaxdecomp/__init__.py (JAXDecompConfig, config.update(key, value))",
         "jaxdecomp/_src/jax/fft.py (pencil FFT, transpose_axis_contiguous output specs)"],
    ),
    "JP003/pos_interpax_wrap_jit_query_sharding.py": (
        "lowered = interp1d.lower(xq, table, table, method=\"linear\")",
        ["interpax/utils.py (wrap_jit)", "interpax/_spline.py (interp1d with static method)"],
    ),
    "JP003/pos_rejax_sharding_plan_td_targets.py": (
        "lowered = traced.lower()",
        ["rejax/algos/pqn.py (TD/lambda targets)", "rejax/algos/algorithm.py (create(**config))"],
    ),
    "JP003/pos_s2fft_precompute_transform_out_sharding.py": (
        "lowered = transform.forward.lower(f)",
        ["s2fft/precompute_transforms/spherical.py (precomputed kernels)",
         "s2fft/sampling/s2_samples.py (ntheta/nphi per sampling)"],
    ),
    "JP003/ok_jaxdecomp_config_dry_run_pfft_platforms.py": (None, ["jaxdecomp/__init__.py"]),
    "JP003/ok_interpax_wrap_jit_query_sharding_devices.py": (None, ["interpax/utils.py"]),
    "JP003/ok_rejax_sharding_plan_td_targets_tpu_device.py": (None, ["rejax/algos/pqn.py"]),
    # JP004: AbstractMesh + a primitive that needs devices during lowering
    "JP004/pos_jaxdecomp_spmd_halo_dry_run.py": (
        "return traced.lower(lowering_platforms=(\"cpu\",))",
        ["jaxdecomp/_src/spmd_ops.py (custom_spmd_rule: custom_partitioning with sharding_rule)"],
    ),
    "JP004/pos_rejax_gymnasium_vmapped_reset_plan.py": (
        "lowered = reset.trace(keys).lower(lowering_platforms=(\"tpu\",))",
        ["rejax/compat/gymnasium2gymnax.py (pure_callback reset, vmap_method='sequential')",
         "rejax/compat/__init__.py (create by prefix)"],
    ),
    "JP004/pos_s2fft_sharding_report_export.py": (
        "exported = jax.export.export(jax.jit(rotate_flms), platforms=(\"tpu\",))(spec)",
        ["s2fft/utils/rotation.py (Wigner-d phase rotation of flm)"],
    ),
    "JP004/pos_dynamiqs_save_extra_host_sink.py": (
        "lowered = traced.lower(lowering_platforms=(\"cuda\",))",
        ["dynamiqs/options.py (Options.save_extra)", "dynamiqs/integrators/apis/mesolve.py (batched sweeps)"],
    ),
    "JP004/ok_jaxdecomp_spmd_halo_local_grid.py": (None, ["jaxdecomp/_src/spmd_ops.py"]),
    "JP004/ok_rejax_native_vmapped_reset_plan.py": (None, ["rejax/compat/__init__.py"]),
    "JP004/ok_s2fft_sharding_report_off_export.py": (None, ["s2fft/utils/rotation.py"]),
    # JP005: bad lowering_platforms / platforms values
    "JP005/pos_ejkernel_backend_enum_export.py": (
        "return jax.export.export(fn, platforms=plan.platforms)(*plan.specs)",
        ["ejkernel/kernels/_registry.py (Backend StrEnum)"],
    ),
    "JP005/pos_craftax_ini_aot_platforms.py": (
        "lowered = traced.lower(lowering_platforms=aot.get(\"platforms\"))",
        ["craftax/craftax_env.py (make_craftax_env_from_name)", "craftax/craftax_classic (symbolic env state)"],
    ),
    "JP005/pos_rejax_json_sweep_lowering_list.py": (
        "return traced.lower(lowering_platforms=aot[\"lowering_platforms\"])",
        ["rejax/__init__.py (_algos table, get_algo)", "rejax/algos/algorithm.py (create(**config))"],
    ),
    "JP005/pos_e3nn_sh_planning_default_platforms.py": (
        "return jax.jit(fn).trace(*specs).lower(lowering_platforms=platforms)",
        ["e3nn_jax/_src/spherical_harmonics (component normalization)", "e3nn_jax/_src/config.py (module-level defaults)"],
    ),
    "JP005/ok_ejkernel_backend_enum_tuple_export.py": (None, ["ejkernel/kernels/_registry.py"]),
    "JP005/ok_craftax_ini_aot_platforms_tuple.py": (None, ["craftax/craftax_env.py"]),
    "JP005/ok_rejax_json_sweep_lowering_tuple.py": (None, ["rejax/__init__.py"]),
}


if __name__ == "__main__":
  sys.exit(main(HERE, META, __doc__))

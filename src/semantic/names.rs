//! Knowledge of JAX's public API: canonical dotted paths and their aliases.
//!
//! Rules match canonical paths, never spellings: `pltpu.CompilerParams`,
//! `jax.experimental.pallas.tpu.CompilerParams` and
//! `jax._src.pallas.mosaic.core.CompilerParams` are one name.

/// Rewrites an import-resolved dotted path to its canonical spelling.
pub fn canonicalize(path: &str) -> std::borrow::Cow<'_, str> {
    // Longest-prefix aliases: a module (or object) reachable under two names.
    const PREFIXES: &[(&str, &str)] = &[
        (
            "jax._src.pallas.mosaic.core.",
            "jax.experimental.pallas.tpu.",
        ),
        (
            "jax._src.pallas.triton.core.",
            "jax.experimental.pallas.triton.",
        ),
        (
            "jax._src.pallas.mosaic_gpu.core.",
            "jax.experimental.pallas.mosaic_gpu.",
        ),
        ("jax._src.pallas.pallas_call.", "jax.experimental.pallas."),
        ("jax._src.pallas.helpers.", "jax.experimental.pallas."),
        ("jax._src.pallas.core.", "jax.experimental.pallas."),
        ("jax._src.lax.control_flow.conditionals.", "jax.lax."),
        ("jax._src.lax.control_flow.", "jax.lax."),
        ("jax._src.lax.lax.", "jax.lax."),
        ("jax._src.callback.", "jax."),
        ("jax._src.debugging.", "jax.debug."),
        ("jax._src.mesh.", "jax.sharding."),
        ("jax._src.sharding_impls.", "jax.sharding."),
        ("jax._src.partition_spec.", "jax.sharding."),
        ("jax._src.export._export.", "jax.export."),
        ("jax._src.api.", "jax."),
        ("jax._src.pjit.", "jax."),
        ("jax.experimental.export.", "jax.export."),
        ("jax.experimental.shard_map.", "jax."),
    ];
    const EXACT: &[(&str, &str)] = &[
        ("jax.P", "jax.sharding.PartitionSpec"),
        ("jax.sharding.P", "jax.sharding.PartitionSpec"),
        ("jax.NamedSharding", "jax.sharding.NamedSharding"),
        ("jax.use_abstract_mesh", "jax.sharding.use_abstract_mesh"),
        ("jax.set_mesh", "jax.sharding.set_mesh"),
        ("jax.make_mesh", "jax.sharding.make_mesh"),
        ("jax.pjit", "jax.jit"),
        ("jax.experimental.pjit.pjit", "jax.jit"),
        ("jax.experimental.pure_callback", "jax.pure_callback"),
        ("jax.callback.io_callback", "jax.experimental.io_callback"),
        ("jax.io_callback", "jax.experimental.io_callback"),
        (
            "jax.experimental.pallas.tpu.TPUCompilerParams",
            "jax.experimental.pallas.tpu.CompilerParams",
        ),
    ];
    for (from, to) in EXACT {
        if path == *from {
            return std::borrow::Cow::Borrowed(to);
        }
    }
    for (from, to) in PREFIXES {
        if let Some(rest) = path.strip_prefix(from) {
            return std::borrow::Cow::Owned(format!("{to}{rest}"));
        }
        if path == from.trim_end_matches('.') && from.ends_with('.') {
            return std::borrow::Cow::Owned(to.trim_end_matches('.').to_owned());
        }
    }
    std::borrow::Cow::Borrowed(path)
}

pub const JIT: &str = "jax.jit";
pub const EXPORT: &str = "jax.export.export";
pub const PALLAS_CALL: &str = "jax.experimental.pallas.pallas_call";
pub const PLATFORM_DEPENDENT: &str = "jax.lax.platform_dependent";
pub const ABSTRACT_MESH: &str = "jax.sharding.AbstractMesh";
pub const CUSTOM_PARTITIONING: &str = "jax.experimental.custom_partitioning.custom_partitioning";
pub const NAMED_SHARDING: &str = "jax.sharding.NamedSharding";
pub const PARTITION_SPEC: &str = "jax.sharding.PartitionSpec";
pub const USE_ABSTRACT_MESH: &str = "jax.sharding.use_abstract_mesh";
pub const SET_MESH: &str = "jax.sharding.set_mesh";
pub const SHAPE_DTYPE_STRUCT: &str = "jax.ShapeDtypeStruct";
pub const DEVICE_PUT: &str = "jax.device_put";
pub const DEVICES: &str = "jax.devices";
pub const LOCAL_DEVICES: &str = "jax.local_devices";
pub const PARTIAL: &str = "functools.partial";
pub const BUFFER_CALLBACK: &str = "jax.experimental.buffer_callback.buffer_callback";
pub const PALLAS_KERNEL: &str = "jax.experimental.pallas.kernel";
pub const MOSAIC_GPU_KERNEL: &str = "jax.experimental.pallas.mosaic_gpu.kernel";

/// `pallas_call(compiler_params=...)` classes and the platform family they lower for.
pub fn compiler_params_family(path: &str) -> Option<ParamsFamily> {
    match path {
        "jax.experimental.pallas.tpu.CompilerParams" => Some(ParamsFamily::Tpu),
        "jax.experimental.pallas.triton.CompilerParams" => Some(ParamsFamily::Triton),
        "jax.experimental.pallas.mosaic_gpu.CompilerParams" => Some(ParamsFamily::MosaicGpu),
        _ => None,
    }
}

/// The platform a Pallas `CompilerParams` class is registered for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamsFamily {
    /// `pltpu.CompilerParams`: registered for `tpu`.
    Tpu,
    /// `pltriton.CompilerParams`: registered for `gpu` (cuda, rocm).
    Triton,
    /// `plgpu.CompilerParams`: registered for nothing in `pallas_call`.
    MosaicGpu,
}

/// Host callbacks: lowered through `emit_python_callback`, which needs the
/// computation's backend to match the lowering platform.
pub fn host_callback(path: &str) -> Option<&'static str> {
    match path {
        "jax.pure_callback" => Some("jax.pure_callback"),
        "jax.experimental.io_callback" => Some("io_callback"),
        "jax.debug.print" => Some("jax.debug.print"),
        "jax.debug.callback" => Some("jax.debug.callback"),
        _ => None,
    }
}

/// Primitives in `dispatch.prim_requires_devices_during_lowering` (facts 2g).
pub fn requires_devices(path: &str) -> bool {
    matches!(
        path,
        "jax.pure_callback"
            | "jax.experimental.io_callback"
            | "jax.debug.inspect_array_sharding"
            | CUSTOM_PARTITIONING
    )
}

/// Linear-algebra operations whose primitives register lowering rules per
/// platform (cpu/cuda/rocm/tpu) with no default, so an unknown platform name
/// finds none (checked for eig and eigh under jax 0.12).
pub fn is_platform_specific_op(path: &str) -> bool {
    const LINALG: &[&str] = &[
        "eig",
        "eigh",
        "eigvals",
        "eigvalsh",
        "svd",
        "qr",
        "cholesky",
        "lu",
        "lu_factor",
        "det",
        "slogdet",
        "inv",
        "solve",
        "lstsq",
        "pinv",
        "matrix_rank",
        "schur",
        "hessenberg",
        "tridiagonal",
        "tridiagonal_solve",
    ];
    let name = path.rsplit('.').next().unwrap_or("");
    (path.starts_with("jax.numpy.linalg.")
        || path.starts_with("jax.scipy.linalg.")
        || path.starts_with("jax.lax.linalg."))
        && LINALG.contains(&name)
}

/// Platform names JAX has lowering rules for.
pub const KNOWN_PLATFORMS: &[&str] = &["cpu", "cuda", "rocm", "tpu", "oneapi"];

pub fn is_accelerator(platform: &str) -> bool {
    matches!(platform, "cuda" | "rocm" | "tpu" | "oneapi")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_reach_one_name() {
        assert_eq!(
            canonicalize("jax._src.pallas.mosaic.core.CompilerParams"),
            "jax.experimental.pallas.tpu.CompilerParams"
        );
        assert_eq!(canonicalize("jax.P"), "jax.sharding.PartitionSpec");
        assert_eq!(
            canonicalize("jax.experimental.export.export"),
            "jax.export.export"
        );
        assert_eq!(canonicalize("jax.numpy.zeros"), "jax.numpy.zeros");
        assert_eq!(canonicalize("mypkg.kernels"), "mypkg.kernels");
    }
}

//! JP006 unknown-platform: a platform name JAX has no backend for.

use super::{tuple_source, Context, Rule, RuleMeta};
use crate::diagnostic::{Finding, Severity};
use crate::fix::{Applicability, Edit, Fix};
use crate::semantic::names::KNOWN_PLATFORMS;
use crate::semantic::LoweringKind;
use crate::syntax::unparenthesize;
use crate::syntax::KindName;

pub struct Jp006;

static META: RuleMeta = RuleMeta {
    code: "JP006",
    name: "unknown-platform",
    severity: Severity::Error,
    template: "MLIR translation rule for primitive '{primitive}' not found for platform {platform}",
    summary: "A lowering platform that is not one of cpu, cuda, rocm, tpu, oneapi (\"GPU\", \"nvidia\", \"tpuv5\"), or \"gpu\".",
    upstream_id: None,
    explanation: r#"## What it means

JAX's lowering platforms are `cpu`, `cuda`, `rocm`, `tpu` and `oneapi`. Nothing
validates the names you pass: `canonicalize_platform` only rewrites the alias
`gpu` and returns anything else unchanged, so `"GPU"`, `"nvidia"` or `"tpuv5"` lower
happily until a primitive with platform-specific rules (a Pallas kernel,
`jax.debug.print`, a host callback, `platform_dependent`) finds no rule for that
name. An export for such a name can never be called (`Function 'f' was exported
for platforms '('GPU',)' but it is used on '('cuda',)'`). `"gpu"` resolves to
the present GPU platform, so it only works on a machine that has one.

## When it happens

At lowering (`MLIR translation rule for primitive 'debug_print' not found for
platform nvidia`, ``EmitPythonCallback` not supported on TPU backend``,
`Unsupported platform: TPU`), at `Exported.call`, or for `"gpu"` on a host without
a GPU: `Unknown backend: 'gpu' requested, but no platforms that are instances of
gpu are present`.

## How to fix

Use the canonical name: `"cuda"` or `"rocm"` for GPUs, `"tpu"`, `"cpu"`.

## Example

```python
jax.jit(f).trace(x).lower(lowering_platforms=("GPU",))   # f uses jax.debug.print
# NotImplementedError: MLIR translation rule for primitive 'debug_print' not found for platform GPU
```

## JAX source

`jax/_src/xla_bridge.py:754-772` (`canonicalize_platform`, `:770` for `gpu`),
`jax/_src/interpreters/mlir.py:2650` and `:2667`, `jax/_src/callback.py:814`.
"#,
};

/// The name a user most likely meant.
fn suggestion(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    Some(match lower.as_str() {
        "cpu" => "cpu",
        "tpu" => "tpu",
        "cuda" | "gpu" | "nvidia" | "nvidia_gpu" => "cuda",
        "rocm" | "amd" | "amdgpu" => "rocm",
        "oneapi" | "intel" | "xpu" => "oneapi",
        l if l.starts_with("tpu") => "tpu",
        l if l.starts_with("cuda") || l.starts_with("sm_") => "cuda",
        _ => return None,
    })
}

impl Rule for Jp006 {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Context<'_, '_>, out: &mut Vec<Finding>) {
        let src = ctx.src();
        for lowering in ctx.lowerings_at_sites(META.code) {
            // Unknown names fail only where something has platform-specific
            // rules, or when the export is used; `gpu` fails on any host without one.
            // An export whose platforms are all unknown can never be called;
            // one that also names a real platform works there (jax's own tests
            // export for ("tpu", "cpu", "cuda", "other")).
            let literals = lowering.platform_literals(src);
            let unusable_export = lowering.kind == LoweringKind::Export
                && !literals.is_empty()
                && literals
                    .iter()
                    .all(|(n, _)| !KNOWN_PLATFORMS.contains(&n.as_str()) && n != "gpu");
            let platform_specific = unusable_export
                || lowering.reqs.iter().any(|r| {
                    r.guards.is_empty()
                        || r.kept_for(&lowering.platforms().unwrap_or_default()) != Some(false)
                });
            for (name, node) in literals {
                if KNOWN_PLATFORMS.contains(&name.as_str()) {
                    continue;
                }
                // `gpu` resolves where the code runs on GPU hosts only.
                let gpu_hosts = {
                    let hosts = ctx.host_platforms(lowering);
                    !hosts.is_empty() && hosts.iter().all(|h| h == "cuda" || h == "rocm")
                };
                if name == "gpu" && gpu_hosts {
                    continue;
                }
                let (severity, message) = if name == "gpu" {
                    (
                        Severity::Warning,
                        "Unknown backend: 'gpu' requested, but no platforms that are instances of gpu are present (on a host without a GPU; `gpu` is an alias, lower for \"cuda\" or \"rocm\")".to_owned(),
                    )
                } else if platform_specific {
                    let what = lowering
                        .reqs
                        .iter()
                        .find_map(|r| match &r.kind {
                            crate::semantic::ReqKind::PallasCall { .. } => Some("pallas_call"),
                            crate::semantic::ReqKind::HostCallback { api }
                                if api.contains("debug") =>
                            {
                                Some("debug_callback")
                            }
                            crate::semantic::ReqKind::HostCallback { .. } => Some("pure_callback"),
                            crate::semantic::ReqKind::PlatformDependent { .. } => {
                                Some("platform_index")
                            }
                            crate::semantic::ReqKind::PlatformSpecificOp { api } => {
                                Some(api.rsplit('.').next().unwrap_or("..."))
                            }
                            _ => None,
                        })
                        .unwrap_or("...");
                    (
                        Severity::Error,
                        format!("MLIR translation rule for primitive '{what}' not found for platform {name} (`{name}` is not a JAX platform: cpu, cuda, rocm, tpu, oneapi)"),
                    )
                } else {
                    continue;
                };
                let mut fixes = Vec::new();
                // A name passed with `**` is written elsewhere: no edit here.
                let written_here = lowering.platforms_arg.is_some();
                if let Some(canonical) = suggestion(&name).filter(|_| written_here) {
                    let is_literal = unparenthesize(node).kind_name() == "string";
                    if is_literal {
                        fixes.push(Fix {
                            title: format!("Use the platform name \"{canonical}\""),
                            edits: vec![Edit {
                                span: node.byte_range(),
                                text: format!("\"{canonical}\""),
                            }],
                            applicability: Applicability::Safe,
                        });
                    } else if lowering.platforms().is_some_and(|p| p.len() == 1) {
                        fixes.push(Fix {
                            title: format!("Lower for {}", tuple_source(&[canonical.to_owned()])),
                            edits: vec![Edit {
                                span: node.byte_range(),
                                text: tuple_source(&[canonical.to_owned()]),
                            }],
                            applicability: Applicability::Unsafe,
                        });
                    }
                }
                out.push(Finding {
                    code: META.code,
                    severity,
                    message,
                    span: node.byte_range(),
                    related: Vec::new(),
                    fixes,
                });
            }
        }
    }
}

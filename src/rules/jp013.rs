//! JP013 legacy-dict-compiler-params: `compiler_params={"mosaic": ...}`.

use super::{Context, Rule, RuleMeta};
use crate::diagnostic::{Finding, Related, Severity};
use crate::fix::{Applicability, Edit, Fix};
use crate::semantic::flow::Passed;
use crate::semantic::reach::CompilerParams;
use crate::semantic::{names, Args, ScopeId};
use crate::syntax::Field;
use crate::syntax::KindName;
use crate::syntax::{string_value, text, unparenthesize};
use tree_sitter::Node;

pub struct Jp013;

static META: RuleMeta = RuleMeta {
    code: "JP013",
    name: "legacy-dict-compiler-params",
    severity: Severity::Error,
    template: "TypeError: unhashable type: 'dict'",
    summary: "pallas_call compiler_params given as a dict ({\"mosaic\": ...} / {\"triton\": ...}), a form JAX no longer accepts.",
    upstream_id: None,
    explanation: r#"## What it means

Older Pallas took `compiler_params=dict(mosaic=dict(...))` or `{"triton": {...}}`.
jax 0.12 expects an instance of the platform's `CompilerParams` class
(`pltpu.CompilerParams`, `pltriton.CompilerParams`, `plgpu.CompilerParams`); a dict
is not hashable and breaks the lowering cache, on every platform and even with
`interpret=True`.

## When it happens

When the kernel is lowered or run: `TypeError: unhashable type: 'dict'`
(`mlir.py:775`), or at trace time when a leaf is a list (`parameters to jaxpr
equations must have __hash__ and __eq__ methods`).

## How to fix

`compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",))` for TPU,
`pltriton.CompilerParams(num_warps=4)` for Triton. The fix rewrites a literal dict
when the module imports the matching Pallas module (unsafe: check the field names).

## Example

```python
pl.pallas_call(kernel, out_shape=o, compiler_params=dict(mosaic=dict(dimension_semantics=("parallel",))))
pl.pallas_call(kernel, out_shape=o, compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)))
```

## JAX source

`jax/_src/interpreters/mlir.py:775` (`LoweringCacheKey`); the classes at
`jax/experimental/pallas/tpu.py:21`, `triton.py:18`, `mosaic_gpu.py:25`.
"#,
};

impl Rule for Jp013 {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Context<'_, '_>, out: &mut Vec<Finding>) {
        let module = ctx.module;
        // `pl.pallas_call(..., compiler_params=...)` and `partial(pl.pallas_call, compiler_params=...)`.
        // Also calls of a name bound to `partial(pl.pallas_call, ...)`: the
        // dict may be given at the call (a partial's own dict is found above).
        let rule = ctx.rule(META.code);
        let direct = module
            .sites_named(rule, &module.callee_names(&["pallas_call", "partial"]))
            .into_iter()
            .map(|site| (site, ctx.module.args_of(site.node), false));
        let through_partial = module
            .calls_through_partial(names::PALLAS_CALL, rule)
            .into_iter()
            .map(|(site, args)| (site, args, true));
        for (site, args, via_partial) in direct.chain(through_partial) {
            let is_pallas = via_partial
                || match module.callee(site.node, site.scope).as_deref() {
                    Some(names::PALLAS_CALL) => true,
                    Some(names::PARTIAL) => args.positional.first().is_some_and(|f| {
                        module.canonical(*f, site.scope).as_deref() == Some(names::PALLAS_CALL)
                    }),
                    _ => false,
                };
            if !is_pallas {
                continue;
            }
            // The params written here, or where the callers of a wrapper
            // forwarding `**kwargs` to this pallas_call write them.
            let written: Vec<(Node<'_>, ScopeId)> = match args.keyword("compiler_params") {
                Some(params) => vec![(params, site.scope)],
                None if args.has_dict_splat && !via_partial => module
                    .flow()
                    .keyword_sources(site.node, site.scope, "compiler_params")
                    .into_iter()
                    .filter_map(|source| match source.passed {
                        Passed::At { value, scope, .. } if source.why.certain() => {
                            Some((value, scope))
                        }
                        _ => None,
                    })
                    .collect(),
                None => Vec::new(),
            };
            // Passed with `**` from entries written where there is no node
            // here (an options object's stored `**kwargs`): at the unpacking.
            if written.is_empty() && args.has_dict_splat && !via_partial {
                let unwritten_dict = module
                    .flow()
                    .keyword_sources(site.node, site.scope, "compiler_params")
                    .into_iter()
                    .any(|source| match &source.passed {
                        Passed::Values(alts) => {
                            source.why.certain()
                                && !alts.is_empty()
                                && alts.iter().all(|a| a.why.certain() && a.val.is_dict())
                        }
                        _ => false,
                    });
                let splat = Args::first_dict_splat(site.node);
                if let (true, Some(splat)) = (unwritten_dict, splat) {
                    out.push(Finding {
                        code: META.code,
                        severity: META.severity,
                        message: format!(
                            "{} (`compiler_params` passed with `**` is a dict, not a `CompilerParams` object)",
                            META.template
                        ),
                        span: splat.byte_range(),
                        related: vec![Related {
                            file: None,
                            span: site.node.byte_range(),
                            message: "the pallas_call".to_owned(),
                        }],
                        fixes: Vec::new(),
                    });
                }
            }
            for (params, params_scope) in written {
                // A dict literal, or a value that certainly is one (a config
                // field, a constant of another module).
                let is_dict =
                    module.eval_compiler_params(params, params_scope) == CompilerParams::Dict || {
                        let alts = module.eval_alts(params, params_scope);
                        !alts.is_empty() && alts.iter().all(|a| a.why.certain() && a.val.is_dict())
                    };
                if !is_dict {
                    continue;
                }
                let value = unparenthesize(params);
                out.push(Finding {
                    code: META.code,
                    severity: META.severity,
                    message: format!(
                        "{} (`compiler_params` must be a `CompilerParams` object, not a dict)",
                        META.template
                    ),
                    span: value.byte_range(),
                    related: vec![Related {
                        file: None,
                        span: site.node.byte_range(),
                        message: "the pallas_call".to_owned(),
                    }],
                    fixes: class_fix(ctx, value).into_iter().collect(),
                });
            }
        }
    }
}

/// `dict(mosaic=dict(a=1))` / `{"mosaic": {"a": 1}}` -> `pltpu.CompilerParams(a=1)`.
fn class_fix(ctx: &Context<'_, '_>, value: Node<'_>) -> Option<Fix> {
    let src = ctx.src();
    let value = unparenthesize(value);
    let (backend, inner) = single_entry(value, src)?;
    let module_path = match backend.as_str() {
        "mosaic" | "mosaic_tpu" | "tpu" => "jax.experimental.pallas.tpu",
        "triton" => "jax.experimental.pallas.triton",
        "mosaic_gpu" => "jax.experimental.pallas.mosaic_gpu",
        _ => return None,
    };
    let alias = ctx.module.local_name_of(module_path)?;
    let fields = keyword_source(unparenthesize(inner), src)?;
    Some(Fix {
        title: format!("Use `{alias}.CompilerParams(...)`"),
        edits: vec![Edit {
            span: value.byte_range(),
            text: format!("{alias}.CompilerParams({fields})"),
        }],
        applicability: Applicability::Unsafe,
    })
}

/// The one `key: value` of `dict(key=value)` or `{"key": value}`.
fn single_entry<'t>(node: Node<'t>, src: &str) -> Option<(String, Node<'t>)> {
    match node.kind_name() {
        "call"
            if node
                .field("function")
                .is_some_and(|f| text(f, src) == "dict") =>
        {
            let args = crate::semantic::Args::of(node, src);
            match (args.positional.as_slice(), args.keywords.as_slice()) {
                ([], [(key, value, _)]) => Some((key.clone(), *value)),
                _ => None,
            }
        }
        "dictionary" => {
            let mut cursor = node.walk();
            let pairs: Vec<Node<'t>> = node
                .named_children(&mut cursor)
                .filter(|c| c.kind_name() == "pair")
                .collect();
            let [pair] = pairs.as_slice() else {
                return None;
            };
            let key = string_value(pair.field("key")?, src)?;
            Some((key, pair.field("value")?))
        }
        _ => None,
    }
}

/// `dict(a=1, b=2)` / `{"a": 1, "b": 2}` -> `a=1, b=2`.
fn keyword_source(node: Node<'_>, src: &str) -> Option<String> {
    match node.kind_name() {
        "call"
            if node
                .field("function")
                .is_some_and(|f| text(f, src) == "dict") =>
        {
            let args = crate::semantic::Args::of(node, src);
            if !args.positional.is_empty() || args.has_splat {
                return None;
            }
            Some(
                args.keywords
                    .iter()
                    .map(|(k, v, _)| format!("{k}={}", text(*v, src)))
                    .collect::<Vec<_>>()
                    .join(", "),
            )
        }
        "dictionary" => {
            let mut cursor = node.walk();
            let mut parts = Vec::new();
            for pair in node.named_children(&mut cursor) {
                if pair.kind_name() == "comment" {
                    continue;
                }
                if pair.kind_name() != "pair" {
                    return None;
                }
                let key = string_value(pair.field("key")?, src)?;
                if !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    return None;
                }
                parts.push(format!("{key}={}", text(pair.field("value")?, src)));
            }
            Some(parts.join(", "))
        }
        _ => None,
    }
}

//! Platform contracts: the project's own (`[[tool.jax-lsp.contract]]`,
//! reported under the contract's code) and in-code declarations
//! (`# jax-lsp: platforms=tpu` on a `def` line, JP016). Both are
//! `ReqKind::Restricted` requirements reached from a lowering through the
//! call graph with its guards, checked as JP002 checks a `pallas_call`'s
//! params: explicit platforms, or the host's where JAX takes them.

use super::Context;
use crate::diagnostic::{Finding, Severity};
use crate::semantic::names::KNOWN_PLATFORMS;
use crate::semantic::{ReqKind, Requirement};
use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

/// A contract's code as the `&'static str` findings carry. Codes are few
/// and live as long as the configuration naming them, so each distinct
/// code is leaked once.
pub fn intern(code: &str) -> &'static str {
    static CODES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut codes = CODES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(found) = codes.get(code) {
        return found;
    }
    let leaked: &'static str = Box::leak(code.to_owned().into_boxed_str());
    codes.insert(leaked);
    leaked
}

/// Which requirements a check looks at.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `# jax-lsp: platforms=` comments (JP016).
    Declared,
    /// The contracts of the file's pyproject.toml.
    Contracts,
}

pub fn check(ctx: &Context<'_, '_>, source: Source, out: &mut Vec<Finding>) {
    // Contracts share JP016's sites: the lowerings (`queries/rules/jp016.scm`).
    for lowering in ctx.lowerings_at_sites("JP016") {
        let scenarios = ctx.platform_scenarios(lowering);
        // One finding per code and lowering; its sites as related information.
        let mut by_code: Vec<(&'static str, Finding)> = Vec::new();
        for (platforms, explicit) in &scenarios {
            for req in &lowering.reqs {
                let Some((code, allowed, severity, site)) = restriction(ctx, source, req) else {
                    continue;
                };
                if ctx.kept(req, lowering, platforms) != Some(true) {
                    continue;
                }
                // Only platforms JAX knows: an unknown name is JP006's, and
                // says nothing about where this code runs.
                let Some(platform) = platforms
                    .iter()
                    .find(|p| KNOWN_PLATFORMS.contains(&p.as_str()) && !allowed.contains(p))
                else {
                    continue;
                };
                let allowed_text = allowed.join(", ");
                let related = ctx.related_req(
                    req,
                    format!("`{site}` only lowers for {allowed_text} ({code})"),
                );
                if let Some((_, finding)) = by_code.iter_mut().find(|(c, _)| *c == code) {
                    if finding.related.len() < 4 && !finding.related.contains(&related) {
                        finding.related.push(related);
                    }
                    continue;
                }
                let mut message = match source {
                    Source::Contracts => ctx
                        .settings
                        .contracts
                        .by_code(code)
                        .map(|c| c.render(&site, platform))
                        .unwrap_or_default(),
                    Source::Declared => format!(
                        "`{site}` is declared for {allowed_text} (`# jax-lsp: platforms=`); this computation is lowered for {platform}"
                    ),
                };
                if !explicit {
                    message.push_str(&format!(
                        " (lowered for the host's platform; this code runs on {platform})"
                    ));
                }
                by_code.push((
                    code,
                    Finding {
                        code,
                        severity,
                        message,
                        span: lowering.anchor.clone(),
                        related: vec![related],
                        fixes: Vec::new(),
                    },
                ));
            }
        }
        out.extend(by_code.into_iter().map(|(_, f)| f));
    }
}

/// For a restricted requirement this check handles: its code, the
/// platforms allowed, the severity and the site's name.
fn restriction(
    ctx: &Context<'_, '_>,
    source: Source,
    req: &Requirement,
) -> Option<(&'static str, Vec<String>, Severity, String)> {
    let ReqKind::Restricted {
        contract,
        platforms,
        site,
    } = &req.kind
    else {
        return None;
    };
    match (source, contract) {
        (Source::Declared, None) => Some((
            super::jp016::CODE,
            platforms.clone(),
            Severity::Error,
            site.clone(),
        )),
        (Source::Contracts, Some(code)) => {
            // A contract of another project's configuration (summaries are
            // shared): not this file's.
            let contract = ctx.settings.contracts.by_code(code)?;
            if !ctx.settings.enabled(&contract.code, ctx.file) {
                return None;
            }
            Some((
                intern(&contract.code),
                contract.platforms.clone(),
                contract.severity,
                site.clone(),
            ))
        }
        _ => None,
    }
}

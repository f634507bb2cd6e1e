//! The rules. Each rule is one file: its metadata (code, name, JAX's message,
//! severity, explanation) beside its check and fixes. The explanation is the
//! single source for hover, `jax-lsp explain` and the rule docs.

pub mod contract;
mod jp001;
mod jp002;
mod jp003;
mod jp004;
mod jp005;
mod jp006;
mod jp007;
mod jp008;
mod jp009;
mod jp010;
mod jp011;
mod jp012;
mod jp013;
mod jp014;
mod jp015;
mod jp016;

use crate::config::Settings;
use crate::diagnostic::{Finding, Related, Severity};
use crate::fix::Edit;
use crate::semantic::lowering::MeshUse;
use crate::semantic::{Lowering, Module, Requirement};
use crate::syntax::text;
use crate::syntax::Field;
use std::cell::RefCell;
use std::path::Path;
use tree_sitter::Node;

/// What a rule is, as users see it.
pub struct RuleMeta {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    /// JAX's error text with `{placeholders}`.
    pub template: &'static str,
    /// One line: what it catches.
    pub summary: &'static str,
    /// Markdown: What it means / When it happens / How to fix / Example / JAX source.
    pub explanation: &'static str,
    /// JAX's upstream error id, where it has one.
    pub upstream_id: Option<&'static str>,
}

impl RuleMeta {
    pub fn url(&self) -> String {
        format!(
            "https://github.com/jax-lsp/jax-lsp/blob/main/docs/rules.md#{}",
            self.code.to_ascii_lowercase()
        )
    }
}

/// Everything a rule may look at for one module.
pub struct Context<'a, 't> {
    pub module: &'a Module<'t>,
    pub lowerings: &'a [Lowering<'t>],
    pub settings: &'a Settings,
    pub file: &'a Path,
    /// `mesh_use` of each of `lowerings`, once asked.
    pub mesh_uses: RefCell<Vec<Option<MeshUse>>>,
}

impl<'a, 't> Context<'a, 't> {
    /// What the lowering's shardings and arguments use (`Module::mesh_use`),
    /// worked out once per lowering however many rules ask: it evaluates
    /// every sharding and trace argument, and five rules ask.
    pub fn mesh_use(&self, lowering: &Lowering<'t>) -> MeshUse {
        let Some(at) = self
            .lowerings
            .iter()
            .position(|l| std::ptr::eq(l, lowering))
        else {
            return self.module.mesh_use(lowering);
        };
        if let Some(Some(found)) = self.mesh_uses.borrow().get(at) {
            return found.clone();
        }
        let found = self.module.mesh_use(lowering);
        let mut known = self.mesh_uses.borrow_mut();
        if known.len() < self.lowerings.len() {
            known.resize(self.lowerings.len(), None);
        }
        known[at] = Some(found.clone());
        found
    }

    pub fn src(&self) -> &'t str {
        self.module.src
    }

    /// Related information pointing at a requirement (possibly in another file).
    pub fn related_req(&self, req: &Requirement, message: impl Into<String>) -> Related {
        Related {
            file: req
                .file
                .as_ref()
                .map(|f| f.to_path_buf())
                .filter(|f| f.as_path() != self.file),
            span: req.span.clone(),
            message: message.into(),
        }
    }

    pub fn related_here(&self, node: Node<'_>, message: impl Into<String>) -> Related {
        Related {
            file: None,
            span: node.byte_range(),
            message: message.into(),
        }
    }

    /// The host platforms a lowering may run on, where JAX takes the platform
    /// from the host: what the code says (test decorators, `default_backend()`
    /// branches and early exits) among the project's `target-platforms`,
    /// else those.
    pub fn host_platforms(&self, lowering: &Lowering<'t>) -> Vec<String> {
        hosts_said(self.module, self.settings, lowering).unwrap_or_default()
    }

    /// Whether `req` is lowered in the scenario of `lowering` for
    /// `platforms`: a host test around it is decided by the hosts the
    /// lowering runs on (the scenario's own platform when JAX takes the
    /// host's; else what the code or `target-platforms` says).
    pub fn kept(
        &self,
        req: &Requirement,
        lowering: &Lowering<'t>,
        platforms: &[String],
    ) -> Option<bool> {
        let hosts = match lowering.platforms() {
            Some(_) => self.host_platforms(lowering),
            None => platforms.to_vec(),
        };
        req.kept_on_hosts(platforms, &hosts)
    }

    /// The platforms a lowering is checked for: its explicit ones, or each
    /// of the host platforms in force where JAX takes the host's (`false`:
    /// not written in the code).
    pub fn platform_scenarios(&self, lowering: &Lowering<'t>) -> Vec<(Vec<String>, bool)> {
        match lowering.platforms() {
            Some(platforms) => vec![(platforms, true)],
            None if lowering.uses_host_platform() => self
                .host_platforms(lowering)
                .iter()
                .map(|p| (vec![p.clone()], false))
                .collect(),
            None => Vec::new(),
        }
    }

    /// The rule's index for asking the model about its query's sites
    /// (`queries/rules/`; `usize::MAX`, no sites, for a rule without one).
    pub fn rule(&self, code: &str) -> usize {
        crate::syntax::queries::rule_index(code).unwrap_or(usize::MAX)
    }

    /// The lowerings whose call is one of the rule's sites.
    pub fn lowerings_at_sites(&self, code: &str) -> impl Iterator<Item = &'a Lowering<'t>> + '_ {
        let rule = crate::syntax::queries::rule_index(code);
        let module = self.module;
        self.lowerings
            .iter()
            .filter(move |l| rule.is_some_and(|rule| module.is_rule_site(rule, l.call)))
    }

    /// True if a requirement is in the file being checked (fixes may edit it).
    pub fn is_local(&self, req: &Requirement) -> bool {
        req.file.as_deref().is_none_or(|f| f == self.file)
    }
}

/// The host platforms a lowering may run on, as the code says (test
/// decorators, `default_backend()` branches and early exits) among the
/// project's `target-platforms`, else those; `None` where neither says.
pub fn hosts_said<'t>(
    module: &Module<'t>,
    settings: &Settings,
    lowering: &Lowering<'t>,
) -> Option<Vec<String>> {
    let targets = &settings.target_platforms;
    match module.host_platforms_through_calls(lowering.call, lowering.scope, &lowering.choices, 0) {
        // Code for hosts the project does not run on never runs.
        Some(said) if !targets.is_empty() => {
            Some(said.into_iter().filter(|p| targets.contains(p)).collect())
        }
        Some(said) => Some(said),
        None if !targets.is_empty() => Some(targets.clone()),
        None => None,
    }
}

pub trait Rule: Sync {
    fn meta(&self) -> &'static RuleMeta;
    fn check(&self, ctx: &Context<'_, '_>, out: &mut Vec<Finding>);
}

/// All rules, in code order.
pub fn all() -> &'static [&'static dyn Rule] {
    &[
        &jp001::Jp001,
        &jp002::Jp002,
        &jp003::Jp003,
        &jp004::Jp004,
        &jp005::Jp005,
        &jp006::Jp006,
        &jp007::Jp007,
        &jp008::Jp008,
        &jp009::Jp009,
        &jp010::Jp010,
        &jp011::Jp011,
        &jp012::Jp012,
        &jp013::Jp013,
        &jp014::Jp014,
        &jp015::Jp015,
        &jp016::Jp016,
    ]
}

pub fn by_code(code: &str) -> Option<&'static dyn Rule> {
    all()
        .iter()
        .copied()
        .find(|r| r.meta().code.eq_ignore_ascii_case(code))
}

/// `("cpu",)` / `("tpu", "cuda")` as Python source.
pub fn tuple_source(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("\"{s}\"")).collect();
    if quoted.len() == 1 {
        format!("({},)", quoted[0])
    } else {
        format!("({})", quoted.join(", "))
    }
}

/// `('c', 'p', 'u')`, as Python prints a tuple of strings.
pub fn python_tuple_repr(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("'{s}'")).collect();
    if quoted.len() == 1 {
        format!("({},)", quoted[0])
    } else {
        format!("({})", quoted.join(", "))
    }
}

/// An edit adding `keyword` (e.g. `lowering_platforms=("cpu",)`) as the last
/// argument of `call`, respecting an existing trailing comma.
pub fn insert_keyword(call: Node<'_>, src: &str, keyword: &str) -> Option<Edit> {
    let args = call.field("arguments")?;
    let close = args.end_byte().checked_sub(1)?;
    if src.as_bytes().get(close) != Some(&b')') {
        return None;
    }
    let inner = src.get(args.start_byte() + 1..close)?;
    let trimmed = inner.trim_end();
    let text = if trimmed.trim().is_empty() {
        keyword.to_owned()
    } else if trimmed.ends_with(',') {
        format!(" {keyword}")
    } else {
        format!(", {keyword}")
    };
    let at = args.start_byte() + 1 + trimmed.len();
    Some(Edit { span: at..at, text })
}

/// Text inside a call's parentheses.
pub fn arguments_text<'s>(call: Node<'_>, src: &'s str) -> Option<&'s str> {
    let args = call.field("arguments")?;
    let t = text(args, src);
    t.strip_prefix('(')?.strip_suffix(')')
}

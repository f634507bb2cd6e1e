//! The fact queries of `queries/*.scm`, embedded in the binary and compiled once
//! into a single query so that one cursor pass over the tree collects every fact.

use std::sync::OnceLock;
use tree_sitter::Query;

/// The query files, in the order their patterns are concatenated.
pub const SOURCES: &[(&str, &str)] = &[
    ("imports.scm", include_str!("../../queries/imports.scm")),
    ("scopes.scm", include_str!("../../queries/scopes.scm")),
    ("bindings.scm", include_str!("../../queries/bindings.scm")),
    ("calls.scm", include_str!("../../queries/calls.scm")),
];

/// What a capture means to the fact extractor. Every capture name in the
/// queries maps to exactly one of these (a test checks both directions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capture {
    ImportModule,
    ImportAlias,
    FromModule,
    FromName,
    FromAlias,
    Function,
    Class,
    Lambda,
    BindingTarget,
    BindingValue,
    LoopTarget,
    WithItem,
    Call,
    Returned,
}

impl Capture {
    pub const ALL: &'static [Capture] = &[
        Capture::ImportModule,
        Capture::ImportAlias,
        Capture::FromModule,
        Capture::FromName,
        Capture::FromAlias,
        Capture::Function,
        Capture::Class,
        Capture::Lambda,
        Capture::BindingTarget,
        Capture::BindingValue,
        Capture::LoopTarget,
        Capture::WithItem,
        Capture::Call,
        Capture::Returned,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Capture::ImportModule => "import.module",
            Capture::ImportAlias => "import.alias",
            Capture::FromModule => "from.module",
            Capture::FromName => "from.name",
            Capture::FromAlias => "from.alias",
            Capture::Function => "scope.function",
            Capture::Class => "scope.class",
            Capture::Lambda => "scope.lambda",
            Capture::BindingTarget => "binding.target",
            Capture::BindingValue => "binding.value",
            Capture::LoopTarget => "binding.loop_target",
            Capture::WithItem => "context.with_item",
            Capture::Call => "call",
            Capture::Returned => "reference.returned",
        }
    }

    pub fn from_name(name: &str) -> Option<Capture> {
        Capture::ALL.iter().copied().find(|c| c.name() == name)
    }
}

pub struct FactQuery {
    /// tree-sitter's compiled query: checks the source, and is the reference
    /// the matcher is tested against.
    pub query: Query,
    /// Capture index -> meaning.
    pub captures: Vec<Capture>,
    /// What runs the query (`syntax::matcher`).
    pub matcher: super::matcher::Matcher,
}

/// The compiled fact query. Panics only if the embedded queries are broken,
/// which the `every_query_compiles` test rules out before release.
pub fn fact_query() -> &'static FactQuery {
    static QUERY: OnceLock<FactQuery> = OnceLock::new();
    QUERY.get_or_init(|| {
        let source: String = SOURCES
            .iter()
            .map(|(_, text)| *text)
            .collect::<Vec<_>>()
            .join("\n");
        let query = Query::new(&tree_sitter_python::LANGUAGE.into(), &source)
            .expect("embedded queries compile (checked by tests)");
        let captures = query
            .capture_names()
            .iter()
            .map(|name| {
                Capture::from_name(name).expect("every capture is known (checked by tests)")
            })
            .collect();
        let matcher = super::matcher::Matcher::new(&tree_sitter_python::LANGUAGE.into(), &source)
            .expect("embedded queries use the matcher's subset (checked by tests)");
        FactQuery {
            query,
            captures,
            matcher,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_query_compiles() {
        for (file, text) in SOURCES {
            if let Err(err) = Query::new(&tree_sitter_python::LANGUAGE.into(), text) {
                panic!("queries/{file}: {err}");
            }
        }
        let _ = fact_query();
    }

    #[test]
    fn every_capture_is_used_and_known() {
        let query = &fact_query().query;
        let names: Vec<&str> = query.capture_names().to_vec();
        for name in &names {
            assert!(
                Capture::from_name(name).is_some(),
                "capture @{name} is not handled"
            );
        }
        for capture in Capture::ALL {
            assert!(
                names.contains(&capture.name()),
                "Capture::{capture:?} has no @{} in queries/",
                capture.name()
            );
        }
    }
}

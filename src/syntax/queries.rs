//! The queries, embedded in the binary and compiled once into a single
//! query so that one cursor pass over the tree collects every fact and every
//! rule's sites: the fact queries of `queries/*.scm` (imports, scopes,
//! bindings, calls: what the semantic model is built from) and each rule's
//! query, `queries/rules/jpNNN.scm` (the sites the rule inspects).

use std::sync::OnceLock;

/// The fact query files, in the order their patterns are concatenated.
pub const SOURCES: &[(&str, &str)] = &[
    ("imports.scm", include_str!("../../queries/imports.scm")),
    ("scopes.scm", include_str!("../../queries/scopes.scm")),
    ("bindings.scm", include_str!("../../queries/bindings.scm")),
    ("calls.scm", include_str!("../../queries/calls.scm")),
];

/// Each built-in rule's code and query (`queries/rules/`), in code order;
/// their patterns follow the fact queries'. A rule's index here is how the
/// model is asked about its sites (`Module::is_rule_site`).
pub const RULE_SOURCES: &[(&str, &str)] = &[
    ("JP001", include_str!("../../queries/rules/jp001.scm")),
    ("JP002", include_str!("../../queries/rules/jp002.scm")),
    ("JP003", include_str!("../../queries/rules/jp003.scm")),
    ("JP004", include_str!("../../queries/rules/jp004.scm")),
    ("JP005", include_str!("../../queries/rules/jp005.scm")),
    ("JP006", include_str!("../../queries/rules/jp006.scm")),
    ("JP007", include_str!("../../queries/rules/jp007.scm")),
    ("JP008", include_str!("../../queries/rules/jp008.scm")),
    ("JP009", include_str!("../../queries/rules/jp009.scm")),
    ("JP010", include_str!("../../queries/rules/jp010.scm")),
    ("JP011", include_str!("../../queries/rules/jp011.scm")),
    ("JP012", include_str!("../../queries/rules/jp012.scm")),
    ("JP013", include_str!("../../queries/rules/jp013.scm")),
    ("JP014", include_str!("../../queries/rules/jp014.scm")),
    ("JP015", include_str!("../../queries/rules/jp015.scm")),
    ("JP016", include_str!("../../queries/rules/jp016.scm")),
];

/// The capture every rule query marks its sites with; captures whose name
/// starts with `_` only feed predicates.
pub const SITE: &str = "site";

/// The query text of a built-in rule.
pub fn rule_query(code: &str) -> Option<&'static str> {
    RULE_SOURCES
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(code))
        .map(|(_, text)| *text)
}

/// The index of a rule's query in `RULE_SOURCES`.
pub fn rule_index(code: &str) -> Option<usize> {
    RULE_SOURCES.iter().position(|(c, _)| *c == code)
}

/// What a capture of the fact queries means to the fact extractor. Every
/// capture name in the fact queries maps to exactly one of these (a test
/// checks both directions).
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

/// Whose a pattern is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    Facts,
    /// A rule's, by its index in `RULE_SOURCES`.
    Rule(usize),
}

/// The compiled queries. tree-sitter's own `Query` of the same source is
/// only built by tests (it checks the source, and is the reference the
/// matcher is tested against): analysing the patterns costs it about 0.1 s
/// of each process's start.
pub struct Queries {
    /// Capture index -> meaning, for the fact queries' captures.
    pub captures: Vec<Option<Capture>>,
    /// Capture index -> true for `@site`.
    pub sites: Vec<bool>,
    /// Pattern index -> the queries it comes from.
    pub owners: Vec<Owner>,
    /// Pattern index -> its group, for rule patterns: patterns written
    /// alike (the lowering sites, in eleven rule files) are matched once and
    /// their sites kept once, for all the rules that have them.
    pub groups: Vec<Option<usize>>,
    pub group_count: usize,
    /// Rule index -> the groups of its patterns.
    pub rule_groups: Vec<Vec<usize>>,
    /// What runs the query (`syntax::matcher`).
    pub matcher: super::matcher::Matcher,
}

/// The concatenated source: every fact query, then every rule query, each
/// with its owner.
pub fn concatenated() -> (String, Vec<Owner>) {
    let mut source = String::new();
    let mut owners = Vec::new();
    let files = SOURCES.iter().map(|(_, text)| (*text, Owner::Facts)).chain(
        RULE_SOURCES
            .iter()
            .enumerate()
            .map(|(i, (_, text))| (*text, Owner::Rule(i))),
    );
    for (text, owner) in files {
        owners.push(owner);
        source.push_str(text);
        source.push('\n');
    }
    (source, owners)
}

/// The compiled queries. Panics only if the embedded queries are broken,
/// which the `every_query_compiles` test rules out before release.
pub fn queries() -> &'static Queries {
    static QUERY: OnceLock<Queries> = OnceLock::new();
    QUERY.get_or_init(|| {
        let language = tree_sitter_python::LANGUAGE.into();
        let (source, files) = concatenated();
        let matcher = super::matcher::Matcher::new(&language, &source)
            .expect("embedded queries use the matcher's subset (checked by tests)");
        // Each file's patterns, counted by compiling it alone.
        let mut owners = Vec::new();
        let texts = SOURCES.iter().chain(RULE_SOURCES).map(|(_, text)| *text);
        for (text, owner) in texts.zip(files) {
            let count = super::matcher::Matcher::new(&language, text)
                .expect("embedded queries use the matcher's subset (checked by tests)")
                .pattern_count();
            owners.extend(std::iter::repeat_n(owner, count));
        }
        let mut groups = vec![None; owners.len()];
        let mut rule_groups = vec![Vec::new(); RULE_SOURCES.len()];
        let mut group_count = 0;
        for alike in matcher.alike() {
            let rules: Vec<usize> = alike
                .iter()
                .filter_map(|p| match owners.get(*p) {
                    Some(Owner::Rule(rule)) => Some(*rule),
                    _ => None,
                })
                .collect();
            if rules.is_empty() {
                continue;
            }
            for p in alike {
                groups[*p] = Some(group_count);
            }
            for rule in rules {
                if !rule_groups[rule].contains(&group_count) {
                    rule_groups[rule].push(group_count);
                }
            }
            group_count += 1;
        }
        let names = matcher.capture_names();
        Queries {
            captures: names.iter().map(|n| Capture::from_name(n)).collect(),
            sites: names.iter().map(|n| n == SITE).collect(),
            owners,
            groups,
            group_count,
            rule_groups,
            matcher,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tree_sitter::Query;

    #[test]
    fn every_query_compiles() {
        let language = tree_sitter_python::LANGUAGE.into();
        let rule_files = RULE_SOURCES
            .iter()
            .map(|(code, text)| (format!("rules/{}.scm", code.to_ascii_lowercase()), *text));
        let files = SOURCES
            .iter()
            .map(|(file, text)| (file.to_string(), *text))
            .chain(rule_files);
        for (file, text) in files {
            // tree-sitter's error names the row and column.
            let query = match Query::new(&language, text) {
                Ok(query) => query,
                Err(err) => panic!("queries/{file}: {err}"),
            };
            match crate::syntax::matcher::Matcher::new(&language, text) {
                Ok(matcher) => assert_eq!(matcher.pattern_count(), query.pattern_count()),
                Err(err) => panic!("queries/{file}: outside the matcher's subset: {err}"),
            }
        }
        let all = queries();
        let query = Query::new(&language, &concatenated().0).expect("compiles");
        assert_eq!(all.matcher.pattern_count(), query.pattern_count());
        assert_eq!(all.owners.len(), query.pattern_count());
        assert_eq!(all.matcher.capture_names(), query.capture_names());
    }

    #[test]
    fn every_rule_has_a_query_with_sites() {
        let codes: Vec<&str> = crate::rules::all().iter().map(|r| r.meta().code).collect();
        let queried: Vec<&str> = RULE_SOURCES.iter().map(|(code, _)| *code).collect();
        assert_eq!(codes, queried, "a query per rule, in code order");
        for (code, text) in RULE_SOURCES {
            let query = Query::new(&tree_sitter_python::LANGUAGE.into(), text).expect("compiles");
            assert!(query.pattern_count() > 0, "{code}: no patterns");
            // A rule's captures are its sites and what predicates read.
            for name in query.capture_names() {
                assert!(
                    *name == SITE || name.starts_with('_'),
                    "{code}: @{name} is neither @site nor @_..."
                );
            }
            for p in 0..query.pattern_count() {
                let pattern = &text[query.start_byte_for_pattern(p)..query.end_byte_for_pattern(p)];
                assert!(
                    pattern.contains("@site"),
                    "{code}: a pattern without @site: {pattern}"
                );
            }
        }
        let all = queries();
        for (index, _) in RULE_SOURCES.iter().enumerate() {
            assert!(all.owners.contains(&Owner::Rule(index)));
        }
    }

    #[test]
    fn every_capture_is_used_and_known() {
        let source: String = SOURCES
            .iter()
            .map(|(_, text)| *text)
            .collect::<Vec<_>>()
            .join("\n");
        let query = Query::new(&tree_sitter_python::LANGUAGE.into(), &source)
            .expect("fact queries compile");
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

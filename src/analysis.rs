//! One module from text to findings: parse, build the model, run the rules,
//! apply `# noqa`. Shared by the CLI and the server.

use crate::config::Settings;
use crate::diagnostic::Finding;
use crate::rules::{self, Context};
use crate::semantic::contract::ContractScope;
use crate::semantic::flow::Why;
use crate::semantic::{Lowering, Module, Resolver};
use crate::syntax;
use std::path::Path;
use tree_sitter::Tree;

/// True if the file may hold a finding: the prefilter, a few substring
/// searches that skip most files before parsing. Each clause is what some
/// rule cannot do without:
/// - a lowering site: `.lower(` with a jit or trace in sight (a jitted
///   receiver is only recognized through one), `lowering_platforms` (only
///   `Traced.lower` takes it, also through a `functools.partial`), or
///   `export(` (or `export,` in a partial);
/// - an AbstractMesh in a `use_abstract_mesh` / `set_mesh` (JP003 eager ops, JP009);
/// - `platform_dependent(gpu=...)` (JP008), `compiler_params` (JP013: any
///   dict fails, whatever its keys), `jit(..., backend=/device=)` (JP012),
///   also from a dict's `"backend"` key unpacked into the call.
///
/// Files it skips are still parsed on demand when a checked file imports a
/// kernel or callback from them.
pub fn may_have_findings(text: &str) -> bool {
    // Searched lazily: most needles are found (or the answer known) early.
    let needles = needles();
    prefilter(|needle| {
        NEEDLES
            .iter()
            .position(|n| *n == needle)
            .is_some_and(|i| needles[i].found_in(text.as_bytes()))
    })
}

/// Module-level functions of `text` that may be lowering helpers: a `def`
/// at column 0 whose body holds a lowering (`lowers_on`), calls
/// `set_mesh(`, or is a context manager entering `use_abstract_mesh`. A
/// module that calls one passes the prefilter without a needle of its own
/// (`export_for(step, spec, "cuda")`), and the value flow decides what the
/// call lowers (`Resolver::call_lowerings`). Read from the text alone, as
/// the prefilter is: a name too many only costs an analysis.
pub fn lowering_helper_names(text: &str) -> Vec<String> {
    /// What the lines of one def hold so far.
    #[derive(Default)]
    struct Body {
        lowers_or_sets_mesh: bool,
        enters_abstract_mesh: bool,
        returns_abstract_mesh: bool,
        yields: bool,
    }
    impl Body {
        /// A def entering an AbstractMesh only for its own code (jax's
        /// `instantiate_zeros`) leaves its callers outside it; a context
        /// manager (`@contextmanager def planning(): with
        /// use_abstract_mesh(...): yield`, or `return use_abstract_mesh(m)`)
        /// puts its callers' eager operations and lowerings under it.
        fn is_helper(&self) -> bool {
            self.lowers_or_sets_mesh
                || self.returns_abstract_mesh
                || (self.enters_abstract_mesh && self.yields)
        }
    }
    let mut bodies: Vec<(&str, Body)> = Vec::new();
    for (name, line) in def_lines(text) {
        if !bodies.last().is_some_and(|(n, _)| std::ptr::eq(*n, name)) {
            bodies.push((name, Body::default()));
        }
        let Some((_, body)) = bodies.last_mut() else {
            continue;
        };
        // One setting a mesh it may be given (`jax.set_mesh(mesh)`):
        // a caller passing an AbstractMesh fails there (JP009).
        body.lowers_or_sets_mesh |= lowers_on(line) || line.contains("set_mesh(");
        if line.contains("use_abstract_mesh(") {
            body.enters_abstract_mesh = true;
            body.returns_abstract_mesh |= line.trim_start().starts_with("return ");
        }
        body.yields |= yields_on(line.trim_start());
    }
    let mut out: Vec<String> = Vec::new();
    for (name, body) in bodies {
        if body.is_helper() && !out.iter().any(|n| n == name) {
            out.push(name.to_owned());
        }
    }
    out
}

/// Each line of `text` inside a top-level def (its `def` line included),
/// with the def's name; a line at column 0 other than a comment, a
/// decorator or a closing bracket ends it.
fn def_lines(text: &str) -> impl Iterator<Item = (&str, &str)> {
    let mut current: Option<&str> = None;
    text.lines().filter_map(move |line| {
        let def = line
            .strip_prefix("def ")
            .or_else(|| line.strip_prefix("async def "));
        if let Some(rest) = def {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            current = (end > 0).then(|| &rest[..end]);
        } else if line.starts_with(|c: char| !c.is_whitespace() && c != '#' && c != '@' && c != ')')
        {
            current = None;
        }
        current.map(|name| (name, line))
    })
}

/// Methods of the module-level classes of `text` whose body holds a
/// lowering (`lowers_on`), as `Class.method`: an object of the class
/// lowers when the importer calls it (`archive.write_out(...)`). Read
/// from the text, as `lowering_helper_names`.
pub fn lowering_method_names(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut class: Option<&str> = None;
    // The method being read, with the indentation of its `def`.
    let mut method: Option<(&str, usize)> = None;
    for line in text.lines() {
        let code = line.trim_start();
        if code.is_empty() || code.starts_with('#') {
            continue;
        }
        let indent = line.len() - code.len();
        if indent == 0 {
            method = None;
            class = code.strip_prefix("class ").map(|rest| {
                let end = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                &rest[..end]
            });
            continue;
        }
        let Some(class) = class.filter(|c| !c.is_empty()) else {
            continue;
        };
        if method.is_none_or(|(_, at)| indent <= at) {
            let def = code
                .strip_prefix("def ")
                .or_else(|| code.strip_prefix("async def "));
            method = def.and_then(|rest| {
                let end = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                (end > 0).then(|| (&rest[..end], indent))
            });
            continue;
        }
        if let Some((name, _)) = method {
            let qualified = format!("{class}.{name}");
            if lowers_on(line) && !out.contains(&qualified) {
                out.push(qualified);
            }
        }
    }
    out
}

/// Module-level functions of `text` whose body calls one of `names` (as
/// `calls_any` reads a call): a def wrapping another module's lowering
/// helper is one too (`with activated(mesh, verbose=True): yield`). Read
/// from the text, as `lowering_helper_names`.
pub fn defs_calling(text: &str, names: &[String]) -> Vec<String> {
    defs_calling_where(text, names, false)
}

/// `defs_calling`, of the defs that also yield or return the call: context
/// managers wrapping another module's helper (`with activated(mesh,
/// verbose=True): yield`, `return activated(mesh, verbose=True)`).
/// What the prefilter follows one module further: a plain function calling
/// a helper is asked one module deep only, and wrappers of that kind are
/// common enough (maxtext's utilities) to cost a sweep a fifth more files.
pub fn managers_calling(text: &str, names: &[String]) -> Vec<String> {
    defs_calling_where(text, names, true)
}

fn defs_calling_where(text: &str, names: &[String], yielding: bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if names.is_empty() {
        return out;
    }
    // Each def read: its name, whether it calls one, whether it manages.
    let mut defs: Vec<(&str, bool, bool)> = Vec::new();
    for (name, line) in def_lines(text) {
        if !defs.last().is_some_and(|(n, _, _)| std::ptr::eq(*n, name)) {
            defs.push((name, false, false));
        }
        if let Some((_, calls, manages)) = defs.last_mut() {
            let code = line.trim_start();
            let call = calls_any(line, names);
            *calls |= call;
            // Yields under it, or returns the helper's manager itself.
            *manages |= yields_on(code) || (call && code.starts_with("return "));
        }
    }
    for (name, calls, manages) in defs {
        if calls && (manages || !yielding) && !out.iter().any(|n| n == name) {
            out.push(name.to_owned());
        }
    }
    out
}

/// Whether a line (its code, indentation stripped) yields: `yield`,
/// `yield x`, `x = yield`, `(yield)`; not the word in a string
/// (`"... yielded no parameters"`).
fn yields_on(code: &str) -> bool {
    let word_after = |rest: &str| rest.is_empty() || rest.starts_with([' ', '(', ')']);
    code.strip_prefix("yield").is_some_and(word_after)
        || ["= yield", "(yield"].iter().any(|p| {
            code.match_indices(p)
                .any(|(at, _)| word_after(&code[at + p.len()..]))
        })
}

/// Whether a line holds a lowering: `.lower(` with arguments, or with
/// none on a stage the line names as traced (`traced.lower()`; not
/// `name.lower()` of a string), or `export(` as a name of its own.
fn lowers_on(line: &str) -> bool {
    let lower = line
        .match_indices(".lower(")
        .any(|(at, pat)| !line[at + pat.len()..].starts_with(')') || line.contains("trace"));
    lower
        || line.match_indices("export(").any(|(at, _)| {
            line[..at]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
        })
}

/// Whether `text` calls one of `helpers` by name (`name(`); a name
/// starting with `.` is a method, called on any object (`ex.write_out(`).
pub fn calls_any(text: &str, helpers: &[String]) -> bool {
    helpers.iter().any(|name| {
        let finder = memchr::memmem::Finder::new(name.as_bytes());
        finder.find_iter(text.as_bytes()).any(|at| {
            let before_ok = name.starts_with('.')
                || text[..at]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
            before_ok && text[at + name.len()..].trim_start().starts_with('(')
        })
    })
}

/// The prefilter over a test for each needle.
fn prefilter(has: impl Fn(&str) -> bool) -> bool {
    let abstract_mesh = || has("AbstractMesh") || has("abstract_mesh");
    (has(".lower(") && (has("jit") || has(".trace(")))
        || has("lowering_platforms")
        || has("export(")
        || (has("export,") && has("partial"))
        || ((has("use_abstract_mesh") || has("set_mesh")) && abstract_mesh())
        || (has("platform_dependent") && has("gpu="))
        || has("compiler_params")
        // Any `jit` (not `jit(` / `jit,`: `jax.jit (f, ...)` and a line
        // continuation after `jit` are the same call).
        || (has("jit") && (has("backend=") || has("device=")))
        // ... also as keys of a dict unpacked into the call (`**options`).
        || (has("jit")
            && (has("backend\"") || has("backend'") || has("device\"") || has("device'")))
}

/// The prefilter's substrings, one bit each.
const NEEDLES: [&str; 20] = [
    ".lower(",
    "jit",
    ".trace(",
    "lowering_platforms",
    "export(",
    "AbstractMesh",
    "abstract_mesh",
    "use_abstract_mesh",
    "set_mesh",
    "platform_dependent",
    "gpu=",
    "compiler_params",
    "backend=",
    "device=",
    "export,",
    "partial",
    "backend\"",
    "backend'",
    "device\"",
    "device'",
];

/// Which of the prefilter's substrings a text holds. Kept per top-level
/// statement by incremental analysis, where a unit of statements passes the
/// prefilter if the union of its statements' needles does (a needle cannot
/// span two statements: it holds no newline).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Needles(u32);

/// One needle of `NEEDLES` as Python writes it: a word, and the punctuation
/// that must come right before it (`.lower(`'s dot) or after it (its paren,
/// `backend=`'s sign, a key's closing quote), with spaces, tabs and line
/// continuations allowed between, as in `jit(f, backend = "cpu")` or
/// `.trace(x).\` then `lower()` on the next line. (Not a bare newline: a
/// needle stays inside one statement, as incremental analysis needs.)
struct Needle {
    before: Option<u8>,
    word: memchr::memmem::Finder<'static>,
    after: Option<u8>,
}

impl Needle {
    fn new(needle: &'static str) -> Needle {
        let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let bytes = needle.as_bytes();
        let before = bytes.first().copied().filter(|b| !is_word(*b));
        let after = bytes.last().copied().filter(|b| !is_word(*b));
        let start = usize::from(before.is_some());
        let end = bytes.len() - usize::from(after.is_some());
        Needle {
            before,
            word: memchr::memmem::Finder::new(&needle[start..end]),
            after,
        }
    }

    fn found_in(&self, text: &[u8]) -> bool {
        let len = self.word.needle().len();
        self.word.find_iter(text).any(|at| {
            self.before
                .is_none_or(|b| previous_token_byte(text, at) == Some(b))
                && self
                    .after
                    .is_none_or(|a| next_token_byte(text, at + len) == Some(a))
        })
    }
}

/// The first byte at or after `at` that is not a space, tab or line
/// continuation.
fn next_token_byte(text: &[u8], mut at: usize) -> Option<u8> {
    loop {
        match text.get(at..)? {
            [b' ' | b'\t', ..] => at += 1,
            [b'\\', b'\n', ..] => at += 2,
            [b'\\', b'\r', b'\n', ..] => at += 3,
            [b, ..] => return Some(*b),
            [] => return None,
        }
    }
}

/// The last byte before `at` that is not a space, tab or line continuation.
fn previous_token_byte(text: &[u8], mut at: usize) -> Option<u8> {
    loop {
        match &text[..at] {
            [.., b' ' | b'\t'] => at -= 1,
            [.., b'\\', b'\r', b'\n'] => at -= 3,
            [.., b'\\', b'\n'] => at -= 2,
            [.., b] => return Some(*b),
            [] => return None,
        }
    }
}

/// `NEEDLES` as searchers, built once: building one costs more than
/// searching a statement, and `Needles::of` runs on every statement.
fn needles() -> &'static [Needle] {
    static NEEDLE_SEARCHERS: std::sync::OnceLock<Vec<Needle>> = std::sync::OnceLock::new();
    NEEDLE_SEARCHERS.get_or_init(|| NEEDLES.iter().map(|n| Needle::new(n)).collect())
}

impl Needles {
    pub fn of(text: &str) -> Needles {
        let mut bits = 0;
        for (i, needle) in needles().iter().enumerate() {
            if needle.found_in(text.as_bytes()) {
                bits |= 1 << i;
            }
        }
        Needles(bits)
    }

    pub fn union(self, other: Needles) -> Needles {
        Needles(self.0 | other.0)
    }

    pub fn may_have_findings(self) -> bool {
        prefilter(|needle| {
            NEEDLES
                .iter()
                .position(|n| *n == needle)
                .is_some_and(|i| self.0 & (1 << i) != 0)
        })
    }
}

#[cfg(test)]
mod prefilter_tests {
    use super::may_have_findings;

    #[test]
    fn prefilter_keeps_every_fixture() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let resolver = crate::resolver::FsResolver::default();
        for dir in std::fs::read_dir(root).expect("fixtures").flatten() {
            for file in std::fs::read_dir(dir.path()).expect("rule dir").flatten() {
                // The contract fixtures hold a package and a pyproject.toml.
                if file.path().extension().is_none_or(|e| e != "py") {
                    continue;
                }
                let text = std::fs::read_to_string(file.path()).expect("utf-8");
                // As `check` decides: the text, or a call of a lowering
                // helper of a module it imports (`targets.scope`).
                if text.contains("# ruleid:") {
                    assert!(
                        may_have_findings(&text)
                            || resolver.calls_imported_helper(&file.path(), &text),
                        "{} skipped by the prefilter",
                        file.path().display()
                    );
                }
            }
        }
        assert!(!may_have_findings("name = 'CPU'.lower()\nimport os\n"));
        // Whitespace or a line continuation between `jit` and its arguments
        // (a proptest found the continuation: the statement was skipped).
        assert!(may_have_findings(
            "@partial(jax.jit\\\n, backend=\"cpu\")\ndef f(x): ..."
        ));
        assert!(may_have_findings("f = jax.jit (g, device=d)"));
        // Spaces and continuations inside a needle, where Python allows
        // them (a proptest found `.trace(k).\` then `lower()`: whole and
        // incremental analysis disagreed when a comment held a needle).
        for text in [
            "f = jax.jit(g, backend = \"cpu\")",
            "out = jax.jit(g, device =d)",
            "t = jax.jit(g).trace(x).\\\nlower()",
            "t = jax.jit(g).trace(x) . lower ()",
            "t = jax.jit(g).trace(x).\\\r\n    lower(\n)",
            "e = jax.export.export (f)(x)",
        ] {
            assert!(may_have_findings(text), "{text:?}");
            assert!(super::Needles::of(text).may_have_findings(), "{text:?}");
        }
        // A word alone is not a needle that wants its punctuation.
        for text in [
            "f = jax.jit(g)\nlower = 1\nbackends = ['cpu']",
            "f = jax.jit(g)\nx = lower_bound(y)",
            // A bare newline ends the statement: no needle spans two.
            "f = jax.jit(g)\nx = a.\nlower(b)",
        ] {
            assert!(!may_have_findings(text), "{text:?}");
        }
    }

    #[test]
    fn every_needle_the_prefilter_asks_for_is_kept_per_statement() {
        // Every path through the formula: each needle present or not.
        for mask in 0u32..1 << super::NEEDLES.len() {
            super::prefilter(|needle| {
                let at = super::NEEDLES.iter().position(|n| *n == needle);
                assert!(at.is_some(), "{needle} is not in NEEDLES");
                at.is_some_and(|i| mask & (1 << i) != 0)
            });
        }
    }
}

/// Findings for one parsed module, sorted by position, `# noqa` applied.
pub fn analyze_tree(
    text: &str,
    tree: &Tree,
    file: &Path,
    settings: &Settings,
    resolver: Option<&dyn Resolver>,
) -> Vec<Finding> {
    let module = Module::new(text, tree);
    finish(text, run_rules(&module, file, settings, resolver))
}

/// The enabled rules' findings for a model, before `# noqa`, unsorted.
///
/// Lowerings whose values are certain are checked together. A scenario
/// that holds only for one call site or loop element, or only with the
/// default of run-time configuration, is checked alone, and its findings
/// say so: a note naming the call, loop or default, and a default's are
/// warnings (another configuration may be fine). A finding the certain
/// scenarios already give is not repeated.
pub fn run_rules<'t>(
    module: &Module<'t>,
    file: &Path,
    settings: &Settings,
    resolver: Option<&'t dyn Resolver>,
) -> Vec<Finding> {
    run_rules_in(
        module,
        file,
        settings,
        resolver,
        settings.contract_scope(file),
    )
}

/// `run_rules` with the file's contract scope already known
/// (`Settings::contract_scope`, which looks for `__init__.py` files on
/// disk): incremental analysis asks once for all the units of a module.
pub fn run_rules_in<'t>(
    module: &Module<'t>,
    file: &Path,
    settings: &Settings,
    resolver: Option<&'t dyn Resolver>,
    scope: ContractScope,
) -> Vec<Finding> {
    // Before any requirement is built: contracts make some of them.
    module.set_contracts(scope);
    module.set_checked_here();
    let mut certain = Vec::new();
    let mut qualified = Vec::new();
    let mut on_hosts = Vec::new();
    for scenario in module
        .lowerings(file, resolver)
        .into_iter()
        .flat_map(split_default_requirements)
    {
        if matches!(scenario.why, Why::Host(_)) {
            on_hosts.push(scenario);
            continue;
        }
        // Requirements behind host tests (a callee picked by
        // `jax.default_backend()`): each host decides them.
        if scenario.reqs.iter().any(|r| r.named_hosts().is_some()) {
            on_hosts.push(scenario.clone());
        }
        if scenario.why.note().is_none() {
            certain.push(scenario);
        } else {
            qualified.push(scenario);
        }
    }
    let mut findings = Vec::new();
    check_all(module, &certain, file, settings, &mut findings);
    for scenario in qualified {
        let mut more = Vec::new();
        check_all(
            module,
            std::slice::from_ref(&scenario),
            file,
            settings,
            &mut more,
        );
        for mut finding in more {
            if findings
                .iter()
                .any(|f| f.code == finding.code && f.span == finding.span)
            {
                continue;
            }
            if let Some(note) = scenario.why.note() {
                if matches!(scenario.why, Why::Default(_)) {
                    finding.severity = crate::diagnostic::Severity::Warning;
                }
                finding.message = format!("{} ({note})", finding.message);
            }
            findings.push(finding);
        }
    }
    check_host_scenarios(module, on_hosts, file, settings, &mut findings);
    findings
}

/// Scenarios that hold on some hosts only (a function picked by
/// `jax.default_backend()`), and those whose requirements are behind host
/// tests: each is checked once per host it may run on, as run there (the
/// target platforms narrowed to that host). A finding that every host in
/// force gives fails wherever the program runs; one that only some hosts
/// give stays silent (which host runs it is a run-time choice), unless the
/// project's `target-platforms` or the code say those are the hosts.
fn check_host_scenarios<'t>(
    module: &Module<'t>,
    scenarios: Vec<Lowering<'t>>,
    file: &Path,
    settings: &Settings,
    findings: &mut Vec<Finding>,
) {
    use crate::semantic::host;
    // Per finding (its lowering call, code and span): the finding and the
    // hosts that give it; per lowering call, the hosts in force.
    let mut found: Vec<(usize, Finding, Vec<String>)> = Vec::new();
    let mut in_force_of: Vec<(usize, Vec<String>)> = Vec::new();
    for scenario in scenarios {
        // Where neither the code nor `target-platforms` says: every host.
        let in_force = match rules::hosts_said(module, settings, &scenario) {
            Some(said) => host::expand(&said),
            None => host::HOSTS.iter().map(|h| (*h).to_owned()).collect(),
        };
        let live: Vec<String> = match &scenario.why {
            Why::Host(hosts) => hosts
                .iter()
                .filter(|h| in_force.contains(h))
                .cloned()
                .collect(),
            _ => in_force.clone(),
        };
        let call = scenario.call.id();
        if !in_force_of.iter().any(|(c, _)| *c == call) {
            in_force_of.push((call, in_force));
        }
        for host in live {
            let mut on_this = settings.clone();
            on_this.target_platforms = vec![host.clone()];
            let mut more = Vec::new();
            check_all(
                module,
                std::slice::from_ref(&scenario),
                file,
                &on_this,
                &mut more,
            );
            for finding in more {
                let same = found.iter_mut().find(|(c, f, _)| {
                    *c == call && f.code == finding.code && f.span == finding.span
                });
                match same {
                    Some((_, _, on)) if !on.contains(&host) => on.push(host.clone()),
                    Some(_) => {}
                    None => found.push((call, finding, vec![host.clone()])),
                }
            }
        }
    }
    for (call, finding, on) in found {
        let every_host = in_force_of
            .iter()
            .find(|(c, _)| *c == call)
            .is_some_and(|(_, in_force)| in_force.iter().all(|h| on.contains(h)));
        let known = findings
            .iter()
            .any(|f| f.code == finding.code && f.span == finding.span);
        if every_host && !known {
            findings.push(finding);
        }
    }
}

/// True if a finding's message names a line of the file (the notes of
/// value flow: `at line 12`, `(line 35)`), so that moving the finding
/// would leave it wrong.
pub fn names_a_line(message: &str) -> bool {
    message.contains(" at line ") || message.contains("(line ")
}

fn check_all<'t>(
    module: &Module<'t>,
    lowerings: &[Lowering<'t>],
    file: &Path,
    settings: &Settings,
    findings: &mut Vec<Finding>,
) {
    let ctx = Context {
        module,
        lowerings,
        settings,
        file,
        mesh_uses: Default::default(),
    };
    for rule in rules::all() {
        if settings.enabled(rule.meta().code, file) {
            rule.check(&ctx, findings);
        }
    }
    if !settings.contracts.list.is_empty() {
        rules::contract::check(&ctx, rules::contract::Source::Contracts, findings);
    }
}

/// A lowering some of whose requirements hold only with a configuration
/// default (`interpret=FLAGS.interpret`): one scenario without them, and
/// one with each default.
fn split_default_requirements(lowering: Lowering<'_>) -> Vec<Lowering<'_>> {
    let defaults: Vec<Why> = lowering
        .reqs
        .iter()
        .filter(|r| matches!(r.why, Why::Default(_)))
        .map(|r| r.why.clone())
        .fold(Vec::new(), |mut seen, why| {
            if !seen.contains(&why) {
                seen.push(why);
            }
            seen
        });
    if defaults.is_empty() {
        return vec![lowering];
    }
    let mut out = Vec::new();
    for why in &defaults {
        let mut scenario = lowering.clone();
        scenario
            .reqs
            .retain(|r| !matches!(r.why, Why::Default(_)) || r.why == *why);
        scenario.why = scenario.why.and(why);
        out.push(scenario);
    }
    let mut plain = lowering;
    plain.reqs.retain(|r| !matches!(r.why, Why::Default(_)));
    out.insert(0, plain);
    out
}

/// `# noqa` applied, sorted by position, duplicates dropped.
pub fn finish(text: &str, mut findings: Vec<Finding>) -> Vec<Finding> {
    findings.retain(|f| !is_suppressed(text, f));
    findings.sort_by(|a, b| {
        (a.span.start, a.code, a.span.end, &a.message).cmp(&(
            b.span.start,
            b.code,
            b.span.end,
            &b.message,
        ))
    });
    findings.dedup_by(|a, b| a.span == b.span && a.code == b.code && a.message == b.message);
    findings
}

/// Parses (in sections, as the server does) and analyzes `text` (the
/// prefilter is the caller's choice).
pub fn analyze(
    text: &str,
    file: &Path,
    settings: &Settings,
    resolver: Option<&dyn Resolver>,
) -> Vec<Finding> {
    let Some(sections) = syntax::sections::parse(text) else {
        return Vec::new();
    };
    let trees = syntax::sections::trees(&sections);
    let trees: Vec<&Tree> = trees.iter().map(AsRef::as_ref).collect();
    analyze_trees(text, &trees, file, settings, resolver)
}

/// `analyze_tree` for a text parsed as several trees (`syntax::sections`),
/// in document order.
pub fn analyze_trees(
    text: &str,
    trees: &[&Tree],
    file: &Path,
    settings: &Settings,
    resolver: Option<&dyn Resolver>,
) -> Vec<Finding> {
    match module_of_trees(text, trees) {
        Some(module) => finish(text, run_rules(&module, file, settings, resolver)),
        None => Vec::new(),
    }
}

/// The model of a module parsed as `trees` (one, or its sections).
fn module_of_trees<'t>(text: &'t str, trees: &[&'t Tree]) -> Option<Module<'t>> {
    match trees {
        [] => None,
        [tree] => Some(Module::new(text, tree)),
        [first, ..] => {
            let statements = trees
                .iter()
                .flat_map(|tree| syntax::top_level_statements(tree))
                .collect();
            Some(Module::new_in(text, first.root_node(), statements))
        }
    }
}

/// `# noqa` / `# noqa: JP001, JP002` on the line where the finding starts.
fn is_suppressed(text: &str, finding: &Finding) -> bool {
    // Only the finding's own line is needed: no line index over the file
    // (the server already keeps one; the CLI never needs another).
    let start = finding.span.start.min(text.len());
    // Lines end at \n, \r\n or a lone \r (as for Python and LSP).
    let line_start = memchr::memrchr2(b'\n', b'\r', &text.as_bytes()[..start]).map_or(0, |i| i + 1);
    let line_end =
        memchr::memchr2(b'\n', b'\r', &text.as_bytes()[start..]).map_or(text.len(), |i| start + i);
    let Some(line_text) = text.get(line_start..line_end) else {
        return false;
    };
    noqa_codes(line_text).is_some_and(|codes| {
        codes.is_empty() || codes.iter().any(|c| c.eq_ignore_ascii_case(finding.code))
    })
}

/// The codes of a `# noqa` comment on a line: `Some(vec![])` for a bare
/// `# noqa`, `None` without one.
pub fn noqa_codes(line: &str) -> Option<Vec<String>> {
    // The last `#` followed by `noqa` (a `#` inside a string before it does not count).
    let lower = line.to_ascii_lowercase();
    let at = lower
        .rmatch_indices("noqa")
        .map(|(i, _)| i)
        .find(|&i| lower[..i].trim_end().ends_with('#'))?;
    let rest = &line[at + 4..];
    let Some(list) = rest.trim_start().strip_prefix(':') else {
        return Some(Vec::new());
    };
    // Codes are letters then digits (`JP003`); the list ends at anything else.
    let is_code = |c: &str| {
        let digits = c.trim_start_matches(|ch: char| ch.is_ascii_alphabetic());
        digits.len() < c.len() && !digits.is_empty() && digits.chars().all(|ch| ch.is_ascii_digit())
    };
    let codes: Vec<String> = list
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|c| !c.is_empty())
        .take_while(|c| is_code(c))
        .map(str::to_owned)
        .collect();
    Some(codes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_noqa_comments() {
        assert_eq!(noqa_codes("x = 1  # noqa"), Some(vec![]));
        assert_eq!(
            noqa_codes("x = 1  # noqa: JP001, JP002"),
            Some(vec!["JP001".to_owned(), "JP002".to_owned()])
        );
        assert_eq!(
            noqa_codes("x = 1  # NOQA:JP003 because"),
            Some(vec!["JP003".to_owned()])
        );
        assert_eq!(noqa_codes("x = 1  # a comment"), None);
    }
}

/// A readable dump of a module's lowering scenarios (`jax-lsp debug-lowerings`).
pub fn debug_lowerings(text: &str, file: &Path) -> String {
    let Some(sections) = syntax::sections::parse(text) else {
        return "parse failed\n".to_owned();
    };
    let trees = syntax::sections::trees(&sections);
    let trees: Vec<&Tree> = trees.iter().map(AsRef::as_ref).collect();
    let Some(module) = module_of_trees(text, &trees) else {
        return String::new();
    };
    module.set_checked_here();
    let resolver = crate::resolver::FsResolver::default();
    let line = |at: usize| text[..at.min(text.len())].matches('\n').count() + 1;
    let mut out = String::new();
    for l in module.lowerings(file, Some(&resolver)) {
        out.push_str(&format!(
            "line {} {:?} platforms={:?} why={:?} choices={} context={:?}\n",
            line(l.anchor.start),
            l.kind,
            l.platforms,
            l.why,
            l.choices.len(),
            l.context
        ));
        let mesh = module.mesh_use(&l);
        out.push_str(&format!(
            "  mesh: abstract={} concrete={} unknown={}\n",
            mesh.abstract_mesh, mesh.concrete, mesh.unknown
        ));
        let flow = module.flow();
        for (arg, scope) in module.trace_arguments(&l) {
            for alt in flow.eval(arg, scope) {
                out.push_str(&format!(
                    "  arg `{}`: {:?}\n",
                    crate::syntax::text(arg, text),
                    flow.argument_use(&alt.val, 0)
                ));
            }
        }
        if let Some(jitted) = &l.jitted {
            for key in ["in_shardings", "out_shardings"] {
                if let Some((node, scope)) = jitted.keyword(key) {
                    out.push_str(&format!(
                        "  {key}: {:?}\n",
                        module.eval_sharding(node, scope)
                    ));
                }
            }
        }
        for r in &l.reqs {
            out.push_str(&format!(
                "  req line {} {:?} why={:?} guards={:?}{}\n",
                line(r.span.start),
                r.kind,
                r.why,
                r.guards,
                r.file
                    .as_ref()
                    .map(|f| format!(" in {}", f.display()))
                    .unwrap_or_default()
            ));
        }
    }
    // Module-level names, as other modules would see them: what a lowering's
    // value went through, when a finding is missing.
    let flow = module.flow();
    let mut names: Vec<(String, String)> = module
        .module_bindings()
        .filter_map(|(name, bindings)| match bindings.last().cloned() {
            Some(crate::semantic::Binding::Value { value, scope, .. }) => {
                let alts = flow.detach(&flow.eval(value, scope), 0);
                Some((name.to_owned(), format!("{alts:?}")))
            }
            _ => None,
        })
        .collect();
    names.sort();
    for (name, value) in names {
        out.push_str(&format!("name {name} = {value}\n"));
    }
    out
}

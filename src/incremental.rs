//! Incremental analysis: after an edit, analyse again only what it can change.
//!
//! A module's top-level statements are split into *units*, groups of
//! statements whose findings can depend on each other:
//! - two statements are linked when one names something the other binds at
//!   module level. Names are identifier tokens of the statement's text, so a
//!   link may be spurious (a name in a string, an attribute) but is never
//!   missed; a statement whose bindings cannot be listed exactly (a `match`,
//!   an error inside it) binds every name it holds;
//! - the names of methods link like module-level names: the model finds a
//!   method's callers by its name alone (`obj.run(...)` anywhere);
//! - imports (and top-level flag or argument definitions, read through
//!   `FLAGS` or a `parse_args()` namespace) are in every unit and link
//!   nothing; a def or class holding such definitions links with every
//!   statement that may read them (`parse_args`, `FLAGS`);
//! - a constant assignment (no call, no lambda, naming only imports and other
//!   constants) joins every unit that names it, without linking those units:
//!   nothing about a constant depends on who reads it;
//! - a syntax error at the top level (an `ERROR` node; the parse is in
//!   sections, so it holds the text of one stretch at most) links like any
//!   statement, binding every name it holds except those it only reads as
//!   `name.attribute` (recovery may make a target of any other token; in a
//!   broken import, every name);
//!   statements with an error inside bind every name they hold.
//!
//! A unit is analysed through a model of its statements alone
//! (`Module::new_in`), as if the others were blank lines, so its findings
//! depend only on its statements' text (and the file, the settings and other
//! modules, which invalidate everything). After an edit, a unit whose
//! statements all kept their text reuses its findings, shifted to the
//! statements' new offsets; the others are analysed again. A unit that cannot
//! pass the prefilter is not analysed at all.
//!
//! `tests/incremental.rs` checks that the union of the units' findings is
//! exactly the whole-module analysis, on every fixture and after random edits.

use crate::analysis::{self, Needles};
use crate::config::Settings;
use crate::diagnostic::Finding;
use crate::semantic::{Matches, Module, Resolver};
use crate::syntax::sections::{shift, Section};
use crate::syntax::{self, Field, KindName};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};
use tree_sitter::{Node, Tree};

/// `Incremental::unit_of` of a statement in no unit yet, or in several.
const NONE: u32 = u32::MAX;
const SEVERAL: u32 = u32::MAX - 1;

/// Past this many distinct names the interner is reset (a long session of
/// typing adds a name or two per keystroke).
const MAX_NAMES: usize = 1 << 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Import,
    /// A syntax error at the top level: what it binds and names is unknown.
    Error,
    /// An assignment whose value holds no call or lambda.
    Constant,
    Other,
}

/// What partitioning needs to know of one statement; depends only on its
/// text, and for a statement holding a syntax error on its tree's shape too.
#[derive(Debug)]
struct StatementInfo {
    kind: Kind,
    /// `error_shape` of its tree: 0 when it parsed without error.
    error_shape: u64,
    /// Names bound at module level (interned).
    binds: Vec<u32>,
    /// Every identifier token in the statement (interned, sorted, unique).
    refs: Vec<u32>,
    /// Names a function or class body stores into or grows (`REG[k] = f`,
    /// `HOOKS.append(f)`: a registry a decorator fills), interned, sorted,
    /// unique. They bind like `binds` where the module binds the name.
    mutates: Vec<u32>,
    needles: Needles,
}

#[derive(Clone, Debug)]
struct Statement {
    range: Range<usize>,
    info: Arc<StatementInfo>,
}

struct UnitResult {
    /// Statement indices, ascending.
    members: Vec<usize>,
    /// Before `# noqa`, in this version's offsets.
    findings: Vec<Finding>,
    /// The prefilter rules it out (it is not analysed).
    skipped: bool,
}

/// What one analysis did, for logs and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub statements: usize,
    /// Statements whose text was not found in the previous version.
    pub new_statements: usize,
    pub units: usize,
    pub analyzed: usize,
    pub reused: usize,
    /// Units the prefilter rules out.
    pub skipped: usize,
    /// Time spent listing and matching statements, partitioning, reusing
    /// (shifting) findings, analysing units, and merging.
    pub scan: Duration,
    pub partition: Duration,
    pub reuse: Duration,
    pub analysis: Duration,
    pub merge: Duration,
}

/// The state incremental analysis keeps for one document between versions.
#[derive(Default)]
pub struct Incremental {
    text: Option<Arc<str>>,
    /// The previous version's sections (id, statement count), when it was
    /// analysed as sections: a section kept since holds the same statements.
    pieces: Vec<(u64, usize)>,
    file: PathBuf,
    settings_key: String,
    statements: Vec<Statement>,
    units: Vec<UnitResult>,
    names: FxHashMap<Box<str>, u32>,
    /// By name id: bound at module level by some statement (the last partition's).
    bound: Vec<bool>,
    /// By statement: the one unit holding it, or `SEVERAL` (imports,
    /// constants), so that an edit finds its units without reading every
    /// unit's list.
    unit_of: Vec<u32>,
    /// The imported lowering helpers at the last analysis
    /// (`Resolver::imported_lowering_helpers`).
    helpers: Vec<String>,
    pub stats: Stats,
}

/// Whether a statement names one of the helpers (by interned name).
fn names_a_helper(info: &StatementInfo, helper_ids: &[u32]) -> bool {
    helper_ids
        .iter()
        .any(|id| info.refs.binary_search(id).is_ok())
}

impl Incremental {
    pub fn new() -> Incremental {
        Incremental::default()
    }

    /// Forgets every reused result (another module or the configuration changed).
    pub fn invalidate(&mut self) {
        self.text = None;
        self.pieces.clear();
        self.unit_of.clear();
        self.statements.clear();
        self.units.clear();
    }

    /// The findings of `text` (parsed as `tree`), sorted, `# noqa` applied:
    /// the same as `analysis::analyze_tree`, reusing what the previous call
    /// found for units of statements that did not change. The caller applies
    /// the file-level prefilter, as it would for a whole-module analysis.
    pub fn analyze(
        &mut self,
        text: &Arc<str>,
        tree: &Tree,
        file: &Path,
        settings: &Settings,
        resolver: Option<&dyn Resolver>,
    ) -> Vec<Finding> {
        self.analyze_trees(text, &[tree], file, settings, resolver)
    }

    /// `analyze` for a text parsed as several trees, in document order: a
    /// unit's statements may come from several of them.
    pub fn analyze_trees(
        &mut self,
        text: &Arc<str>,
        trees: &[&Tree],
        file: &Path,
        settings: &Settings,
        resolver: Option<&dyn Resolver>,
    ) -> Vec<Finding> {
        let pieces: Vec<Piece<'_>> = trees
            .iter()
            .map(|tree| Piece {
                tree: PieceTree::Tree(tree),
                id: None,
                offset: 0,
                ranges: syntax::top_level_statements(tree)
                    .iter()
                    .map(|n| n.byte_range())
                    .collect(),
            })
            .collect();
        self.analyze_pieces(text, &pieces, file, settings, resolver)
    }

    /// `analyze` for a text parsed as sections (`syntax::sections`), what
    /// the server runs: the statements are the ones each section listed when
    /// it was parsed, and a section's tree is only read (moved to its place,
    /// walked) if one of its statements is read or analysed.
    pub fn analyze_sections(
        &mut self,
        text: &Arc<str>,
        sections: &[Section],
        file: &Path,
        settings: &Settings,
        resolver: Option<&dyn Resolver>,
    ) -> Vec<Finding> {
        let pieces: Vec<Piece<'_>> = sections
            .iter()
            .map(|s| Piece {
                tree: PieceTree::Section(s),
                id: Some(s.id),
                offset: s.range.start,
                ranges: Cow::Borrowed(&s.statements),
            })
            .collect();
        self.analyze_pieces(text, &pieces, file, settings, resolver)
    }

    fn analyze_pieces(
        &mut self,
        text: &Arc<str>,
        pieces: &[Piece<'_>],
        file: &Path,
        settings: &Settings,
        resolver: Option<&dyn Resolver>,
    ) -> Vec<Finding> {
        if pieces.is_empty() {
            return Vec::new();
        }
        let settings_key = format!("{settings:?}");
        if self.file != file || self.settings_key != settings_key {
            self.invalidate();
            self.file = file.to_path_buf();
            self.settings_key = settings_key;
        }
        // Another module's lowering helpers this text imports (a unit
        // calling one passes the prefilter): when they change, units
        // skipped for naming none may not be.
        let helpers = resolver
            .map(|r| r.imported_lowering_helpers(file, text))
            .unwrap_or_default();
        if helpers != self.helpers {
            self.invalidate();
            self.helpers = helpers;
        }
        if self.names.len() > MAX_NAMES {
            self.invalidate();
            self.names.clear();
        }
        let src: &str = text;
        let started = Instant::now();
        // The statements' ranges, and where each piece's begin.
        let mut ranges: Vec<Range<usize>> =
            Vec::with_capacity(pieces.iter().map(|p| p.ranges.len()).sum());
        let mut piece_start = Vec::with_capacity(pieces.len());
        for piece in pieces {
            piece_start.push(ranges.len());
            ranges.extend(
                piece
                    .ranges
                    .iter()
                    .map(|r| r.start + piece.offset..r.end + piece.offset),
            );
        }
        let n = ranges.len();
        // Each piece's tree and statement nodes, when first asked for.
        let trees: Vec<OnceLock<Cow<'_, Tree>>> = pieces.iter().map(|_| OnceLock::new()).collect();
        let tree_of = |p: usize| trees[p].get_or_init(|| pieces[p].tree.get());
        let nodes: Vec<OnceLock<Vec<Node<'_>>>> = pieces.iter().map(|_| OnceLock::new()).collect();
        let node = |i: usize| -> Node<'_> {
            // The last piece starting at or before `i` holds it (an empty
            // piece starts where the next one does).
            let p = piece_start.partition_point(|&s| s <= i).saturating_sub(1);
            let tree = tree_of(p);
            nodes[p]
                .get_or_init(|| syntax::top_level_statements(tree))
                .get(i - piece_start[p])
                .copied()
                .unwrap_or_else(|| tree.root_node())
        };

        // Statements whose text is unchanged: the longest common prefix and
        // suffix (an edit between two analyses touches one place, or a few).
        // The sections both versions hold (the same id: not parsed again)
        // hold the same statements, counted from each end without reading
        // them; else bytes the texts share at their start and end need no
        // comparing.
        let mut old = std::mem::take(&mut self.statements);
        let old_text = self.text.take();
        let old_pieces = std::mem::take(&mut self.pieces);
        let new_pieces: Option<Vec<(u64, usize)>> = pieces
            .iter()
            .map(|p| Some((p.id?, p.ranges.len())))
            .collect();
        let (mut prefix, mut suffix) = (0, 0);
        let (mut head, mut tail) = (0, 0);
        match &new_pieces {
            Some(new_pieces)
                if old_text.is_some()
                    && old_pieces.iter().map(|p| p.1).sum::<usize>() == old.len() =>
            {
                let common = old_pieces.len().min(new_pieces.len());
                let mut front = 0;
                while front < common && old_pieces[front] == new_pieces[front] {
                    prefix += new_pieces[front].1;
                    front += 1;
                }
                let mut back = 0;
                while back < common - front
                    && old_pieces[old_pieces.len() - 1 - back]
                        == new_pieces[new_pieces.len() - 1 - back]
                {
                    suffix += new_pieces[new_pieces.len() - 1 - back].1;
                    back += 1;
                }
            }
            _ => {
                (head, tail) = old_text
                    .as_deref()
                    .map_or((0, 0), |t| common_ends(t.as_bytes(), src.as_bytes()));
            }
        }
        let old_len = old_text.as_deref().map_or(0, str::len);
        let grown = src.len() as isize - old_len as isize;
        let same_text = |o: &Statement, new: &Range<usize>| {
            let Some(t) = old_text.as_deref() else {
                return false;
            };
            if o.range == *new && new.end <= head {
                return true;
            }
            if o.range.start + tail >= old_len
                && (shift(o.range.start, grown)..shift(o.range.end, grown)) == *new
            {
                return true;
            }
            t.get(o.range.clone())
                .is_some_and(|t| Some(t) == src.get(new.clone()))
        };
        // Error recovery depends on the text around a statement: the same
        // text can parse to another tree once a later line changes (a typed
        // character after a broken function moved the error out of its
        // `jnp.linalg.eigh` chain), so a statement with an error inside is
        // the same only if its tree has the same shape too.
        let same = |o: &Statement, i: usize| {
            same_text(o, &ranges[i]) && o.info.error_shape == error_shape(node(i))
        };
        let common = old.len().min(n);
        // The sections' suffix is kept: the prefix stops where it starts.
        while prefix < common - suffix && same(&old[prefix], prefix) {
            prefix += 1;
        }
        while suffix < common - prefix && same(&old[old.len() - 1 - suffix], n - 1 - suffix) {
            suffix += 1;
        }
        // New statements `prefix..changed_end` were not seen before; the old
        // ones at or after `changed_end` moved by `moved` places.
        let changed_end = n - suffix;
        let moved = old.len() as isize - n as isize;
        let old_of = |new: usize| -> Option<usize> {
            if new < prefix {
                Some(new)
            } else if new >= changed_end {
                Some((new as isize + moved) as usize)
            } else {
                None
            }
        };
        // Statements not seen before are read in parallel when there are
        // many (a module being opened), then their names interned in order.
        let read = |i: usize| read_statement(node(i), src);
        let raw: Vec<RawStatement<'_>> = if changed_end - prefix > 64 {
            (prefix..changed_end).into_par_iter().map(read).collect()
        } else {
            (prefix..changed_end).map(read).collect()
        };
        let new_statements = raw.len();
        let fresh: Vec<Arc<StatementInfo>> = raw
            .into_iter()
            .map(|r| Arc::new(r.intern(&mut self.names)))
            .collect();

        let scanned = Instant::now();
        let mut stats = Stats {
            statements: n,
            new_statements,
            ..Stats::default()
        };
        // The same links as before (the common case: an edit inside a body)
        // give the same units: only those holding a changed statement are
        // looked at again, the others keep their findings (shifted).
        let same_links = old.len() == n
            && (prefix..changed_end)
                .all(|i| same_links(&old[i].info, &fresh[i - prefix], &self.bound));
        // Lowering helpers of other modules this text may call (a unit that
        // names one passes the prefilter: `Resolver::lowering_helpers`).
        // (By the last name of `mod.helper`: an over-approximation.)
        let helper_ids: Vec<u32> = self
            .helpers
            .iter()
            .filter_map(|h| self.names.get(h.rsplit('.').next().unwrap_or(h)).copied())
            .collect();
        let mut to_analyze: Vec<usize> = Vec::new();
        let partitioned;
        let statements = if same_links {
            partitioned = Instant::now();
            let delta_of_old = |o: usize| -> Option<isize> {
                old_of(o)?;
                Some(ranges[o].start as isize - old[o].range.start as isize)
            };
            // The units holding a changed statement, from the statements'
            // own units when each has one (else each unit's list is read).
            let changed_units: Option<Vec<usize>> = (self.unit_of.len() == n)
                .then(|| {
                    (prefix..changed_end)
                        .map(|i| (self.unit_of[i] < SEVERAL).then_some(self.unit_of[i] as usize))
                        .collect::<Option<Vec<usize>>>()
                })
                .flatten();
            for (u, unit) in self.units.iter_mut().enumerate() {
                let changed = match &changed_units {
                    Some(units) => units.contains(&u),
                    None => {
                        let at = unit.members.partition_point(|&i| i < prefix);
                        unit.members.get(at).is_some_and(|&i| i < changed_end)
                    }
                };
                if changed {
                    let info_of = |i: usize| match old_of(i) {
                        Some(o) => &old[o].info,
                        None => &fresh[i - prefix],
                    };
                    let needles = unit
                        .members
                        .iter()
                        .fold(Needles::default(), |acc, &i| acc.union(info_of(i).needles));
                    unit.findings.clear();
                    unit.skipped = !needles.may_have_findings()
                        && !unit
                            .members
                            .iter()
                            .any(|&i| names_a_helper(info_of(i), &helper_ids));
                    if !unit.skipped {
                        to_analyze.push(u);
                    }
                    continue;
                }
                if unit.findings.is_empty() {
                    continue;
                }
                let shifted = unit
                    .findings
                    .iter()
                    .map(|f| shift_finding(f, &old, &delta_of_old))
                    .collect::<Option<Vec<Finding>>>();
                match shifted {
                    Some(findings) => unit.findings = findings,
                    None => {
                        unit.findings.clear();
                        to_analyze.push(u);
                    }
                }
            }
            // The old list becomes the new one, in place.
            for (i, (s, range)) in old.iter_mut().zip(&ranges).enumerate() {
                s.range = range.clone();
                if (prefix..changed_end).contains(&i) {
                    s.info = fresh[i - prefix].clone();
                }
            }
            old
        } else {
            let mut fresh = fresh.into_iter();
            let statements: Vec<Statement> = ranges
                .iter()
                .enumerate()
                .map(|(i, range)| Statement {
                    range: range.clone(),
                    info: match old_of(i) {
                        Some(o) => old[o].info.clone(),
                        // Statements `prefix..changed_end`, in this order.
                        None => fresh.next().unwrap_or_else(|| {
                            Arc::new(read_statement(node(i), src).intern(&mut self.names))
                        }),
                    },
                })
                .collect();
            let delta_of_old = |o: usize| -> Option<isize> {
                let new = if o < prefix {
                    o
                } else if o as isize >= changed_end as isize + moved {
                    (o as isize - moved) as usize
                } else {
                    return None;
                };
                Some(statements[new].range.start as isize - old[o].range.start as isize)
            };
            let units = partition(&statements, self.names.len());
            self.bound = vec![false; self.names.len()];
            for s in statements.iter().filter(|s| s.info.kind != Kind::Import) {
                for &name in &s.info.binds {
                    self.bound[name as usize] = true;
                }
            }
            partitioned = Instant::now();
            let old_units: FxHashMap<&[usize], usize> = self
                .units
                .iter()
                .enumerate()
                .map(|(i, u)| (u.members.as_slice(), i))
                .collect();
            let mut results: Vec<UnitResult> = Vec::with_capacity(units.len());
            for members in units {
                let needles = members.iter().fold(Needles::default(), |acc, &i| {
                    acc.union(statements[i].info.needles)
                });
                if !needles.may_have_findings()
                    && !members
                        .iter()
                        .any(|&i| names_a_helper(&statements[i].info, &helper_ids))
                {
                    results.push(UnitResult {
                        members,
                        findings: Vec::new(),
                        skipped: true,
                    });
                    continue;
                }
                let reused = members
                    .iter()
                    .map(|&i| old_of(i))
                    .collect::<Option<Vec<usize>>>()
                    .and_then(|old_members| old_units.get(old_members.as_slice()).copied())
                    .and_then(|u| {
                        self.units[u]
                            .findings
                            .iter()
                            .map(|f| shift_finding(f, &old, &delta_of_old))
                            .collect::<Option<Vec<Finding>>>()
                    });
                if reused.is_none() {
                    to_analyze.push(results.len());
                }
                results.push(UnitResult {
                    members,
                    findings: reused.unwrap_or_default(),
                    skipped: false,
                });
            }
            self.units = results;
            self.unit_of = vec![NONE; statements.len()];
            for (u, unit) in self.units.iter().enumerate() {
                for &i in &unit.members {
                    self.unit_of[i] = if self.unit_of[i] == NONE {
                        u as u32
                    } else {
                        SEVERAL
                    };
                }
            }
            statements
        };
        stats.units = self.units.len();
        stats.skipped = self.units.iter().filter(|u| u.skipped).count();
        stats.analyzed = to_analyze.len();
        stats.reused = stats.units - stats.skipped - stats.analyzed;
        let reused = Instant::now();
        // Once for every unit: it looks for packages on disk.
        let scope = settings.contract_scope(file);
        // The statements in several of the units to analyse (the imports,
        // which are in every unit) are matched by the queries once: opening
        // the bench module matched its three imports 1,111 times, a fifth
        // of the query walk.
        let mut uses = vec![0u32; n];
        for &u in &to_analyze {
            for &i in &self.units[u].members {
                uses[i] += 1;
            }
        }
        let shared: FxHashMap<usize, Matches<'_>> = (0..n)
            .filter(|&i| uses[i] > 1)
            .map(|i| (i, Matches::of(node(i), src)))
            .collect();
        let units = &self.units;
        let helpers = &self.helpers;
        let analyze_unit = |&u: &usize| -> Vec<Finding> {
            let members = &units[u].members;
            let statements = members.iter().map(|&i| node(i)).collect();
            let matched: Vec<Option<&Matches<'_>>> =
                members.iter().map(|i| shared.get(i)).collect();
            let module = Module::new_in_matched(src, tree_of(0).root_node(), statements, &matched);
            module.set_imported_helpers(helpers);
            analysis::run_rules_in(&module, file, settings, resolver, scope.clone())
        };
        // Opening a large module analyses every unit: spread them over the
        // cores. One unit (an edit) stays on this thread.
        let found: Vec<Vec<Finding>> = if to_analyze.len() > 1 {
            to_analyze.par_iter().map(analyze_unit).collect()
        } else {
            to_analyze.iter().map(analyze_unit).collect()
        };
        for (u, findings) in to_analyze.into_iter().zip(found) {
            self.units[u].findings = findings;
        }
        let analysed = Instant::now();
        self.statements = statements;
        self.text = Some(text.clone());
        self.pieces = new_pieces.unwrap_or_default();
        let all: Vec<Finding> = self
            .units
            .iter()
            .flat_map(|u| u.findings.iter().cloned())
            .collect();
        let found = analysis::finish(src, all);
        stats.scan = scanned - started;
        stats.partition = partitioned - scanned;
        stats.reuse = reused - partitioned;
        stats.analysis = analysed - reused;
        stats.merge = analysed.elapsed();
        self.stats = stats;
        found
    }
}

/// One parsed piece of a module (a section, or a whole tree) and its
/// top-level statements' ranges.
struct Piece<'t> {
    tree: PieceTree<'t>,
    /// A section's id (`Section::id`).
    id: Option<u64>,
    /// Added to `ranges` (a section lists its statements from its start).
    offset: usize,
    ranges: Cow<'t, [Range<usize>]>,
}

enum PieceTree<'t> {
    Tree(&'t Tree),
    /// Its tree may have to be moved to the section's place first.
    Section(&'t Section),
}

impl<'t> PieceTree<'t> {
    fn get(&self) -> Cow<'t, Tree> {
        match *self {
            PieceTree::Tree(tree) => Cow::Borrowed(tree),
            PieceTree::Section(section) => section.tree(),
        }
    }
}

/// How many bytes `a` and `b` share at their start, and at their end.
fn common_ends(a: &[u8], b: &[u8]) -> (usize, usize) {
    // Compared a block at a time (a memcmp each), then byte by byte.
    const BLOCK: usize = 256;
    let n = a.len().min(b.len());
    let mut head = 0;
    while head + BLOCK <= n && a[head..head + BLOCK] == b[head..head + BLOCK] {
        head += BLOCK;
    }
    while head < n && a[head] == b[head] {
        head += 1;
    }
    let (ea, eb) = (a.len(), b.len());
    let mut tail = 0;
    while tail + BLOCK <= n && a[ea - tail - BLOCK..ea - tail] == b[eb - tail - BLOCK..eb - tail] {
        tail += BLOCK;
    }
    while tail < n && a[ea - tail - 1] == b[eb - tail - 1] {
        tail += 1;
    }
    (head, tail)
}

/// Whether a changed statement links like the one it replaces: the same kind,
/// the same bound names and the same module-level names among its tokens.
fn same_links(old: &StatementInfo, new: &StatementInfo, bound: &[bool]) -> bool {
    let is_bound = |name: &&u32| bound.get(**name as usize).copied().unwrap_or(false);
    old.kind == new.kind
        && old.binds == new.binds
        && old.mutates == new.mutates
        && old
            .refs
            .iter()
            .filter(is_bound)
            .eq(new.refs.iter().filter(is_bound))
}

/// A finding moved to the new offsets of the statements it lies in; `None`
/// if a span is not inside an unchanged statement.
fn shift_finding(
    finding: &Finding,
    old: &[Statement],
    delta_of_old: &dyn Fn(usize) -> Option<isize>,
) -> Option<Finding> {
    let shift = |span: &Range<usize>| -> Option<Range<usize>> {
        // The last statement starting at or before the span.
        let at = old.partition_point(|s| s.range.start <= span.start);
        let index = at.checked_sub(1)?;
        let statement = &old[index];
        if span.end > statement.range.end {
            return None;
        }
        let delta = delta_of_old(index)?;
        Some((span.start as isize + delta) as usize..(span.end as isize + delta) as usize)
    };
    let mut out = finding.clone();
    // A message naming a line (`for the call at line 12`, maybe of another
    // statement of the unit) may be stale after any edit: the unit is
    // analysed again. Such findings are few (values from call sites, loops
    // and configuration defaults).
    if crate::analysis::names_a_line(&finding.message) {
        return None;
    }
    out.span = shift(&finding.span)?;
    for related in &mut out.related {
        if related.file.is_none() {
            related.span = shift(&related.span)?;
        }
    }
    for fix in &mut out.fixes {
        for edit in &mut fix.edits {
            edit.span = shift(&edit.span)?;
        }
    }
    Some(out)
}

fn intern(names: &mut FxHashMap<Box<str>, u32>, name: &str) -> u32 {
    if let Some(&id) = names.get(name) {
        return id;
    }
    let id = names.len() as u32;
    names.insert(name.into(), id);
    id
}

/// Identifier tokens of a text, over-approximated: split where a Python
/// identifier cannot continue (Unicode letters and digits and `_` can), and
/// also at every non-ASCII character (a character the parser does not take as
/// part of a name, such as an emoji, splits its tokens there). Tokens start
/// with a non-digit.
fn identifier_tokens(text: &str) -> Vec<&str> {
    let starts_name = |t: &&str| t.as_bytes().first().is_some_and(|b| !b.is_ascii_digit());
    if text.is_ascii() {
        // The common case, byte by byte.
        return text
            .split(|c: char| !(c == '_' || c.is_ascii_alphanumeric()))
            .filter(starts_name)
            .collect();
    }
    let unicode = text.split(|c: char| !(c == '_' || c.is_alphanumeric()));
    let ascii = text.split(|c: char| !(c == '_' || c.is_ascii_alphanumeric()));
    unicode.chain(ascii).filter(starts_name).collect()
}

/// What `StatementInfo` holds, before names are interned (so that many
/// statements can be read in parallel).
struct RawStatement<'s> {
    kind: Kind,
    error_shape: u64,
    tokens: Vec<&'s str>,
    /// `None`: not listable exactly; every token counts as bound.
    binds: Option<Vec<&'s str>>,
    mutates: Vec<&'s str>,
    needles: Needles,
}

impl RawStatement<'_> {
    fn intern(self, names: &mut FxHashMap<Box<str>, u32>) -> StatementInfo {
        let mut refs: Vec<u32> = self.tokens.iter().map(|t| intern(names, t)).collect();
        refs.sort_unstable();
        refs.dedup();
        let binds = match self.binds {
            Some(bound) => {
                let mut ids: Vec<u32> = bound.iter().map(|n| intern(names, n)).collect();
                ids.sort_unstable();
                ids.dedup();
                ids
            }
            None => refs.clone(),
        };
        let mut mutates: Vec<u32> = self.mutates.iter().map(|n| intern(names, n)).collect();
        mutates.sort_unstable();
        mutates.dedup();
        StatementInfo {
            kind: self.kind,
            error_shape: self.error_shape,
            binds,
            refs,
            mutates,
            needles: self.needles,
        }
    }
}

/// 0 for a statement that parsed without error; else a hash of its tree's
/// shape (kinds and spans from its start, in order), which tells two parses of
/// the same text apart when recovery read them differently.
fn error_shape(node: Node<'_>) -> u64 {
    use std::hash::{Hash, Hasher};
    if !node.has_error() {
        return 0;
    }
    let start = node.start_byte();
    let mut hasher = rustc_hash::FxHasher::default();
    let mut cursor = node.walk();
    'walk: loop {
        let n = cursor.node();
        (
            n.kind_id(),
            n.is_missing(),
            n.start_byte() - start,
            n.end_byte() - start,
        )
            .hash(&mut hasher);
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() || cursor.node() == node {
                break 'walk;
            }
        }
    }
    // Never 0, which means no error.
    hasher.finish() | 1
}

/// The name that links configuration definitions with their readers (see
/// `read_statement`); not an identifier, so no statement binds it otherwise.
const CONFIGURATION: &str = "#configuration";

/// Whether a statement may read the run's configuration by name rather than
/// through a binding: an argparse namespace (`args.platform`, the argument
/// defined anywhere in the module) or absl's `FLAGS.platform`.
fn reads_configuration(text: &str) -> bool {
    [
        "parse_args",
        "parse_known_args",
        "parse_intermixed_args",
        "FLAGS",
    ]
    .iter()
    .any(|needle| memchr::memmem::find(text.as_bytes(), needle.as_bytes()).is_some())
}

fn read_statement<'s>(node: Node<'_>, src: &'s str) -> RawStatement<'s> {
    let error_shape = error_shape(node);
    let text = src.get(node.byte_range()).unwrap_or("");
    let mut tokens = identifier_tokens(text);
    let needles = statement_needles(node, text);
    // A flag definition (`flags.DEFINE_string("platform", "tpu", ...)`) is
    // read through `FLAGS.platform`, an argparse argument through
    // `args.platform`: names it does not bind. Like an import, a statement
    // (or a broken piece) holding one belongs to every unit.
    let defines_configuration = || text.contains("DEFINE_") || text.contains("add_argument(");
    if node.is_error() || !node.is_named() {
        if defines_configuration() {
            return RawStatement {
                error_shape,
                kind: Kind::Import,
                tokens,
                binds: Some(Vec::new()),
                mutates: Vec::new(),
                needles,
            };
        }
        let binds = error_bindings(text, &tokens);
        return RawStatement {
            error_shape,
            kind: Kind::Error,
            tokens,
            binds: Some(binds),
            mutates: Vec::new(),
            needles,
        };
    }
    let top_kind = if matches!(
        node.kind_name(),
        "import_statement" | "import_from_statement" | "future_import_statement"
    ) || (node.kind_name() == "expression_statement" && defines_configuration())
    {
        Some(Kind::Import)
    } else {
        None
    };
    if let Some(kind) = top_kind {
        return RawStatement {
            error_shape,
            kind,
            tokens,
            binds: Some(Vec::new()),
            mutates: Vec::new(),
            needles,
        };
    }
    let mut bound = Vec::new();
    // A def or class that defines configuration (`def main(): parser.
    // add_argument(...)`) is read wherever the run's arguments are: by a
    // `parse_args()` namespace or `FLAGS` anywhere in the module. Both link
    // through a name no identifier can spell.
    if defines_configuration() {
        bound.push(CONFIGURATION);
        tokens.push(CONFIGURATION);
    } else if reads_configuration(text) {
        tokens.push(CONFIGURATION);
    }
    // Only a statement holding the keyword can define a class.
    if memchr::memmem::find(text.as_bytes(), b"class").is_some() {
        method_names(node, src, &mut bound);
    }
    let binds = bound_names(node, src, &mut bound).then_some(bound);
    let kind = if is_constant(node) {
        Kind::Constant
    } else {
        Kind::Other
    };
    let mut mutates = Vec::new();
    if matches!(
        node.kind_name(),
        "function_definition" | "class_definition" | "decorated_definition"
    ) && may_mutate(text)
    {
        mutated_names(node, src, &mut mutates);
    }
    RawStatement {
        error_shape,
        kind,
        tokens,
        binds,
        mutates,
        needles,
    }
}

/// The prefilter's needles of one statement: of its text and, when it holds
/// a syntax error, of the text its tree models too, the `ERROR` pieces left
/// out. Recovery skips them: `traced.lower)()` is a call of `.lower` in the
/// tree, though its text holds no `.lower(`, and a unit's needles must not
/// rule out a site the analysis finds.
fn statement_needles(node: Node<'_>, text: &str) -> Needles {
    let needles = Needles::of(text);
    if !node.has_error() {
        return needles;
    }
    let start = node.start_byte();
    // The outermost errors under `node`: only subtrees holding one are read.
    let mut errors: Vec<Range<usize>> = Vec::new();
    let mut cursor = node.walk();
    let mut stack: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
    while let Some(n) = stack.pop() {
        if n.is_error() {
            let r = n.byte_range();
            errors.push(r.start.saturating_sub(start)..r.end.saturating_sub(start));
        } else if n.has_error() {
            stack.extend(n.named_children(&mut cursor));
        }
    }
    errors.sort_unstable_by_key(|r| r.start);
    if errors.is_empty() {
        return needles;
    }
    let mut kept = String::with_capacity(text.len());
    let mut at = 0;
    for error in errors {
        kept.push_str(text.get(at..error.start).unwrap_or(""));
        at = at.max(error.end);
    }
    kept.push_str(text.get(at..).unwrap_or(""));
    needles.union(Needles::of(&kept))
}

/// What a top-level syntax error may bind: each identifier token it holds,
/// except those only ever read as `name.attribute` there (the modules it
/// uses, `jax.`, `jnp.`): recovery may turn any other token into a target,
/// but not one that is followed by a dot at each of its places. A broken
/// import binds all of them (`import jax.numpy` binds `jax`).
fn error_bindings<'s>(text: &str, tokens: &[&'s str]) -> Vec<&'s str> {
    let bytes = text.as_bytes();
    let is_ident = |b: u8| b == b'_' || b.is_ascii_alphanumeric() || b >= 0x80;
    let mut out: Vec<&'s str> = tokens.to_vec();
    out.sort_unstable();
    out.dedup();
    // `import jax.numpy` binds `jax`: in a broken import every name counts.
    if memchr::memmem::find(bytes, b"import").is_some() {
        return out;
    }
    out.retain(|name| {
        memchr::memmem::find_iter(bytes, name.as_bytes())
            .filter(|&at| {
                let before = at.checked_sub(1).map(|i| bytes[i]);
                let after = bytes.get(at + name.len()).copied();
                !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
            })
            .any(|at| {
                let rest = &bytes[at + name.len()..];
                let next = rest.iter().find(|b| !matches!(b, b' ' | b'\t'));
                next != Some(&b'.')
            })
    });
    out
}

/// `X = <expression without calls or lambdas>`, not another name for an
/// object (`cfg = CONFIG`, `section = CONFIG["export"]`: stores through it
/// change what readers of the other name see, so it links like any
/// statement).
fn is_constant(node: Node<'_>) -> bool {
    if node.kind_name() != "expression_statement" || node.named_child_count() != 1 {
        return false;
    }
    let Some(assignment) = node
        .named_child(0)
        .filter(|a| a.kind_name() == "assignment")
    else {
        return false;
    };
    let mut value = assignment.field("right");
    while let Some(v) = value.filter(|v| v.kind_name() == "subscript") {
        value = v.field("value");
    }
    if value.is_some_and(|v| v.kind_name() == "identifier") {
        return false;
    }
    let mut cursor = node.walk();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.is_error()
            || n.is_missing()
            || matches!(
                n.kind_name(),
                "call" | "lambda" | "named_expression" | "await" | "yield"
            )
        {
            return false;
        }
        stack.extend(n.named_children(&mut cursor));
    }
    true
}

/// Methods that grow a container in place.
const GROWING_METHODS: &[&str] = &[
    "append",
    "extend",
    "insert",
    "add",
    "update",
    "setdefault",
    "register",
];

/// Whether a text may store into a subscript (`] =`, `] +=`) or call a
/// growing method: the quick look before `mutated_names` walks a tree.
fn may_mutate(text: &str) -> bool {
    let stores = memchr::memchr_iter(b']', text.as_bytes()).any(|at| {
        let rest = text[at + 1..].trim_start_matches([' ', '\t', ')', ']']);
        let rest = rest.trim_start_matches(['+', '-', '*', '/', '|', '&', '%', '^', '@', '<', '>']);
        rest.starts_with('=') && !rest.starts_with("==")
    });
    stores
        || GROWING_METHODS.iter().any(|m| {
            memchr::memmem::find_iter(text.as_bytes(), m.as_bytes())
                .any(|at| at > 0 && text.as_bytes()[at - 1] == b'.')
        })
}

/// Names stored into or grown in the bodies of a def or class (`REG[k] =
/// f`, `REG.update(...)`, `HOOKS.append(f)`), wherever they are bound.
fn mutated_names<'s>(node: Node<'_>, src: &'s str, out: &mut Vec<&'s str>) {
    let name_of = |n: Node<'_>| src.get(n.byte_range()).unwrap_or("");
    let object_name = |n: Node<'_>| {
        n.field("object")
            .or_else(|| n.field("value"))
            .filter(|o| o.kind_name() == "identifier")
            .map(name_of)
    };
    let mut cursor = node.walk();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        match n.kind_name() {
            "assignment" | "augmented_assignment" => {
                if let Some(left) = n.field("left") {
                    let targets: Vec<Node<'_>> = match left.kind_name() {
                        "pattern_list" | "tuple_pattern" | "list_pattern" => {
                            left.named_children(&mut left.walk()).collect()
                        }
                        _ => vec![left],
                    };
                    for t in targets {
                        if t.kind_name() == "subscript" {
                            out.extend(object_name(t));
                        }
                    }
                }
            }
            "call" => {
                let grows = n.field("function").filter(|f| {
                    f.kind_name() == "attribute"
                        && f.field("attribute")
                            .is_some_and(|a| GROWING_METHODS.contains(&name_of(a)))
                });
                if let Some(f) = grows {
                    out.extend(object_name(f));
                }
            }
            _ => {}
        }
        stack.extend(n.named_children(&mut cursor));
    }
}

/// Names of the methods of every class in a statement: the model finds the
/// callers of a method by its name alone (`obj.run(...)` anywhere in the
/// module), so a method's name links like a module-level name.
fn method_names<'s>(node: Node<'_>, src: &'s str, out: &mut Vec<&'s str>) {
    let mut cursor = node.walk();
    // (node, whether the nearest enclosing def is a class)
    let mut stack = vec![(node, false)];
    while let Some((n, in_class)) = stack.pop() {
        let inside = match n.kind_name() {
            "class_definition" => true,
            "function_definition" => {
                if in_class {
                    if let Some(name) = n.field("name") {
                        out.push(src.get(name.byte_range()).unwrap_or(""));
                    }
                }
                false
            }
            _ => in_class,
        };
        stack.extend(n.named_children(&mut cursor).map(|c| (c, inside)));
    }
}

/// Names a top-level statement binds in the module scope, into `out`; false
/// when they cannot be listed exactly (then the caller takes every name).
/// Targets contribute every identifier inside them (`a[i] = ...` binds `a`
/// and `i`): more names only make more links.
fn bound_names<'s>(node: Node<'_>, src: &'s str, out: &mut Vec<&'s str>) -> bool {
    let name_of = |n: Node<'_>| src.get(n.byte_range()).unwrap_or("");
    let identifiers_in = |n: Node<'_>, out: &mut Vec<&'s str>| {
        let mut cursor = n.walk();
        let mut stack = vec![n];
        while let Some(n) = stack.pop() {
            if n.kind_name() == "identifier" {
                out.push(src.get(n.byte_range()).unwrap_or(""));
            }
            stack.extend(n.named_children(&mut cursor));
        }
    };
    let mut cursor = node.walk();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.is_error() || n.is_missing() {
            return false;
        }
        match n.kind_name() {
            "match_statement"
            | "type_alias_statement"
            | "global_statement"
            | "nonlocal_statement"
            | "exec_statement" => return false,
            "function_definition" | "class_definition" => {
                if let Some(name) = n.field("name") {
                    out.push(name_of(name));
                }
                // `global G` in the body (or a def nested in it): its stores
                // bind the module's `G` too.
                if let Some(body) = n.field("body") {
                    if name_of(body).contains("global") {
                        let mut inner = body.walk();
                        let mut todo = vec![body];
                        while let Some(b) = todo.pop() {
                            if b.kind_name() == "global_statement" {
                                identifiers_in(b, out);
                            } else {
                                todo.extend(b.named_children(&mut inner));
                            }
                        }
                    }
                }
                // The body is another scope; decorators, defaults and bases
                // may still hold a walrus.
                for child in n.named_children(&mut cursor) {
                    if Some(child) != n.field("body") {
                        stack.push(child);
                    }
                }
                continue;
            }
            "lambda" => continue,
            "assignment" | "augmented_assignment" => {
                if let Some(left) = n.field("left") {
                    identifiers_in(left, out);
                }
                if let Some(right) = n.field("right") {
                    // `cfg = CONFIG`: a store through `cfg` changes `CONFIG`.
                    let mut root = right;
                    while let Some(v) = Some(root)
                        .filter(|r| r.kind_name() == "subscript")
                        .and_then(|r| r.field("value"))
                    {
                        root = v;
                    }
                    if root.kind_name() == "identifier" {
                        out.push(name_of(root));
                    }
                    stack.push(right);
                }
                continue;
            }
            "for_statement" => {
                if let Some(left) = n.field("left") {
                    identifiers_in(left, out);
                }
            }
            "as_pattern" => {
                if let Some(alias) = n.field("alias") {
                    identifiers_in(alias, out);
                }
            }
            "except_clause" => {
                // `except E as e`: the names before the handler's block.
                for child in n.named_children(&mut cursor) {
                    if child.kind_name() == "block" {
                        stack.push(child);
                    } else {
                        identifiers_in(child, out);
                    }
                }
                continue;
            }
            "import_statement" | "import_from_statement" => {
                // Imports nested in `try`/`if`: every name in them (the
                // module path's names too: more links only).
                identifiers_in(n, out);
                continue;
            }
            "named_expression" => {
                if let Some(name) = n.field("name") {
                    out.push(name_of(name));
                }
            }
            _ => {}
        }
        stack.extend(n.named_children(&mut cursor));
    }
    true
}

/// The units of a module: each a sorted list of statement indices.
fn partition(statements: &[Statement], name_count: usize) -> Vec<Vec<usize>> {
    const NONE: u32 = u32::MAX;
    let n = statements.len();
    // Binders of each name, as linked lists: head per name, next per entry.
    let mut head = vec![NONE; name_count];
    let mut entries: Vec<(usize, u32)> = Vec::new();
    for (i, s) in statements.iter().enumerate() {
        if s.info.kind == Kind::Import {
            continue;
        }
        for &name in &s.info.binds {
            entries.push((i, head[name as usize]));
            head[name as usize] = (entries.len() - 1) as u32;
        }
    }
    // A def that fills a module-level registry binds it too (its readers
    // see what the def stores), unless the name is only ever local.
    for (i, s) in statements.iter().enumerate() {
        for &name in &s.info.mutates {
            if head.get(name as usize).is_some_and(|&h| h != NONE) {
                entries.push((i, head[name as usize]));
                head[name as usize] = (entries.len() - 1) as u32;
            }
        }
    }
    let (head, entries) = (&head, &entries);
    let binders = |name: u32| {
        let mut at = head.get(name as usize).copied().unwrap_or(NONE);
        std::iter::from_fn(move || {
            let (statement, next) = *entries.get(at as usize)?;
            at = next;
            Some(statement)
        })
    };
    // A constant that names something a non-constant binds is not one.
    let mut constant: Vec<bool> = statements
        .iter()
        .map(|s| s.info.kind == Kind::Constant)
        .collect();
    loop {
        let mut changed = false;
        for i in 0..n {
            if constant[i]
                && statements[i]
                    .info
                    .refs
                    .iter()
                    .any(|&r| binders(r).any(|j| !constant[j]))
            {
                constant[i] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    // Constants each statement names directly.
    let mut names_constants: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 0..n {
        if statements[i].info.kind == Kind::Import {
            continue;
        }
        for &r in &statements[i].info.refs {
            for j in binders(r) {
                if j == i {
                    continue;
                }
                if constant[j] {
                    names_constants[i].push(j);
                } else if !constant[i] {
                    let (a, b) = (find(&mut parent, i), find(&mut parent, j));
                    if a != b {
                        parent[a.max(b)] = a.min(b);
                    }
                }
            }
        }
    }
    let imports: Vec<usize> = (0..n)
        .filter(|&i| statements[i].info.kind == Kind::Import)
        .collect();
    let mut cores: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 0..n {
        if statements[i].info.kind != Kind::Import && !constant[i] {
            let root = find(&mut parent, i);
            cores[root].push(i);
        }
    }
    let mut units = Vec::new();
    let mut seen = vec![usize::MAX; n];
    for (root, core) in cores.into_iter().enumerate() {
        if core.is_empty() {
            continue;
        }
        let mut members = imports.clone();
        let mut stack = Vec::new();
        for &i in &core {
            seen[i] = root;
            members.push(i);
            stack.extend(names_constants[i].iter().copied());
        }
        while let Some(c) = stack.pop() {
            if seen[c] != root {
                seen[c] = root;
                members.push(c);
                stack.extend(names_constants[c].iter().copied());
            }
        }
        members.sort_unstable();
        units.push(members);
    }
    // The imports and constants on their own: what they find without a reader.
    let leaves: Vec<usize> = (0..n)
        .filter(|&i| statements[i].info.kind == Kind::Import || constant[i])
        .collect();
    if !leaves.is_empty() {
        units.push(leaves);
    }
    units
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units_of(src: &str) -> Vec<Vec<String>> {
        let tree = crate::syntax::parse(src, None).expect("parse");
        let root = tree.root_node();
        let mut cursor = root.walk();
        let mut names = FxHashMap::default();
        let statements: Vec<Statement> = root
            .named_children(&mut cursor)
            .filter(|n| n.kind_name() != "comment")
            .map(|n| Statement {
                range: n.byte_range(),
                info: Arc::new(read_statement(n, src).intern(&mut names)),
            })
            .collect();
        partition(&statements, names.len())
            .into_iter()
            .map(|unit| {
                unit.into_iter()
                    .map(|i| {
                        src[statements[i].range.clone()]
                            .lines()
                            .next()
                            .unwrap_or("")
                            .to_owned()
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn statements_that_name_each_other_share_a_unit() {
        let src = "import jax\nLIMIT = 8\ndef k(x):\n    return x + LIMIT\n\ndef f(x):\n    return k(x)\n\ndef g(y):\n    return y * LIMIT\n";
        let units = units_of(src);
        assert_eq!(
            units,
            vec![
                vec!["import jax", "LIMIT = 8", "def k(x):", "def f(x):"],
                vec!["import jax", "LIMIT = 8", "def g(y):"],
                vec!["import jax", "LIMIT = 8"],
            ]
        );
    }

    #[test]
    fn flag_definitions_join_every_unit() {
        // `FLAGS.platform` reads the flag without naming the statement.
        let src = "from absl import flags\nflags.DEFINE_string(\"platform\", \"tpu\", \"\")\nFLAGS = flags.FLAGS\ndef main(argv):\n    return FLAGS.platform\n";
        let units = units_of(src);
        assert!(
            units
                .iter()
                .all(|u| u.iter().any(|line| line.starts_with("flags.DEFINE_string"))),
            "{units:?}"
        );
    }

    #[test]
    fn a_def_defining_arguments_links_with_their_readers() {
        // `args.debug` reads the argument `main` defines, naming neither
        // `main` nor anything it binds; `other` reads no configuration.
        let src = "import argparse\ndef main():\n    parser = argparse.ArgumentParser()\n    parser.add_argument(\"--quiet\", dest=\"debug\", action=\"store_false\")\nclass C:\n    args, _ = parser.parse_known_args()\n    debug = args.debug\ndef other(x):\n    return x\n";
        let units = units_of(src);
        assert_eq!(
            units,
            vec![
                vec!["import argparse", "def main():", "class C:"],
                vec!["import argparse", "def other(x):"],
                vec!["import argparse"],
            ]
        );
    }

    #[test]
    fn a_constant_naming_a_function_links_like_any_statement() {
        // `alias = k` is not a constant: callers of `alias` call `k`.
        let src = "def k(x):\n    return x\nalias = k\ndef f(x):\n    return alias(x)\n";
        let units = units_of(src);
        assert_eq!(units, vec![vec!["def k(x):", "alias = k", "def f(x):"]]);
    }

    #[test]
    fn compound_statements_bind_the_names_assigned_inside() {
        let src = "try:\n    import triton\nexcept ImportError:\n    triton = None\ndef a():\n    return triton\ndef b():\n    return 1\n";
        let units = units_of(src);
        assert_eq!(units[0], vec!["try:", "def a():"]);
        assert_eq!(units[1], vec!["def b():"]);
    }
}

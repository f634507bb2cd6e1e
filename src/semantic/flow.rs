//! Value flow: what an expression may evaluate to, as a small set of
//! alternatives rather than one value.
//!
//! Each alternative says how sure it is to run (`Why`) and which choices it
//! depends on (`Choice`: which call of a function passed a parameter, which
//! element of a loop a name holds). Alternatives that all run (every element
//! of a loop, every call site) are kept apart from alternatives of which one
//! runs (a branch on a run-time condition), and from the defaults of run-time
//! configuration (argparse, environment variables, absl flags), which are what
//! a plain run uses. Two values that depend on the same choice are only
//! combined when they made it the same way, so a loop that pairs each platform
//! with its own kernel is never read as pairing one with the other.
//!
//! Evaluation is bounded: a step budget per evaluation, a depth limit and a
//! cap on the number of alternatives; past them the answer is `Unknown`.

use super::names::{self, ParamsFamily};
use super::values::{AbstractMeshInfo, AbstractOrigin, MeshValue, ShardingUse};
use super::{Args, Binding, Module, Mutation, PathStore, ScopeId, ScopeKind, StoreRuns};
use crate::syntax::Field;
use crate::syntax::KindName;
use crate::syntax::{string_value, text, unparenthesize};
use std::cell::{Cell, RefCell};
use std::sync::Arc;
use tree_sitter::Node;

/// `Module::method_calls_in`: (call, method name) by receiver text.
pub(crate) type MethodCalls<'t> = std::collections::HashMap<&'t str, Vec<(Node<'t>, &'t str)>>;

/// The most alternatives one expression keeps; more become `Unknown`.
pub const MAX_ALTS: usize = 12;

/// How far up the tree a read looks for the closure around it, or for
/// where a value goes (`Flow::value_kept`).
const MAX_PARENT_HOPS: usize = 64;
const MAX_DEPTH: u32 = 24;
/// Evaluations started inside another one's (a branch decided by a call's
/// arguments, an index being built): each starts its own `MAX_DEPTH`, so
/// without this bound the frames grow with the program's chains of fields
/// and calls (90 deep, 3 MiB of stack, on maxtext's `layers/moe.py`).
const MAX_NESTED_EVALS: u32 = 32;

thread_local! {
    static NESTED_EVALS: Cell<u32> = const { Cell::new(0) };
    /// Answers cut short on this thread by a guard that depends on who is
    /// asking (the depth reached, the budget left, the evaluations or
    /// parameters open around it). A value found while none was cut is the
    /// same whoever asks, so it may be kept (`Flow::remembered`).
    static CUTS: Cell<u64> = const { Cell::new(0) };
    /// The deepest (evaluation depth, nesting) the evaluation being found
    /// reached: a kept answer is reused only where finding it again would
    /// stay within `MAX_DEPTH` and `MAX_NESTED_EVALS`.
    static DEEPEST: Cell<(u32, u32)> = const { Cell::new((0, 0)) };
}

/// An expression's values kept (`ValueCaches::expr_values`), with what
/// finding them took: steps of the budget, depth and nesting below it.
#[derive(Clone)]
pub(crate) struct Kept<'t> {
    alts: Vec<Alt<'t>>,
    steps: u32,
    depth: u32,
    nesting: u32,
}

/// See `Flow::asked_as`.
pub(crate) type AskedAs = (bool, u32, bool);

/// Counts one answer cut short (see `CUTS`).
pub(crate) fn cut() {
    CUTS.with(|c| c.set(c.get() + 1));
}

fn cuts() -> u64 {
    CUTS.with(Cell::get)
}

/// True past the deepest evaluation followed (counted as a cut).
fn too_deep(depth: u32) -> bool {
    let deep = depth > MAX_DEPTH;
    if deep {
        cut();
    }
    deep
}

/// One evaluation counted in `NESTED_EVALS` while it lives (a panic caught
/// by the server unwinds through it and still uncounts it).
struct NestedEval;

impl NestedEval {
    fn enter() -> Option<NestedEval> {
        NESTED_EVALS.with(|n| {
            let depth = n.get();
            (depth < MAX_NESTED_EVALS).then(|| {
                n.set(depth + 1);
                NestedEval
            })
        })
    }
}

impl Drop for NestedEval {
    fn drop(&mut self) {
        NESTED_EVALS.with(|n| n.set(n.get().saturating_sub(1)));
    }
}
/// Calls of other modules' functions whose arguments are being evaluated,
/// one inside another (`Module::foreign_nesting`).
const MAX_FOREIGN_NESTING: u32 = 3;
/// Partials of partials followed to the function they wrap.
const MAX_PARTIAL_CHAIN: usize = 4;
/// How many enclosing class bodies and once-called functions a read is
/// followed out of, to the scope of the calls whose stores it is ordered
/// against (`Flow::after_calls`).
const MAX_READ_HOPS: usize = 4;
/// Evaluation steps per top-level question (a lowering's platforms, a
/// pallas_call's params): generated or adversarial code stays cheap.
const BUDGET: u32 = 3000;

/// How sure an alternative is to be the value that runs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Why {
    /// Written in the code on the path that runs.
    Fixed,
    /// One of several that all run: each element of a loop, each call site.
    /// The note says which (`for the call at line 12`).
    Each(String),
    /// The default of run-time configuration: what a plain run uses.
    /// The note names it (`with the default --platform "tpu" (line 35)`).
    Default(String),
    /// One of several of which only one runs, chosen by the host the
    /// program runs on (`jax.default_backend()`, read on those hosts):
    /// a run-time choice, which an edge may still take behind a host guard
    /// (`Guard::HostDependent`).
    Host(Vec<String>),
    /// One of several of which only one runs, chosen at run time.
    Choice,
}

impl Why {
    fn rank(&self) -> u8 {
        match self {
            Why::Fixed => 0,
            Why::Each(_) => 1,
            Why::Default(_) => 2,
            Why::Host(_) => 3,
            Why::Choice => 4,
        }
    }

    /// The weaker of two: a value reached through a default is a default.
    /// Two host choices hold on the hosts both name.
    pub fn and(&self, other: &Why) -> Why {
        if let (Why::Host(a), Why::Host(b)) = (self, other) {
            return Why::Host(a.iter().filter(|h| b.contains(h)).cloned().collect());
        }
        if other.rank() > self.rank() {
            other.clone()
        } else {
            self.clone()
        }
    }

    /// Certain to run (a finding about it is an error).
    pub fn certain(&self) -> bool {
        matches!(self, Why::Fixed | Why::Each(_))
    }

    pub fn note(&self) -> Option<&str> {
        match self {
            Why::Each(note) | Why::Default(note) => Some(note),
            _ => None,
        }
    }

    /// Chosen at run time (by the host or otherwise): what is not known to
    /// hold for a plain run.
    pub fn is_choice(&self) -> bool {
        matches!(self, Why::Choice | Why::Host(_))
    }
}

/// The choice point of the host's backend: alternatives read on one host
/// are on no path with those of another (`merge_choices`).
pub const HOST_POINT: usize = usize::MAX - 1;

/// Whether an alternative was read on one host only.
pub fn host_picked(choices: &[Choice]) -> bool {
    choices.iter().any(|(p, _)| *p == HOST_POINT)
}

/// A value every host gives (`on_cpu_host() and False`; one function for
/// each key of `IMPLS[jax.default_backend()]`) is that value whatever the
/// host: its host alternatives become one.
fn settle_hosts(alts: Vec<Alt<'_>>) -> Vec<Alt<'_>> {
    if !alts.iter().any(|a| matches!(a.why, Why::Host(_))) {
        return alts;
    }
    let strip = |choices: &[Choice]| -> Vec<Choice> {
        choices
            .iter()
            .filter(|(p, _)| *p != HOST_POINT)
            .copied()
            .collect()
    };
    // (member indices, hosts) per value and other choices.
    let mut groups: Vec<(Vec<usize>, Vec<String>)> = Vec::new();
    for (i, alt) in alts.iter().enumerate() {
        let Why::Host(hosts) = &alt.why else {
            continue;
        };
        let found = groups.iter_mut().find(|(members, _)| {
            let first = &alts[members[0]];
            first.val.same(&alt.val) && strip(&first.choices) == strip(&alt.choices)
        });
        match found {
            Some((members, on)) => {
                members.push(i);
                on.extend(
                    hosts
                        .iter()
                        .filter(|h| !on.contains(h))
                        .cloned()
                        .collect::<Vec<_>>(),
                );
            }
            None => groups.push((vec![i], hosts.clone())),
        }
    }
    let every_host = |on: &[String]| super::host::HOSTS.iter().all(|h| on.iter().any(|o| o == h));
    let settled: Vec<&Vec<usize>> = groups
        .iter()
        .filter(|(_, on)| every_host(on))
        .map(|(members, _)| members)
        .collect();
    if settled.is_empty() {
        return alts;
    }
    let mut out = Vec::new();
    for (i, alt) in alts.into_iter().enumerate() {
        match settled.iter().find(|members| members.contains(&i)) {
            Some(members) if members[0] == i => out.push(Alt {
                choices: strip(&alt.choices),
                val: alt.val,
                why: Why::Fixed,
            }),
            Some(_) => {}
            None => out.push(alt),
        }
    }
    out
}

/// What `jax.default_backend()` returns: the backend's platform, `"gpu"`
/// on CUDA and ROCm hosts (jax-facts; `host::backend_hosts` says where).
const HOST_BACKENDS: &[&str] = &["cpu", "gpu", "tpu"];

/// `jax.default_backend()` (and a default device's `.platform`): one
/// string per host, each on its own hosts.
fn host_backends<'t>() -> Vec<Alt<'t>> {
    HOST_BACKENDS
        .iter()
        .enumerate()
        .map(|(i, backend)| Alt {
            val: Val::Str((*backend).to_owned()),
            why: Why::Host(super::host::backend_hosts(&[(*backend).to_owned()])),
            choices: vec![(HOST_POINT, i)],
        })
        .collect()
}

/// The `.platform` of a device of backend `backend` (`jax.devices("cuda")`):
/// GPUs say "gpu".
fn device_platform(backend: &str) -> Option<&'static str> {
    match backend {
        "cpu" => Some("cpu"),
        "gpu" | "cuda" | "rocm" => Some("gpu"),
        "tpu" => Some("tpu"),
        _ => None,
    }
}

/// A choice a value depends on: (the def, loop or branch node's id, which
/// call node or element index was taken).
pub type Choice = (usize, usize);

/// One possible value of an expression.
#[derive(Clone, Debug)]
pub struct Alt<'t> {
    pub val: Val<'t>,
    pub why: Why,
    pub choices: Vec<Choice>,
}

impl<'t> Alt<'t> {
    pub fn fixed(val: Val<'t>) -> Alt<'t> {
        Alt {
            val,
            why: Why::Fixed,
            choices: Vec::new(),
        }
    }

    pub(crate) fn unknown() -> Alt<'t> {
        Alt::fixed(Val::Unknown)
    }

    /// This alternative, also depending on `why` and `choices`; `None` when
    /// the choices conflict (the two were made different ways).
    fn under(mut self, why: &Why, choices: &[Choice]) -> Option<Alt<'t>> {
        self.why = why.and(&self.why);
        self.choices = merge_choices(&self.choices, choices)?;
        Some(self)
    }
}

/// The union of two choice lists, `None` when they took one choice two ways.
pub fn merge_choices(a: &[Choice], b: &[Choice]) -> Option<Vec<Choice>> {
    let mut out = a.to_vec();
    for &(point, taken) in b {
        match out.iter().find(|(p, _)| *p == point) {
            Some((_, t)) if *t != taken => return None,
            Some(_) => {}
            None => out.push((point, taken)),
        }
    }
    Some(out)
}

/// True when two choice lists agree on every choice they share.
pub fn compatible(a: &[Choice], b: &[Choice]) -> bool {
    a.iter()
        .all(|(p, t)| b.iter().all(|(q, u)| p != q || t == u))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeqKind {
    Tuple,
    List,
}

/// A value, as far as the rules need one.
#[derive(Clone, Debug)]
pub enum Val<'t> {
    Str(String),
    /// A `str` whose text is not known: an environment variable, a flag
    /// given on the command line, `jax.default_backend()`.
    AnyStr,
    /// An `int` whose value is not known (`int(os.environ.get(...))`):
    /// never `None`, whatever the environment holds.
    AnyInt,
    Seq(SeqKind, Vec<Val<'t>>),
    Bool(bool),
    Int(i64),
    /// A `float` (a learning rate, a duration): arithmetic and comparisons
    /// that decide a branch (`if steps * dt <= 0:`).
    Float(f64),
    None,
    /// A Pallas `CompilerParams` object of a backend.
    Params(ParamsFamily),
    /// `pltpu.InterpretParams()` / `InterpretGPUParams()`.
    InterpretParams,
    /// A dict literal (or `dict(...)` call), looked into by constant subscripts.
    Dict(Node<'t>, ScopeId),
    /// A dict from another module (its entries not kept).
    OpaqueDict,
    /// A dict from another module whose keys are constants: its entries.
    Entries(Arc<Entries>),
    /// The mesh of a Pallas `kernel` (`plgpu.Mesh(...)`, `pltpu.TensorCoreMesh(...)`).
    KernelMesh(super::reach::KernelMesh),
    /// `jax.sharding.AbstractDevice(...)` with its platform, when known.
    AbstractDevice(Option<String>),
    /// An instance of a class of this module, with its constructor call.
    Instance(ScopeId, Option<(Node<'t>, ScopeId)>),
    /// An object from another module: its attributes' values.
    Object(Arc<Fields>),
    /// A comprehension: its elements are all its body's value (the loop
    /// variables not known).
    Comprehension(Node<'t>, ScopeId),
    /// A device mesh or an `AbstractMesh`.
    Mesh(MeshValue),
    /// A sharding (`NamedSharding`, a bare `PartitionSpec`, ...): what it uses.
    Sharding(ShardingUse),
    /// A `jax.ShapeDtypeStruct`, with what its sharding uses.
    Spec(ShardingUse),
    /// A JAX array: committed to devices (`jax.device_put(x, device)`), or
    /// not (`jnp.ones(...)`, `jax.random.key(0)`): an uncommitted array
    /// brings no devices to a computation (JAX still asks for
    /// `lowering_platforms` beside an AbstractMesh).
    Array {
        committed: bool,
    },
    /// A traced stage: the `J.trace(args)` call that made it, and its scope.
    /// Kept as a value so a stage stored in a field, returned by a helper or
    /// passed on reaches its `.lower(...)` like any other value.
    Traced(Node<'t>, ScopeId),
    /// A pytree made by `jax.tree.map(f, ...)`: every leaf is one of f's
    /// values (f's parameters not known).
    Leaves(Box<Val<'t>>),
    /// A function or lambda of this module, as a value (a registry entry,
    /// a field holding a function, a factory's result).
    Function(ScopeId),
    /// A class of this module, as a value (`lower_init(DenseState, key)`).
    Class(ScopeId),
    /// A method of a class of this module read off an object whose
    /// construction is known (`model.apply` with `model = Model(debug=True)`):
    /// method, class, construction. Calling it runs the method with `self`
    /// that object; passed on, kept or called elsewhere, it still is.
    Method(ScopeId, ScopeId, Option<(Node<'t>, ScopeId)>),
    /// A function of this module jitted by `jax.jit(f, ...)`: f's def, and
    /// the jit call (its keywords: shardings, static arguments) with its
    /// scope. Kept in a field, returned by a property or a factory, it is
    /// still that jit when lowered. Whatever takes a function takes f.
    Jitted(ScopeId, Node<'t>, ScopeId),
    /// A jit another module made and handed here (`jit_named()` returning
    /// `jax.jit(f, in_shardings=...)`): its function by path or token, and
    /// what its shardings use.
    ForeignJitted(Arc<ForeignJit>),
    /// `functools.partial(f, ...)` of a function of this module: calling it
    /// runs f. The partial call is one of f's call sites (it binds what it
    /// stores); a call through this value is not, since its arguments come
    /// after the stored ones. The flag: it stores positional arguments (a
    /// call's arguments land on later parameters). `made`: the partial
    /// call (in `scope`), whose stored arguments a call through it passes;
    /// `site`: the partial of `def` itself (`made`, or the one a partial
    /// of a partial wraps), the call site of `def` that binds them.
    Partial {
        def: ScopeId,
        shifts: bool,
        made: Node<'t>,
        scope: ScopeId,
        site: Node<'t>,
        /// A partial of a method read off an object (`partial(model.run,
        /// ...)`): the object's class and construction, `self` when it runs.
        on: Option<(ScopeId, Option<(Node<'t>, ScopeId)>)>,
    },
    /// `jax.devices(...)` / `jax.local_devices(...)`: a list of devices,
    /// of the backend named (`""` one not known), or of the host's default
    /// backend (`None`: `jax.devices()`).
    Devices(Option<Arc<str>>),
    /// One device (`jax.devices("cpu")[0]`), of a backend as `Devices`.
    Device(Option<Arc<str>>),
    /// What `traced.lower(...)` returns: the lowering call.
    Lowered(Node<'t>),
    /// `sys.argv`: in a plain run, the script's name alone.
    Argv,
    /// `tuple(s)` of a string: its characters (JAX lowering for them is the
    /// bare string's mistake).
    Split(String),
    /// A `contextvars.ContextVar(...)`: its constructor call. `.get()` is
    /// one of the values its `.set(...)` calls store, or its default.
    ContextVar(Node<'t>, ScopeId),
    /// A parameter of a module-level function that nothing in its module
    /// calls (its callers are in other modules), with attributes read off it.
    ParamRef(Arc<ParamRefVal<'t>>),
    /// What a call of an imported name returned (an instance of a class of
    /// another module, say): its methods' returns come from that module's
    /// summary (`path.method()`).
    Imported(Arc<str>),
    /// A function or class of another module as a value (an entry of its
    /// table of hooks), by its path: calling it calls that module's def.
    Ref(Arc<str>),
    /// An `argparse.ArgumentParser`: made in this module (`None`) or in the
    /// module of that file, whose arguments its parsed namespace has.
    ArgParser(Option<Arc<str>>),
    /// What `parser.parse_args()` returns: attributes are its arguments,
    /// the ones this module adds, or (`Some(file)`) the ones the module of
    /// that file added to a parser it made.
    ArgNamespace(Option<Arc<str>>),
    /// absl's `FLAGS`: attributes are the defined flags.
    AbslFlags,
    /// A `flags.DEFINE_*(...)` holder: `.value` is the flag.
    AbslFlag(Node<'t>, ScopeId),
    /// The `**kwargs` parameter of function `def` in the call `call`
    /// (evaluated in `call_scope`): the keywords it passes that no named
    /// parameter takes.
    KwArgs {
        call: Node<'t>,
        call_scope: ScopeId,
        def: ScopeId,
    },
    /// `obj.__dict__` / `vars(obj)` of an instance: its attributes by name.
    InstanceDict(ScopeId, Option<(Node<'t>, ScopeId)>),
    /// A member of an `enum.Enum` class of this module with no `str`/`int`
    /// mixin (members of those are read as their values): class and name.
    EnumMember(ScopeId, String),
    /// A member of a plain `enum.Enum` class of another module, by a name
    /// unique to it (its module's file, class and member).
    ForeignEnumMember(Arc<str>),
    /// A list whose length and order are not known, grown by `append`s in
    /// a loop or a branch: each element it may hold, with how sure it is to
    /// be in it (`Each`/`Fixed`: certainly, `Choice`: maybe). The kind is
    /// certain when the members are not (`tuple(xs)` of such a list is a
    /// tuple: `Traced.lower` rejects a list whatever it holds).
    Members(SeqKind, Arc<Vec<Alt<'t>>>),
    Unknown,
}

impl Val<'_> {
    pub fn is_unknown(&self) -> bool {
        matches!(self, Val::Unknown)
    }

    /// A dict: a literal of this module, or one from another module.
    pub fn is_dict(&self) -> bool {
        matches!(
            self,
            Val::Dict(..)
                | Val::OpaqueDict
                | Val::Entries(_)
                | Val::KwArgs { .. }
                | Val::InstanceDict(..)
        )
    }

    /// A constant string list: `("cpu", "tpu")` -> (Tuple, ["cpu", "tpu"]).
    pub fn strings(&self) -> Option<(SeqKind, Vec<String>)> {
        if let Val::Split(s) = self {
            return Some((SeqKind::Tuple, s.chars().map(String::from).collect()));
        }
        let Val::Seq(kind, items) = self else {
            return None;
        };
        let items: Option<Vec<String>> = items
            .iter()
            .map(|v| match v {
                Val::Str(s) => Some(s.clone()),
                _ => None,
            })
            .collect();
        Some((*kind, items?))
    }

    /// The same string, int or bool constant.
    pub fn same_constant(&self, other: &Val<'_>) -> bool {
        match (self, other) {
            (Val::Str(a), Val::Str(b)) => a == b,
            (Val::Int(a), Val::Int(b)) => a == b,
            (Val::Bool(a), Val::Bool(b)) => a == b,
            _ => false,
        }
    }

    /// The value of an `int` or a `float`, as a float.
    fn number(&self) -> Option<f64> {
        match self {
            Val::Int(i) => Some(*i as f64),
            Val::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// The value of an `int`.
    fn int(&self) -> Option<i64> {
        match self {
            Val::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The value as a constant truth value, when it has one.
    pub fn truthy(&self) -> Option<bool> {
        match self {
            Val::Bool(b) => Some(*b),
            Val::None => Some(false),
            Val::Int(i) => Some(*i != 0),
            Val::Float(f) => Some(*f != 0.0),
            Val::Str(s) => Some(!s.is_empty()),
            Val::Seq(_, items) => Some(!items.is_empty()),
            Val::Members(_, members) => members.iter().any(|m| m.why.certain()).then_some(true),
            Val::EnumMember(..) | Val::ForeignEnumMember(_) => Some(true),
            Val::Split(s) => Some(!s.is_empty()),
            Val::Entries(entries) => Some(!entries.is_empty()),
            Val::Dict(dict, _) => {
                // A literal: an entry makes it true; `dict(k=v)` true. An
                // empty one may be filled later (`D[k] = v`): not known.
                let list = match dict.kind_name() {
                    "dictionary" => *dict,
                    _ => dict.field("arguments")?,
                };
                let mut cursor = list.walk();
                let kinds: Vec<&str> = list
                    .named_children(&mut cursor)
                    .map(|c| c.kind_name())
                    .filter(|k| *k != "comment")
                    .collect();
                if kinds.is_empty() {
                    None
                } else if kinds
                    .iter()
                    .any(|k| matches!(*k, "pair" | "keyword_argument"))
                {
                    Some(true)
                } else {
                    None
                }
            }
            Val::Params(_)
            | Val::AbstractDevice(_)
            | Val::KernelMesh(_)
            | Val::OpaqueDict
            | Val::InterpretParams
            | Val::Instance(..)
            | Val::Function(_)
            | Val::Method(..)
            | Val::Partial { .. }
            | Val::Jitted(..)
            | Val::Class(_)
            | Val::Ref(_)
            | Val::Device(_)
            | Val::Object(_)
            | Val::Mesh(_)
            | Val::Sharding(_)
            | Val::Spec(_) => Some(true),
            _ => None,
        }
    }

    fn same(&self, other: &Val<'_>) -> bool {
        match (self, other) {
            (Val::Str(a), Val::Str(b)) => a == b,
            (Val::Bool(a), Val::Bool(b)) => a == b,
            (Val::Int(a), Val::Int(b)) => a == b,
            // `1 == 1.0` in Python.
            (Val::Float(_), Val::Float(_) | Val::Int(_)) | (Val::Int(_), Val::Float(_)) => {
                self.number() == other.number()
            }
            (Val::None, Val::None) => true,
            (Val::Params(a), Val::Params(b)) => a == b,
            (Val::EnumMember(c, a), Val::EnumMember(d, b)) => c == d && a == b,
            (Val::ForeignEnumMember(a), Val::ForeignEnumMember(b)) => a == b,
            // The same def or class (what a field holds, a dict key).
            (Val::Function(a), Val::Function(b)) | (Val::Class(a), Val::Class(b)) => a == b,
            (Val::Method(a, _, made_a), Val::Method(b, _, made_b)) => {
                a == b && made_a.map(|(n, _)| n.id()) == made_b.map(|(n, _)| n.id())
            }
            // The object one construction made.
            (Val::Instance(a, Some((made_a, _))), Val::Instance(b, Some((made_b, _)))) => {
                a == b && made_a.id() == made_b.id()
            }
            (Val::Seq(k, a), Val::Seq(l, b)) => {
                k == l && a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same(y))
            }
            _ => false,
        }
    }

    /// The value without syntax nodes (for module summaries); instances
    /// become `Unknown` here (see `Flow::detach`).
    fn detached(&self) -> Const {
        match self {
            Val::Str(s) => Const::Str(s.clone()),
            Val::AnyStr => Const::AnyStr,
            Val::AnyInt => Const::AnyInt,
            Val::Seq(k, items) => Const::Seq(*k, items.iter().map(Val::detached).collect()),
            Val::Split(s) => Const::Split(s.clone()),
            Val::Bool(b) => Const::Bool(*b),
            Val::Int(i) => Const::Int(*i),
            Val::Float(f) => Const::Float(*f),
            Val::None => Const::None,
            Val::Params(f) => Const::Params(*f),
            Val::InterpretParams => Const::InterpretParams,
            Val::Object(o) => Const::Object(o.clone()),
            Val::Dict(..) | Val::OpaqueDict => Const::Dict,
            Val::Entries(e) => Const::Entries(e.clone()),
            Val::KernelMesh(k) => Const::KernelMesh(*k),
            Val::AbstractDevice(p) => Const::AbstractDevice(p.clone()),
            Val::Mesh(m) => Const::Mesh(m.clone()),
            Val::Sharding(u) => Const::Sharding(*u),
            Val::Spec(u) => Const::Spec(*u),
            Val::Array { committed } => Const::Array {
                committed: *committed,
            },
            Val::Device(backend) => Const::Device(backend.as_deref().map(str::to_owned)),
            Val::Devices(backend) => Const::Devices(backend.as_deref().map(str::to_owned)),
            Val::Ref(path) => Const::Ref(path.to_string()),
            Val::ForeignJitted(j) => Const::Jitted(j.clone()),
            Val::ForeignEnumMember(name) => Const::EnumMember(name.to_string()),
            Val::ArgParser(Some(file)) => Const::ArgParser(file.to_string()),
            Val::ArgNamespace(Some(file)) => Const::ArgNamespace(file.to_string()),
            Val::Members(kind, members) => Const::Members(
                *kind,
                members
                    .iter()
                    .map(|m| ConstAlt {
                        val: m.val.detached(),
                        why: m.why.clone(),
                    })
                    .collect(),
            ),
            // A list whose items are not known is still a list.
            Val::Comprehension(node, _) if node.kind() == "list_comprehension" => Const::Members(
                SeqKind::List,
                vec![ConstAlt {
                    val: Const::Unknown,
                    why: Why::Choice,
                }],
            ),
            _ => Const::Unknown,
        }
    }
}

/// A value without syntax nodes: what a module summary keeps of a
/// module-level name, for the modules that import it.
#[derive(Clone, Debug)]
pub enum Const {
    Str(String),
    AnyStr,
    AnyInt,
    Seq(SeqKind, Vec<Const>),
    /// `Val::Split`: `tuple(s)` of a known string, kept as such so that
    /// the importer still tells it from a written tuple.
    Split(String),
    Bool(bool),
    Int(i64),
    Float(f64),
    None,
    Params(ParamsFamily),
    InterpretParams,
    Object(Arc<Fields>),
    Dict,
    Entries(Arc<Entries>),
    KernelMesh(super::reach::KernelMesh),
    AbstractDevice(Option<String>),
    Mesh(MeshValue),
    Sharding(ShardingUse),
    Spec(ShardingUse),
    Array {
        committed: bool,
    },
    Device(Option<String>),
    Devices(Option<String>),
    /// An `argparse.ArgumentParser` the module of this file made, and
    /// what it parsed (see `Val::ArgParser`).
    ArgParser(String),
    ArgNamespace(String),
    /// `Val::Members`: a sequence of this kind whose items are these.
    Members(SeqKind, Vec<ConstAlt>),
    /// A plain enum's member (`Val::ForeignEnumMember`).
    EnumMember(String),
    /// A module-level function or class of the module the value comes
    /// from, by its name there; the importer qualifies it with that
    /// module's path (`qualify_refs`) and reads it as a `Val::Ref`.
    Ref(String),
    /// A jit of the module the value comes from (`Val::ForeignJitted`).
    Jitted(Arc<ForeignJit>),
    Unknown,
}

/// A jit made in another module, as the module that lowers it sees it.
#[derive(Clone, Debug)]
pub struct ForeignJit {
    /// The jitted function: a `Const::Ref` (a module-level def by name, or
    /// a `Module::local_ref` token), or `Unknown`.
    pub function: Const,
    /// What its `in_shardings`/`out_shardings` use.
    pub shardings: ShardingUse,
    /// Given `backend=` or `device=`: placed on devices.
    pub placed: bool,
}

/// An object's attributes and their values.
pub type Fields = Vec<(String, Vec<ConstAlt>)>;

/// `object` with the field at `path` (`["case", "source"]`) holding
/// `stored`; a path through a field that holds no object is left as it is
/// (a store into what is not known is not known either).
fn fields_with_stored(object: &Fields, path: &[&str], stored: &[ConstAlt]) -> Fields {
    let mut fields = object.clone();
    let Some((first, rest)) = path.split_first() else {
        return fields;
    };
    if rest.is_empty() {
        fields.retain(|(n, _)| n != first);
        fields.push(((*first).to_owned(), stored.to_vec()));
        return fields;
    }
    if let Some((_, alts)) = fields.iter_mut().find(|(n, _)| n == first) {
        for alt in alts.iter_mut() {
            if let Const::Object(inner) = &alt.val {
                alt.val = Const::Object(Arc::new(fields_with_stored(inner, rest, stored)));
            }
        }
    }
    fields
}

/// A dict's constant keys and their values.
pub type Entries = Vec<(Const, Vec<ConstAlt>)>;

#[derive(Clone, Debug)]
pub struct ConstAlt {
    pub val: Const,
    pub why: Why,
}

impl Const {
    /// The value this constant stands for.
    pub(crate) fn val<'t>(&self) -> Val<'t> {
        match self {
            Const::Str(s) => Val::Str(s.clone()),
            Const::AnyStr => Val::AnyStr,
            Const::AnyInt => Val::AnyInt,
            Const::Seq(k, items) => Val::Seq(*k, items.iter().map(Const::val).collect()),
            Const::Split(s) => Val::Split(s.clone()),
            Const::Bool(b) => Val::Bool(*b),
            Const::Int(i) => Val::Int(*i),
            Const::Float(f) => Val::Float(*f),
            Const::None => Val::None,
            Const::Params(f) => Val::Params(*f),
            Const::InterpretParams => Val::InterpretParams,
            Const::Object(o) => Val::Object(o.clone()),
            Const::Dict => Val::OpaqueDict,
            Const::Entries(e) => Val::Entries(e.clone()),
            Const::KernelMesh(k) => Val::KernelMesh(*k),
            Const::AbstractDevice(p) => Val::AbstractDevice(p.clone()),
            Const::Mesh(m) => Val::Mesh(m.clone()),
            Const::Sharding(u) => Val::Sharding(*u),
            Const::Spec(u) => Val::Spec(*u),
            Const::Array { committed } => Val::Array {
                committed: *committed,
            },
            Const::Device(backend) => Val::Device(backend.as_deref().map(Arc::from)),
            Const::Devices(backend) => Val::Devices(backend.as_deref().map(Arc::from)),
            Const::ArgParser(file) => Val::ArgParser(Some(Arc::from(file.as_str()))),
            Const::ArgNamespace(file) => Val::ArgNamespace(Some(Arc::from(file.as_str()))),
            Const::Members(kind, members) => Val::Members(*kind, Arc::new(from_consts(members))),
            Const::Ref(path) => Val::Ref(Arc::from(path.as_str())),
            Const::EnumMember(name) => Val::ForeignEnumMember(Arc::from(name.as_str())),
            Const::Jitted(j) => Val::ForeignJitted(j.clone()),
            Const::Unknown => Val::Unknown,
        }
    }

    pub fn is_unknown(&self) -> bool {
        matches!(self, Const::Unknown)
    }

    /// A value that is all known, a plain one (no object or dict): what a
    /// function of another module returns whatever its arguments.
    pub fn is_plain_known(&self) -> bool {
        match self {
            Const::Seq(_, items) => items.iter().all(Const::is_plain_known),
            Const::Object(_)
            | Const::Dict
            | Const::Entries(_)
            | Const::Array { .. }
            | Const::Members(..)
            | Const::Unknown => false,
            _ => true,
        }
    }
}

/// The kind of an absl-style flag definition (`flags.DEFINE_string` ->
/// `string`): absl's own, and the same API elsewhere (`tf.compat.v1.flags`,
/// `gflags`, a project's wrapper module): `<module>.DEFINE_<kind>(name,
/// default, help)` is a convention strong enough to read by its shape.
fn flag_define_kind(callee: &str) -> Option<&str> {
    let (module, last) = callee.rsplit_once('.')?;
    let kind = last.strip_prefix("DEFINE_")?;
    (!module.is_empty() && !kind.is_empty()).then_some(kind)
}

/// The flag values of an absl-style flags module: `absl.flags.FLAGS`,
/// `tf.compat.v1.flags.FLAGS`, `<wrapper>.FLAGS`.
fn is_flag_holder(path: &str) -> bool {
    path.rsplit_once('.')
        .is_some_and(|(module, last)| last == "FLAGS" && !module.is_empty())
}

/// `items[index]` as Python reads it (a negative index counts from the end).
/// The `str` methods `str_method` computes.
const STR_METHODS: &[&str] = &[
    "lower",
    "upper",
    "casefold",
    "title",
    "capitalize",
    "swapcase",
    "strip",
    "lstrip",
    "rstrip",
    "removeprefix",
    "removesuffix",
    "replace",
    "join",
    "format",
    "zfill",
    "center",
    "ljust",
    "rjust",
    "expandtabs",
    "split",
    "rsplit",
    "splitlines",
    "partition",
    "rpartition",
    "startswith",
    "endswith",
    "isdigit",
    "isdecimal",
    "isnumeric",
    "isalpha",
    "isalnum",
    "isspace",
    "islower",
    "isupper",
    "find",
    "rfind",
    "index",
    "rindex",
    "count",
];

/// `str.splitlines()`: lines without their ends (`\n`, `\r\n`, `\r` and
/// the other line boundaries Python knows); no empty last line.
fn python_splitlines(t: &str) -> Vec<&str> {
    let is_end = |c: char| {
        matches!(
            c,
            '\n' | '\r'
                | '\x0b'
                | '\x0c'
                | '\x1c'
                | '\x1d'
                | '\x1e'
                | '\u{85}'
                | '\u{2028}'
                | '\u{2029}'
        )
    };
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = t.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if !is_end(c) {
            continue;
        }
        out.push(&t[start..at]);
        start = at + c.len_utf8();
        if c == '\r' && chars.peek().is_some_and(|(_, n)| *n == '\n') {
            chars.next();
            start += 1;
        }
    }
    if start < t.len() {
        out.push(&t[start..]);
    }
    out
}

/// `s.method(*given)` of a `str` value, as Python computes it when `s` and
/// the arguments are known; the type alone when `s` is any string (a list
/// of strings for `split`, a bool for `startswith`); `Unknown` for a
/// method not modelled or arguments not known.
fn str_method<'t>(s: &Val<'t>, method: &str, given: &[Val<'t>]) -> Val<'t> {
    let text = match s {
        Val::Str(t) => Some(t.as_str()),
        Val::AnyStr => None,
        _ => return Val::Unknown,
    };
    let strs = |items: Vec<&str>| {
        Val::Seq(
            SeqKind::List,
            items.into_iter().map(|p| Val::Str(p.to_owned())).collect(),
        )
    };
    let some_strs = || {
        Val::Members(
            SeqKind::List,
            Arc::new(vec![Alt {
                val: Val::AnyStr,
                why: Why::Choice,
                choices: Vec::new(),
            }]),
        )
    };
    let arg = |i: usize| match given.get(i) {
        None | Some(Val::None) => Some(None),
        Some(Val::Str(a)) => Some(Some(a.as_str())),
        _ => None,
    };
    let int_arg = |i: usize, default: i64| match given.get(i) {
        None | Some(Val::None) => Some(default),
        Some(Val::Int(n)) => Some(*n),
        _ => None,
    };
    match method {
        // Methods that give a string.
        "lower" | "upper" | "casefold" | "title" | "capitalize" | "swapcase"
            if given.is_empty() =>
        {
            match text {
                Some(t) => Val::Str(match method {
                    "lower" | "casefold" => t.to_lowercase(),
                    "upper" => t.to_uppercase(),
                    _ => return Val::AnyStr,
                }),
                None => Val::AnyStr,
            }
        }
        "strip" | "lstrip" | "rstrip" if given.len() <= 1 => {
            let (Some(t), Some(chars)) = (text, arg(0)) else {
                return Val::AnyStr;
            };
            let set = |c: char| match chars {
                Some(chars) => chars.contains(c),
                None => c.is_whitespace(),
            };
            Val::Str(
                match method {
                    "strip" => t.trim_matches(set),
                    "lstrip" => t.trim_start_matches(set),
                    _ => t.trim_end_matches(set),
                }
                .to_owned(),
            )
        }
        "removeprefix" | "removesuffix" if given.len() == 1 => match (text, arg(0)) {
            (Some(t), Some(Some(a))) => Val::Str(
                if method == "removeprefix" {
                    t.strip_prefix(a)
                } else {
                    t.strip_suffix(a)
                }
                .unwrap_or(t)
                .to_owned(),
            ),
            _ => Val::AnyStr,
        },
        "replace" if given.len() == 2 => match (text, arg(0), arg(1)) {
            (Some(t), Some(Some(a)), Some(Some(b))) => Val::Str(t.replace(a, b)),
            _ => Val::AnyStr,
        },
        "join" if given.len() == 1 => {
            let (Some(sep), Some((_, items))) = (text, given[0].strings()) else {
                return match &given[0] {
                    Val::Unknown => Val::Unknown,
                    _ => Val::AnyStr,
                };
            };
            Val::Str(items.join(sep))
        }
        "format" | "zfill" | "center" | "ljust" | "rjust" | "expandtabs" => Val::AnyStr,
        // A list of strings.
        "split" | "rsplit" if given.len() <= 2 => {
            let (Some(t), Some(sep), Some(max)) = (text, arg(0), int_arg(1, -1)) else {
                return some_strs();
            };
            let parts: Vec<&str> = match (sep, method) {
                (Some(""), _) => return Val::Unknown,
                (Some(sep), "split") if max < 0 => t.split(sep).collect(),
                (Some(sep), "split") => t.splitn(max as usize + 1, sep).collect(),
                (Some(sep), _) if max < 0 => t.split(sep).collect(),
                (Some(sep), _) => {
                    let mut p: Vec<&str> = t.rsplitn(max as usize + 1, sep).collect();
                    p.reverse();
                    p
                }
                (None, _) if max < 0 => t.split_whitespace().collect(),
                (None, _) => return some_strs(),
            };
            strs(parts)
        }
        "splitlines" if given.is_empty() => match text {
            Some(t) => strs(python_splitlines(t)),
            None => some_strs(),
        },
        // A tuple of three strings.
        "partition" | "rpartition" if given.len() == 1 => {
            let three = |a: &str, b: &str, c: &str| {
                Val::Seq(
                    SeqKind::Tuple,
                    vec![Val::Str(a.into()), Val::Str(b.into()), Val::Str(c.into())],
                )
            };
            match (text, arg(0)) {
                (Some(t), Some(Some(sep))) if !sep.is_empty() => {
                    let found = if method == "partition" {
                        t.split_once(sep)
                    } else {
                        t.rsplit_once(sep)
                    };
                    match (found, method) {
                        (Some((a, b)), _) => three(a, sep, b),
                        (None, "partition") => three(t, "", ""),
                        (None, _) => three("", "", t),
                    }
                }
                _ => Val::Seq(SeqKind::Tuple, vec![Val::AnyStr, Val::AnyStr, Val::AnyStr]),
            }
        }
        // A position (in characters), or a count. `index` of a missing
        // part raises: no value.
        "find" | "rfind" | "index" | "rindex" | "count" if given.len() == 1 => {
            let (Some(t), Val::Str(part)) = (text, &given[0]) else {
                return Val::AnyInt;
            };
            let at = |byte: usize| t[..byte].chars().count() as i64;
            let found = match method {
                "find" | "index" => t.find(part.as_str()).map(at),
                "count" => return Val::Int(t.matches(part.as_str()).count() as i64),
                _ => t.rfind(part.as_str()).map(at),
            };
            match (found, method) {
                (Some(i), _) => Val::Int(i),
                (None, "find" | "rfind") => Val::Int(-1),
                (None, _) => Val::Unknown,
            }
        }
        // A bool.
        "startswith" | "endswith" if given.len() == 1 => {
            let Some(t) = text else {
                return Val::Unknown;
            };
            let options: Vec<String> = match &given[0] {
                Val::Str(a) => vec![a.clone()],
                v => match v.strings() {
                    Some((SeqKind::Tuple, items)) => items,
                    _ => return Val::Unknown,
                },
            };
            Val::Bool(options.iter().any(|o| {
                if method == "startswith" {
                    t.starts_with(o.as_str())
                } else {
                    t.ends_with(o.as_str())
                }
            }))
        }
        "isdigit" | "isdecimal" | "isnumeric" | "isalpha" | "isalnum" | "isspace" | "islower"
        | "isupper"
            if given.is_empty() =>
        {
            let Some(t) = text else {
                return Val::Unknown;
            };
            let all = |f: fn(char) -> bool| !t.is_empty() && t.chars().all(f);
            Val::Bool(match method {
                "isdigit" | "isdecimal" => all(|c| c.is_ascii_digit()),
                "isnumeric" => all(char::is_numeric),
                "isalpha" => all(char::is_alphabetic),
                "isalnum" => all(char::is_alphanumeric),
                "isspace" => all(char::is_whitespace),
                "islower" => {
                    t.chars().any(char::is_lowercase) && !t.chars().any(char::is_uppercase)
                }
                _ => t.chars().any(char::is_uppercase) && !t.chars().any(char::is_lowercase),
            })
        }
        _ => Val::Unknown,
    }
}

fn item_at<'t>(items: &[Val<'t>], index: i64) -> Option<Val<'t>> {
    let at = if index < 0 {
        items.len() as i64 + index
    } else {
        index
    };
    items.get(usize::try_from(at).ok()?).cloned()
}

/// The part of a loop's element a target name unpacks (`path` from
/// `Module::unpacked_names`); `Unknown` when the element is not a sequence
/// that deep.
/// A type `isinstance` tests against, of those the flow can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TypeTest {
    Str,
    List,
    Tuple,
    Dict,
    Bool,
    Int,
    /// `collections.abc.Sequence` / `typing.Sequence`: str, list, tuple.
    Sequence,
    AbstractMesh,
    Mesh,
    /// A class of this module.
    Class(ScopeId),
}

/// A value that may be iterable but whose items are not known here: an
/// unknown, another module's object, a dict, the devices.
fn iterable_not_known(v: &Val<'_>) -> bool {
    matches!(
        v,
        Val::Unknown
            | Val::Imported(_)
            | Val::ParamRef(_)
            | Val::OpaqueDict
            | Val::Dict(..)
            | Val::Entries(_)
            | Val::Devices(_)
    )
}

/// A sequence of a certain kind whose items are not known.
fn unknown_items<'t>(kind: SeqKind) -> Val<'t> {
    Val::Members(
        kind,
        Arc::new(vec![Alt {
            val: Val::Unknown,
            why: Why::Choice,
            choices: Vec::new(),
        }]),
    )
}

/// `[...]` or `list()`: a list a name can be bound to and then grown.
fn is_list_literal(value: Node<'_>, src: &str) -> bool {
    match value.kind_name() {
        "list" => true,
        "call" => {
            value
                .field("function")
                .is_some_and(|f| text(f, src) == "list")
                && value
                    .field("arguments")
                    .is_some_and(|a| a.named_child_count() == 0)
        }
        _ => false,
    }
}

fn element_at<'t>(element: &Val<'t>, path: &[usize]) -> Val<'t> {
    let mut val = element;
    for &index in path {
        match val {
            Val::Seq(_, items) => match items.get(index) {
                Some(item) => val = item,
                None => return Val::Unknown,
            },
            _ => return Val::Unknown,
        }
    }
    val.clone()
}

/// Names of module `module`'s defs in a value read from it, made paths
/// here (`hook` -> `pkg.hooks.hook`): `Const::Ref`s and the `__class__` of
/// objects (so their methods are found), inside sequences, dicts and objects.
/// The class an object of another module's class was made by: its
/// `__class__` field (`construct_for_call`), a path once qualified.
/// The field that names an object's class (`object_class` reads it).
pub(crate) fn class_field(class: &str) -> (String, Vec<ConstAlt>) {
    (
        "__class__".to_owned(),
        vec![ConstAlt {
            val: Const::Str(class.to_owned()),
            why: Why::Fixed,
        }],
    )
}

pub(crate) fn object_class(fields: &Fields) -> Option<&str> {
    let (_, class) = fields.iter().find(|(n, _)| n == "__class__")?;
    match class.first().map(|a| &a.val) {
        Some(Const::Str(class)) => Some(class),
        _ => None,
    }
}

/// Names the module-level functions and classes in `alts` (`Const::Ref`s
/// and objects' `__class__`) as seen from the module `module`: bare names
/// (the defining module's own) get its path.
pub(crate) fn qualify_refs(alts: &mut [ConstAlt], module: &str) {
    rename_refs(alts, &|name| {
        (!name.contains('.')).then(|| format!("{module}.{name}"))
    });
}

/// Renames every def named in `alts` (`Const::Ref`s and objects'
/// `__class__`) that `rename` gives a new name, a few levels down.
pub(crate) fn rename_refs(alts: &mut [ConstAlt], rename: &dyn Fn(&str) -> Option<String>) {
    fn walk(c: &mut Const, rename: &dyn Fn(&str) -> Option<String>, depth: u32) {
        if depth > 4 {
            return;
        }
        match c {
            Const::Ref(name) => {
                if let Some(renamed) = rename(name) {
                    *name = renamed;
                }
            }
            Const::Jitted(j) => {
                let mut owned = j.as_ref().clone();
                walk(&mut owned.function, rename, depth + 1);
                *j = Arc::new(owned);
            }
            Const::Seq(_, items) => items.iter_mut().for_each(|i| walk(i, rename, depth + 1)),
            Const::Members(_, items) => items
                .iter_mut()
                .for_each(|i| walk(&mut i.val, rename, depth + 1)),
            Const::Entries(entries) => {
                let mut owned: Entries = entries.as_ref().clone();
                for (_, values) in &mut owned {
                    values
                        .iter_mut()
                        .for_each(|v| walk(&mut v.val, rename, depth + 1));
                }
                *entries = Arc::new(owned);
            }
            Const::Object(fields) => {
                let mut owned: Fields = fields.as_ref().clone();
                for (name, values) in &mut owned {
                    for v in values.iter_mut() {
                        match &mut v.val {
                            Const::Str(class) if name == "__class__" => {
                                if let Some(renamed) = rename(class) {
                                    *class = renamed;
                                }
                            }
                            _ => walk(&mut v.val, rename, depth + 1),
                        }
                    }
                }
                *fields = Arc::new(owned);
            }
            _ => {}
        }
    }
    for alt in alts {
        walk(&mut alt.val, rename, 0);
    }
}

/// How deep `Flow::detach` goes into sequences (objects stop at 2).
const MAX_DETACH_DEPTH: u32 = 4;
/// Longer sequences are detached as plain values (no functions, objects).
const MAX_DETACHED_ITEMS: usize = 32;

pub(crate) fn from_consts<'t>(alts: &[ConstAlt]) -> Vec<Alt<'t>> {
    alts.iter()
        .map(|a| Alt {
            val: a.val.val(),
            why: a.why.clone(),
            choices: Vec::new(),
        })
        .collect()
}

/// Caps a list of alternatives: identical ones merge; past `MAX_ALTS` an
/// `Unknown` stands for the rest.
fn cap(mut alts: Vec<Alt<'_>>) -> Vec<Alt<'_>> {
    let mut out: Vec<Alt<'_>> = Vec::with_capacity(alts.len().min(MAX_ALTS));
    for alt in alts.drain(..) {
        let dup = out.iter().any(|o| {
            o.why == alt.why
                && o.choices == alt.choices
                && (o.val.same(&alt.val) || (o.val.is_unknown() && alt.val.is_unknown()))
        });
        if dup {
            continue;
        }
        if out.len() >= MAX_ALTS {
            if !out.last().is_some_and(|o| o.val.is_unknown()) {
                if let Some(last) = out.last_mut() {
                    *last = Alt::unknown();
                }
            }
            continue;
        }
        out.push(alt);
    }
    out
}

fn line_of(node: Node<'_>) -> usize {
    node.start_position().row + 1
}

/// A function being evaluated for one call: its parameters take that
/// call's arguments (factories, methods of a config object).
#[derive(Clone)]
struct Bound<'t> {
    def: ScopeId,
    call: Node<'t>,
    call_scope: ScopeId,
    /// The receiver of `obj.m()`: the value the first parameter takes.
    receiver: Option<Alt<'t>>,
    /// Values of the parameters after the receiver (each its alternatives,
    /// by position in the parameter list), when the call is not in the
    /// source: Python calls `__getattr__(self, name)` itself; a call from
    /// another module gives its arguments' values.
    given: Vec<Vec<Alt<'t>>>,
}

/// A def bound to a call from another module (`Flow::with_frames`): its
/// parameters' values, and the keywords its `**kwargs` takes.
pub(crate) struct Frame<'t> {
    pub def: ScopeId,
    pub given: Vec<Vec<Alt<'t>>>,
    pub kwargs: Arc<Entries>,
    /// The object a method is bound to (`__enter__` of an object the
    /// caller made).
    pub receiver: Option<Alt<'t>>,
}

/// One evaluation: its step budget and the calls being evaluated.
/// Element `index` of the display a parallel assignment assigns (`a, b =
/// [], []`), when it has one element per target.
fn parallel_element(value: Node<'_>, index: usize) -> Option<Node<'_>> {
    if value.kind_name() != "expression_list" {
        return None;
    }
    let mut cursor = value.walk();
    let elements: Vec<Node<'_>> = value
        .named_children(&mut cursor)
        .filter(|c| c.kind_name() != "comment")
        .collect();
    elements.get(index).copied()
}

/// How many times one call of a def may be evaluated inside itself (a
/// recursive walk of a nested config, one level each time).
const MAX_RECURSION: usize = 3;

pub struct Flow<'m, 't> {
    m: &'m Module<'t>,
    steps: Cell<u32>,
    bound: RefCell<Vec<Bound<'t>>>,
    /// The keywords a call from another module passes into a def's
    /// `**kwargs` while that call is bound (`with_frames`), innermost last.
    bound_kwargs: RefCell<Vec<(ScopeId, Arc<Entries>)>>,
    /// Names see the branches constant conditions decide (`branch_ranges`).
    /// Off when deciding those conditions: what decides a branch never
    /// depends on other constant-decided branches, so the answers do not
    /// depend on the order they are asked in, and deciding never recurses
    /// (a function called there still has its branches decided by that
    /// call, `given_branches`).
    branch_aware: bool,
    /// The branches of a function evaluated for a call, decided with that
    /// call's values: (depth of its `bound` frame, the function, its
    /// branches). Dropped when the frame ends.
    given_branches: RefCell<Vec<(usize, ScopeId, std::rc::Rc<super::reach::Branches>)>>,
    /// The (frame, function) pairs whose branches are being decided now:
    /// their own conditions see none of them decided.
    deciding_given: RefCell<Vec<(usize, ScopeId)>>,
    /// The (constructor call, method) pairs whose branches `field` is
    /// deciding for that construction: a condition reading a field of the
    /// same object does not decide them again.
    deciding_construction: RefCell<Vec<(usize, ScopeId)>>,
    /// `self.attr` reads whose value is being worked out without the state
    /// each call of their method leaves on its receiver
    /// (`receiver_state_at_calls`): the plain answer for calls without one.
    receiver_sites_open: RefCell<Vec<usize>>,
    /// While `detach_with_tokens` runs: functions of this module another
    /// module cannot name cross as tokens at every depth of the value (a
    /// closure in a returned tuple, a bound method in an object's field),
    /// with module-level functions too when `Some(true)`.
    detach_tokens: Cell<Option<bool>>,
    /// The `D[k]` read whose dict `literal_lookup` is about to look in (set
    /// by `eval_subscript`, taken by the lookup): a store of the same scope
    /// counts only if it ran before the read (`opts["p"] = opts["p"].split(",")`
    /// reads the value before it; a store after a lowering is not its).
    subscript_read: Cell<Option<(Node<'t>, ScopeId)>>,
    /// The same for an `obj.attr` read of an instance `field` is about to
    /// read: stores through the name the instance is bound to count only
    /// if they ran before the read.
    attribute_read: Cell<Option<(Node<'t>, ScopeId)>>,
    /// While an instance is detached to read what its class inherits from
    /// another module's class (`foreign_base_attribute`): reading its
    /// fields must not ask that again (each field read would detach it
    /// anew, without end).
    reading_foreign_base: Cell<bool>,
    /// While `foreign_args_in` runs for one way of choosing the arguments
    /// (`foreign_call`): only the argument values on choices compatible with it.
    foreign_way: RefCell<Option<Vec<Choice>>>,
    /// The distinct choice lists of each argument the last `foreign_args_in`
    /// read (what `foreign_call` splits the call by).
    foreign_arg_choices: RefCell<Vec<Vec<Vec<Choice>>>>,
    /// While an argument of another module's call is detached for one way
    /// of choosing the arguments: the way, which values nested in it (a
    /// dict display's entries, an object's fields) must be compatible with.
    detach_way: RefCell<Option<Vec<Choice>>>,
    /// The choices of the container whose items are being read (a dict
    /// comprehension a factory's call made holds that call's values only).
    read_way: RefCell<Vec<Choice>>,
    /// The parameters (def, index) whose values from the def's call sites
    /// are being found.
    params_open: RefCell<Vec<(ScopeId, usize)>>,
    /// While an argument of another module's call is detached: the choice
    /// lists of the data values nested in it (`{"p": (platform,)}` in a
    /// loop differs by element though the dict itself is on no choice).
    detach_nested: RefCell<Option<Vec<Vec<Choice>>>>,
}

impl<'t> Module<'t> {
    /// What a method value (`Val::Method`) runs on: the object, or for a
    /// classmethod the class.
    pub(crate) fn method_receiver(
        &self,
        def: ScopeId,
        class: ScopeId,
        made: Option<(Node<'t>, ScopeId)>,
    ) -> Val<'t> {
        match made.is_none() && self.is_class_method(def) {
            true => Val::Class(class),
            false => Val::Instance(class, made),
        }
    }

    /// A fresh evaluation with its own budget.
    pub fn flow(&self) -> Flow<'_, 't> {
        self.flow_with_budget(BUDGET)
    }

    pub(crate) fn flow_with_budget(&self, steps: u32) -> Flow<'_, 't> {
        // A model answering another module's call: its parameters bound.
        let bound = match &*self.answering.borrow() {
            Some((def, given)) => vec![Bound {
                def: *def,
                call: self.scopes[*def].node,
                call_scope: *def,
                receiver: None,
                given: given.clone(),
            }],
            None => Vec::new(),
        };
        Flow {
            m: self,
            steps: Cell::new(steps),
            bound: RefCell::new(bound),
            bound_kwargs: RefCell::new(Vec::new()),
            branch_aware: true,
            given_branches: RefCell::new(Vec::new()),
            deciding_given: RefCell::new(Vec::new()),
            deciding_construction: RefCell::new(Vec::new()),
            receiver_sites_open: RefCell::new(Vec::new()),
            detach_tokens: Cell::new(None),
            subscript_read: Cell::new(None),
            attribute_read: Cell::new(None),
            reading_foreign_base: Cell::new(false),
            foreign_way: RefCell::new(None),
            foreign_arg_choices: RefCell::new(Vec::new()),
            detach_way: RefCell::new(None),
            read_way: RefCell::new(Vec::new()),
            params_open: RefCell::new(Vec::new()),
            detach_nested: RefCell::new(None),
        }
    }

    /// A fresh evaluation for deciding a branch condition (see `branch_aware`).
    pub(crate) fn flow_for_conditions(&self, steps: u32) -> Flow<'_, 't> {
        Flow {
            branch_aware: false,
            ..self.flow_with_budget(steps)
        }
    }

    /// The alternatives of an expression (a fresh evaluation).
    pub fn eval_alts(&self, node: Node<'t>, scope: ScopeId) -> Vec<Alt<'t>> {
        self.flow().eval(node, scope)
    }
}

impl<'m, 't> Flow<'m, 't> {
    pub fn eval(&self, node: Node<'t>, scope: ScopeId) -> Vec<Alt<'t>> {
        self.eval_at_site(node, scope, || self.eval_depth(node, scope, 0))
    }

    /// The key `subscript` reads (`eval` of its index, or the tuple of its
    /// indices: `d[a, b]`).
    pub fn eval_subscript_key(&self, subscript: Node<'t>, scope: ScopeId) -> Vec<Alt<'t>> {
        self.eval_at_site(subscript, scope, || self.eval_index(subscript, scope, 0))
    }

    fn eval_at_site(
        &self,
        node: Node<'t>,
        scope: ScopeId,
        eval: impl FnOnce() -> Vec<Alt<'t>>,
    ) -> Vec<Alt<'t>> {
        let Some(_nested) = NestedEval::enter() else {
            cut();
            return vec![Alt::unknown()];
        };
        // A question asked at a site (not inside a call being evaluated):
        // answered under the module-level state the site runs in
        // (`overlay.rs`: `with kernel_target("gpu"):` around it).
        if self.bound.borrow().is_empty() && !self.m.state_in_force() {
            return settle_hosts(self.m.under_state_at(node, scope, eval));
        }
        settle_hosts(eval())
    }

    fn spend(&self) -> bool {
        let left = self.steps.get();
        if left == 0 {
            cut();
            return false;
        }
        self.steps.set(left - 1);
        true
    }

    fn eval_depth(&self, node: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Alt<'t>> {
        let node = unparenthesize(node);
        // Outside any evaluated call, an expression's values depend on the
        // expression alone (see `CUTS`): found once.
        let keep = !matches!(
            node.kind_name(),
            "string" | "integer" | "float" | "true" | "false" | "none"
        ) && self.asks_for_no_call();
        let key = (node.id(), scope, self.asked_as());
        if !keep {
            return self.eval_uncached(node, scope, depth);
        }
        self.remembered(&self.m.caches().expr_values, key, depth, || {
            self.eval_uncached(node, scope, depth)
        })
    }

    /// Notes an evaluation `depth` deep, `nesting` evaluations in.
    fn reach_depth(&self, depth: u32, nesting: u32) {
        DEEPEST.with(|d| {
            let (deepest, most_nested) = d.get();
            d.set((deepest.max(depth), most_nested.max(nesting)));
        });
    }

    fn eval_uncached(&self, node: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Alt<'t>> {
        self.reach_depth(depth, NESTED_EVALS.with(Cell::get));
        if too_deep(depth) || !self.spend() {
            return vec![Alt::unknown()];
        }
        let m = self.m;
        let one = |v: Val<'t>| vec![Alt::fixed(v)];
        match node.kind_name() {
            // `(parts := name.split("/"))` is its value.
            "named_expression" => match node.field("value") {
                Some(value) => self.eval_depth(value, scope, depth + 1),
                None => vec![Alt::unknown()],
            },
            "string" => match string_value(node, m.src) {
                Some(s) => one(Val::Str(s)),
                // An f-string of known values (`f"{name}_out"`); other
                // interpolated text is still a string.
                None => self.eval_fstring(node, scope, depth),
            },
            "concatenated_string" => one(Val::AnyStr),
            "integer" => one(text(node, m.src)
                .replace('_', "")
                .parse()
                .map(Val::Int)
                .unwrap_or(Val::Unknown)),
            "float" => one(python_float(text(node, m.src)).map_or(Val::Unknown, Val::Float)),
            "true" => one(Val::Bool(true)),
            "false" => one(Val::Bool(false)),
            "none" => one(Val::None),
            // `return a, b` holds an expression_list: a tuple.
            // A set display reads as a tuple of its distinct items, as
            // `set(...)` does (for `in`, `sorted`, `len`).
            "tuple" | "list" | "expression_list" | "set" => {
                let is_set = node.kind_name() == "set";
                let kind = if node.kind_name() == "list" {
                    SeqKind::List
                } else {
                    SeqKind::Tuple
                };
                let mut items: Vec<Node<'t>> = Vec::new();
                let mut cursor = node.walk();
                for item in node.named_children(&mut cursor) {
                    if item.kind_name() == "comment" {
                        continue;
                    }
                    if matches!(item.kind_name(), "list_splat" | "parenthesized_list_splat") {
                        return one(Val::Unknown);
                    }
                    items.push(item);
                }
                let parts: Vec<Vec<Alt<'t>>> = items
                    .iter()
                    .map(|i| self.eval_depth(*i, scope, depth + 1))
                    .collect();
                product(&parts, |vals| {
                    if !is_set {
                        return Val::Seq(kind, vals);
                    }
                    let mut distinct: Vec<Val<'t>> = Vec::new();
                    for v in vals {
                        let seen = distinct.iter().any(|d| match (d, &v) {
                            (Val::Str(a), Val::Str(b)) => a == b,
                            (Val::Int(a), Val::Int(b)) => a == b,
                            _ => false,
                        });
                        if !seen {
                            distinct.push(v);
                        }
                    }
                    Val::Seq(kind, distinct)
                })
            }
            "dictionary" => one(Val::Dict(node, scope)),
            "as_pattern" => self.entered(node, scope, depth),
            "lambda" => one(m
                .scope_of_def(node)
                .map(Val::Function)
                .unwrap_or(Val::Unknown)),
            "list_comprehension" => self.expand_comprehensions(
                one(Val::Comprehension(node, scope)),
                SeqKind::List,
                depth,
            ),
            // A set of known items reads as a tuple, as `set(...)` does.
            "set_comprehension" => self.expand_comprehensions(
                one(Val::Comprehension(node, scope)),
                SeqKind::Tuple,
                depth,
            ),
            "dictionary_comprehension" | "generator_expression" => {
                one(Val::Comprehension(node, scope))
            }
            "identifier" => {
                let alts = self.eval_name(node, scope, depth);
                self.with_keyword_calls_before(node, alts, scope, depth)
            }
            "attribute" => self.eval_attribute(node, scope, depth),
            "subscript" => self.eval_subscript(node, scope, depth),
            "call" => self.eval_call(node, scope, depth),
            "conditional_expression" => {
                // `a if c else b`
                let (Some(a), Some(c), Some(b)) = (
                    node.named_child(0),
                    node.named_child(1),
                    node.named_child(2),
                ) else {
                    return one(Val::Unknown);
                };
                self.branch(c, scope, depth, |taken| {
                    self.eval_depth(if taken { a } else { b }, scope, depth + 1)
                })
            }
            "boolean_operator" => {
                let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
                    return one(Val::Unknown);
                };
                let is_or = node
                    .field("operator")
                    .is_some_and(|o| text(o, m.src) == "or");
                let lefts = self.eval_depth(left, scope, depth + 1);
                // The right side is read once, and only if a left
                // alternative may yield it.
                let rights_once = std::cell::OnceCell::new();
                let rights =
                    || rights_once.get_or_init(|| self.eval_depth(right, scope, depth + 1));
                // Only a boolean absorbs: `x or "host"` is `x` or `"host"`,
                // not `True`.
                let absorbing = |rights: &[Alt<'t>]| {
                    !rights.is_empty()
                        && rights
                            .iter()
                            .all(|r| matches!(r.val, Val::Bool(b) if b == is_or))
                };
                // `probe() and False` is `False` whichever way `probe()` goes
                // (`or True`: `True`), when every left alternative either
                // yields the right side or is that boolean itself: the result
                // is the right side's, free of the left's run-time choices
                // (`on_cpu_host() and platform == "cpu"`, `on_cpu_host()`
                // holding a `try`, in a loop over platforms).
                let truth = |l: &Alt<'t>| self.truth_at(&l.val, left, scope, depth);
                let left_irrelevant = lefts.iter().all(|l| match truth(l) {
                    None => true,
                    Some(t) => t != is_or || matches!(l.val, Val::Bool(b) if b == is_or),
                });
                // (A left side the host decides, `jax.devices()[0].platform
                // == "cpu"`, is such a choice too, though each value is known.)
                if !lefts.is_empty()
                    && lefts
                        .iter()
                        .any(|l| truth(l).is_none() || l.why.is_choice())
                    && left_irrelevant
                    && absorbing(rights())
                {
                    return cap(rights().clone());
                }
                let mut out = Vec::new();
                for l in lefts {
                    match truth(&l) {
                        // `x or y` is x when x is truthy; `x and y` is x when falsy.
                        Some(t) if t == is_or => out.push(l),
                        Some(_) => out.extend(
                            rights()
                                .iter()
                                .filter_map(|r| r.clone().under(&l.why, &l.choices)),
                        ),
                        // A boolean right side decides it on each of its
                        // own paths, whatever the left is.
                        None if absorbing(rights()) => {
                            out.extend(rights().iter().filter_map(|r| {
                                Alt {
                                    val: Val::Bool(is_or),
                                    why: r.why.clone(),
                                    choices: r.choices.clone(),
                                }
                                .under(&l.why, &l.choices)
                            }))
                        }
                        None => {
                            out.push(Alt {
                                val: l.val.clone(),
                                why: Why::Choice,
                                choices: l.choices.clone(),
                            });
                            out.extend(rights().iter().map(|r| Alt {
                                why: Why::Choice,
                                ..r.clone()
                            }));
                        }
                    }
                }
                cap(out)
            }
            "not_operator" => {
                let Some(arg) = node.field("argument") else {
                    return one(Val::Unknown);
                };
                map(self.eval_depth(arg, scope, depth + 1), |v| match v {
                    Val::ParamRef(_) => v.clone(),
                    _ => self
                        .truth_at(v, arg, scope, depth)
                        .map(|t| Val::Bool(!t))
                        .unwrap_or(Val::Unknown),
                })
            }
            "comparison_operator" => self.eval_comparison(node, scope, depth),
            // A `case` evaluated as a condition: whether the `match` subject
            // matches its pattern (see `build_branches_by`).
            "case_clause" => self.eval_case(node, scope, depth),
            // `-1` in `layers[-1]`, `names[:-1]`.
            "unary_operator" => {
                let Some(arg) = node.field("argument") else {
                    return one(Val::Unknown);
                };
                let op = node.field("operator").map(|o| text(o, m.src)).unwrap_or("");
                map(self.eval_depth(arg, scope, depth + 1), |v| match (op, v) {
                    ("-", Val::Int(i)) => i.checked_neg().map(Val::Int).unwrap_or(Val::Unknown),
                    ("+", Val::Int(i)) => Val::Int(*i),
                    ("-", Val::Float(f)) => Val::Float(-f),
                    ("+", Val::Float(f)) => Val::Float(*f),
                    _ => Val::Unknown,
                })
            }
            "binary_operator" => {
                let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
                    return one(Val::Unknown);
                };
                let op = node.field("operator").map(|o| text(o, m.src)).unwrap_or("");
                if !matches!(op, "+" | "-" | "*" | "//" | "%" | "/" | "**") {
                    return one(Val::Unknown);
                }
                let parts = vec![
                    self.eval_depth(left, scope, depth + 1),
                    self.eval_depth(right, scope, depth + 1),
                ];
                product(&parts, |vals| match (op, &vals[0], &vals[1]) {
                    ("+", Val::Seq(k, a), Val::Seq(l, b)) if k == l => {
                        Val::Seq(*k, a.iter().chain(b).cloned().collect())
                    }
                    ("+", Val::Str(a), Val::Str(b)) => Val::Str(format!("{a}{b}")),
                    ("+", Val::Str(_) | Val::AnyStr, Val::Str(_) | Val::AnyStr) => Val::AnyStr,
                    // Integer arithmetic (a step count, a size): Python's
                    // floor division and modulo, `Unknown` on overflow.
                    // (A negative power of an int is a float.)
                    (_, Val::Int(a), Val::Int(b)) if op != "/" && (op != "**" || *b >= 0) => {
                        python_int_op(op, *a, *b)
                            .map(Val::Int)
                            .unwrap_or(Val::Unknown)
                    }
                    // Float arithmetic, and `/` (true division) of ints.
                    (_, Val::Int(_) | Val::Float(_), Val::Int(_) | Val::Float(_)) => {
                        match (vals[0].number(), vals[1].number()) {
                            (Some(a), Some(b)) => {
                                python_float_op(op, a, b).map_or(Val::Unknown, Val::Float)
                            }
                            _ => Val::Unknown,
                        }
                    }
                    (_, Val::Int(_) | Val::AnyInt, Val::Int(_) | Val::AnyInt)
                        if op != "//" && op != "%" && op != "/" =>
                    {
                        Val::AnyInt
                    }
                    _ => Val::Unknown,
                })
            }
            _ => one(Val::Unknown),
        }
    }

    /// A value's truth where `read` reads it: its own (`Val::truthy`), or
    /// for a dict made empty, true once a store into it certainly ran
    /// before the read (`d = {}; d["k"] = v`, then `if d:` / `d or {}`).
    pub(crate) fn truth_at(
        &self,
        val: &Val<'t>,
        read: Node<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Option<bool> {
        if let Some(t) = val.truthy() {
            return Some(t);
        }
        let Val::Dict(made, made_scope) = val else {
            return None;
        };
        let stores = self.dict_stores(*made, depth + 1)?;
        // Read in another function (passed on, `**(params or {})`): the
        // store ran before when it runs whenever the dict is made and
        // before the name it is bound to is read at all.
        let name = (scope != *made_scope)
            .then(|| super::assigned_name(*made).map(|target| text(target, self.m.src)))
            .flatten();
        if scope != *made_scope && name.is_none() {
            return None;
        }
        stores
            .iter()
            .any(|(_, value, store_scope)| {
                if value.start_byte() <= made.end_byte() {
                    return false;
                }
                match name {
                    None => {
                        *store_scope == scope
                            && value.end_byte() <= read.start_byte()
                            && self.runs_whenever(*value, read, scope, depth)
                    }
                    Some(name) => {
                        *store_scope == *made_scope
                            && self.runs_whenever(*value, *made, *made_scope, depth)
                            && self.not_read_before(name, *made, *value)
                    }
                }
            })
            .then_some(true)
    }

    /// Whether the variable `name` bound at `made` is not read between it
    /// and `store` (other than as the object of a subscript store), so
    /// the dict escapes only after the store.
    fn not_read_before(&self, name: &str, made: Node<'t>, store: Node<'t>) -> bool {
        let Some(statement) = self.m.parent_of(store) else {
            return false;
        };
        self.m.identifiers_named(name).into_iter().all(|n| {
            let between = n.start_byte() > made.end_byte() && n.start_byte() < store.start_byte();
            !between || statement.byte_range().contains(&n.start_byte())
        })
    }

    /// Whether `node` runs whenever the code at `at` (before it, in the
    /// same block or an outer one) does: between them only plain
    /// statements and `if` bodies whose condition certainly holds. (Asked
    /// while the scope's branches are being decided, so the conditions are
    /// evaluated here rather than read from `Module::branch_ranges`.)
    fn runs_whenever(&self, node: Node<'t>, at: Node<'t>, scope: ScopeId, depth: u32) -> bool {
        let mut child = node;
        let mut current = self.m.parent_of(node);
        while let Some(parent) = current {
            if parent.byte_range().contains(&at.start_byte()) {
                return true;
            }
            match parent.kind_name() {
                "if_statement" => {
                    let in_consequence = parent
                        .field("consequence")
                        .is_some_and(|c| c.id() == child.id());
                    let Some(condition) = parent.field("condition").filter(|_| in_consequence)
                    else {
                        return false;
                    };
                    let holds = self.eval_depth(condition, scope, depth + 1);
                    if holds.is_empty()
                        || !holds
                            .iter()
                            .all(|a| a.why.certain() && a.val.truthy() == Some(true))
                    {
                        return false;
                    }
                }
                "block"
                | "expression_statement"
                | "assignment"
                | "augmented_assignment"
                | "with_statement"
                | "with_clause"
                | "with_item"
                | "subscript" => {}
                _ => return false,
            }
            child = parent;
            current = self.m.parent_of(parent);
        }
        false
    }

    /// Evaluates a condition and then what each way it goes gives. A known
    /// condition takes its branch; an unknown one gives both, as `Choice`.
    fn branch(
        &self,
        condition: Node<'t>,
        scope: ScopeId,
        depth: u32,
        then: impl Fn(bool) -> Vec<Alt<'t>>,
    ) -> Vec<Alt<'t>> {
        let conds = self.eval_depth(condition, scope, depth + 1);
        let mut out = Vec::new();
        for c in &conds {
            match self.truth_at(&c.val, condition, scope, depth) {
                // Decided on every path, or as a plain run decides it (a
                // default of run-time configuration: the branch taken is
                // then a default too), or on each host as that host does.
                Some(t) if c.why.certain() || matches!(c.why, Why::Default(_) | Why::Host(_)) => {
                    out.extend(
                        then(t)
                            .into_iter()
                            .filter_map(|a| a.under(&c.why, &c.choices)),
                    )
                }
                _ => {
                    for taken in [true, false] {
                        out.extend(then(taken).into_iter().filter_map(|mut a| {
                            a.why = Why::Choice;
                            a.choices = merge_choices(&a.choices, &c.choices)?;
                            Some(a)
                        }));
                    }
                }
            }
        }
        cap(out)
    }

    fn eval_comparison(&self, node: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Alt<'t>> {
        let mut cursor = node.walk();
        let operands: Vec<Node<'t>> = node.named_children(&mut cursor).collect();
        let ops: Vec<&str> = {
            let mut c = node.walk();
            node.children(&mut c)
                .filter(|n| !n.is_named())
                .map(|n| n.kind_name())
                .collect()
        };
        if operands.len() != 2 || ops.len() != 1 {
            return vec![Alt::unknown()];
        }
        let op = ops[0];
        let parts = vec![
            self.eval_depth(operands[0], scope, depth + 1),
            self.eval_depth(operands[1], scope, depth + 1),
        ];
        product(&parts, |vals| {
            // `k in D` reads `D` here: its stores of this scope that run
            // after the test do not count (`if name in REG: raise` before
            // `REG[name] = item` sees the dict without that entry).
            if matches!(op, "in" | "not in") {
                self.subscript_read.set(Some((node, scope)));
            }
            let out = self.compare(op, &vals[0], &vals[1], depth);
            self.subscript_read.set(None);
            out
        })
    }

    /// Whether the subject of the `match` holding `case` matches its
    /// pattern: literals and dotted value patterns compare as `==` (`is`
    /// for `None`/`True`/`False`, the same to `Val::same`), `|` is any of
    /// them, `_` and a capture name always match; other patterns (classes,
    /// sequences, mappings) and a guard that is not decided are `Unknown`.
    fn eval_case(&self, case: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Alt<'t>> {
        let subjects: Vec<Node<'t>> = match self.m.parent_of(case).and_then(|b| self.m.parent_of(b))
        {
            Some(stmt) if stmt.kind_name() == "match_statement" => {
                let mut cursor = stmt.walk();
                stmt.children_by_field_name("subject", &mut cursor)
                    .collect()
            }
            _ => Vec::new(),
        };
        let patterns: Vec<Node<'t>> = {
            let mut cursor = case.walk();
            case.named_children(&mut cursor)
                .filter(|c| c.kind_name() == "case_pattern")
                .collect()
        };
        let ([subject], [pattern]) = (&subjects[..], &patterns[..]) else {
            return vec![Alt::unknown()];
        };
        let matched = map(self.eval_depth(*subject, scope, depth + 1), |v| {
            self.match_pattern(v, *pattern, scope, depth)
        });
        let Some(guard) = case.field("guard").and_then(|g| g.named_child(0)) else {
            return matched;
        };
        // `case P if cond:` runs when both hold.
        let guard = super::reach::truth_of(self.eval_depth(guard, scope, depth + 1));
        map(matched, |v| match (v, &guard) {
            (Val::Bool(false), _) => Val::Bool(false),
            (Val::Bool(true), super::reach::Truth::Known(t)) => Val::Bool(*t),
            _ => Val::Unknown,
        })
    }

    fn match_pattern(
        &self,
        subject: &Val<'t>,
        pattern: Node<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Val<'t> {
        let m = self.m;
        let pattern = match pattern.kind_name() {
            "case_pattern" => match pattern.named_child(0) {
                // `case _:`
                None => return Val::Bool(true),
                Some(inner) => inner,
            },
            _ => pattern,
        };
        match pattern.kind_name() {
            "union_pattern" => {
                let mut cursor = pattern.walk();
                let mut any_unknown = None;
                for alt in pattern.named_children(&mut cursor) {
                    match self.match_pattern(subject, alt, scope, depth) {
                        Val::Bool(true) => return Val::Bool(true),
                        Val::Bool(false) => {}
                        other => any_unknown = Some(other),
                    }
                }
                any_unknown.unwrap_or(Val::Bool(false))
            }
            // A bare name captures whatever the subject is.
            "dotted_name" if pattern.named_child_count() == 1 => Val::Bool(true),
            // `case Platform.TPU:`: the value the dotted name reads.
            "dotted_name" => {
                let mut cursor = pattern.walk();
                let parts: Vec<Node<'t>> = pattern.named_children(&mut cursor).collect();
                let Some((first, rest)) = parts.split_first() else {
                    return Val::Unknown;
                };
                let mut values = self.eval_depth(*first, scope, depth + 1);
                for part in rest {
                    let name = text(*part, m.src);
                    values = values
                        .iter()
                        .flat_map(|v| {
                            self.attribute_of(&v.val, name, depth + 1)
                                .into_iter()
                                .filter_map(|a| a.under(&v.why, &v.choices))
                        })
                        .collect();
                }
                self.compare_one(subject, values, depth)
            }
            "string" | "concatenated_string" | "integer" | "true" | "false" | "none" => {
                self.compare_one(subject, self.eval_depth(pattern, scope, depth + 1), depth)
            }
            _ => Val::Unknown,
        }
    }

    /// `subject == value` when `value` has one fixed alternative.
    fn compare_one(&self, subject: &Val<'t>, values: Vec<Alt<'t>>, depth: u32) -> Val<'t> {
        match values.as_slice() {
            [Alt {
                val,
                why: Why::Fixed,
                ..
            }] => self.compare("==", subject, val, depth),
            _ => Val::Unknown,
        }
    }

    /// `a <op> b` for two values: a `Bool` when the values decide it, the
    /// caller's parameter when it does, else `Unknown`.
    fn compare(&self, op: &str, a: &Val<'t>, b: &Val<'t>, depth: u32) -> Val<'t> {
        // A comparison with what a caller passes is the caller's to decide.
        if let Val::ParamRef(_) = a {
            return a.clone();
        }
        if let Val::ParamRef(_) = b {
            return b.clone();
        }
        let known = |v: &Val<'_>| {
            matches!(
                v,
                Val::Str(_)
                    | Val::Bool(_)
                    | Val::Int(_)
                    | Val::Float(_)
                    | Val::None
                    | Val::Seq(..)
                    | Val::EnumMember(..)
                    | Val::ForeignEnumMember(_)
            )
        };
        // A member of this module's enum and one named from another module
        // may be the same one (passed back here).
        if matches!(
            (a, b),
            (Val::EnumMember(..), Val::ForeignEnumMember(_))
                | (Val::ForeignEnumMember(_), Val::EnumMember(..))
        ) {
            return Val::Unknown;
        }
        // An object made in the code (a mesh, a sharding, an instance) is
        // not None: `mesh is None` is decided.
        let an_object = |v: &Val<'_>| {
            matches!(
                v,
                Val::Mesh(_)
                    | Val::Sharding(_)
                    | Val::Spec(_)
                    | Val::Instance(..)
                    | Val::Function(_)
                    | Val::Method(..)
                    | Val::Jitted(..)
                    | Val::Partial { .. }
                    | Val::Class(_)
                    // A def or class by its path (another module's, or a
                    // caller's function passed here as a token).
                    | Val::Ref(_)
                    | Val::Params(_)
                    | Val::InterpretParams
                    | Val::Object(_)
                    | Val::Array { .. }
                    | Val::AbstractDevice(_)
                    | Val::KernelMesh(_)
                    | Val::Dict(..)
                    | Val::OpaqueDict
                    | Val::Entries(_)
                    | Val::Comprehension(..)
                    | Val::Devices(_)
                    | Val::Device(_)
                    | Val::AnyStr
                    | Val::AnyInt
                    | Val::Split(_)
                    | Val::EnumMember(..)
                    | Val::ForeignEnumMember(_)
            )
        };
        match op {
            "is" | "is not"
                if (matches!(a, Val::None) && an_object(b))
                    || (matches!(b, Val::None) && an_object(a)) =>
            {
                Val::Bool(op == "is not")
            }
            "==" | "!=" | "is" | "is not" if known(a) && known(b) => {
                let eq = a.same(b);
                Val::Bool(if op == "==" || op == "is" { eq } else { !eq })
            }
            "<" | "<=" | ">" | ">=" => match (a, b) {
                (Val::Int(x), Val::Int(y)) => Val::Bool(match op {
                    "<" => x < y,
                    "<=" => x <= y,
                    ">" => x > y,
                    _ => x >= y,
                }),
                (Val::Int(_) | Val::Float(_), Val::Int(_) | Val::Float(_)) => {
                    match (a.number(), b.number()) {
                        (Some(x), Some(y)) => Val::Bool(match op {
                            "<" => x < y,
                            "<=" => x <= y,
                            ">" => x > y,
                            _ => x >= y,
                        }),
                        _ => Val::Unknown,
                    }
                }
                _ => Val::Unknown,
            },
            "in" | "not in" => {
                let has = match (a, b) {
                    (
                        Val::Str(_) | Val::Int(_) | Val::Bool(_) | Val::EnumMember(..),
                        Val::Seq(_, items),
                    ) if items.iter().all(known) => Some(items.iter().any(|i| i.same(a))),
                    // A substring (`"." in value`).
                    (Val::Str(part), Val::Str(whole)) => Some(whole.contains(part.as_str())),
                    // A key of a dict whose entries are known.
                    (key, dict) if is_key_constant(key) && dict.is_dict() => {
                        match self.lookup_key(dict, a, depth + 1) {
                            Lookup::Found(_) => Some(true),
                            Lookup::Missing => Some(false),
                            Lookup::Unknown => None,
                        }
                    }
                    _ => None,
                };
                match has {
                    Some(has) => Val::Bool(if op == "in" { has } else { !has }),
                    None => Val::Unknown,
                }
            }
            _ => Val::Unknown,
        }
    }

    /// An object of fields read whole where `node` reads `name`, with the
    /// attribute stores made into it before (`cfg = set_defaults();
    /// cfg.case.source = "ldc"; build(cfg)` passes the stored "ldc"): what
    /// `path_store_of` says each stored path holds there.
    fn with_path_stores(
        &self,
        mut alts: Vec<Alt<'t>>,
        name: &str,
        node: Node<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        let m = self.m;
        if !alts.iter().any(|a| matches!(a.val, Val::Object(_))) {
            return alts;
        }
        let mut paths = m.stored_paths_under(name);
        if paths.is_empty() {
            return alts;
        }
        // Outer fields first: `cfg.nl = Node()` then `cfg.nl.backend = ...`.
        paths.sort_by_key(|p| (p.matches('.').count(), p.clone()));
        for path in paths {
            let stored = match m.path_store_of(&path, node, scope) {
                PathStore::Value(value, store_scope) => {
                    self.eval_depth(value, store_scope, depth + 1)
                }
                PathStore::Unknown => vec![Alt::unknown()],
                PathStore::None => continue,
            };
            let fields: Vec<&str> = path[name.len() + 1..].split('.').collect();
            // One object per stored alternative, on its choices: a store of
            // a loop's element (`cfg.p = (platform,)`) keeps its pairing with
            // the element's other uses.
            let unknown = [ConstAlt {
                val: Const::Unknown,
                why: Why::Fixed,
            }];
            let per_alt = stored.len() <= MAX_ALTS;
            let mut out = Vec::new();
            for alt in alts {
                let Val::Object(object) = &alt.val else {
                    out.push(alt);
                    continue;
                };
                if !per_alt {
                    out.push(Alt {
                        val: Val::Object(Arc::new(fields_with_stored(object, &fields, &unknown))),
                        ..alt
                    });
                    continue;
                }
                for one in &stored {
                    let value = self.detach(&[Alt::fixed(one.val.clone())], 0);
                    let made = Alt {
                        val: Val::Object(Arc::new(fields_with_stored(object, &fields, &value))),
                        why: one.why.clone(),
                        choices: one.choices.clone(),
                    };
                    out.extend(made.under(&alt.why, &alt.choices));
                }
            }
            alts = cap(out);
        }
        alts
    }

    fn eval_name(&self, node: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Alt<'t>> {
        let m = self.m;
        let name = text(node, m.src);
        // The value the state a lowering runs under gives a global
        // (`with kernel_target("gpu"):` rebinding it; `overlay.rs`).
        if let Some(alts) = m.overlay_name(scope, name) {
            return alts;
        }
        if let Some(binding) = m.binding_at(scope, name, node) {
            let alts = self.eval_binding(binding, node, depth);
            return self.with_path_stores(alts, name, node, scope, depth);
        }
        let Some(found) = m.lookup(scope, name) else {
            return vec![Alt::unknown()];
        };
        // Several bindings and no single one chosen: a loop variable used in
        // its loop, or assignments in branches (each a run-time choice).
        let same_scope = m
            .bindings_in(scope, name)
            .is_some_and(|b| std::ptr::eq(b, found));
        // Branches decided by constant conditions: a binding in a body that
        // never runs is no candidate, one in a body that always runs (`if cfg
        // is None: cfg = DEFAULT` with `cfg` None) is as good as straight-line
        // code; one that runs by a default of run-time configuration gives
        // values that hold for a plain run (`Why::Default`).
        // Where the read happens, in the scope of the bindings: the read
        // itself, or for a closure reading a variable of the function that
        // defines it, the nested def (the value is the one the variable has
        // when the closure is made, or one assigned later).
        let anchor = if same_scope {
            Some((node, scope))
        } else {
            self.closure_anchor(scope, name, found)
        };
        let branches = match anchor {
            Some((_, at_scope)) if self.branch_aware => self
                .branches_decided_by_call(at_scope)
                .unwrap_or_else(|| m.branch_ranges(at_scope)),
            // Deciding a condition: not by other constant conditions, but a
            // function called there still has its branches decided by the
            // call (`if b is None: b = "x"` with `b` not passed).
            Some((_, at_scope)) => self.branches_decided_by_call(at_scope).unwrap_or_default(),
            _ => std::rc::Rc::new(super::reach::Branches::default()),
        };
        let value_start = |b: &Binding<'t>| match b {
            Binding::Value { value, .. } | Binding::Item { value, .. } => value.start_byte(),
            _ => b.position(),
        };
        let by_default = |b: &Binding<'t>, alts: Vec<Alt<'t>>| -> Vec<Alt<'t>> {
            match branches.default_at(value_start(b)) {
                Some(note) => {
                    let why = Why::Default(note.to_owned());
                    alts.into_iter()
                        .map(|mut a| {
                            a.why = a.why.and(&why);
                            a
                        })
                        .collect()
                }
                None => alts,
            }
        };
        let candidates: Vec<&Binding<'t>> = if let Some((at, at_scope)) = anchor {
            let in_dead = |b: &Binding<'t>| {
                let start = value_start(b);
                branches.dead.iter().any(|r| r.contains(&start))
            };
            // (Not one in another branch of an `if` or `try` holding the
            // read: `if c: v = float(v) else: v = int(v)` reads the first
            // `v` in the `else`.)
            let exclusive = |b: &Binding<'t>| match b {
                Binding::Value { target, .. }
                | Binding::Item { target, .. }
                | Binding::Loop { target, .. } => m.in_exclusive_branches(*target, at),
                _ => false,
            };
            let before: Vec<&Binding<'t>> = found
                .iter()
                .filter(|b| b.position() < at.start_byte() && !in_dead(b) && !exclusive(b))
                .collect();
            // From the last straight-line binding on.
            let start = before
                .iter()
                .rposition(|b| match b {
                    Binding::Value { target, .. } | Binding::Item { target, .. } => {
                        m.runs_before(*target, at_scope, at, &branches.taken)
                    }
                    Binding::Loop { loop_node, .. } => {
                        loop_node.start_byte() <= at.start_byte()
                            && at.end_byte() <= loop_node.end_byte()
                    }
                    _ => false,
                })
                .unwrap_or(0);
            let mut candidates = before[start..].to_vec();
            if !same_scope {
                // Assigned after the closure is made: may run before it is called.
                candidates.extend(
                    found
                        .iter()
                        .filter(|b| b.position() >= at.start_byte() && !in_dead(b)),
                );
            }
            candidates
        } else if m
            .bindings_in(super::MODULE_SCOPE, name)
            .is_some_and(|b| std::ptr::eq(b, found))
        {
            // A module-level name read in a function: any of its bindings
            // may hold when the function runs, but not one in a module-level
            // body that never runs (`if GPU.platform == "cuda": USE = True
            // else: USE = False`). Also while a function's own conditions
            // are decided: the module's branches are another scope's
            // (`branch_ranges` answers a question it is building with none).
            // Nor one made by `global NAME` in a function that never runs.
            let module_branches = m.branch_ranges(super::MODULE_SCOPE);
            found
                .iter()
                .filter(|b| {
                    let start = value_start(b);
                    !module_branches.dead.iter().any(|r| r.contains(&start))
                        && !matches!(b, Binding::Value { scope: store, .. }
                            if *store != super::MODULE_SCOPE
                                && m.scope_never_runs(*store)
                                && !m.scope_within(scope, *store))
                })
                .collect()
        } else {
            found.iter().collect()
        };
        if candidates.len() == 1 {
            return by_default(candidates[0], self.eval_binding(candidates[0], node, depth));
        }
        if candidates.is_empty() || candidates.len() > MAX_ALTS {
            return vec![Alt::unknown()];
        }
        // A closure reads the variable when it is called; with no binding
        // after the def, that is the value the def sees (`cb = None; if mk:
        // cb = mk()` then `def f(x): cb(x)`), joined as a read there is.
        let joinable =
            |at: Node<'t>| same_scope || candidates.iter().all(|b| b.position() < at.start_byte());
        if let Some((at, at_scope)) = anchor.filter(|(at, _)| joinable(*at)) {
            if let Some(joined) =
                self.join_by_ways(&candidates, at, at_scope, &branches.taken, depth)
            {
                return cap(joined);
            }
        }
        let mut out = Vec::new();
        for b in candidates {
            out.extend(self.eval_binding(b, node, depth).into_iter().map(|mut a| {
                a.why = Why::Choice;
                a
            }));
        }
        cap(out)
    }

    /// The bindings that may reach a read, joined on each way the
    /// conditions deciding them are chosen: in a loop over constants, the
    /// `if` or `try` around a binding is decided per element (`if "." in
    /// v: v = float(v)`, `try: v = int(v) except ValueError: pass`), so each
    /// element reads the value of the last binding that ran for it, as
    /// certain as the element is. `None` (join them as run-time choices)
    /// when a binding's condition is not known on some way, or its
    /// statement is not a plain statement of the guarded body.
    fn join_by_ways(
        &self,
        candidates: &[&Binding<'t>],
        read: Node<'t>,
        scope: ScopeId,
        taken: &[std::ops::Range<usize>],
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        if depth > MAX_DEPTH / 2 {
            return None;
        }
        // Only the first binding may run whenever the read does (straight
        // line); each later one is a plain binding under guards. Told apart
        // before any guard is evaluated.
        let mut guarded: Vec<Option<Node<'t>>> = Vec::with_capacity(candidates.len());
        for (i, b) in candidates.iter().enumerate() {
            let target = match b {
                Binding::Value { target, .. } | Binding::Item { target, .. } => Some(*target),
                _ => None,
            };
            let straight = target.is_none_or(|t| m.runs_before(t, scope, read, taken));
            match (straight, i) {
                (true, 0) => guarded.push(None),
                (true, _) => return None,
                (false, _) => guarded.push(target),
            }
        }
        if guarded.iter().all(Option::is_none) {
            return None;
        }
        // Each binding's ways to run: `None` for the straight-line one.
        let mut tables: Vec<Option<RunTable>> = Vec::with_capacity(candidates.len());
        for target in guarded {
            tables.push(match target {
                Some(t) => Some(self.run_table(t, scope, read, depth)?),
                None => None,
            });
        }
        let mut out = Vec::new();
        for (i, b) in candidates.iter().enumerate() {
            for alt in self.eval_binding(b, read, depth) {
                let mut ways = vec![(alt.choices.clone(), alt.why.clone())];
                if let Some(own) = &tables[i] {
                    ways = constrained(ways, own, true);
                }
                for later in tables[i + 1..].iter().flatten() {
                    ways = constrained(ways, later, false);
                }
                if out.len() + ways.len() > MAX_ALTS {
                    return None;
                }
                out.extend(ways.into_iter().map(|(choices, why)| Alt {
                    val: alt.val.clone(),
                    why,
                    choices,
                }));
            }
        }
        Some(out)
    }

    /// The ways a binding's statement at `target` runs, relative to the
    /// read `read` after it: the guards between them, each an `if` body (its
    /// condition's values; an `else` with no `elif`: the negation), a `try`
    /// body's statement or `else` (the body's deciding statement
    /// completes) or a handler (it raises what the handler catches).
    fn run_table(
        &self,
        target: Node<'t>,
        scope: ScopeId,
        read: Node<'t>,
        depth: u32,
    ) -> Option<RunTable> {
        let m = self.m;
        let value_of = |e: Node<'t>| self.eval_depth(e, scope, depth + 1);
        let scope_node = m.scopes[scope].node;
        let mut guard: Option<RunTable> = None;
        let mut child = target;
        let mut current = m.parent_of(target);
        while let Some(parent) = current {
            if parent.id() == scope_node.id() || super::encloses(parent, read) {
                break;
            }
            let found = match parent.kind_name() {
                "if_statement" => {
                    let condition = parent.field("condition")?;
                    let in_body = parent
                        .field("consequence")
                        .is_some_and(|c| c.id() == child.id());
                    let mut cursor = parent.walk();
                    let has_elif = parent
                        .children_by_field_name("alternative", &mut cursor)
                        .any(|a| a.kind_name() == "elif_clause");
                    if !in_body && (child.kind_name() != "else_clause" || has_elif) {
                        return None;
                    }
                    let mut table = Vec::new();
                    for alt in value_of(condition) {
                        let truth = self.truth_at(&alt.val, condition, scope, depth)?;
                        table.push((alt.choices, alt.why, truth == in_body));
                    }
                    Some(table)
                }
                "try_statement" => {
                    Some(self.try_run_table(parent, child, target, scope, &value_of)?)
                }
                "elif_clause"
                | "for_statement"
                | "while_statement"
                | "match_statement"
                | "case_clause"
                | "function_definition"
                | "class_definition"
                | "lambda"
                | "conditional_expression"
                | "boolean_operator" => return None,
                _ => None,
            };
            if let Some(table) = found {
                // Nested guards: it runs on the ways all of them hold.
                let table = match guard {
                    None => table,
                    Some(outer) => conjoined(&outer, &table),
                };
                if table.is_empty() || table.len() > MAX_ALTS {
                    return None;
                }
                guard = Some(table);
            }
            child = parent;
            current = m.parent_of(parent);
        }
        guard
    }

    /// When the clause `child` of the `try` statement `node` runs: its
    /// body's statements before and after the deciding one certainly
    /// complete, the deciding one completes or raises on each way
    /// (`Module::outcome_table`); the body's statements from it on and the
    /// `else` run on the ways it completes, the handler that catches what
    /// it raises on the others.
    fn try_run_table(
        &self,
        node: Node<'t>,
        child: Node<'t>,
        target: Node<'t>,
        scope: ScopeId,
        value_of: &dyn Fn(Node<'t>) -> Vec<Alt<'t>>,
    ) -> Option<RunTable> {
        use super::reach::Outcome;
        let m = self.m;
        let super::reach::TryParts {
            body,
            handlers,
            statements,
            ..
        } = super::reach::try_parts(node)?;
        let mut deciding = None;
        for statement in &statements {
            match m.statement_outcome(*statement, scope, value_of) {
                Outcome::Completes => {}
                _ if deciding.is_some() => return None,
                _ => deciding = Some(*statement),
            }
        }
        let deciding = deciding?;
        let value = match deciding.kind_name() {
            "expression_statement" => {
                let expr = deciding.named_child(0)?;
                match expr.kind_name() {
                    "assignment" if expr.field("left")?.kind_name() == "identifier" => {
                        expr.field("right")?
                    }
                    "assignment" => return None,
                    _ => expr,
                }
            }
            _ => return None,
        };
        let outcomes = m.outcome_table(value, scope, value_of)?;
        // What no handler catches leaves the function: the reads after the
        // `try` are not reached that way (not decided here).
        if outcomes.iter().any(|(_, _, o)| match o {
            Outcome::Raises(exception) => {
                super::reach::catching_handler(&handlers, exception, m.src).is_none()
            }
            _ => false,
        }) {
            return None;
        }
        let runs_when = |completes: bool, handler: Option<Node<'t>>| -> Option<RunTable> {
            outcomes
                .iter()
                .map(|(choices, why, outcome)| {
                    let runs = match outcome {
                        Outcome::Completes => completes,
                        Outcome::Raises(exception) => match handler {
                            Some(h) => {
                                super::reach::catching_handler(&handlers, exception, m.src)?.id()
                                    == h.id()
                            }
                            None => false,
                        },
                        _ => return None,
                    };
                    Some((choices.clone(), why.clone(), runs))
                })
                .collect()
        };
        match child.kind_name() {
            // A statement of the body: before the deciding one it runs
            // whenever the `try` does (no guard).
            "block" if child.id() == body.id() => {
                if target.start_byte() < deciding.start_byte() {
                    Some(vec![(Vec::new(), Why::Fixed, true)])
                } else {
                    runs_when(true, None)
                }
            }
            "else_clause" => runs_when(true, None),
            "except_clause" => runs_when(false, Some(child)),
            _ => None,
        }
    }
    /// A def decorated by a function of this module that returns a jit of
    /// what it is given (`def wrapper(fun): return jax.jit(fun, ...)`, then
    /// `@wrapper`): that jit, of this def. `None` for any other decorator.
    fn jitted_by_decorator(&self, def: ScopeId, depth: u32) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        let decorated = self.m.parent_of(m.scopes[def].node)?;
        if decorated.kind_name() != "decorated_definition" || self.bound.borrow().len() > 3 {
            return None;
        }
        let mut cursor = decorated.walk();
        let decorators: Vec<Node<'t>> = decorated
            .named_children(&mut cursor)
            .filter(|c| c.kind_name() == "decorator")
            .collect();
        // One decorator of this module: a name (`@traced`), or a call of a
        // factory (`@wrap_jit(out_shardings=S)`) that returns the wrapper,
        // its parameters bound to the call: what it returns for this def.
        let [decorator] = decorators[..] else {
            return None;
        };
        let expr = decorator.named_child(0)?;
        let (name, factory_call) = match expr.kind_name() {
            "identifier" => (expr, None),
            "call" => (
                expr.field("function")
                    .filter(|f| f.kind_name() == "identifier")?,
                Some(expr),
            ),
            _ => return None,
        };
        let outer = m.scopes[def].parent.unwrap_or(super::MODULE_SCOPE);
        let Some(Binding::Def(maker)) = m.binding_at(outer, text(name, m.src), name) else {
            return None;
        };
        let maker = *maker;
        if m.scopes[maker].kind != ScopeKind::Function || maker == def {
            return None;
        }
        let (factory, wrapper) = match factory_call {
            None => (None, maker),
            Some(call) => match m.returned_defs(maker)[..] {
                [wrapper] => (Some((maker, call)), wrapper),
                _ => return None,
            },
        };
        let applied = Bound {
            def: wrapper,
            call: m.scopes[wrapper].node,
            call_scope: wrapper,
            receiver: None,
            given: vec![vec![Alt::fixed(Val::Function(def))]],
        };
        let returns = || {
            self.with_bound(applied, || {
                self.eval_one_of(&returned_values(m, wrapper), wrapper, depth + 1)
            })
        };
        let alts = match factory {
            None => returns(),
            Some((factory, call)) => self.with_bound(
                Bound {
                    def: factory,
                    call,
                    call_scope: outer,
                    receiver: None,
                    given: Vec::new(),
                },
                returns,
            ),
        };
        let all_jits = !alts.is_empty()
            && alts
                .iter()
                .all(|a| matches!(a.val, Val::Jitted(d, ..) if d == def) && a.why.certain());
        all_jits.then_some(alts)
    }

    /// For a name read in a closure and bound (several times) in a function
    /// that encloses it: the nested def or lambda of that function holding
    /// the read, and the function's scope.
    fn closure_anchor(
        &self,
        scope: ScopeId,
        name: &str,
        found: &[Binding<'t>],
    ) -> Option<(Node<'t>, ScopeId)> {
        let m = self.m;
        let mut child = scope;
        let mut current = m.scopes[scope].parent;
        while let Some(id) = current {
            if m.bindings_in(id, name)
                .is_some_and(|b| std::ptr::eq(b, found))
            {
                return matches!(m.scopes[id].kind, ScopeKind::Function | ScopeKind::Lambda)
                    .then(|| (m.scopes[child].node, id));
            }
            child = id;
            current = m.scopes[id].parent;
        }
        None
    }

    fn eval_binding(&self, binding: &Binding<'t>, node: Node<'t>, depth: u32) -> Vec<Alt<'t>> {
        let mut alts = self.eval_binding_in_loop(binding, node, depth);
        // Read after `if cond: continue` in the body of a loop around it:
        // what the elements the guard certainly skips give does not get
        // here (`if not line: continue`, then `key, value = line.split(...)`).
        // (Only a value made per element carries a loop's choice: most
        // reads walk no ancestors here.)
        let loops = if alts.iter().any(|a| !a.choices.is_empty()) {
            self.loops_holding(node)
        } else {
            Vec::new()
        };
        for loop_node in loops {
            let id = loop_node.id();
            if !alts.iter().any(|a| a.choices.iter().any(|(p, _)| *p == id)) {
                continue;
            }
            let skipped = self.skipped_elements(loop_node, node, depth);
            if !skipped.is_empty() {
                alts.retain(|a| {
                    !a.choices
                        .iter()
                        .any(|(p, i)| *p == id && skipped.contains(i))
                });
            }
        }
        for loop_node in self.loops_ended_before(binding, node) {
            alts = last_iteration(alts, loop_node);
        }
        // Read in a closure made in a loop and kept past its iteration
        // (`hooks.append(lambda s: lower(s, plat))`): Python reads the name
        // when the closure is called, after the loop, so it holds what the
        // last iteration bound; not known where the loop may `break`.
        for (loop_node, sure) in self.loops_outlived_by_closure(binding, node) {
            alts = if has_break(loop_node) || !sure {
                map(alts, |_| Val::Unknown)
            } else {
                last_iteration(alts, loop_node)
            };
        }
        alts
    }

    /// The loops around `binding` that a function reading it at `node` may
    /// run after: a closure made in the loop and kept beyond the iteration
    /// that made it, or a def outside the loop (reading a global the loop
    /// binds) named after it or by such a closure. With each, whether all
    /// its calls come after (`false`: some may run in the loop).
    fn loops_outlived_by_closure(
        &self,
        binding: &Binding<'t>,
        node: Node<'t>,
    ) -> Vec<(Node<'t>, bool)> {
        let (anchor, own_loop) = match binding {
            Binding::Value { target, .. } | Binding::Item { target, .. } => (*target, None),
            Binding::Loop {
                target, loop_node, ..
            } => (*target, Some(*loop_node)),
            _ => return Vec::new(),
        };
        let within = |inner: Node<'t>, outer: Node<'t>| {
            outer.start_byte() <= inner.start_byte() && inner.end_byte() <= outer.end_byte()
        };
        // The innermost closure around the read; the name must be free in it.
        let mut closure = None;
        let mut at = node;
        for _ in 0..MAX_PARENT_HOPS {
            let Some(parent) = self.m.parent_of(at) else {
                break;
            };
            if matches!(parent.kind_name(), "lambda" | "function_definition") {
                // Defaults (`lambda s, plat=plat: ...`) are read when the
                // closure is made: no late binding.
                if parent.field("body").is_some_and(|b| b.id() == at.id()) {
                    closure = Some(parent);
                }
                break;
            }
            at = parent;
        }
        let Some(closure) = closure.filter(|c| !within(anchor, *c)) else {
            return Vec::new();
        };
        own_loop
            .into_iter()
            .chain(self.m.for_loops.iter().copied())
            .filter(|l| within(anchor, *l))
            .filter_map(|l| {
                if within(closure, l) {
                    return self.closure_kept(closure, l).then_some((l, true));
                }
                // A def of its own outside the loop: where it is named.
                let name = closure.field("name")?;
                let (mut during, mut after) = (false, false);
                for mention in self.m.identifiers_named(text(name, self.m.src)) {
                    if mention.id() == name.id() {
                        continue;
                    }
                    if within(mention, l) && !self.read_in_kept_closure(mention, l) {
                        during = true;
                    } else {
                        after = true;
                    }
                }
                after.then_some((l, !during))
            })
            .collect()
    }

    /// Whether `node` lies in a closure made in `loop_node` and kept past
    /// its iteration.
    fn read_in_kept_closure(&self, node: Node<'t>, loop_node: Node<'t>) -> bool {
        let mut at = node;
        for _ in 0..MAX_PARENT_HOPS {
            let Some(parent) = self.m.parent_of(at) else {
                return false;
            };
            if parent.id() == loop_node.id() {
                return false;
            }
            if matches!(parent.kind_name(), "lambda" | "function_definition")
                && parent.field("body").is_some_and(|b| b.id() == at.id())
                && self.closure_kept(parent, loop_node)
            {
                return true;
            }
            at = parent;
        }
        false
    }

    /// Whether the closure `closure` (a lambda or a def) made in `loop_node`
    /// is kept past the iteration: stored in a container, a field or an
    /// entry, added to a collection, yielded; not when it is only called
    /// or handed to a call (`jax.jit(lambda x: ...)`) there.
    fn closure_kept(&self, closure: Node<'t>, loop_node: Node<'t>) -> bool {
        if closure.kind_name() == "lambda" {
            return self.value_kept(closure, loop_node, 0);
        }
        let decorated = self
            .m
            .parent_of(closure)
            .is_some_and(|p| p.kind_name() == "decorated_definition");
        let Some(name) = closure.field("name") else {
            return true;
        };
        decorated || self.name_kept(text(name, self.m.src), name, loop_node, 0)
    }

    /// Whether a read of `name` in `loop_node` (other than `except`) keeps
    /// its value past the iteration.
    fn name_kept(&self, name: &str, except: Node<'t>, loop_node: Node<'t>, hops: u32) -> bool {
        self.m.identifiers_named(name).into_iter().any(|read| {
            read.id() != except.id()
                && loop_node.start_byte() <= read.start_byte()
                && read.end_byte() <= loop_node.end_byte()
                && self.value_kept(read, loop_node, hops + 1)
        })
    }

    /// Whether the value of the expression `node` in `loop_node` is kept
    /// past the iteration (see `closure_kept`).
    fn value_kept(&self, node: Node<'t>, loop_node: Node<'t>, hops: u32) -> bool {
        if hops > 3 {
            return true;
        }
        let mut at = node;
        for _ in 0..MAX_PARENT_HOPS {
            let Some(parent) = self.m.parent_of(at) else {
                return false;
            };
            match parent.kind_name() {
                "parenthesized_expression"
                | "keyword_argument"
                | "conditional_expression"
                | "boolean_operator" => at = parent,
                // Called at once: `(lambda: ...)()`.
                "call" => return false,
                "argument_list" => {
                    let Some(call) = self.m.parent_of(parent) else {
                        return false;
                    };
                    let stores = call
                        .field("function")
                        .filter(|f| f.kind_name() == "attribute")
                        .and_then(|f| f.field("attribute"))
                        .is_some_and(|a| {
                            matches!(
                                text(a, self.m.src),
                                "append"
                                    | "extend"
                                    | "insert"
                                    | "add"
                                    | "appendleft"
                                    | "setdefault"
                                    | "update"
                            )
                        });
                    if stores {
                        return true;
                    }
                    // What the call made of it (`jax.jit(lambda ...)`) may
                    // be kept in turn.
                    at = call;
                }
                "list"
                | "tuple"
                | "set"
                | "dictionary"
                | "pair"
                | "list_comprehension"
                | "set_comprehension"
                | "dictionary_comprehension"
                | "generator_expression"
                | "yield"
                | "expression_list"
                | "list_splat" => return true,
                "assignment" | "augmented_assignment" => {
                    if parent.field("right").is_none_or(|r| r.id() != at.id()) {
                        return false;
                    }
                    return match parent.field("left") {
                        Some(left) if left.kind_name() == "identifier" => {
                            self.name_kept(text(left, self.m.src), left, loop_node, hops)
                        }
                        _ => true,
                    };
                }
                _ => return false,
            }
        }
        true
    }

    /// The element a first-match loop returns (see `return_guards_in_loop`):
    /// the elements in order, each kept unless its guards are false for it;
    /// the first whose guards all hold ends the search. That one alone is
    /// certain; elements kept before it, or with guards not known, are
    /// run-time choices.
    fn first_match(
        &self,
        elements: Vec<Alt<'t>>,
        loop_node: Node<'t>,
        guards: &[(Node<'t>, bool)],
        scope: ScopeId,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        let point = loop_node.id();
        let index_of = |a: &Alt<'t>| a.choices.iter().find(|(p, _)| *p == point).map(|(_, i)| *i);
        if elements.iter().any(|a| index_of(a).is_none()) {
            // Not all from the loop's own elements: as before.
            return cap(elements);
        }
        let conditions: Vec<(Vec<Alt<'t>>, bool)> = guards
            .iter()
            .map(|(condition, wanted)| (self.eval_depth(*condition, scope, depth + 1), *wanted))
            .collect();
        let mut indices: Vec<usize> = elements.iter().filter_map(index_of).collect();
        indices.dedup();
        let mut kept: Vec<Alt<'t>> = Vec::new();
        // An element kept whose guards are not known: any later one is
        // returned only on some runs.
        let mut open = false;
        // An element kept that some paths return: a later one is not the
        // only one returned.
        let mut mixed = false;
        let note = Why::Each(loop_note(loop_node));
        for index in indices {
            // Per guard: holds for this element (on every path), fails,
            // depends on other choices (call sites: left to them), unknown.
            let mut excluded = false;
            let mut all_hold = true;
            let mut unknown = false;
            for (alts, wanted) in &conditions {
                let own: Vec<Option<bool>> = alts
                    .iter()
                    .filter(|a| compatible(&a.choices, &[(point, index)]))
                    .map(|a| a.val.truthy().map(|t| t == *wanted))
                    .collect();
                if own.is_empty() || own.contains(&None) {
                    unknown = true;
                    all_hold = false;
                } else if own.iter().all(|t| *t == Some(false)) {
                    excluded = true;
                } else if !own.iter().all(|t| *t == Some(true)) {
                    all_hold = false;
                }
            }
            if excluded {
                continue;
            }
            for mut alt in elements
                .iter()
                .filter(|a| index_of(a) == Some(index))
                .cloned()
            {
                if open || unknown {
                    alt.why = Why::Choice;
                } else if all_hold && !mixed && alt.why == note {
                    alt.why = Why::Fixed;
                }
                kept.push(alt);
            }
            if all_hold {
                break;
            }
            open |= unknown;
            mixed = true;
        }
        if kept.is_empty() {
            // No element returns: the code after the loop does.
            return vec![Alt::unknown()];
        }
        cap(kept)
    }

    /// What a store at `node` (in `scope`) of the values `stored` leaves for
    /// a read at `read` (not known: after it): in each `for` loop around
    /// the store that the read is not in, the last pass's values
    /// (`last_pass`). `None` where such a loop may `break`.
    fn after_passes(
        &self,
        mut stored: Vec<Alt<'t>>,
        node: Node<'t>,
        scope: ScopeId,
        read: Option<Node<'t>>,
    ) -> Option<Vec<Alt<'t>>> {
        for loop_node in self.m.loops_around(node, scope, read) {
            if has_break(loop_node) {
                return None;
            }
            stored = last_pass(stored, loop_node);
        }
        Some(stored)
    }

    /// The `for` loops of the function (or module) holding `node` whose
    /// body holds it, innermost first.
    fn loops_holding(&self, node: Node<'t>) -> Vec<Node<'t>> {
        let mut out = Vec::new();
        let mut at = node;
        while let Some(parent) = self.m.parent_of(at) {
            match parent.kind_name() {
                "function_definition" | "lambda" | "class_definition" => break,
                "for_statement" if parent.field("body").is_some_and(|b| b.id() == at.id()) => {
                    out.push(parent)
                }
                _ => {}
            }
            at = parent;
        }
        out
    }

    /// The elements of `loop_node` that a guard `if cond: continue`, a
    /// statement of its body before the one holding `read`, certainly
    /// skips: those for which every value of `cond` is certainly true.
    fn skipped_elements(&self, loop_node: Node<'t>, read: Node<'t>, depth: u32) -> Vec<usize> {
        let m = self.m;
        let Some(body) = loop_node.field("body") else {
            return Vec::new();
        };
        // The statement of the body holding the read.
        let mut at = read;
        while let Some(parent) = m.parent_of(at) {
            if parent.id() == body.id() {
                break;
            }
            if parent.id() == loop_node.id() {
                return Vec::new();
            }
            at = parent;
        }
        if m.parent_of(at).is_none_or(|p| p.id() != body.id()) {
            return Vec::new();
        }
        let scope = m.innermost_scope_at(loop_node.start_byte());
        let id = loop_node.id();
        let mut skipped: Vec<usize> = Vec::new();
        let mut cursor = body.walk();
        for statement in body.named_children(&mut cursor) {
            if statement.start_byte() >= at.start_byte() {
                break;
            }
            let continues = statement
                .field("consequence")
                .is_some_and(|c| text(c, m.src).trim() == "continue");
            let guard = statement.kind_name() == "if_statement"
                && statement.field("alternative").is_none()
                && continues;
            if !guard {
                continue;
            }
            let Some(condition) = statement.field("condition") else {
                continue;
            };
            let values = self.eval_depth(condition, scope, depth + 1);
            let element = |a: &Alt<'t>| a.choices.iter().find(|(p, _)| *p == id).map(|(_, i)| *i);
            let mut by_element: Vec<(usize, bool)> = Vec::new();
            for a in &values {
                let Some(i) = element(a) else {
                    // Not decided per element: no element is known skipped.
                    by_element.clear();
                    break;
                };
                let sure = a.why.certain() && a.val.truthy() == Some(true);
                match by_element.iter_mut().find(|(j, _)| *j == i) {
                    Some((_, all)) => *all &= sure,
                    None => by_element.push((i, sure)),
                }
            }
            skipped.extend(by_element.into_iter().filter(|(_, s)| *s).map(|(i, _)| i));
        }
        skipped
    }

    /// The `for` loops holding `binding` (in its scope) that end before
    /// `node` reads it: there the name holds what the last iteration bound.
    /// Not a loop that may `break`, whose last iteration is not known.
    fn loops_ended_before(&self, binding: &Binding<'t>, node: Node<'t>) -> Vec<Node<'t>> {
        let (anchor, scope) = match binding {
            Binding::Value { target, scope, .. }
            | Binding::Item { target, scope, .. }
            | Binding::Loop { target, scope, .. } => (*target, *scope),
            _ => return Vec::new(),
        };
        if node.start_byte() < anchor.end_byte() {
            return Vec::new();
        }
        // A loop of the binding's scope around the binding, ended before
        // the read.
        self.m
            .loops_around(anchor, scope, Some(node))
            .into_iter()
            .filter(|l| l.end_byte() <= node.start_byte() && !has_break(*l))
            .collect()
    }

    fn eval_binding_in_loop(
        &self,
        binding: &Binding<'t>,
        node: Node<'t>,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        match binding {
            Binding::Value { value, scope, .. } => {
                self.value_read_at(*value, *scope, Some(node), depth)
            }
            Binding::Item {
                value,
                index,
                scope,
                target,
            } => {
                // `a, b = [], []`: the list in its place, changed by its
                // name as one assigned alone is.
                let list = parallel_element(*value, *index).filter(|e| {
                    is_list_literal(*e, self.m.src)
                        && super::assigned_name(*e).is_some_and(|t| t.id() == target.id())
                });
                if let Some(list) = list {
                    let as_value = Binding::Value {
                        value: list,
                        scope: *scope,
                        target: *target,
                    };
                    return self.eval_binding_in_loop(&as_value, node, depth);
                }
                // (A generator unpacked, `k, v = (p.strip() for p in
                // parts)`, gives its items in turn.)
                map(
                    self.expand_comprehensions(
                        self.eval_depth(*value, *scope, depth + 1),
                        SeqKind::Tuple,
                        depth,
                    ),
                    |v| match v {
                        Val::Seq(_, items) => items.get(*index).cloned().unwrap_or(Val::Unknown),
                        _ => Val::Unknown,
                    },
                )
            }
            Binding::Loop {
                iter,
                scope: lscope,
                loop_node,
                path,
                ..
            } => {
                let mut out = Vec::new();
                // A loop over a dict takes its keys.
                let iterated = self
                    .eval_depth(*iter, *lscope, depth + 1)
                    .into_iter()
                    .flat_map(|a| {
                        if a.val.is_dict() {
                            self.dict_view(a, "keys", depth)
                        } else if let Val::Class(class) = a.val {
                            // `for backend in Backend:` over an enum: its members.
                            match self.enum_members(class, depth) {
                                Some(items) => vec![Alt {
                                    val: Val::Seq(SeqKind::List, items),
                                    ..a
                                }],
                                None => vec![a],
                            }
                        } else {
                            vec![a]
                        }
                    });
                for alt in iterated {
                    match &alt.val {
                        Val::Members(_, members) => {
                            for (i, member) in members.iter().enumerate() {
                                let Some(member) = member.clone().under(&alt.why, &alt.choices)
                                else {
                                    continue;
                                };
                                let mut choices = member.choices;
                                if choices.iter().any(|(p, _)| *p == loop_node.id()) {
                                    continue;
                                }
                                choices.push((loop_node.id(), i));
                                out.push(Alt {
                                    val: element_at(&member.val, path),
                                    why: member.why.and(&Why::Each(loop_note(*loop_node))),
                                    choices,
                                });
                            }
                        }
                        Val::Seq(_, items) if !items.is_empty() => {
                            for (i, item) in items.iter().enumerate() {
                                let mut choices = alt.choices.clone();
                                if choices.iter().any(|(p, _)| *p == loop_node.id()) {
                                    continue;
                                }
                                choices.push((loop_node.id(), i));
                                out.push(Alt {
                                    val: element_at(item, path),
                                    why: alt.why.and(&Why::Each(loop_note(*loop_node))),
                                    choices,
                                });
                            }
                        }
                        _ => out.push(Alt {
                            val: Val::Unknown,
                            why: alt.why.clone(),
                            choices: alt.choices.clone(),
                        }),
                    }
                }
                // Read in a `return` in the loop: one element is returned,
                // the first whose guards hold (`for b in Backend: if b.value
                // == name: return TABLE[b]`), not each.
                if let Some(guards) = return_guards_in_loop(node, *loop_node) {
                    return self.first_match(out, *loop_node, &guards, *lscope, depth);
                }
                cap(out)
            }
            Binding::Param {
                scope: fscope,
                index,
                default,
            } => self.eval_param(*fscope, *index, *default, node, depth),
            Binding::Import(path) => {
                let path = names::canonicalize(path);
                self.external(&path)
                    .map(|alts| self.with_registrations(&path, alts))
                    .unwrap_or_else(|| {
                        // A function of another module passed on as a value
                        // (`clipped_grad(loss, hook=record)`) is that def, so the
                        // module it is handed to can call it and test it.
                        let val = match self.m.imports_reaching_function(&path) {
                            true => Val::Ref(Arc::from(path.as_ref())),
                            false => self.import_val(&path),
                        };
                        vec![Alt::fixed(val)]
                    })
            }
            Binding::Def(id) if self.m.scopes[*id].kind == ScopeKind::Function => self
                .jitted_by_decorator(*id, depth)
                .unwrap_or_else(|| vec![Alt::fixed(Val::Function(*id))]),
            Binding::Def(id) if self.m.scopes[*id].kind == ScopeKind::Class => {
                vec![Alt::fixed(Val::Class(*id))]
            }
            Binding::Opaque(target) => {
                let def = self
                    .m
                    .parent_of(*target)
                    .filter(|p| p.kind_name() == "dictionary_splat_pattern")
                    .and_then(|p| self.m.parent_of(p))
                    .and_then(|p| self.m.parent_of(p))
                    .and_then(|def| self.m.scope_of_def(def));
                match def {
                    Some(def) => self.kwargs_of(def),
                    None => self.varargs_of(*target, depth),
                }
            }
            Binding::Def(_) => vec![Alt::unknown()],
        }
    }

    /// The member names of enum class `class`, in order: its class-body
    /// assignments to plain names (not `_sunder_`/`__dunder__`).
    fn enum_member_names(&self, class: ScopeId) -> Vec<(String, Node<'t>)> {
        let m = self.m;
        let Some(body) = m.scopes[class].node.field("body") else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut cursor = body.walk();
        for stmt in body.named_children(&mut cursor) {
            let Some(assign) = super::statement_assignment(stmt) else {
                continue;
            };
            let (Some(left), Some(right)) = (assign.field("left"), assign.field("right")) else {
                continue;
            };
            let name = text(left, m.src);
            if left.kind_name() == "identifier" && !name.starts_with('_') {
                out.push((name.to_owned(), right));
            }
        }
        out
    }

    /// `Backend.TPU` on an enum class: the member (a `str`/`int` enum's
    /// member is its value); another attribute is read as a class field.
    fn enum_member(&self, class: ScopeId, attr: &str, depth: u32) -> Vec<Alt<'t>> {
        let Some(kind) = self.m.enum_kind(class) else {
            return vec![Alt::unknown()];
        };
        if !self.enum_member_names(class).iter().any(|(n, _)| n == attr) {
            return self.field(class, None, attr, depth);
        }
        match kind {
            super::EnumKind::Plain => vec![Alt::fixed(Val::EnumMember(class, attr.to_owned()))],
            super::EnumKind::Mixin => self.enum_value(class, attr, depth),
        }
    }

    /// The class-body constants of `class` as `Class.NAME` reads them from
    /// another module: a `str`/`int` enum's members (their values), a plain
    /// enum's members (by `qualified`, unique to the class, and their
    /// names), a plain class's attributes.
    pub(crate) fn class_constants(
        &self,
        class: ScopeId,
        qualified: &str,
    ) -> Vec<(String, Vec<ConstAlt>)> {
        let enum_kind = self.m.enum_kind(class);
        let mut out = Vec::new();
        // A plain class also has what its bases of this module write
        // (`Serving.PLATFORMS` set on `Base`), read as its field.
        let mut names = self.enum_member_names(class);
        if enum_kind.is_none() {
            for base in self.m.class_and_bases(class).into_iter().skip(1) {
                for (name, value) in self.enum_member_names(base) {
                    if !names.iter().any(|(n, _)| *n == name) {
                        names.push((name, value));
                    }
                }
            }
        }
        for (name, _) in names {
            let alts = match enum_kind {
                // A plain member is itself: named uniquely for importers.
                Some(super::EnumKind::Plain) => {
                    let unique = format!("{qualified}.{name}");
                    out.push((
                        name,
                        vec![ConstAlt {
                            val: Const::EnumMember(unique),
                            why: Why::Fixed,
                        }],
                    ));
                    continue;
                }
                Some(super::EnumKind::Mixin) => self.enum_member(class, &name, 0),
                None => self.field(class, None, &name, 0),
            };
            if alts.is_empty()
                || alts
                    .iter()
                    .any(|a| a.val.is_unknown() || matches!(a.val, Val::EnumMember(..)))
            {
                continue;
            }
            out.push((name, self.detach(&alts, 0)));
        }
        out
    }

    /// What a member's class-body assignment `value` gives (`auto()` is not
    /// known): its `.value`.
    fn member_value(&self, class: ScopeId, value: Node<'t>, depth: u32) -> Vec<Alt<'t>> {
        let is_auto = value.kind_name() == "call"
            && value
                .field("function")
                .is_some_and(|f| text(f, self.m.src).ends_with("auto"));
        if is_auto {
            return vec![Alt::unknown()];
        }
        self.eval_depth(value, class, depth + 1)
    }

    /// Member `name`'s `.value`.
    fn enum_value(&self, class: ScopeId, name: &str, depth: u32) -> Vec<Alt<'t>> {
        match self
            .enum_member_names(class)
            .into_iter()
            .find(|(n, _)| n == name)
        {
            Some((_, value)) => self.member_value(class, value, depth),
            None => vec![Alt::unknown()],
        }
    }

    /// Every member of an enum class, in order (as `for m in E` gives them).
    fn enum_members(&self, class: ScopeId, depth: u32) -> Option<Vec<Val<'t>>> {
        let kind = self.m.enum_kind(class)?;
        let names = self.enum_member_names(class);
        if names.is_empty() || names.len() > MAX_ALTS * 2 {
            return None;
        }
        names
            .into_iter()
            .map(|(name, value)| match kind {
                super::EnumKind::Plain => Some(Val::EnumMember(class, name)),
                super::EnumKind::Mixin => match self.member_value(class, value, depth).as_slice() {
                    [one] if one.why.certain() && !one.val.is_unknown() => Some(one.val.clone()),
                    _ => None,
                },
            })
            .collect()
    }

    /// `Backend("tpu")` / `Backend["TPU"]`: the member with that value / name.
    fn enum_lookup(&self, class: ScopeId, key: &Val<'t>, by_name: bool, depth: u32) -> Val<'t> {
        let Some(kind) = self.m.enum_kind(class) else {
            return Val::Unknown;
        };
        for (name, value) in self.enum_member_names(class) {
            let values = if by_name && kind == super::EnumKind::Plain {
                Vec::new()
            } else {
                self.member_value(class, value, depth)
            };
            let hit = if by_name {
                matches!(key, Val::Str(k) if *k == name)
            } else {
                match values.as_slice() {
                    [one] if one.why.certain() => one.val.same(key),
                    _ => return Val::Unknown,
                }
            };
            if hit {
                return match (kind, values.as_slice()) {
                    (super::EnumKind::Plain, _) => Val::EnumMember(class, name),
                    (super::EnumKind::Mixin, [one]) => one.val.clone(),
                    _ => Val::Unknown,
                };
            }
        }
        Val::Unknown
    }

    /// The types `isinstance`'s second argument names (a tuple of them too),
    /// when each is one whose instances the flow can tell.
    fn type_tests(&self, node: Node<'t>, scope: ScopeId) -> Option<Vec<TypeTest>> {
        let m = self.m;
        let node = unparenthesize(node);
        if node.kind_name() == "tuple" {
            let mut out = Vec::new();
            let mut cursor = node.walk();
            for item in node.named_children(&mut cursor) {
                if item.kind_name() != "comment" {
                    out.extend(self.type_tests(item, scope)?);
                }
            }
            return Some(out);
        }
        let name = text(node, m.src);
        if node.kind_name() == "identifier" && m.lookup(scope, name).is_none() {
            let builtin = match name {
                "str" => TypeTest::Str,
                "list" => TypeTest::List,
                "tuple" => TypeTest::Tuple,
                "dict" => TypeTest::Dict,
                "bool" => TypeTest::Bool,
                "int" => TypeTest::Int,
                _ => return None,
            };
            return Some(vec![builtin]);
        }
        if node.kind_name() == "identifier" {
            if let Some(Binding::Def(id)) = m.binding_at(scope, name, node) {
                if m.scopes[*id].kind == ScopeKind::Class {
                    return Some(vec![TypeTest::Class(*id)]);
                }
            }
        }
        let test = match m.canonical(node, scope).as_deref() {
            Some("collections.abc.Sequence" | "typing.Sequence") => TypeTest::Sequence,
            Some("collections.abc.Mapping" | "typing.Mapping") => TypeTest::Dict,
            Some("jax.sharding.AbstractMesh") => TypeTest::AbstractMesh,
            Some("jax.sharding.Mesh") => TypeTest::Mesh,
            // A class of this module held in a name or a parameter
            // (`isinstance(layer, cls)` in a helper given the class): the
            // one class it certainly is.
            _ if matches!(node.kind_name(), "identifier" | "attribute") => {
                return match self.eval(node, scope).as_slice() {
                    [one] if one.why.certain() => match one.val {
                        Val::Class(id) => Some(vec![TypeTest::Class(id)]),
                        _ => None,
                    },
                    _ => None,
                };
            }
            _ => return None,
        };
        Some(vec![test])
    }

    /// Whether `v` is an instance of `test`, when its type is known.
    fn is_instance(&self, v: &Val<'t>, test: &TypeTest) -> Option<bool> {
        let m = self.m;
        let is = |t: bool| Some(t);
        match v {
            Val::Str(_) | Val::AnyStr => is(matches!(test, TypeTest::Str | TypeTest::Sequence)),
            Val::Seq(SeqKind::Tuple, _) | Val::Members(SeqKind::Tuple, _) | Val::Split(_) => {
                is(matches!(test, TypeTest::Tuple | TypeTest::Sequence))
            }
            Val::Seq(SeqKind::List, _) | Val::Members(SeqKind::List, _) => {
                is(matches!(test, TypeTest::List | TypeTest::Sequence))
            }
            // `bool` is a subclass of `int`.
            Val::Bool(_) => is(matches!(test, TypeTest::Bool | TypeTest::Int)),
            Val::Int(_) | Val::AnyInt => is(matches!(test, TypeTest::Int)),
            Val::None => is(false),
            Val::Dict(..) => is(matches!(test, TypeTest::Dict)),
            Val::Comprehension(comp, _) => match comp.kind_name() {
                "list_comprehension" => is(matches!(test, TypeTest::List | TypeTest::Sequence)),
                "dictionary_comprehension" => is(matches!(test, TypeTest::Dict)),
                _ => is(false),
            },
            Val::Mesh(MeshValue::Abstract(_)) => is(matches!(test, TypeTest::AbstractMesh)),
            Val::Mesh(MeshValue::Concrete) => is(matches!(test, TypeTest::Mesh)),
            // JAX's objects: none is a builtin or a class of this module.
            Val::Params(_)
            | Val::Function(_)
            | Val::Method(..)
            | Val::Jitted(..)
            | Val::Partial { .. }
            | Val::Class(_)
            | Val::Sharding(_)
            | Val::Spec(_)
            | Val::Array { .. }
            | Val::Device(_)
            | Val::KernelMesh(_)
            | Val::AbstractDevice(_)
            | Val::InterpretParams
            | Val::Traced(..)
            | Val::Lowered(_) => is(false),
            // A member of an enum of this module is an instance of its
            // class (and of no builtin: no `str`/`int` mixin).
            Val::EnumMember(class, _) => match test {
                TypeTest::Class(_) => self.is_instance(&Val::Instance(*class, None), test),
                _ => is(false),
            },
            Val::Instance(class, _) => {
                // A class of this module: its own bases, all of this module
                // (a base from elsewhere may be any of the tested types).
                let mut seen = vec![*class];
                let mut stack = vec![*class];
                while let Some(c) = stack.pop() {
                    if let TypeTest::Class(t) = test {
                        if *t == c {
                            return is(true);
                        }
                    }
                    let supers = m.scopes[c].node.field("superclasses");
                    let written = supers.map_or(0, |s| {
                        let mut cursor = s.walk();
                        let count = s
                            .named_children(&mut cursor)
                            .filter(|b| !matches!(b.kind_name(), "comment" | "keyword_argument"))
                            .filter(|b| !matches!(text(*b, m.src), "object" | "abc.ABC" | "ABC"))
                            .count();
                        count
                    });
                    let local = m.base_classes(c);
                    if local.len() != written {
                        return None;
                    }
                    for b in local {
                        if !seen.contains(&b) && seen.len() < 16 {
                            seen.push(b);
                            stack.push(b);
                        }
                    }
                }
                is(false)
            }
            _ => None,
        }
    }

    /// A list bound to a name and grown after (`layers = []`, then
    /// `layers.append(...)`), as `read` sees it: the adds made before a
    /// read in the list's own scope, every add for a read from elsewhere
    /// (a closure, a method reading the field it was stored in). Adds that
    /// run once each, straight-line, give the exact list; adds in a loop or
    /// a branch give its possible members.
    fn grown_list(
        &self,
        list: Node<'t>,
        scope: ScopeId,
        mutations: &super::ListMutations<'t>,
        read: Node<'t>,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        let m = self.m;
        // (A dict's entry changes with the dict's name.)
        let target = super::assignment_target(list).or_else(|| {
            super::dict_entry_of(list, m.src).and_then(|(dict, _)| super::assignment_target(dict))
        });
        let Some(target) = target else {
            return vec![Alt::unknown()];
        };
        let (adds, elsewhere): (Vec<&super::ListAdd<'t>>, Vec<&super::ListAdd<'t>>) =
            mutations.adds.iter().partition(|a| a.elsewhere.is_none());
        let read_here = m.innermost_scope_at(read.start_byte()) == scope;
        // Pushed or popped by other functions: what it may hold, in no
        // known order and none of it certainly.
        let mut exact = elsewhere.is_empty() && !mutations.shrinks;
        // Each add with the loop it runs in since the list was made, if any.
        let mut applied: Vec<(&super::ListAdd<'t>, super::StoreRuns, Option<Node<'t>>)> =
            Vec::new();
        for add in adds {
            if read_here && add.at.start_byte() >= read.start_byte() {
                continue;
            }
            let runs = m.store_runs(add.at, scope, target);
            if runs == super::StoreRuns::Never {
                continue;
            }
            let in_loop = m.in_loop_since(add.at, scope, target);
            let unrolled = if in_loop {
                m.only_loop_since(add.at, scope, target)
            } else {
                None
            };
            exact &= runs == super::StoreRuns::Certainly
                && !add.positioned
                && (!in_loop || unrolled.is_some());
            applied.push((add, runs, unrolled));
        }
        if exact {
            if let Some(parts) = self.exact_parts(list, scope, &applied, depth) {
                return product(&parts, |vals| {
                    let mut items = Vec::new();
                    for v in vals {
                        match v {
                            Val::Seq(_, part) => items.extend(part),
                            _ => return Val::Unknown,
                        }
                    }
                    Val::Seq(SeqKind::List, items)
                });
            }
        }
        let applied: Vec<(&super::ListAdd<'t>, super::StoreRuns)> =
            applied.into_iter().map(|(a, r, _)| (a, r)).collect();
        let mut members: Vec<Alt<'t>> = Vec::new();
        let mut add_items = |alts: Vec<Alt<'t>>, one: bool, why: &Why| {
            for alt in alts {
                match (&alt.val, one) {
                    (_, true) => members.push(Alt {
                        why: alt.why.and(why),
                        ..alt
                    }),
                    (Val::Seq(_, items), false) => members.extend(items.iter().map(|v| Alt {
                        val: v.clone(),
                        why: alt.why.and(why),
                        choices: alt.choices.clone(),
                    })),
                    (Val::Members(_, more), false) => members.extend(
                        more.iter()
                            .filter_map(|m| m.clone().under(&alt.why.and(why), &alt.choices)),
                    ),
                    (_, false) => members.push(Alt {
                        val: Val::Unknown,
                        why: Why::Choice,
                        choices: alt.choices.clone(),
                    }),
                }
            }
        };
        let kept = if mutations.shrinks {
            Why::Choice
        } else {
            Why::Fixed
        };
        add_items(self.eval_depth(list, scope, depth + 1), false, &kept);
        for (add, runs) in &applied {
            let why = if *runs == super::StoreRuns::Certainly {
                kept.clone()
            } else {
                Why::Choice
            };
            add_items(self.eval_depth(add.arg, scope, depth + 1), add.one, &why);
        }
        // Each push of another function is in the list while that function
        // has it there (a context manager's `__enter__`): readers running
        // then see it, as each call site of a function is seen. (Their call
        // paths are not the reader's: which call of the pushing function
        // made a member is no choice of the reader's path.)
        for add in &elsewhere {
            let add_scope = add.elsewhere.unwrap_or(scope);
            let why = Why::Each(format!("pushed at line {}", line_of(add.at)));
            let pushed = self
                .eval_depth(add.arg, add_scope, depth + 1)
                .into_iter()
                .map(|a| Alt {
                    choices: Vec::new(),
                    ..a
                })
                .collect();
            add_items(pushed, add.one, &why);
        }
        if members.len() > MAX_ALTS * 2 {
            return vec![Alt::unknown()];
        }
        vec![Alt::fixed(Val::Members(SeqKind::List, Arc::new(members)))]
    }

    /// A list literal held in an attribute, as the changes made to it
    /// through that attribute anywhere in the module leave it: `None` when
    /// nothing changes it that way. Each `E.attr.append(x)` whose `E` is
    /// an object of the holding class adds its element; when `E` may be
    /// that object or another, as the run decides, the contents are not
    /// known.
    fn held_list(&self, list: Node<'t>, scope: ScopeId, depth: u32) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        let held = m.attribute_list_mutations(list);
        if held.changes.is_empty() {
            return None;
        }
        if too_deep(depth) {
            return Some(vec![Alt::unknown()]);
        }
        let holders = m.subclasses(held.owner);
        let mut mutations = super::ListMutations::default();
        for (object, change) in &held.changes {
            let object_scope = m.innermost_scope_at(object.start_byte());
            let objects = self.eval_depth(*object, object_scope, depth + 1);
            let holds = |a: &Alt<'t>| match a.val {
                Val::Instance(class, _) => holders.contains(&class),
                Val::Class(class) => held.class_level && holders.contains(&class),
                _ => false,
            };
            if objects.is_empty() || !objects.iter().all(holds) {
                if objects.iter().any(holds) {
                    return Some(vec![Alt::unknown()]);
                }
                continue;
            }
            match change {
                super::ListChange::Add(add) => mutations.adds.push(*add),
                super::ListChange::Shrink => mutations.shrinks = true,
                super::ListChange::Unknown => return Some(vec![Alt::unknown()]),
            }
        }
        if mutations.adds.is_empty() && !mutations.shrinks {
            return None;
        }
        Some(self.grown_list(list, scope, &mutations, list, depth))
    }

    /// The parts of a list grown exactly (the literal, then each add in
    /// order), or `None` when a loop's adds cannot be unrolled. An add in a
    /// `for` over a known sequence (`only_loop_since`) adds one part per
    /// element, each the add's value for that element: the loop's choice
    /// picks it, so `for p in ("cpu", "cuda"): out.append(p)` is
    /// `["cpu", "cuda"]`. Adds sharing a loop interleave per element.
    fn exact_parts(
        &self,
        list: Node<'t>,
        scope: ScopeId,
        applied: &[(&super::ListAdd<'t>, super::StoreRuns, Option<Node<'t>>)],
        depth: u32,
    ) -> Option<Vec<Vec<Alt<'t>>>> {
        // As long as the longest `range` the flow spells out: a list built
        // in `for _ in range(num_layers)` is a list of that many items.
        const MAX_UNROLLED: usize = MAX_RANGE_LEN;
        let as_part = |add: &super::ListAdd<'t>, vals: Vec<Alt<'t>>| {
            if add.one {
                map(vals, |v| Val::Seq(SeqKind::List, vec![v.clone()]))
            } else {
                vals
            }
        };
        let mut parts = vec![self.eval_depth(list, scope, depth + 1)];
        let mut i = 0;
        while i < applied.len() {
            let (add, _, loop_node) = applied[i];
            let Some(loop_node) = loop_node else {
                parts.push(as_part(add, self.eval_depth(add.arg, scope, depth + 1)));
                i += 1;
                continue;
            };
            let group: Vec<&super::ListAdd<'t>> = applied[i..]
                .iter()
                .take_while(|(_, _, l)| l.is_some_and(|l| l.id() == loop_node.id()))
                .map(|(a, _, _)| *a)
                .collect();
            i += group.len();
            // Every alternative of what it iterates a sequence of one length
            // (a default and the run-time choice beside it both are): each
            // element's values carry their alternative's why and choices.
            let iterated = self.eval_depth(loop_node.field("right")?, scope, depth + 1);
            let lengths: Vec<Option<usize>> = iterated
                .iter()
                .map(|a| match &a.val {
                    Val::Seq(_, items) => Some(items.len()),
                    _ => None,
                })
                .collect();
            let n = match lengths.first() {
                Some(Some(n)) if lengths.iter().all(|l| *l == Some(*n)) => *n,
                _ => return None,
            };
            if n > MAX_UNROLLED {
                return None;
            }
            let note = loop_note(loop_node);
            let values: Vec<Vec<Alt<'t>>> = group
                .iter()
                .map(|add| self.eval_depth(add.arg, scope, depth + 1))
                .collect();
            for element in 0..n {
                for (add, vals) in group.iter().zip(&values) {
                    // The add's values for this element: those the loop's
                    // choice picks, and those that do not depend on it.
                    let picked: Vec<Alt<'t>> = vals
                        .iter()
                        .filter_map(|alt| {
                            let mine = alt.choices.iter().find(|(p, _)| *p == loop_node.id());
                            if mine.is_some_and(|(_, e)| *e != element) {
                                return None;
                            }
                            let mut alt = alt.clone();
                            alt.choices.retain(|(p, _)| *p != loop_node.id());
                            if matches!(&alt.why, Why::Each(n) if *n == note) {
                                alt.why = Why::Fixed;
                            }
                            Some(alt)
                        })
                        .collect();
                    if picked.is_empty() {
                        return None;
                    }
                    parts.push(as_part(add, picked));
                }
            }
        }
        Some(parts)
    }

    /// The `*args` parameter named by `target` (of a plain function): the
    /// tuple of the positional arguments from its position on, in the call
    /// being evaluated, or in each direct call of the function in the module
    /// (each a choice that runs: `sequential(double, noisy)`).
    fn varargs_of(&self, target: Node<'t>, depth: u32) -> Vec<Alt<'t>> {
        let m = self.m;
        let Some(splat) = self
            .m
            .parent_of(target)
            .filter(|p| p.kind_name() == "list_splat_pattern")
        else {
            return vec![Alt::unknown()];
        };
        // `*layers: Layer` is a typed parameter holding the splat.
        let param = self
            .m
            .parent_of(splat)
            .filter(|p| p.kind_name() == "typed_parameter")
            .unwrap_or(splat);
        let Some(list) = self
            .m
            .parent_of(param)
            .filter(|p| matches!(p.kind_name(), "parameters" | "lambda_parameters"))
        else {
            return vec![Alt::unknown()];
        };
        let Some(def) = self.m.parent_of(list).and_then(|d| m.scope_of_def(d)) else {
            return vec![Alt::unknown()];
        };
        // A method's first parameter is its receiver, not a positional
        // argument of the call (`Serial(*layers)` binds `__init__(self,
        // *layers)`): read only for the call being evaluated.
        let method = m.scopes[def].class.is_some() && !m.is_static_method(def);
        if method && !self.bound.borrow().iter().any(|b| b.def == def) {
            return vec![Alt::unknown()];
        }
        let mut cursor = list.walk();
        let start = list
            .named_children(&mut cursor)
            .take_while(|p| p.id() != param.id())
            .filter(|p| {
                matches!(
                    p.kind_name(),
                    "identifier"
                        | "default_parameter"
                        | "typed_parameter"
                        | "typed_default_parameter"
                )
            })
            .count()
            .saturating_sub(usize::from(method));
        // The tuple's alternatives: every consistent combination of its
        // items' (a closure made by one call of a factory keeps its choice).
        let tuple_of = |call: Node<'t>, call_scope: ScopeId| -> Vec<Alt<'t>> {
            let args = m.args_of(call);
            if args.has_list_splat {
                return vec![Alt::unknown()];
            }
            let parts: Vec<Vec<Alt<'t>>> = args
                .positional
                .iter()
                .skip(start)
                .map(|arg| or_unknown(self.eval_depth(*arg, call_scope, depth + 1)))
                .collect();
            product(&parts, |items| Val::Seq(SeqKind::Tuple, items))
        };
        self.per_call_of(def, tuple_of)
    }

    /// A value made from the call of `def`: in the call being evaluated
    /// (written), or in each direct call of it in the module (each runs, on
    /// that call's path). `made` gives the value and the choices it holds.
    fn per_call_of(
        &self,
        def: ScopeId,
        made: impl Fn(Node<'t>, ScopeId) -> Vec<Alt<'t>>,
    ) -> Vec<Alt<'t>> {
        let m = self.m;
        let bound = self
            .bound
            .borrow()
            .iter()
            .rev()
            .find(|b| b.def == def)
            .map(|b| (b.call, b.call_scope, b.given.is_empty()));
        if let Some((call, call_scope, real_call)) = bound {
            if !real_call || call.kind_name() != "call" {
                return vec![Alt::unknown()];
            }
            return made(call, call_scope);
        }
        let sites = m.def_call_sites(def);
        if sites.is_empty() || sites.len() > MAX_ALTS {
            return vec![Alt::unknown()];
        }
        let point = m.scopes[def].node.id();
        let mut out = Vec::new();
        for site in sites.iter() {
            match site.kind {
                SiteKind::Direct { .. } => {
                    let each = Why::Each(format!("for the call at line {}", line_of(site.call)));
                    out.extend(
                        made(site.call, site.scope)
                            .into_iter()
                            .filter_map(|a| a.under(&each, &[(point, site.call.id())])),
                    );
                }
                _ => out.push(Alt::unknown()),
            }
        }
        cap(out)
    }

    /// What `def` returns with its parameters after the receiver given
    /// (`given`), for a summary's table of keyed returns.
    pub(crate) fn returns_given(&self, def: ScopeId, given: Vec<Vec<Alt<'t>>>) -> Vec<Alt<'t>> {
        self.returns_bound(def, None, given)
    }

    /// `returns_bound`, and those values detached (`detach_passing`) while
    /// the parameters are still bound.
    pub(crate) fn returns_bound_detached(
        &self,
        def: ScopeId,
        receiver: Option<Alt<'t>>,
        given: Vec<Vec<Alt<'t>>>,
    ) -> (Vec<Alt<'t>>, Vec<ConstAlt>) {
        let m = self.m;
        let bound = Bound {
            def,
            call: m.scopes[def].node,
            call_scope: def,
            receiver,
            given,
        };
        self.with_bound(bound, || {
            let alts = self.eval_returned(&self.returned_for_call(def), def, 0);
            let detached = self.detach_passing(&alts);
            (alts, detached)
        })
    }

    pub(crate) fn returns_bound(
        &self,
        def: ScopeId,
        receiver: Option<Alt<'t>>,
        given: Vec<Vec<Alt<'t>>>,
    ) -> Vec<Alt<'t>> {
        self.returns_bound_detached(def, receiver, given).0
    }

    /// The `return` values of `def` that the call being evaluated (bound
    /// last) may return: its branches decided with the call's values, so
    /// `if isinstance(w, str): return TABLE[w]` then `return w` returns
    /// only the entry for a string. Shallow calls only: each level decides
    /// its conditions again.
    ///
    /// A return left because a default of run-time configuration decided
    /// a condition (`if _TARGET == "gpu": return ...` with `_TARGET` an
    /// environment variable's default) carries that default's note: it is
    /// what a plain run returns.
    fn returned_for_call(&self, def: ScopeId) -> Vec<Returned<'t>> {
        let m = self.m;
        let returned = returned_values_noted(m, def);
        if returned.len() < 2 || self.bound.borrow().len() > 6 {
            return returned;
        }
        let branches = m.build_branches_by(def, &|expr| self.eval(expr, def));
        let nodes: Vec<Node<'t>> = returned.iter().filter_map(|(n, _)| *n).collect();
        live_returns(&nodes, &branches)
    }

    /// `eval_one_of` of returns, each with the default it runs by (see
    /// `returned_for_call`).
    fn eval_returned(&self, returned: &[Returned<'t>], def: ScopeId, depth: u32) -> Vec<Alt<'t>> {
        let values: Vec<Option<Node<'t>>> = returned.iter().map(|(n, _)| *n).collect();
        if returned.iter().all(|(_, note)| note.is_none()) {
            return self.eval_one_of(&values, def, depth);
        }
        let mut out = Vec::new();
        for (value, note) in returned {
            let mut alts = self.eval_one_of(std::slice::from_ref(value), def, depth);
            if values.len() > 1 {
                for a in &mut alts {
                    a.why = Why::Choice;
                }
            } else if let Some(note) = note {
                // Plain values only: objects and functions are followed as
                // call edges, which take values a plain run certainly has;
                // what they reach carries the default by the `if` it runs
                // under (`Guard::Configured`) instead.
                let by_default = Why::Default(note.clone());
                for a in alts.iter_mut().filter(|a| is_plain_value(&a.val)) {
                    a.why = a.why.and(&by_default);
                }
            }
            out.extend(alts);
        }
        out
    }

    /// The values of `nodes` (in `def`'s scope) with `self` the `receiver`
    /// and `def`'s other parameters `given`: what a constructor stores, for
    /// a call from another module.
    pub(crate) fn eval_bound_on(
        &self,
        def: ScopeId,
        given: Vec<Vec<Alt<'t>>>,
        receiver: Alt<'t>,
        nodes: Vec<Node<'t>>,
    ) -> Vec<Vec<Alt<'t>>> {
        let bound = Bound {
            def,
            call: self.m.scopes[def].node,
            call_scope: def,
            receiver: Some(receiver),
            given,
        };
        self.with_bound(bound, || nodes.iter().map(|n| self.eval(*n, def)).collect())
    }

    /// `node` (in `scope`: `def` or a closure of it) with `def`'s
    /// parameters bound to `given` (by position after the receiver, which
    /// binds the first when given).
    pub(crate) fn eval_given(
        &self,
        def: ScopeId,
        given: &[Vec<Alt<'t>>],
        receiver: Option<Alt<'t>>,
        node: Node<'t>,
        scope: ScopeId,
    ) -> Vec<Alt<'t>> {
        self.with_given(def, given, receiver, || self.eval(node, scope))
    }

    /// What `call` (in `def` or a closure of it) passes to another module's
    /// function with `def`'s parameters bound to `given` (and `receiver`),
    /// the object a method is called on too when it is one known object.
    pub(crate) fn foreign_call_given(
        &self,
        def: ScopeId,
        given: &[Vec<Alt<'t>>],
        receiver: Option<Alt<'t>>,
        call: Node<'t>,
        scope: ScopeId,
    ) -> Option<super::summary::ForeignCall> {
        self.with_given(def, given, receiver, || {
            let object = self.object_called_on(call, scope);
            self.foreign_args(object.as_ref(), call, scope, 0)
        })
    }

    /// For `obj.method(...)`: `obj` when it is certainly one object of
    /// another module's class (the receiver that method runs on there), or
    /// the one a plain run makes (a default of run-time configuration).
    pub(crate) fn object_called_on(&self, call: Node<'t>, scope: ScopeId) -> Option<Val<'t>> {
        let object = call
            .field("function")
            .filter(|f| f.kind_name() == "attribute")?
            .field("object")?;
        // Run-time choices other than the default's are not a plain run's.
        let alts = self.eval(object, scope);
        let plain: Vec<&Alt<'t>> = match alts.iter().any(|a| matches!(a.why, Why::Default(_))) {
            true => alts.iter().filter(|a| !a.why.is_choice()).collect(),
            false => alts.iter().collect(),
        };
        match plain.as_slice() {
            [one]
                if (one.why.certain() || matches!(one.why, Why::Default(_)))
                    && matches!(one.val, Val::Object(_)) =>
            {
                Some(one.val.clone())
            }
            _ => None,
        }
    }

    /// `f` run with `def`'s parameters bound to `given` (and `receiver`).
    pub(crate) fn with_given<R>(
        &self,
        def: ScopeId,
        given: &[Vec<Alt<'t>>],
        receiver: Option<Alt<'t>>,
        f: impl FnOnce() -> R,
    ) -> R {
        let bound = Bound {
            def,
            call: self.m.scopes[def].node,
            call_scope: def,
            receiver,
            given: given.to_vec(),
        };
        self.with_bound(bound, f)
    }

    /// `f` run with `frames` bound in order (a function, then the def it
    /// returns, each with its parameters' values): what a call of a
    /// registering decorator stores, for a call from another module.
    pub(crate) fn with_frames<R>(&self, frames: &[Frame<'t>], f: impl FnOnce() -> R) -> R {
        match frames.split_first() {
            None => f(),
            Some((frame, rest)) => {
                let bound = Bound {
                    def: frame.def,
                    call: self.m.scopes[frame.def].node,
                    call_scope: frame.def,
                    receiver: frame.receiver.clone(),
                    given: frame.given.clone(),
                };
                self.bound_kwargs
                    .borrow_mut()
                    .push((frame.def, frame.kwargs.clone()));
                let out = self.with_bound(bound, || self.with_frames(rest, f));
                self.bound_kwargs.borrow_mut().pop();
                out
            }
        }
    }

    /// A call of `path`, a function or method of another module: what it
    /// returns evaluated in its own module with its parameters bound to
    /// this call's arguments (`receiver`: the object a method is called
    /// on). `None` when the call cannot be passed on (`*args`, `**kw`) or
    /// nothing is known of what it returns.
    fn foreign_call(
        &self,
        path: &str,
        receiver: Option<&Val<'t>>,
        call: Node<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        if path.starts_with("jax.") || path.starts_with("numpy.") || !path.contains('.') {
            return None;
        }
        if !m.resolves(path) {
            return None;
        }
        let (foreign, ways) = self.foreign_args_by_way(receiver, call, scope, depth, false)?;
        // Arguments on different choices (a loop's elements, call sites):
        // each answer on its way's choices, so that `pick({"p": (platform,)})`
        // in a loop over platforms keeps which element gave which answer.
        // (When a way gets no answer, the call as one.)
        if !ways.is_empty() {
            let mut out = Vec::new();
            for (way, foreign) in &ways {
                let Some(mut alts) = m.foreign_returns(path, foreign) else {
                    break;
                };
                self.qualify_foreign(path, receiver, &mut alts);
                out.push(from_consts(&alts).into_iter().filter_map(|a| {
                    let choices = merge_choices(&a.choices, way)?;
                    Some(Alt { choices, ..a })
                }));
            }
            if out.len() == ways.len() {
                return Some(cap(out.into_iter().flatten().collect()));
            }
        }
        let mut alts = m.foreign_returns(path, &foreign)?;
        self.qualify_foreign(path, receiver, &mut alts);
        Some(from_consts(&alts))
    }

    /// The references in what a function of another module returned, made
    /// paths here (`qualify_refs`).
    fn qualify_foreign(&self, path: &str, receiver: Option<&Val<'t>>, alts: &mut [ConstAlt]) {
        let m = self.m;
        // Names of that module's classes and functions, as paths here: the
        // path less the name it has there (`Class.method` for a method, also
        // a classmethod called on its class, `Placement.planned(...)`).
        let segments = match receiver {
            Some(_) => 2,
            None => m
                .resolver
                .get()
                .zip(m.file.borrow().clone())
                .and_then(|(resolver, file)| resolver.resolve_function(&file, path))
                .map_or(1, |(_, name)| name.split('.').count()),
        };
        let module = path
            .rsplitn(segments + 1, '.')
            .nth(segments)
            .filter(|module| !module.is_empty());
        if let Some(module) = module {
            qualify_refs(alts, module);
        }
    }

    /// `obj.attr` of an object of a class of this module that another
    /// module made and handed here (its class by the bare name, as
    /// `named_for` gives it): the class's property of that name, its
    /// `self` that object.
    fn own_property(
        &self,
        object: &Val<'t>,
        fields: &Fields,
        attr: &str,
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let class = self.m.own_class_of_object(fields)?;
        let method = self
            .m
            .method(class, attr)
            .filter(|&p| self.is_property(p))?;
        Some(self.returns_on(method, object.clone(), Vec::new(), depth))
    }

    /// `obj.attr` of such an object (`Module::own_class_of_object`) that it does not hold:
    /// a class attribute of its class that no method stores on an instance
    /// (nothing can have replaced it), or one its class inherits from
    /// another module's class.
    fn own_class_attribute(&self, fields: &Fields, attr: &str, depth: u32) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        let class = self.m.own_class_of_object(fields)?;
        match m.attribute(class, attr) {
            Some(_) if m.stored_on_instances(class, attr) => None,
            Some(_) => Some(self.field(class, None, attr, depth)),
            None if m.method(class, attr).is_none() => {
                self.foreign_base_attribute(class, None, attr)
            }
            None => None,
        }
    }

    /// The object of `fields`, of `class` of this module, with the class
    /// attributes of `class` (and its bases here) that no instance can
    /// replace (`Module::stored_on_instances`), for another module to read.
    fn with_class_attributes(&self, class: ScopeId, fields: &Fields) -> Val<'t> {
        let mut fields = fields.clone();
        for name in self.m.attribute_names(class) {
            if fields.iter().any(|(n, _)| *n == name) || self.m.stored_on_instances(class, &name) {
                continue;
            }
            let alts = self.field(class, None, &name, 0);
            if alts.iter().all(|a| a.val.is_unknown()) {
                continue;
            }
            fields.push((name, self.detach(&alts, 1)));
        }
        Val::Object(Arc::new(fields))
    }

    /// `obj.method` (not called: jitted, passed on) of such an object
    /// (`Module::own_class_of_object`): the method by this module's own dotted path, as a
    /// call of it on such an object is (`Module::object_method`), its
    /// `self` an object of that class.
    fn own_method_of_object(&self, fields: &Fields, attr: &str) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        let class = self.m.own_class_of_object(fields)?;
        let method = m.method(class, attr)?;
        if m.scopes[method].kind != ScopeKind::Function
            || self.is_property(method)
            || m.is_static_method(method)
            || m.is_class_method(method)
        {
            return None;
        }
        let path = m.own_method_path(class, attr)?;
        Some(vec![Alt::fixed(Val::Ref(Arc::from(path)))])
    }

    /// What method `method` returns with `self` bound to `receiver` and its
    /// other parameters to `given` (a property read, `__getattr__(name)`).
    fn returns_on(
        &self,
        method: ScopeId,
        receiver: Val<'t>,
        given: Vec<Vec<Alt<'t>>>,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        let m = self.m;
        if self.bound.borrow().iter().any(|b| b.def == method) || self.bound.borrow().len() > 6 {
            return vec![Alt::unknown()];
        }
        let returned = returned_values_noted(m, method);
        let bound = Bound {
            def: method,
            call: m.scopes[method].node,
            call_scope: method,
            receiver: Some(Alt::fixed(receiver)),
            given,
        };
        self.with_bound(bound, || {
            let mut out = self.eval_returned(&returned, method, depth);
            if out.is_empty() {
                out.push(Alt::unknown());
            }
            cap(out)
        })
    }

    /// `obj.attr` of an instance of a class of this module that neither it
    /// nor its bases here define, inherited from a class of another module
    /// (`class Serving(Experiment)`, `Serving().MODEL_DIMS`): that class's
    /// property, run there on this object (its fields, class-body
    /// overrides too, travel with it), else its class attribute.
    fn foreign_base_attribute(
        &self,
        class: ScopeId,
        ctor: Option<(Node<'t>, ScopeId)>,
        attr: &str,
    ) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        let path = m.foreign_base_method(class, attr)?;
        // A base the workspace defines (not a library's `BaseModel`).
        let base = path.rsplit_once('.').map(|(base, _)| base)?;
        if m.class_path_unresolved(base) || self.reading_foreign_base.replace(true) {
            return None;
        }
        let receiver = self.detach(&[Alt::fixed(Val::Instance(class, ctor))], 0);
        self.reading_foreign_base.set(false);
        let read = super::summary::ForeignCall {
            receiver: Some(receiver),
            attribute: true,
            env_set: m.env_keys_set(),
            registered: m.registrations(),
            state: m.foreign_state_in_force(),
            ..Default::default()
        };
        if let Some(alts) = m.foreign_returns(&path, &read) {
            return Some(from_consts(&alts));
        }
        self.external(&path)
    }

    /// The objects the `__init__` of another module's class makes for the
    /// construction `ctor` of `class`, a class of this module that inherits
    /// that `__init__` (none of its own, nor of a base here): that module's
    /// objects made with the construction's arguments (one per way its
    /// arguments go, on that way's choices), less the base's class-body
    /// values, which a class body here may override.
    fn foreign_init_objects(
        &self,
        class: ScopeId,
        ctor: Option<(Node<'t>, ScopeId)>,
        depth: u32,
    ) -> Option<Vec<(Fields, Why, Vec<Choice>)>> {
        let m = self.m;
        let (call, call_scope) = ctor?;
        if m.method(class, "__init__").is_some() || too_deep(depth) {
            return None;
        }
        let init = m.foreign_base_method(class, "__init__")?;
        let base = init.strip_suffix(".__init__")?;
        if m.class_path_unresolved(base) {
            return None;
        }
        let made = self.foreign_call(base, None, call, call_scope, depth + 1)?;
        made.into_iter()
            .map(|alt| match alt.val {
                Val::Object(fields) => Some((
                    m.stored_by_foreign_init(base, &fields),
                    alt.why,
                    alt.choices,
                )),
                _ => None,
            })
            .collect()
    }

    /// Field `attr` of the objects `foreign_init_objects` makes, each on its
    /// way's choices; `None` when none of them holds it.
    fn foreign_init_field(
        &self,
        class: ScopeId,
        ctor: Option<(Node<'t>, ScopeId)>,
        attr: &str,
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let objects = self.foreign_init_objects(class, ctor, depth)?;
        if !objects
            .iter()
            .any(|(fields, _, _)| fields.iter().any(|(n, _)| n == attr))
        {
            return None;
        }
        let mut out = Vec::new();
        for (fields, why, choices) in objects {
            let values = match fields.iter().find(|(n, _)| n == attr) {
                Some((_, alts)) => from_consts(alts),
                None => vec![Alt::unknown()],
            };
            out.extend(values.into_iter().filter_map(|v| v.under(&why, &choices)));
        }
        Some(cap(out))
    }

    /// `obj.attr` of an object of another module's class that holds no
    /// field `attr`: the class's property of that name, evaluated in its
    /// module on the object (`Module::returns_for_call`).
    fn foreign_property(
        &self,
        object: &Val<'t>,
        fields: &Fields,
        attr: &str,
    ) -> Option<Vec<Alt<'t>>> {
        let class = object_class(fields)?;
        self.m.resolver.get()?;
        let read = super::summary::ForeignCall {
            receiver: Some(self.detach(&[Alt::fixed(object.clone())], 0)),
            positional: Vec::new(),
            open_positional: false,
            keywords: Vec::new(),
            attribute: true,
            env_set: self.m.env_keys_set(),
            registered: self.m.registrations(),
            state: self.m.foreign_state_in_force(),
        };
        let alts = self.m.foreign_returns(&format!("{class}.{attr}"), &read)?;
        Some(from_consts(&alts))
    }

    /// `detach`, with the functions of this module no other module can
    /// name (a closure, a lambda, a method, a callable instance) as this
    /// module's tokens (`Module::local_ref`): what another module calls
    /// with them is found here when its answer comes back. Plain `detach`
    /// when the module has no file (a summary, read by any importer).
    pub(crate) fn detach_passing(&self, alts: &[Alt<'t>]) -> Vec<ConstAlt> {
        self.detach_with_tokens(alts, false)
    }

    /// `function` jitted by the jit call `call` (in `scope`), as another
    /// module sees it: what its shardings use (read with the parameters
    /// this evaluation binds: a factory's `in_shardings` is its caller's),
    /// whether it is placed.
    fn foreign_jit(&self, function: Const, call: Node<'t>, scope: ScopeId) -> ForeignJit {
        let mut shardings = ShardingUse::default();
        let mut placed = false;
        match self.m.eval_jitted(call, scope) {
            Some(jitted) => {
                for key in ["in_shardings", "out_shardings"] {
                    for (node, at) in self.m.jit_keyword(&jitted, key) {
                        for alt in self.eval(node, at) {
                            shardings.merge(self.sharding_use_of(&alt.val));
                        }
                    }
                }
                placed = !self.m.jit_keyword(&jitted, "backend").is_empty()
                    || !self.m.jit_keyword(&jitted, "device").is_empty();
            }
            None => shardings.unknown = true,
        }
        ForeignJit {
            function,
            shardings,
            placed,
        }
    }

    /// `detach_passing`, with module-level functions as tokens too: for a
    /// call whose answer names what it was given (the function a lowering
    /// helper lowers), read back here (`Module::local_target`).
    pub(crate) fn detach_with_tokens(
        &self,
        alts: &[Alt<'t>],
        every_function: bool,
    ) -> Vec<ConstAlt> {
        let outer = self.detach_tokens.replace(Some(every_function));
        let out = self.detach(alts, 0);
        self.detach_tokens.set(outer);
        out
    }

    /// What `detach_with_tokens` makes of a function value: a jit with its
    /// function and what its shardings use, or this module's token for a
    /// function another module cannot name. `None` for other values.
    fn token_of(&self, alt: &Alt<'t>, every_function: bool) -> Option<Const> {
        if let Val::Jitted(def, call, scope) = alt.val {
            let function = Alt {
                val: Val::Function(def),
                ..alt.clone()
            };
            let function = self
                .token_of(&function, every_function)
                .or_else(|| {
                    self.m
                        .module_def_name(def)
                        .map(|name| Const::Ref(name.to_owned()))
                })
                .unwrap_or(Const::Unknown);
            return Some(Const::Jitted(Arc::new(
                self.foreign_jit(function, call, scope),
            )));
        }
        let target = match alt.val {
            Val::Function(def) if every_function || self.m.module_def_name(def).is_none() => {
                Some(super::reach::Target::Local(def))
            }
            Val::Instance(class, made) => self
                .m
                .method(class, "__call__")
                .map(|m| self.m.method_on(m, class, made)),
            Val::Method(method, class, made) => Some(self.m.method_on(method, class, made)),
            _ => None,
        };
        target
            .and_then(|t| self.m.local_ref(&t, &alt.choices))
            .map(Const::Ref)
    }

    /// What `call` passes, detached from this module (what crosses to the
    /// module of the function it calls). `None` when it splats (`*args`,
    /// `**kw`): what it passes is not known by parameter.
    pub(crate) fn foreign_args(
        &self,
        receiver: Option<&Val<'t>>,
        call: Node<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Option<super::summary::ForeignCall> {
        self.foreign_args_with(receiver, call, scope, depth, false)
    }

    /// The call that tracing a method of another module's `object` makes
    /// (`jax.jit(runner.run)`): `self` is that object, every other
    /// parameter a tracer (unknown, not its default).
    pub(crate) fn traced_method_call(&self, object: &Val<'t>) -> super::summary::ForeignCall {
        super::summary::ForeignCall {
            receiver: Some(self.detach(&[Alt::fixed(object.clone())], 0)),
            open_positional: true,
            env_set: self.m.env_keys_set(),
            registered: self.m.registrations(),
            state: self.m.foreign_state_in_force(),
            ..super::summary::ForeignCall::default()
        }
    }

    /// `foreign_args_with`, and when the arguments' data values are on
    /// different choices (a loop's elements, call sites) the call once per
    /// way of choosing them (`choice_ways`), each read with only the values
    /// compatible with its way: what another module answers for a way is
    /// put back on that way's choices. The ways are empty when the call is
    /// not split (no choices, too many ways, or a way that cannot be read).
    pub(crate) fn foreign_args_by_way(
        &self,
        receiver: Option<&Val<'t>>,
        call: Node<'t>,
        scope: ScopeId,
        depth: u32,
        every_function: bool,
    ) -> Option<ForeignWays> {
        let whole = self.foreign_args_with(receiver, call, scope, depth, every_function)?;
        let ways = choice_ways(&self.foreign_arg_choices.take());
        let mut split = Vec::new();
        if ways.len() > 1 {
            for way in ways {
                self.foreign_way.replace(Some(way.clone()));
                let foreign = self.foreign_args_with(receiver, call, scope, depth, every_function);
                self.foreign_way.replace(None);
                match foreign {
                    Some(foreign) => split.push((way, foreign)),
                    None => {
                        split.clear();
                        break;
                    }
                }
            }
        }
        Some((whole, split))
    }

    /// `foreign_args`; with `every_function`, module-level functions cross
    /// as tokens too (`detach_with_tokens`).
    pub(crate) fn foreign_args_with(
        &self,
        receiver: Option<&Val<'t>>,
        call: Node<'t>,
        scope: ScopeId,
        depth: u32,
        every_function: bool,
    ) -> Option<super::summary::ForeignCall> {
        let nesting = self.m.foreign_nesting.get();
        if nesting >= MAX_FOREIGN_NESTING {
            cut();
            return None;
        }
        self.m.foreign_nesting.set(nesting + 1);
        // A call evaluated while an outer call's argument is detached reads
        // its own arguments, not under the outer's way.
        let outer_way = self.detach_way.take();
        let outer_nested = self.detach_nested.take();
        let out = self.foreign_args_in(receiver, call, scope, depth, every_function);
        self.detach_way.replace(outer_way);
        self.detach_nested.replace(outer_nested);
        self.m.foreign_nesting.set(nesting);
        out
    }

    fn foreign_args_in(
        &self,
        receiver: Option<&Val<'t>>,
        call: Node<'t>,
        scope: ScopeId,
        depth: u32,
        every_function: bool,
    ) -> Option<super::summary::ForeignCall> {
        let args = self.m.args_of(call);
        // Positions past a `*splat` are unknown: only the values before it
        // are passed, and the callee's later parameters stay unknown.
        let fixed = Args::positional_before_list_splat(call).unwrap_or(args.positional.len());
        // The way of choosing the arguments this call is read for (not
        // seen by the evaluations it makes), and the choices each has.
        let way = self.foreign_way.take();
        let arg_choices: RefCell<Vec<Vec<Vec<Choice>>>> = RefCell::new(Vec::new());
        // (`detach`'s depth is its own nesting of objects, not this one's.)
        // Functions of this module no other module can name (a closure, a
        // lambda, a method, a callable instance) cross as this module's
        // tokens (`Module::local_ref`): what the callee calls with them is
        // found here when its answer comes back.
        let detach = |node: Node<'t>| {
            let mut alts = self.eval_depth(node, scope, depth + 1);
            // Data only: a function crosses as a token holding its own
            // choices, and splitting a call by them would make the functions
            // of a loop's elements run-time alternatives of one another.
            let mut seen: Vec<Vec<Choice>> = Vec::new();
            for alt in &alts {
                let choices = if is_data(&alt.val) {
                    alt.choices.clone()
                } else {
                    Vec::new()
                };
                if !seen.contains(&choices) {
                    seen.push(choices);
                }
            }
            if let Some(way) = &way {
                alts.retain(|a| merge_choices(&a.choices, way).is_some());
            }
            self.detach_way.replace(way.clone());
            self.detach_nested.replace(Some(Vec::new()));
            let mut out = self.detach_with_tokens(&alts, every_function);
            self.detach_way.replace(None);
            // What differs inside it (a display's entries) differs the
            // argument: its ways are those, not the display's own none.
            let nested = self.detach_nested.take().unwrap_or_default();
            if !nested.is_empty() {
                seen.retain(|c| !c.is_empty());
                for choices in nested {
                    if !seen.contains(&choices) {
                        seen.push(choices);
                    }
                }
            }
            arg_choices.borrow_mut().push(seen);
            // A function the value flow does not follow (what a factory of
            // this module returned, `sub = make_kernel()`): what the call
            // graph says calling it reaches.
            // Not from inside another such lookup: the call graph's own
            // value flow evaluates calls, which would look again.
            let all_unknown = out.iter().all(|a| matches!(a.val, Const::Unknown));
            if all_unknown && self.m.passing.get() {
                cut();
            }
            if all_unknown && !self.m.passing.replace(true) {
                let made_by = self.m.factory_call_choice(node, scope);
                let tokens: Vec<ConstAlt> = self
                    .m
                    .resolve_ref(node, scope, 0)
                    .iter()
                    .filter_map(|t| self.m.local_ref(t, &made_by))
                    .map(|token| ConstAlt {
                        val: Const::Ref(token),
                        why: Why::Fixed,
                    })
                    .collect();
                if !tokens.is_empty() {
                    out = tokens;
                }
                self.m.passing.set(false);
            }
            out
        };
        let mut keywords: Vec<(String, Vec<ConstAlt>)> = args
            .keywords
            .iter()
            .map(|(name, value, _)| (name.clone(), detach(*value)))
            .collect();
        // `**options` of known constant keys passes those keywords.
        if args.has_dict_splat {
            for splat in dict_splats(call) {
                for (key, values) in self.splat_entries(splat, scope, 0, depth + 1)? {
                    let Const::Str(name) = key else {
                        return None;
                    };
                    keywords.retain(|(k, _)| *k != name);
                    keywords.push((name, values));
                }
            }
        }
        let positional = args.positional[..fixed]
            .iter()
            .map(|a| detach(*a))
            .collect();
        self.foreign_arg_choices.replace(arg_choices.take());
        Some(super::summary::ForeignCall {
            receiver: receiver.map(|v| self.detach(&[Alt::fixed(v.clone())], 0)),
            positional,
            open_positional: args.has_list_splat,
            keywords,
            attribute: false,
            env_set: self.m.env_keys_set(),
            registered: self.m.registrations(),
            state: self.m.foreign_state_in_force(),
        })
    }

    /// The `**kwargs` parameter of `def`: in the call being evaluated, or
    /// in each direct call of it in the module.
    fn kwargs_of(&self, def: ScopeId) -> Vec<Alt<'t>> {
        let given = self
            .bound_kwargs
            .borrow()
            .iter()
            .rev()
            .find(|(d, _)| *d == def)
            .map(|(_, entries)| entries.clone());
        if let Some(entries) = given {
            return vec![Alt::fixed(Val::Entries(entries))];
        }
        self.per_call_of(def, |call, call_scope| {
            vec![Alt::fixed(Val::KwArgs {
                call,
                call_scope,
                def,
            })]
        })
    }

    /// An imported object whose meaning is known by its path.
    fn import_val(&self, path: &str) -> Val<'t> {
        if path == "sys.argv" {
            return Val::Argv;
        }
        if is_flag_holder(path) {
            Val::AbslFlags
        } else {
            Val::Unknown
        }
    }

    /// A dict of another module (`EXPORTS`, imported) with the entries this
    /// module registered into it when it was imported.
    fn with_registrations(&self, path: &str, alts: Vec<Alt<'t>>) -> Vec<Alt<'t>> {
        let added = self.m.registered_into(path);
        if added.is_empty() {
            return alts;
        }
        let module = path.rsplit_once('.').map(|(m, _)| m);
        alts.into_iter()
            .map(|mut alt| {
                let mut merged: Entries = match &alt.val {
                    Val::Entries(entries) => entries.as_ref().clone(),
                    // Filled by stores it cannot see (its registrars').
                    Val::OpaqueDict => Vec::new(),
                    _ => return alt,
                };
                for (key, values) in &added {
                    let mut values = values.clone();
                    if let Some(module) = module {
                        qualify_refs(&mut values, module);
                    }
                    merged.retain(|(k, _)| !k.val().same(&key.val()));
                    merged.push((key.clone(), values));
                }
                // Other importers may register more: a key not seen is
                // not known to be missing.
                merged.push((
                    Const::Unknown,
                    vec![ConstAlt {
                        val: Const::Unknown,
                        why: Why::Fixed,
                    }],
                ));
                alt.val = Val::Entries(Arc::new(merged));
                alt
            })
            .collect()
    }

    /// A constant of another module, from its summary.
    fn external(&self, path: &str) -> Option<Vec<Alt<'t>>> {
        let mut alts = self.m.external_value(path)?;
        // Functions and classes it holds are named in their module: the
        // path's (`pkg.mod.TABLE` -> `pkg.mod.name`).
        let base = path.split_once('(').map_or(path, |(p, _)| p);
        if let Some((module, _)) = base.rsplit_once('.') {
            qualify_refs(&mut alts, module);
        }
        Some(from_consts(&alts))
    }

    /// `path(key)` of a function of another module whose summary has keyed
    /// returns: each string the key may be, looked up (all must be found).
    fn keyed_external(
        &self,
        path: &str,
        key: Node<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let keys = self.eval_depth(key, scope, depth + 1);
        let mut out = Vec::new();
        let mut found_any = false;
        for k in keys {
            let Val::Str(text) = &k.val else {
                // Another key the run may choose (`--topology` given): not known.
                out.push(Alt {
                    val: Val::Unknown,
                    why: k.why.clone(),
                    choices: k.choices.clone(),
                });
                continue;
            };
            let found = self.external(&format!("{path}({text:?})"))?;
            found_any = true;
            out.extend(
                found
                    .into_iter()
                    .filter_map(|a| a.under(&k.why, &k.choices)),
            );
        }
        found_any.then(|| cap(out))
    }

    fn eval_param(
        &self,
        fscope: ScopeId,
        index: usize,
        default: Option<Node<'t>>,
        node: Node<'t>,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        let m = self.m;
        let def = &m.scopes[fscope];
        let name = text(node, m.src);
        let is_self = def.class.is_some() && index == 0 && !m.is_static_method(fscope);
        // A call being evaluated binds the parameters to its arguments.
        let frame = self.bound.borrow().iter().rposition(|b| b.def == fscope);
        let bound = frame.and_then(|f| self.bound.borrow().get(f).cloned());
        // A keyword the def's decorator wrapper passes: whatever the call.
        if !is_self {
            if let Some(injected) = m.injected_keyword(fscope, name) {
                let several = injected.len() > 1;
                let mut out = Vec::new();
                for (_, wrapper_scope, source) in injected {
                    let ParamSource::Arg(value) = source else {
                        out.push(Alt::unknown());
                        continue;
                    };
                    {
                        out.extend(
                            self.eval_depth(value, wrapper_scope, depth + 1)
                                .into_iter()
                                .map(|mut a| {
                                    if several {
                                        a.why = a.why.and(&Why::Each(
                                            "for each call of the decorated function".to_owned(),
                                        ));
                                    }
                                    a
                                }),
                        );
                    }
                }
                return cap(out);
            }
        }
        if let Some(b) = bound {
            if is_self {
                return self.receiver_as_class(
                    fscope,
                    match b.receiver {
                        Some(receiver) => vec![receiver],
                        None => self.instances_of(def.class.unwrap_or(0)),
                    },
                );
            }
            if !b.given.is_empty() {
                let at = index.checked_sub(usize::from(b.receiver.is_some()));
                return match at.and_then(|i| b.given.get(i)) {
                    Some(given) if !given.is_empty() => given.clone(),
                    _ => vec![Alt::unknown()],
                };
            }
            let position = m.param_position(fscope, index, b.receiver.is_some());
            // The call's arguments are the caller's expressions: read in the
            // frames below this one (a recursive call's `f(x.v)` reads `x`
            // of the call before, not its own `x` again).
            let found = self.in_caller_of(frame.unwrap_or(0), || {
                self.through_partial_argument(b.call, b.call_scope, fscope, name, position, depth)
                    .unwrap_or_else(|| {
                        self.call_argument(b.call, b.call_scope, name, position, depth)
                    })
            });
            return match found {
                Lookup::Found(alts) => alts,
                Lookup::Missing => self.param_default(fscope, default, depth),
                Lookup::Unknown => vec![Alt::unknown()],
            };
        }
        // Outside any evaluated call, the answer depends on the def alone.
        let key = (fscope, index, self.asked_as());
        if !self.asks_for_no_call() {
            return self.eval_unbound_param(fscope, index, default, node, depth, is_self);
        }
        self.remembered(&m.caches().param_values, key, depth, || {
            self.eval_unbound_param(fscope, index, default, node, depth, is_self)
        })
    }

    /// What of the module's state around an evaluation bears on its answer
    /// (part of the key it is kept under): whether decided branches count,
    /// how many calls of other modules are open around it, and whether a
    /// call's reach is being looked up (`Module::passing`).
    fn asked_as(&self) -> AskedAs {
        (
            self.branch_aware,
            self.m.foreign_nesting.get(),
            self.m.passing.get(),
        )
    }

    /// `find()`'s answer, kept in `cache` under `key` when it was not cut
    /// short (see `CUTS`), with what finding it took: reused only where
    /// finding it again would not be cut short either (the steps left, the
    /// depth and nesting below), and charged as if found again, so that
    /// keeping answers changes no answer, only the time.
    fn remembered<K: std::hash::Hash + Eq>(
        &self,
        cache: &RefCell<HashMap<K, Kept<'t>>>,
        key: K,
        depth: u32,
        find: impl FnOnce() -> Vec<Alt<'t>>,
    ) -> Vec<Alt<'t>> {
        let nesting = NESTED_EVALS.with(Cell::get);
        let known = cache.borrow().get(&key).cloned();
        if let Some(kept) = known {
            if self.steps.get() >= kept.steps
                && depth + kept.depth <= MAX_DEPTH
                && nesting + kept.nesting <= MAX_NESTED_EVALS
            {
                self.steps.set(self.steps.get() - kept.steps);
                self.reach_depth(depth + kept.depth, nesting + kept.nesting);
                return kept.alts;
            }
        }
        let cuts_before = cuts();
        let steps_before = self.steps.get();
        let outer = DEEPEST.with(|d| d.replace((depth, nesting)));
        let found = find();
        let (deepest, most_nested) = DEEPEST.with(|d| d.replace(outer));
        self.reach_depth(deepest, most_nested);
        if cuts() == cuts_before {
            let kept = Kept {
                alts: found.clone(),
                steps: steps_before.saturating_sub(self.steps.get()),
                depth: deepest.saturating_sub(depth),
                nesting: most_nested.saturating_sub(nesting),
            };
            cache.borrow_mut().insert(key, kept);
        }
        found
    }

    /// True when nothing of an evaluation around this one bears on an
    /// answer: no call bound, no way chosen, no object being read.
    fn asks_for_no_call(&self) -> bool {
        self.bound.borrow().is_empty()
            && self.bound_kwargs.borrow().is_empty()
            && self.given_branches.borrow().is_empty()
            && self.deciding_given.borrow().is_empty()
            && self.deciding_construction.borrow().is_empty()
            && self.receiver_sites_open.borrow().is_empty()
            && self.detach_tokens.get().is_none()
            && self.subscript_read.get().is_none()
            && self.attribute_read.get().is_none()
            && !self.reading_foreign_base.get()
            && self.foreign_way.borrow().is_none()
            && self.detach_way.borrow().is_none()
            && self.read_way.borrow().is_empty()
            && self.detach_nested.borrow().is_none()
    }

    /// The receiver's values as the first parameter of `fscope` takes them:
    /// `cls` of a `@classmethod` is the receiver's class.
    fn receiver_as_class(&self, fscope: ScopeId, alts: Vec<Alt<'t>>) -> Vec<Alt<'t>> {
        if !self.m.is_class_method(fscope) {
            return alts;
        }
        map(alts, |v| match v {
            Val::Instance(class, _) | Val::Class(class) => Val::Class(*class),
            _ => Val::Unknown,
        })
    }

    /// What parameter default `default` of `fscope` gives (unknown without one).
    fn param_default(
        &self,
        fscope: ScopeId,
        default: Option<Node<'t>>,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        match default {
            Some(d) => self.eval_depth(d, self.m.scopes[fscope].parent.unwrap_or(0), depth + 1),
            None => vec![Alt::unknown()],
        }
    }

    /// A parameter's values outside any evaluated call: every call site's.
    fn eval_unbound_param(
        &self,
        fscope: ScopeId,
        index: usize,
        default: Option<Node<'t>>,
        node: Node<'t>,
        depth: u32,
        is_self: bool,
    ) -> Vec<Alt<'t>> {
        let m = self.m;
        let def = &m.scopes[fscope];
        let name = text(node, m.src);
        if is_self {
            // Read for an object this method's call made and returned
            // (`return dataclasses.replace(self, meter=...)`): that call's
            // receiver, not every instance.
            if let Some(alts) = self.receiver_of_made_call(fscope, depth) {
                return self.receiver_as_class(fscope, alts);
            }
            return self.receiver_as_class(fscope, self.instances_of(def.class.unwrap_or(0)));
        }
        if let Some(alts) = self.click_default(fscope, name, depth) {
            return alts;
        }
        // The first parameter of a decorator (after `self`/`cls` of a
        // method used as one): each def it decorates.
        let first_explicit = usize::from(def.class.is_some() && !m.is_static_method(fscope));
        if index == first_explicit {
            let applied = m.decorator_applications(fscope);
            if !applied.is_empty() {
                let out = applied
                    .into_iter()
                    .take(MAX_ALTS)
                    .map(|(decorated, point, at)| Alt {
                        // A class decorator (`@register class Op:`) is
                        // given the class.
                        val: if m.scopes[decorated].kind == ScopeKind::Class {
                            Val::Class(decorated)
                        } else {
                            Val::Function(decorated)
                        },
                        why: Why::Each(format!(
                            "for the def at line {}",
                            line_of(m.scopes[decorated].node)
                        )),
                        choices: vec![(point, at)],
                    })
                    .collect();
                return cap(out);
            }
        }
        // Every call site of the function in this module: each runs, unless
        // it is in a body that never runs (not while deciding conditions:
        // those see no decided branches).
        let Some(mut calls) = m.param_call_sites(fscope, index, name) else {
            return vec![Alt::unknown()];
        };
        // Inside the values of this parameter already (a recursive call's
        // argument read it): the calls the def makes of itself pass values
        // made of the ones being found, not known here and not evaluated
        // again (two recursive calls made it exponential).
        let open = (fscope, index);
        let reentered = self.params_open.borrow().contains(&open);
        if self.branch_aware {
            calls.retain(|(call, call_scope, _)| !m.never_runs(*call, *call_scope));
        }
        // A library function called only from other modules: its callers
        // supply this (resolved where a caller's requirements are gathered).
        // So is a constructor of a module-level class made only in other
        // modules (a table of classes read there).
        let constructed_elsewhere = def.name == "__init__"
            && def
                .class
                .is_some_and(|c| m.scopes[c].parent == Some(super::MODULE_SCOPE));
        if calls.is_empty()
            && def.kind == ScopeKind::Function
            && (def.parent == Some(super::MODULE_SCOPE) || constructed_elsewhere)
        {
            return vec![Alt::fixed(Val::ParamRef(Arc::new(ParamRefVal {
                def: fscope,
                index,
                name: name.to_owned(),
                path: Vec::new(),
                _node: std::marker::PhantomData,
            })))];
        }
        let defaulted = || self.param_default(fscope, default, depth);
        if calls.is_empty() {
            return defaulted();
        }
        let point = def.node.id();
        // What an unpacking passes: the default when it passes nothing.
        let unpacked = |lookup: Lookup<'t>| match lookup {
            Lookup::Found(alts) => alts,
            Lookup::Missing => defaulted(),
            Lookup::Unknown => vec![Alt::unknown()],
        };
        let mut out = Vec::new();
        self.params_open.borrow_mut().push(open);
        for (call, call_scope, source) in calls.into_iter().take(MAX_ALTS) {
            let why = Why::Each(format!("for the call at line {}", line_of(call)));
            let choice = [(point, call.id())];
            let alts = match source {
                _ if reentered && m.scope_within(call_scope, fscope) => {
                    cut();
                    vec![Alt::unknown()]
                }
                ParamSource::Arg(arg) => self.eval_depth(arg, call_scope, depth + 1),
                ParamSource::Default => defaulted(),
                ParamSource::Splat => unpacked(self.splat_argument(call, call_scope, name, depth)),
                ParamSource::Spread(rest, index) => {
                    unpacked(self.spread_item(rest, call_scope, index, depth))
                }
                ParamSource::Wrapped(position) => {
                    self.wrapping_partial_argument(call, name, position, depth)
                }
                ParamSource::Unknown => vec![Alt::unknown()],
            };
            out.extend(alts.into_iter().filter_map(|a| a.under(&why, &choice)));
        }
        self.params_open.borrow_mut().pop();
        cap(out)
    }

    /// `@click.option("--platform", default="tpu")` on the def: the default
    /// is what a plain run passes for that parameter.
    fn click_default(&self, fscope: ScopeId, name: &str, depth: u32) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        let outer = m.scopes[fscope].parent.unwrap_or(0);
        for decorator in m.scopes[fscope].decorators() {
            if decorator.kind_name() != "call" {
                continue;
            }
            let callee = m.callee(decorator, outer).unwrap_or_default();
            if !matches!(callee.as_str(), "click.option" | "click.argument") {
                continue;
            }
            let args = m.args_of(decorator);
            let names: Vec<String> = args
                .positional
                .iter()
                .filter_map(|a| string_value(*a, m.src))
                .collect();
            let matches = names.iter().any(|n| {
                let bare = n.trim_start_matches('-').replace('-', "_");
                bare == name && !n.contains('/')
            });
            if !matches {
                continue;
            }
            let flag = names.first().cloned().unwrap_or_default();
            let mut out = Vec::new();
            if let Some(default) = args.keyword("default") {
                let note = format!(
                    "with the default {flag} {} (line {})",
                    text(default, m.src),
                    line_of(default)
                );
                out.extend(
                    self.eval_depth(default, outer, depth + 1)
                        .into_iter()
                        .filter_map(|a| a.under(&Why::Default(note.clone()), &[])),
                );
            }
            if args.keyword("multiple").is_none() && args.keyword("type").is_none() {
                out.push(Alt {
                    val: Val::AnyStr,
                    why: Why::Choice,
                    choices: Vec::new(),
                });
            } else {
                out.push(Alt {
                    val: Val::Unknown,
                    why: Why::Choice,
                    choices: Vec::new(),
                });
            }
            return Some(cap(out));
        }
        None
    }

    /// The instances `self` may be in a method of `class`: the class and its
    /// subclasses in this module that are constructed somewhere. One such
    /// class is certain; several are a run-time choice.
    fn instances_of(&self, class: ScopeId) -> Vec<Alt<'t>> {
        let m = self.m;
        let constructions = |c: ScopeId| {
            let mut all = m.class_constructions(c);
            all.extend(m.value_calls(c));
            all.extend(m.maybe_value_calls(c));
            all
        };
        let mut classes: Vec<ScopeId> = m
            .subclasses(class)
            .into_iter()
            .filter(|c| !constructions(*c).is_empty())
            .collect();
        classes.sort_unstable();
        classes.dedup();
        match classes.as_slice() {
            // Constructed nowhere we can see: the class itself, unless
            // subclasses exist, whose instances (made through a registry, a
            // factory, another module) may be what runs.
            [] if m.subclasses(class).iter().any(|c| *c != class) => {
                let mut all = m.subclasses(class);
                all.push(class);
                all.sort_unstable();
                all.dedup();
                cap(all
                    .into_iter()
                    .map(|c| Alt {
                        val: Val::Instance(c, None),
                        why: Why::Choice,
                        choices: Vec::new(),
                    })
                    .collect())
            }
            [] => vec![Alt::fixed(Val::Instance(class, None))],
            [one] => {
                let ctors = constructions(*one);
                // A copy made by `replace(obj, field=...)` is an instance too.
                let ctor = (ctors.len() == 1 && self.field_replacements(*one).is_empty())
                    .then(|| ctors[0]);
                vec![Alt::fixed(Val::Instance(*one, ctor))]
            }
            many => cap(many
                .iter()
                .map(|c| Alt {
                    val: Val::Instance(*c, None),
                    why: Why::Choice,
                    choices: Vec::new(),
                })
                .collect()),
        }
    }

    fn eval_attribute(&self, node: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Alt<'t>> {
        let m = self.m;
        let (Some(object), Some(attr)) = (node.field("object"), node.field("attribute")) else {
            return vec![Alt::unknown()];
        };
        let attr = text(attr, m.src);
        // A concrete mesh's abstract view carries its first device (not a
        // property of that name of a class of this module: `plan.abstract_mesh`).
        if attr == "abstract_mesh"
            && !self
                .eval_depth(object, scope, depth + 1)
                .iter()
                .any(|a| matches!(a.val, Val::Instance(..)))
        {
            return vec![Alt::fixed(Val::Mesh(MeshValue::Abstract(
                AbstractMeshInfo {
                    device_platform: Some(String::new()),
                    repr: None,
                    has_explicit_axis: true,
                    current: false,
                },
            )))];
        }
        if m.canonical(node, scope).as_deref() == Some("sys.argv") {
            return vec![Alt::fixed(Val::Argv)];
        }
        // An imported module's constant: `defaults.EXPORT_PLATFORMS`.
        if let Some(path) = m.canonical(node, scope) {
            if let Some(alts) = self.external(&path) {
                return self.with_registrations(&path, alts);
            }
            if let Some((holder, flag)) = path.rsplit_once('.') {
                if is_flag_holder(holder) {
                    return self.absl_flag_named(flag, depth);
                }
            }
        }
        // The value the state a lowering runs under gives a settings
        // object's attribute (`overlay.rs`).
        if let Some(alts) = m.overlay_path(scope, text(node, m.src)) {
            return alts;
        }
        // `Builder().with_platform("tpu").platform`: the chain's store.
        if object.kind_name() == "call" {
            if let Some(alts) = self.chained_state(object, node, scope, attr, depth, 0) {
                return alts;
            }
        }
        // `obj.configure("tpu")` before the read, a method of obj's class
        // storing `self.platform = ...`: that store.
        if let Some(alts) = self.method_store_before(node, object, attr, scope, depth) {
            return alts;
        }
        // `configure(cfg)` before the read, storing `config.platform = ...`
        // into its parameter: that store (unless one written here follows).
        if let Some(alts) = self.callee_store(node, object, attr, scope, depth) {
            return alts;
        }
        // `cfg.set(platform="tpu")` before the read, `set` a keyword
        // setter of another module's class: the keyword's value.
        if let Some(alts) = self.foreign_setter_store_before(node, object, attr, scope, depth) {
            return alts;
        }
        // `cfg.platform = "tpu"` before the read: the stored value.
        match m.path_store_at(node, scope) {
            PathStore::Value(value, store_scope) => {
                return self.eval_depth(value, store_scope, depth + 1)
            }
            PathStore::Unknown => return vec![Alt::unknown()],
            PathStore::None => {}
        }
        // `self.x = v` earlier in this method, in straight-line code with no
        // call on `self` between: `v` (`self.mesh = None`, then
        // `self.mesh = AbstractMesh(...)`, then `NamedSharding(self.mesh, ...)`).
        // `if self.x is None: self.x = make()` earlier in this method: what
        // `self.x` held unless it was None, or what was stored.
        if let Some(store) = self.last_self_store_before(node, object, attr, scope) {
            if let Some(value) = self.straight_line_store(node, scope, &store) {
                return self.eval_depth(value, scope, depth + 1);
            }
            if let Some(alts) = self.lazy_store_before(node, attr, scope, &store, depth) {
                return alts;
            }
        }
        // `self.x` in a method: what each call's receiver holds at that
        // call (`r.platform = p; r.lower(fn)`, `r.configure(p); r.lower(fn)`).
        if let Some(alts) = self.receiver_state_at_calls(node, object, attr, scope, depth) {
            return alts;
        }
        let objects = match m.class_of_receiver(object, scope) {
            // `self.x` in a method: the instances the method runs on.
            Some(class)
                if m.enclosing_method_class(scope)
                    .is_some_and(|(c, s)| c == class && s == text(object, m.src)) =>
            {
                self.eval_depth(object, scope, depth + 1)
            }
            // `ClassName.x`
            Some(class) => vec![Alt::fixed(Val::Class(class))],
            None => self.eval_depth(object, scope, depth + 1),
        };
        // `self` of a method that several classes' instances run (a base
        // class's `__call__`, two subclasses constructed): when every
        // instance gives the same value, that value is certain whichever
        // runs (`self.backend` set to "pallas" by the base `__init__`).
        let instance_choice = objects.len() > 1
            && objects.iter().all(|o| {
                matches!(o.val, Val::Instance(..)) && o.why.is_choice() && o.choices.is_empty()
            });
        let per_object: Vec<Vec<Alt<'t>>> = objects
            .iter()
            .map(|o| {
                // (Only for an instance made where it is known: `field`,
                // reached at once, takes it.)
                if matches!(o.val, Val::Instance(_, Some(_))) {
                    self.attribute_read.set(Some((node, scope)));
                }
                // An object a call made and returned (its `made_here`
                // choice): `self` of that call's method is its receiver.
                let values = match o.val {
                    Val::Instance(_, Some(_)) => {
                        self.reading_under(&o.choices, || self.attribute_of(&o.val, attr, depth))
                    }
                    _ => self.attribute_of(&o.val, attr, depth),
                };
                self.attribute_read.set(None);
                values
            })
            .collect();
        if instance_choice {
            if let Some(first) = per_object.first() {
                let agree = |a: &Alt<'t>, b: &Alt<'t>| {
                    a.val.same(&b.val) && a.why == b.why && a.choices == b.choices
                };
                let all_agree = !first.is_empty()
                    && per_object.iter().all(|vals| {
                        vals.len() == first.len()
                            && vals.iter().zip(first).all(|(a, b)| agree(a, b))
                    });
                if all_agree {
                    return first.clone();
                }
            }
        }
        let mut out = Vec::new();
        for (o, vals) in objects.iter().zip(per_object) {
            out.extend(vals.into_iter().filter_map(|a| a.under(&o.why, &o.choices)));
        }
        cap(out)
    }

    /// `obj.attr` read after `obj.configure(...)` in the same scope, a
    /// method of obj's class that stores `self.attr = value`: that value,
    /// with the call's arguments and `obj` bound. `Unknown` when that call
    /// may not run or its method may not store. `None` without such a call,
    /// or when a plain `obj.attr = v` comes after it (that store decides).
    fn method_store_before(
        &self,
        node: Node<'t>,
        object: Node<'t>,
        attr: &str,
        scope: ScopeId,
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        if object.kind_name() != "identifier" {
            return None;
        }
        let found = self.last_method_store(object, attr, node, scope, depth)?;
        let path = format!("{}.{attr}", text(object, m.src));
        if let PathStore::Value(value, store_scope) = m.path_store_of(&path, node, scope) {
            if store_scope == scope && value.start_byte() > found.call.end_byte() {
                return None;
            }
        }
        let receiver = self.receiver_value(object, scope, depth);
        Some(self.eval_method_store(&found, receiver, scope, depth))
    }

    /// What a keyword setter of another module's class returned, `returned`
    /// (called on the object of `fields` by `call`): each object of the
    /// receiver's class it returns (its `self`) holds the call's keywords;
    /// unknown ones when the call unpacks `**`.
    fn with_keywords_set(
        &self,
        fields: &Fields,
        returned: Vec<Alt<'t>>,
        call: Node<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        let args = self.m.args_of(call);
        let class = object_class(fields);
        let keywords: Vec<(String, Vec<Alt<'t>>)> = args
            .keywords
            .iter()
            .map(|(name, value, _)| (name.clone(), self.eval_depth(*value, scope, depth + 1)))
            .collect();
        let mut out = Vec::new();
        for alt in returned {
            let Val::Object(got) = &alt.val else {
                out.push(alt);
                continue;
            };
            if class.is_none() || object_class(got) != class {
                out.push(alt);
                continue;
            }
            if args.has_dict_splat {
                out.push(Alt {
                    val: Val::Unknown,
                    ..alt
                });
                continue;
            }
            // One object per way the keywords' values go (a loop's element
            // stays paired with what else that element decides).
            let mut ways: Vec<(Fields, Why, Vec<Choice>)> =
                vec![(got.as_ref().clone(), alt.why.clone(), alt.choices.clone())];
            for (name, values) in &keywords {
                let mut next = Vec::new();
                for (set, why, choices) in &ways {
                    for value in values {
                        let Some(choices) = merge_choices(choices, &value.choices) else {
                            continue;
                        };
                        let mut set = set.clone();
                        let held =
                            self.detach(std::slice::from_ref(&Alt::fixed(value.val.clone())), 0);
                        match set.iter_mut().find(|(n, _)| n == name) {
                            Some((_, slot)) => *slot = held,
                            None => set.push((name.clone(), held)),
                        }
                        next.push((set, why.and(&value.why), choices));
                    }
                }
                ways = next;
                if ways.len() > MAX_ALTS {
                    break;
                }
            }
            if ways.len() > MAX_ALTS {
                out.push(Alt {
                    val: Val::Unknown,
                    ..alt
                });
                continue;
            }
            out.extend(ways.into_iter().map(|(set, why, choices)| Alt {
                val: Val::Object(Arc::new(set)),
                why,
                choices,
            }));
        }
        out
    }

    /// `obj.attr` read after `obj.set(attr=v)` in `scope`, `obj` an object
    /// of another module's class whose `set` stores each keyword on `self`
    /// (`Resolver`: `ModuleSummary::keyword_setters`): `v` when the last
    /// such call passing `attr` is a statement of the read's block before
    /// it; unknown when it runs otherwise or passes `**kwargs`.
    /// A name holding one object of another module's class, read after
    /// straight-line calls of that class's keyword setters on it
    /// (`cfg.set(lowering_platforms=p)`, then `Trainer(cfg)`): the object
    /// with those keywords stored (`with_keywords_set`), as a read of
    /// `cfg.lowering_platforms` there gives (`foreign_setter_store_before`).
    fn with_keyword_calls_before(
        &self,
        node: Node<'t>,
        alts: Vec<Alt<'t>>,
        scope: ScopeId,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        let m = self.m;
        let name = text(node, m.src);
        let keyword_calls = m.keyword_calls_on(scope, name);
        if keyword_calls.is_empty() {
            return alts;
        }
        let class = match alts.as_slice() {
            [Alt {
                val: Val::Object(fields),
                ..
            }] => match object_class(fields) {
                Some(class) => class.to_owned(),
                None => return alts,
            },
            _ => return alts,
        };
        let bound_at = m
            .binding_at(scope, name, node)
            .map(|b| b.position())
            .unwrap_or(0);
        let mut out = alts;
        for &i in keyword_calls.iter() {
            let call = m.calls[i].node;
            if call.start_byte() < bound_at || call.end_byte() > node.start_byte() {
                continue;
            }
            let Some(method) = call.field("function").and_then(|f| f.field("attribute")) else {
                continue;
            };
            if !m.foreign_keyword_setter(&format!("{class}.{}", text(method, m.src))) {
                continue;
            }
            let straight = m
                .parent_of(call)
                .filter(|p| p.kind_name() == "expression_statement")
                .is_some_and(|s| m.is_straight_line(s, scope, node));
            let fields = match out.as_slice() {
                [Alt {
                    val: Val::Object(fields),
                    ..
                }] if straight => fields.clone(),
                _ => return vec![Alt::unknown()],
            };
            out = self.with_keywords_set(&fields, out, call, scope, depth);
        }
        out
    }

    fn foreign_setter_store_before(
        &self,
        node: Node<'t>,
        object: Node<'t>,
        attr: &str,
        scope: ScopeId,
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        if object.kind_name() != "identifier" {
            return None;
        }
        let name = text(object, m.src);
        let keyword_calls = m.keyword_calls_on(scope, name);
        if keyword_calls.is_empty() {
            return None;
        }
        let bound_at = m
            .binding_at(scope, name, node)
            .map(|b| b.position())
            .unwrap_or(0);
        let calls: Vec<Node<'t>> = keyword_calls
            .iter()
            .map(|&i| m.calls[i].node)
            .filter(|c| c.start_byte() >= bound_at && c.end_byte() <= node.start_byte())
            .filter(|c| {
                let args = m.args_of(*c);
                args.keyword(attr).is_some() || args.has_dict_splat
            })
            .collect();
        let last = *calls.last()?;
        let class = match self.eval_depth(object, scope, depth + 1).as_slice() {
            [one] => match &one.val {
                Val::Object(fields) => object_class(fields)?.to_owned(),
                _ => return None,
            },
            _ => return None,
        };
        let method = last.field("function")?.field("attribute")?;
        let path = format!("{class}.{}", text(method, m.src));
        if !m.foreign_keyword_setter(&path) {
            return None;
        }
        let args = m.args_of(last);
        let statement = m
            .parent_of(last)
            .filter(|p| p.kind_name() == "expression_statement");
        let straight = statement.is_some_and(|s| m.is_straight_line(s, scope, node));
        match args.keyword(attr) {
            Some(value) if straight && !args.has_dict_splat => {
                Some(self.eval_depth(value, scope, depth + 1))
            }
            _ => Some(vec![Alt::unknown()]),
        }
    }

    /// The last call `receiver.method(...)` in `scope` before `before` whose
    /// method (of the receiver's class) stores `self.attr`, and whether it
    /// certainly leaves its last store's value: the call runs whenever
    /// `before` does, and that store is a plain statement of the method.
    fn last_method_store(
        &self,
        receiver: Node<'t>,
        attr: &str,
        before: Node<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Option<MethodStore<'t>> {
        let window = 0..before.start_byte();
        let bound_at = self
            .m
            .binding_at(scope, text(receiver, self.m.src), before)
            .map(|b| b.position())
            .unwrap_or(0);
        self.last_method_store_in(
            (receiver, None),
            attr,
            scope,
            window.start.max(bound_at)..window.end,
            before,
            depth,
        )
    }

    /// `last_method_store` over the calls in the byte range `window` of
    /// `scope`, certain when they run whenever `runs_with` does.
    /// `receiver`: the object's name, and its class when the caller knows it.
    fn last_method_store_in(
        &self,
        (receiver, class): (Node<'t>, Option<ScopeId>),
        attr: &str,
        scope: ScopeId,
        window: std::ops::Range<usize>,
        runs_with: Node<'t>,
        depth: u32,
    ) -> Option<MethodStore<'t>> {
        let m = self.m;
        let storing = m.methods_storing(attr);
        let setters = &m.keyword_setters().names;
        if storing.is_none() && setters.is_empty() {
            return None;
        }
        let name = text(receiver, m.src);
        let calls = m.method_calls_in(scope);
        let mut candidates: Vec<(Node<'t>, &str)> = calls
            .get(name)
            .into_iter()
            .flatten()
            .filter(|(call, _)| window.start <= call.start_byte() && call.end_byte() <= window.end)
            .filter(|(call, method)| {
                storing.is_some_and(|s| s.contains(*method))
                    || (setters.contains(*method) && may_pass_keyword(m, *call, attr))
            })
            .copied()
            .collect();
        if candidates.is_empty() {
            return None;
        }
        candidates.sort_by_key(|(call, _)| call.start_byte());
        let class = match class {
            Some(class) => class,
            None => self.receiver_class(receiver, scope, depth)?,
        };
        let mut last = None;
        for (call, method_name) in candidates {
            let Some(method) = m.method(class, method_name) else {
                continue;
            };
            if let Some(found) = self.keyword_store(call, method, attr) {
                let certain = m.is_straight_line(call, scope, runs_with);
                last = Some(MethodStore {
                    value: found.value.filter(|_| certain),
                    ..found
                });
                continue;
            }
            let Some((target, value)) = m.last_self_store(class, method, attr) else {
                continue;
            };
            let certain = m.is_body_statement_target(target, method)
                && m.is_straight_line(call, scope, runs_with);
            last = Some(MethodStore {
                call,
                method,
                value: certain.then_some(value),
                at_call: false,
            });
        }
        last
    }

    /// The store of `self.attr` that `call` of `method` makes when the
    /// method is a keyword setter (`Module::keyword_setters`) and `attr` is
    /// not one of its named parameters: the call's keyword `attr`; unknown
    /// when a `**` unpacking may pass it. `None` when the call passes no
    /// such keyword.
    fn keyword_store(
        &self,
        call: Node<'t>,
        method: ScopeId,
        attr: &str,
    ) -> Option<MethodStore<'t>> {
        let m = self.m;
        if !m.keyword_setters().methods.contains(&method)
            || m.scopes[method].params().iter().any(|(p, _)| p == attr)
            || !may_pass_keyword(m, call, attr)
        {
            return None;
        }
        Some(MethodStore {
            call,
            method,
            value: m.args_of(call).keyword(attr),
            at_call: true,
        })
    }

    /// The outermost call of the chain of methods returning `self` that
    /// starts at `call`, an instance of `class` (`Config().named(n).set(..)`
    /// for `Config()`); `call` itself when none follows.
    fn self_chain_end(&self, call: Node<'t>, class: ScopeId) -> Node<'t> {
        let m = self.m;
        let mut end = call;
        for _ in 0..8 {
            let Some(link) = self
                .m
                .parent_of(end)
                .filter(|a| a.kind_name() == "attribute")
                .and_then(|a| self.m.parent_of(a).filter(|c| c.kind_name() == "call"))
                .filter(|c| {
                    c.field("function")
                        .and_then(|f| f.field("object"))
                        .is_some_and(|o| o.id() == end.id())
                })
            else {
                break;
            };
            let returns_own = link
                .field("function")
                .and_then(|f| f.field("attribute"))
                .and_then(|a| m.method(class, text(a, m.src)))
                .is_some_and(|method| returns_self(m, method));
            if !returns_own {
                break;
            }
            end = link;
        }
        end
    }

    /// What the keyword setters of `class` (not `__init__`) may store in
    /// `attr` anywhere in the module, each a run-time choice: every call
    /// passing keyword `attr` gives its value, one unpacking `**` gives
    /// unknown, and so does a setter named other than by a call (a
    /// `partial` of it, a reference passed on).
    fn unseen_keyword_stores(
        &self,
        class: ScopeId,
        ctor: Option<(Node<'t>, ScopeId)>,
        attr: &str,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        let m = self.m;
        // A call on an object certainly made by another construction
        // (`Config().set(platforms=...)`, `other = Config(); other.set(...)`)
        // stores into that object, not the one `ctor` made.
        let on_another_object = |call: Node<'t>, scope: ScopeId| {
            let Some((made, _)) = ctor else {
                return false;
            };
            let Some(receiver) = call
                .field("function")
                .filter(|f| f.kind_name() == "attribute")
                .and_then(|f| f.field("object"))
            else {
                return false;
            };
            let values = self.eval_depth(receiver, scope, depth + 1);
            !values.is_empty()
                && values.iter().all(|v| {
                    v.why.certain()
                        && matches!(v.val, Val::Instance(_, Some((other, _))) if other.id() != made.id())
                })
        };
        let setters = &m.keyword_setters().methods;
        if setters.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for &setter in setters {
            let name = m.scopes[setter].name.as_str();
            if name == "__init__"
                || m.method(class, name) != Some(setter)
                || m.scopes[setter].params().iter().any(|(p, _)| p == attr)
            {
                continue;
            }
            let calls = m.calls_named(name);
            for &i in calls {
                let site = &m.calls[i];
                if !may_pass_keyword(m, site.node, attr) || on_another_object(site.node, site.scope)
                {
                    continue;
                }
                match m.args_of(site.node).keyword(attr) {
                    Some(value) => out.extend(self.eval_depth(value, site.scope, depth + 1)),
                    None => out.push(Alt::unknown()),
                }
            }
            // The def's own name and each call's.
            if m.identifier_mentions(name) > calls.len() + 1 {
                out.push(Alt::unknown());
            }
        }
        for a in out.iter_mut() {
            a.why = Why::Choice;
        }
        out
    }

    /// The value of a method call's receiver, when it has one.
    fn receiver_value(&self, receiver: Node<'t>, scope: ScopeId, depth: u32) -> Alt<'t> {
        match self.eval_depth(receiver, scope, depth + 1).as_slice() {
            [one] => one.clone(),
            _ => Alt::unknown(),
        }
    }

    /// The one class `receiver` is an instance of (`self` of a method: its
    /// class).
    fn receiver_class(&self, receiver: Node<'t>, scope: ScopeId, depth: u32) -> Option<ScopeId> {
        let m = self.m;
        if let Some((class, self_name)) = m.enclosing_method_class(scope) {
            if text(receiver, m.src) == self_name {
                return Some(class);
            }
        }
        let mut classes = self
            .eval_depth(receiver, scope, depth + 1)
            .into_iter()
            .map(|a| match a.val {
                Val::Instance(class, _) => Some(class),
                _ => None,
            });
        let first = classes.next()??;
        classes.all(|c| c == Some(first)).then_some(first)
    }

    /// The value a method call leaves in the attribute (`last_method_store`):
    /// its store evaluated with the call bound.
    fn eval_method_store(
        &self,
        found: &MethodStore<'t>,
        receiver: Alt<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        let Some(value) = found.value else {
            return vec![Alt::unknown()];
        };
        if found.at_call {
            return self.eval_depth(value, scope, depth + 1);
        }
        let open = self
            .bound
            .borrow()
            .iter()
            .any(|b| b.def == found.method && b.call.id() == found.call.id());
        if open || self.bound.borrow().len() > 6 {
            return vec![Alt::unknown()];
        }
        let bound = Bound {
            def: found.method,
            call: found.call,
            call_scope: scope,
            receiver: Some(receiver),
            given: Vec::new(),
        };
        self.with_bound(bound, || self.eval_depth(value, found.method, depth + 1))
    }

    /// `obj.attr` read where `obj` is a parameter (`self` of a method other
    /// than `__init__`, or a plain one): at each call of the function (the
    /// one being evaluated, else every call site), the value the object
    /// passed there was left with just before the call, by `obj.attr = v`
    /// or by a method call storing it (`r.platform = p; r.lower(fn)`,
    /// `r.configure(p); lower(r)`), also through callers that pass on their
    /// own parameter. A call without such a store sees the attribute as it
    /// is otherwise known. `None` when no call has one.
    fn receiver_state_at_calls(
        &self,
        node: Node<'t>,
        object: Node<'t>,
        attr: &str,
        scope: ScopeId,
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        if object.kind_name() != "identifier" {
            return None;
        }
        if self.receiver_sites_open.borrow().contains(&node.id()) {
            cut();
            return None;
        }
        let per_site = self.param_state_at_calls(object, attr, scope, depth, 0)?;
        let otherwise = per_site.iter().any(|(_, alts)| alts.is_none()).then(|| {
            self.receiver_sites_open.borrow_mut().push(node.id());
            let alts = self.eval_depth(node, scope, depth + 1);
            self.receiver_sites_open.borrow_mut().pop();
            alts
        });
        let mut out = Vec::new();
        for ((why, choices), alts) in per_site {
            let alts = alts.unwrap_or_else(|| otherwise.clone().unwrap_or_default());
            out.extend(alts.into_iter().filter_map(|a| a.under(&why, &choices)));
        }
        Some(cap(out))
    }

    /// For `param.attr` (`param` bound to a parameter at `object`), each call
    /// of its function: how it is told apart (why, choices) and the value
    /// the argument held there just before the call, if a store says.
    /// `None` when no call has one, or the calls are not all visible.
    #[allow(clippy::type_complexity)]
    fn param_state_at_calls(
        &self,
        object: Node<'t>,
        attr: &str,
        scope: ScopeId,
        depth: u32,
        hops: u32,
    ) -> Option<Vec<((Why, Vec<Choice>), Option<Vec<Alt<'t>>>)>> {
        let m = self.m;
        if !m.attribute_ever_stored(attr) {
            return None;
        }
        let name = text(object, m.src);
        let Some(Binding::Param {
            scope: def, index, ..
        }) = m.binding_at(scope, name, object)
        else {
            return None;
        };
        let (def, index) = (*def, *index);
        let is_method = m.scopes[def].class.is_some() && !m.is_static_method(def);
        let is_self = is_method && index == 0;
        if m.scopes[def].kind != ScopeKind::Function
            || (is_method && m.scopes[def].name == "__init__")
            || m.is_class_method(def)
        {
            return None;
        }
        // The argument a call passes for the parameter.
        let argument = |call: Node<'t>, bound_self: bool| -> Option<Node<'t>> {
            if is_self {
                return call.field("function")?.field("object");
            }
            let args = m.args_of(call);
            let position = m.param_position(def, index, bound_self);
            args.keyword(name)
                .or_else(|| position.and_then(|p| args.positional.get(p).copied()))
        };
        let bound_call = self
            .bound
            .borrow()
            .iter()
            .rev()
            .find(|b| b.def == def)
            .map(|b| (b.call, b.call_scope, b.receiver.is_some()));
        let sites: Vec<(Node<'t>, ScopeId, Node<'t>)> = match bound_call {
            Some((call, call_scope, bound_self)) => {
                vec![(call, call_scope, argument(call, bound_self)?)]
            }
            None => {
                let sites = m.def_call_sites(def);
                if sites.is_empty() || sites.len() > MAX_ALTS {
                    return None;
                }
                sites
                    .iter()
                    .map(|s| match s.kind {
                        SiteKind::Direct { bound_self } if bound_self == is_method => {
                            Some((s.call, s.scope, argument(s.call, bound_self)?))
                        }
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()?
            }
        };
        let point = m.scopes[def].node.id();
        let several = sites.len() > 1;
        let mut any = false;
        let mut out = Vec::new();
        for (call, call_scope, arg) in sites {
            let arg = unparenthesize(arg);
            let mut state = self.chained_state(arg, call, call_scope, attr, depth, 0);
            // Passed on from the caller's own parameter: its state there.
            let mut nested = None;
            if state.is_none() && arg.kind_name() == "identifier" && hops < 3 {
                nested = self.param_state_at_calls(arg, attr, call_scope, depth, hops + 1);
            }
            let why = if several {
                Why::Each(format!("for the call at line {}", line_of(call)))
            } else {
                Why::Fixed
            };
            let choices = if bound_call.is_some() {
                Vec::new()
            } else {
                vec![(point, call.id())]
            };
            if let Some(nested) = nested {
                let mut alts = Vec::new();
                for ((inner_why, inner_choices), inner) in nested {
                    let inner = inner.unwrap_or_else(|| vec![Alt::unknown()]);
                    alts.extend(
                        inner
                            .into_iter()
                            .filter_map(|a| a.under(&inner_why, &inner_choices)),
                    );
                }
                state = Some(alts);
            }
            any |= state.is_some();
            out.push(((why, choices), state));
        }
        any.then_some(out)
    }

    /// `receiver_state_before` for a receiver that may be a chain of calls
    /// of methods returning `self` (`Runner().with_platform("cuda")`, a
    /// builder): the last of them storing `attr` decides; one storing it
    /// only sometimes leaves it unknown; a chain starting at a name adds
    /// what was stored through the name before `call`.
    fn chained_state(
        &self,
        receiver: Node<'t>,
        call: Node<'t>,
        scope: ScopeId,
        attr: &str,
        depth: u32,
        links: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        let receiver = unparenthesize(receiver);
        if receiver.kind_name() == "identifier" {
            return self.receiver_state_before(receiver, call, scope, attr, depth);
        }
        if receiver.kind_name() != "call" || links > 8 {
            return None;
        }
        let function = receiver.field("function")?;
        if function.kind_name() != "attribute" {
            return None;
        }
        // Only a method storing the attribute can decide it (no receiver is
        // evaluated for `x.reshape(...).shape`).
        if m.methods_storing(attr).is_none() && m.keyword_setters().names.is_empty() {
            return None;
        }
        let inner = function.field("object")?;
        let method_name = text(function.field("attribute")?, m.src);
        let inner_values = self.eval_depth(inner, scope, depth + 1);
        if let [one] = inner_values.as_slice() {
            return self.chained_state_of(
                one.clone(),
                (receiver, inner, method_name),
                call,
                scope,
                attr,
                depth,
                links,
            );
        }
        // The receiver is one of several objects (`CONFIGS[name]().set(...)`,
        // a class picked at run time): each instance's chain decides for it,
        // under the choice that made it; anything else is not known.
        if inner_values.len() > MAX_ALTS
            || !inner_values
                .iter()
                .any(|a| matches!(a.val, Val::Instance(..)))
        {
            return None;
        }
        let mut out = Vec::new();
        for alt in inner_values {
            let (why, choices) = (alt.why.clone(), alt.choices.clone());
            let state = match alt.val {
                Val::Instance(..) => self.chained_state_of(
                    alt,
                    (receiver, inner, method_name),
                    call,
                    scope,
                    attr,
                    depth,
                    links,
                ),
                _ => None,
            };
            let alts = state.unwrap_or_else(|| vec![Alt::unknown()]);
            out.extend(alts.into_iter().filter_map(|a| a.under(&why, &choices)));
        }
        Some(out)
    }

    /// `chained_state` for one value of the chain's inner receiver:
    /// `receiver` is `inner.method_name(...)`.
    #[allow(clippy::too_many_arguments)]
    fn chained_state_of(
        &self,
        inner_value: Alt<'t>,
        (receiver, inner, method_name): (Node<'t>, Node<'t>, &str),
        call: Node<'t>,
        scope: ScopeId,
        attr: &str,
        depth: u32,
        links: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        let Val::Instance(class, _) = inner_value.val else {
            return None;
        };
        let method = m.method(class, method_name)?;
        if !returns_self(m, method) {
            return None;
        }
        if let Some(found) = self.keyword_store(receiver, method, attr) {
            return Some(self.eval_method_store(&found, inner_value, scope, depth));
        }
        match m.last_self_store(class, method, attr) {
            None => self.chained_state(inner, call, scope, attr, depth, links + 1),
            Some((target, value)) => {
                let found = MethodStore {
                    call: receiver,
                    method,
                    value: m.is_body_statement_target(target, method).then_some(value),
                    at_call: false,
                };
                Some(self.eval_method_store(&found, inner_value, scope, depth))
            }
        }
    }

    /// The value `obj.attr` holds just before `call` (`obj.method(...)`,
    /// `f(obj)`) because of a store in the call's scope: `obj.attr = v` or a method
    /// call on `obj` that stores it, whichever comes last. `None` without.
    fn receiver_state_before(
        &self,
        receiver: Node<'t>,
        call: Node<'t>,
        scope: ScopeId,
        attr: &str,
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        if receiver.kind_name() != "identifier" {
            return None;
        }
        let by_method = self.last_method_store(receiver, attr, call, scope, depth);
        let after = by_method.as_ref().map_or(0, |f| f.call.end_byte());
        let is_self = m
            .enclosing_method_class(scope)
            .is_some_and(|(_, s)| s == text(receiver, m.src));
        let plain = if is_self {
            self.own_store_before(call, receiver, attr, scope)
                .map(|value| PathStore::Value(value, scope))
                .unwrap_or(PathStore::None)
        } else {
            let path = format!("{}.{attr}", text(receiver, m.src));
            m.path_store_of(&path, call, scope)
        };
        match plain {
            // (A store in an enclosing scope ran before this one's calls.)
            PathStore::Value(value, store_scope)
                if by_method.is_none() || (store_scope == scope && value.start_byte() > after) =>
            {
                Some(self.eval_depth(value, store_scope, depth + 1))
            }
            PathStore::Unknown if by_method.is_none() => Some(vec![Alt::unknown()]),
            _ => by_method.map(|found| {
                let value = self.receiver_value(receiver, scope, depth);
                self.eval_method_store(&found, value, scope, depth)
            }),
        }
    }

    /// The last call `self.method(...)` that is a plain statement of
    /// `__init__` (`init`) and whose method's last store of `attr` is a
    /// plain statement among `chosen`: (the call, the method, that store's
    /// target).
    fn init_method_store(
        &self,
        init: ScopeId,
        class: ScopeId,
        attr: &str,
        chosen: &[&Binding<'t>],
    ) -> Option<(Node<'t>, ScopeId, Node<'t>)> {
        let m = self.m;
        let self_name = m.scopes[init].params().first()?.0.clone();
        let mut found = None;
        for &i in &m.scopes[init].calls {
            let call = m.calls[i].node;
            let Some(function) = call.field("function") else {
                continue;
            };
            if function.kind_name() != "attribute"
                || function.field("object").map(|o| text(o, m.src)) != Some(self_name.as_str())
                || !m.is_body_statement_target(call, init)
            {
                continue;
            }
            let Some(method) = function
                .field("attribute")
                .and_then(|a| m.method(class, text(a, m.src)))
            else {
                continue;
            };
            if method == init {
                continue;
            }
            let Some((last, _)) = m.last_self_store(class, method, attr) else {
                continue;
            };
            let kept = chosen
                .iter()
                .any(|b| matches!(b, Binding::Value { target, .. } if target.id() == last.id()));
            if kept && m.is_body_statement_target(last, method) {
                found = Some((call, method, last));
            }
        }
        found
    }

    /// `c = Runner(...)` then `c.configure(...)` in the same scope, a method
    /// storing `self.attr`: the last such call.
    fn method_store_after_construction(
        &self,
        class: ScopeId,
        call: Node<'t>,
        call_scope: ScopeId,
        attr: &str,
        depth: u32,
    ) -> Option<MethodStore<'t>> {
        let m = self.m;
        let name = m.constructed_name(call)?;
        // The name bound again: calls on it may be on another object.
        if m.bindings
            .get(&(call_scope, text(name, m.src).to_owned()))
            .is_some_and(|b| b.len() > 1)
        {
            return None;
        }
        // (The module's node is one section of its text: the end is the text's.)
        let end = match m.scopes[call_scope].kind {
            ScopeKind::Module => m.src.len(),
            _ => m.scopes[call_scope].node.end_byte(),
        };
        self.last_method_store_in(
            (name, Some(class)),
            attr,
            call_scope,
            call.end_byte()..end,
            call,
            depth,
        )
    }

    /// The value of the last `self.attr = value` of the method `scope`
    /// before `node` reads `self.attr`, when it runs straight-line before
    /// the read and no call on `self` comes between (which may store again).
    fn own_store_before(
        &self,
        node: Node<'t>,
        object: Node<'t>,
        attr: &str,
        scope: ScopeId,
    ) -> Option<Node<'t>> {
        let store = self.last_self_store_before(node, object, attr, scope)?;
        self.straight_line_store(node, scope, &store)
    }

    /// The value of `store` (`last_self_store_before`) when it runs
    /// straight-line before `node` with no call on `self` between.
    fn straight_line_store(
        &self,
        node: Node<'t>,
        scope: ScopeId,
        (value, target, self_name): &(Node<'t>, Node<'t>, String),
    ) -> Option<Node<'t>> {
        (self.m.is_straight_line(*target, scope, node)
            && !self.self_called_between(scope, self_name, target.end_byte(), node.start_byte()))
        .then_some(*value)
    }

    /// The last `self.attr = value` of the method `scope` before `node`,
    /// when `object` (read as `object.attr` at `node`) is that method's
    /// `self`: (value, target, the name of `self`).
    fn last_self_store_before(
        &self,
        node: Node<'t>,
        object: Node<'t>,
        attr: &str,
        scope: ScopeId,
    ) -> Option<(Node<'t>, Node<'t>, String)> {
        let m = self.m;
        if object.kind_name() != "identifier" {
            return None;
        }
        let (class, self_name) = m.enclosing_method_class(scope)?;
        if text(object, m.src) != self_name {
            return None;
        }
        let stores = m.attribute(class, attr)?;
        let (value, target) = stores
            .iter()
            .filter_map(|b| match b {
                Binding::Value {
                    value,
                    scope: store_scope,
                    target,
                } if *store_scope == scope && target.end_byte() <= node.start_byte() => {
                    Some((*value, *target))
                }
                _ => None,
            })
            .max_by_key(|(_, target)| target.start_byte())?;
        Some((value, target, self_name))
    }

    /// Whether the method `scope` calls a method on `self` (which may store
    /// again) between bytes `from` and `to`.
    fn self_called_between(&self, scope: ScopeId, self_name: &str, from: usize, to: usize) -> bool {
        let m = self.m;
        m.scopes[scope].calls.iter().any(|&i| {
            let call = m.calls[i].node;
            call.start_byte() >= from
                && call.end_byte() <= to
                && call.field("function").is_some_and(|f| {
                    f.kind_name() == "attribute"
                        && f.field("object")
                            .is_some_and(|o| text(o, m.src) == self_name)
                })
        })
    }

    /// `self.attr` read after `if self.attr is None: self.attr = value` (or
    /// `if not self.attr:`) of the same method, the store a plain statement
    /// of that `if` (no `else`), which runs straight-line before the read
    /// with no call on `self` between: the value stored, or what `self.attr`
    /// held at the test when the test is false for it (lazy initialisation).
    fn lazy_store_before(
        &self,
        node: Node<'t>,
        attr: &str,
        scope: ScopeId,
        (value, target, self_name): &(Node<'t>, Node<'t>, String),
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        let (value, target) = (*value, *target);
        // The store's statement, a plain statement of an `if` without
        // `elif`/`else` whose condition tests this attribute.
        let statement = m.enclosing_statement(target);
        let block = m
            .parent_of(statement)
            .filter(|b| b.kind_name() == "block")?;
        let if_statement = m
            .parent_of(block)
            .filter(|i| i.kind_name() == "if_statement")
            .filter(|i| i.field("consequence").is_some_and(|c| c.id() == block.id()))
            .filter(|i| i.field("alternative").is_none())?;
        let condition = unparenthesize(if_statement.field("condition")?);
        let is_self_attr = |n: Node<'t>| {
            let n = unparenthesize(n);
            n.kind_name() == "attribute"
                && n.field("object")
                    .is_some_and(|o| text(o, m.src) == self_name)
                && n.field("attribute").is_some_and(|a| text(a, m.src) == attr)
        };
        // (tested, replaced when): `is None` replaces None, `not` any falsy.
        let (tested, only_none) = match condition.kind_name() {
            "not_operator" => (
                condition.field("argument").filter(|a| is_self_attr(*a))?,
                false,
            ),
            "comparison_operator" => {
                let (left, right) = (condition.named_child(0)?, condition.named_child(1)?);
                if crate::syntax::comparison_operators(condition) != ["is"]
                    || right.kind_name() != "none"
                    || !is_self_attr(left)
                {
                    return None;
                }
                (left, true)
            }
            _ => return None,
        };
        if !m.is_straight_line(if_statement, scope, node) {
            return None;
        }
        if self.self_called_between(scope, self_name, if_statement.end_byte(), node.start_byte()) {
            return None;
        }
        // What `self.attr` held at the test: replaced (the test is true for
        // it), kept, or not known.
        let held = self.eval_depth(tested, scope, depth + 1);
        let replaced = |a: &Alt<'t>| match (&a.val, only_none) {
            (Val::None, _) => Some(true),
            (Val::Unknown, _) => None,
            (v, false) => v.truthy().map(|t| !t),
            (_, true) => Some(false),
        };
        let (mut kept, mut open, mut any_replaced) = (Vec::new(), false, false);
        for a in held {
            match replaced(&a) {
                Some(true) => any_replaced = true,
                Some(false) => kept.push(a),
                None => {
                    open = true;
                    kept.push(a);
                }
            }
        }
        if !any_replaced && !open {
            // The test is false for every value held: the store never runs.
            return Some(kept);
        }
        let stored = self.eval_depth(value, scope, depth + 1);
        if kept.is_empty() {
            return Some(stored);
        }
        let first = stored.first().map(|a| a.val.clone());
        if !open
            && first.as_ref().is_some_and(|f| {
                !f.is_unknown() && stored.iter().chain(&kept).all(|a| a.val.same(f))
            })
        {
            return Some(stored);
        }
        let mut out = stored;
        out.extend(kept);
        Some(cap(out
            .into_iter()
            .map(|a| Alt {
                why: Why::Choice,
                ..a
            })
            .collect()))
    }

    /// `obj.attr` read after a call in the same scope that passes `obj` to a
    /// function of this module storing `param.attr = value` into the
    /// parameter that receives it (a config-mutating helper): that value,
    /// with the call's arguments bound, when the last such call certainly
    /// ran and its store is a plain statement of the function; `Unknown`
    /// when it may not have. `None` without such a call, or when a store
    /// written here comes after it.
    fn callee_store(
        &self,
        node: Node<'t>,
        object: Node<'t>,
        attr: &str,
        scope: ScopeId,
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        if object.kind_name() != "identifier" || !m.stores_into_a_parameter(attr) {
            return None;
        }
        let root = text(object, m.src);
        // (the call, the function, its stores: target and value)
        type CalleeStores<'t> = (Node<'t>, ScopeId, Vec<(Node<'t>, Node<'t>)>);
        let mut last: Option<CalleeStores<'t>> = None;
        for &i in &m.scopes[scope].calls {
            let site = &m.calls[i];
            if site.node.end_byte() > node.start_byte() {
                continue;
            }
            let passes = |a: Node<'t>| a.kind_name() == "identifier" && text(a, m.src) == root;
            if let Some((def, in_def)) =
                self.stores_into_receiving_parameter(site.node, scope, &passes, attr)
            {
                last = Some((site.node, def, in_def));
            }
        }
        let (call, def, stores) = last?;
        if let PathStore::Value(value, _) = m.path_store_at(node, scope) {
            if value.start_byte() > call.end_byte() {
                return None;
            }
        }
        self.parameter_store_value(call, scope, node, def, &stores, depth)
    }

    /// An object's attribute stored by a function of this module it is
    /// passed to (`plan(Model())` or `m = Model(); plan(m)`, with `def
    /// plan(model): model.target = "cuda"`): the value stored, the call's
    /// arguments bound, for a read after the store (in the function, or
    /// anywhere else after the call: a method run by a lowering later).
    /// `Unknown` when the call or the store may not run; `None` without
    /// such a store, or for a read before it.
    fn store_through_parameter(
        &self,
        made: Node<'t>,
        scope: ScopeId,
        attr: &str,
        read: Option<(Node<'t>, ScopeId)>,
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        if !m.stores_into_a_parameter(attr) {
            return None;
        }
        // The calls that pass the object: the one it is made in the
        // arguments of, or those passing the name it is bound to, after.
        let mut passing: Vec<(Node<'t>, Node<'t>)> = Vec::new();
        let mut value = made;
        while let Some(parent) = m.parent_of(value) {
            match parent.kind_name() {
                "parenthesized_expression" => value = parent,
                "keyword_argument" => value = parent,
                _ => break,
            }
        }
        if let Some(call) = m
            .parent_of(value)
            .filter(|a| a.kind_name() == "argument_list")
            .and_then(|a| m.parent_of(a))
            .filter(|c| c.kind_name() == "call")
        {
            passing.push((call, unparenthesize(made)));
        }
        let name = m
            .constructed_name(made)
            .filter(|n| n.kind_name() == "identifier")
            .map(|n| text(n, m.src));
        if let Some(name) = name {
            for &i in &m.scopes[scope].calls {
                let site = m.calls[i].node;
                if site.start_byte() < made.end_byte() {
                    continue;
                }
                let args = m.args_of(site);
                let arg = args
                    .positional
                    .iter()
                    .chain(args.keywords.iter().map(|(_, v, _)| v))
                    .find(|a| a.kind_name() == "identifier" && text(**a, m.src) == name);
                if let Some(arg) = arg {
                    passing.push((site, *arg));
                }
            }
        }
        // (the call, the function, its stores into the parameter)
        type ParamStores<'t> = (Node<'t>, ScopeId, Vec<(Node<'t>, Node<'t>)>);
        let mut last: Option<ParamStores<'t>> = None;
        // A call whose function hands the object on to one that stores
        // the attribute (`walk(tree, tv)` calling `visit(n, tv)`): what
        // it stores is not followed, so a read after it is not known.
        let mut handed_on: Option<Node<'t>> = None;
        for (call, arg) in passing {
            let passes = |a: Node<'t>| a.id() == arg.id();
            if let Some((def, in_def)) =
                self.stores_into_receiving_parameter(call, scope, &passes, attr)
            {
                last = Some((call, def, in_def));
            } else if self.hands_on_to_a_store(call, scope, &passes, attr, 0) {
                handed_on = Some(call);
            }
        }
        if let Some(call) = handed_on.filter(|c| {
            last.as_ref()
                .is_none_or(|(l, _, _)| l.start_byte() < c.start_byte())
        }) {
            return match read {
                Some((node, s)) if s == scope && node.end_byte() <= call.start_byte() => None,
                _ => Some(vec![Alt::unknown()]),
            };
        }
        let (call, def, stores) = last?;
        // A read before the store: in the function, or where the object
        // is made, before the call.
        match read {
            Some((node, s))
                if s == def
                    && stores
                        .iter()
                        .all(|(t, _)| t.start_byte() > node.start_byte()) =>
            {
                return None
            }
            Some((node, s)) if s == scope && node.end_byte() <= call.start_byte() => return None,
            _ => {}
        }
        self.parameter_store_value(call, scope, made, def, &stores, depth)
    }

    /// Whether `call` of a function of this module passes what `passes`
    /// picks to a parameter that the function hands on, in a call of its
    /// own, to a function that stores `attr` into it (or hands it on in
    /// turn, a few calls deep).
    fn hands_on_to_a_store(
        &self,
        call: Node<'t>,
        scope: ScopeId,
        passes: &dyn Fn(Node<'t>) -> bool,
        attr: &str,
        depth: u32,
    ) -> bool {
        if depth > 3 {
            return false;
        }
        let m = self.m;
        let Some((def, receiving)) = self.receiving_parameters(call, scope, passes) else {
            return false;
        };
        m.scopes[def].calls.iter().any(|&i| {
            let inner = m.calls[i].node;
            let receives = |r: &str| receiving.iter().any(|n| n == r);
            let hands = |a: Node<'t>| match a.kind_name() {
                "identifier" => receives(text(a, m.src)),
                "list_splat" => receives("*"),
                "dictionary_splat" => receives("**"),
                _ => false,
            };
            let args = m.args_of(inner);
            let hands_any = args
                .positional
                .iter()
                .chain(args.keywords.iter().map(|(_, v, _)| v))
                .copied()
                .chain(splat_arguments(inner))
                .any(hands);
            hands_any
                && (self
                    .stores_into_receiving_parameter(inner, def, &hands, attr)
                    .is_some()
                    || self.hands_on_to_a_store(inner, def, &hands, attr, depth + 1)
                    || (self.calls_a_parameter(inner, def) && self.parameter_store_written(attr)))
        })
    }

    /// Whether `call`, in `def`, calls what a parameter of `def` holds
    /// (`visit(node)` in `def walk(node, visit)`): any function passed in.
    fn calls_a_parameter(&self, call: Node<'t>, def: ScopeId) -> bool {
        let m = self.m;
        call.field("function")
            .filter(|f| f.kind_name() == "identifier")
            .is_some_and(|f| {
                matches!(
                    m.binding_at(def, text(f, m.src), f),
                    Some(Binding::Param { .. })
                )
            })
    }

    /// Whether some function of the module stores attribute `attr` into
    /// an object it is given other than its receiver (`def vis(n): n.value
    /// = v`): one a call through a parameter may run.
    fn parameter_store_written(&self, attr: &str) -> bool {
        let m = self.m;
        self.attribute_stores_named(attr).any(|store| {
            let Some(object) = store
                .field("object")
                .filter(|o| o.kind_name() == "identifier")
            else {
                return false;
            };
            let scope = m.innermost_scope_at(object.start_byte());
            matches!(
                m.binding_at(scope, text(object, m.src), object),
                Some(Binding::Param { index, scope: s, .. })
                    if *index > 0 || m.scopes[*s].class.is_none()
            )
        })
    }

    /// For `call` of a function of this module (called by its name): the
    /// function and the names of its parameters that receive an argument
    /// `passes` picks.
    fn receiving_parameters(
        &self,
        call: Node<'t>,
        scope: ScopeId,
        passes: &dyn Fn(Node<'t>) -> bool,
    ) -> Option<(ScopeId, Vec<String>)> {
        let m = self.m;
        let func = call
            .field("function")
            .filter(|f| f.kind_name() == "identifier")?;
        let Some(Binding::Def(def)) = m.binding_at(scope, text(func, m.src), func) else {
            return None;
        };
        let def = *def;
        if m.scopes[def].kind != ScopeKind::Function {
            return None;
        }
        let args = m.args_of(call);
        let params = m.scopes[def].params();
        let named = |n: &str| n != "*" && n != "/";
        // Past the named positions, or by a name no parameter has, an
        // argument lands in `*args` ("*") or `**kwargs` ("**").
        let mut receiving: Vec<String> = args
            .positional
            .iter()
            .enumerate()
            .filter(|(_, a)| passes(**a))
            .map(|(p, _)| match params.get(p) {
                Some((n, _)) if named(n) => n.clone(),
                _ => "*".to_owned(),
            })
            .collect();
        receiving.extend(
            args.keywords
                .iter()
                .filter(|(_, v, _)| passes(*v))
                .map(|(n, _, _)| {
                    if params.iter().any(|(p, _)| p == n) {
                        n.clone()
                    } else {
                        "**".to_owned()
                    }
                }),
        );
        // `f(*args)` / `f(**kwargs)` handing on what it received: any
        // parameter may get it.
        if splat_arguments(call).any(passes) {
            receiving.extend(params.iter().map(|(n, _)| n.clone()).filter(|n| named(n)));
            receiving.extend(["*".to_owned(), "**".to_owned()]);
        }
        Some((def, receiving))
    }

    /// For `call` of a function of this module: the function and its
    /// stores `param.attr = v` (target, value) into the parameters that
    /// receive an argument `passes` picks. `None` without any.
    fn stores_into_receiving_parameter(
        &self,
        call: Node<'t>,
        scope: ScopeId,
        passes: &dyn Fn(Node<'t>) -> bool,
        attr: &str,
    ) -> Option<(ScopeId, Vec<(Node<'t>, Node<'t>)>)> {
        let m = self.m;
        let (def, receiving) = self.receiving_parameters(call, scope, passes)?;
        let mut in_def = Vec::new();
        let receiving = receiving.iter().map(String::as_str);
        for param in receiving {
            if let Some(stores) = m.path_stores.get(&format!("{param}.{attr}")) {
                in_def.extend(
                    stores
                        .iter()
                        .filter(|(s, _, _)| *s == def)
                        .map(|(_, target, value)| (*target, *value)),
                );
            }
        }
        (!in_def.is_empty()).then_some((def, in_def))
    }

    /// The last of `stores` (into a parameter of `def`, which `call` in
    /// `scope` runs) with the call's arguments bound, when the call runs
    /// whenever `anchor` does and every store is a plain statement of the
    /// function; else `Unknown`.
    fn parameter_store_value(
        &self,
        call: Node<'t>,
        scope: ScopeId,
        anchor: Node<'t>,
        def: ScopeId,
        stores: &[(Node<'t>, Node<'t>)],
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        let certain = m.is_straight_line(call, scope, anchor)
            && stores
                .iter()
                .all(|(target, _)| m.is_body_statement_target(*target, def));
        let (_, value) = stores.last()?;
        if !certain || self.bound.borrow().len() > 6 {
            return Some(vec![Alt::unknown()]);
        }
        let bound = Bound {
            def,
            call,
            call_scope: scope,
            receiver: None,
            given: Vec::new(),
        };
        Some(self.with_bound(bound, || self.eval_depth(*value, def, depth + 1)))
    }

    /// A def of this module another answer named by its module-level name
    /// (`Ref("Log")`: a class registered into a dict of this module, read
    /// back): the def's value.
    pub(crate) fn own_def_of_ref(&self, path: &str) -> Option<Val<'t>> {
        if path.contains('.') || path.starts_with(super::reach::LOCAL_REF) {
            return None;
        }
        match self.m.lookup(super::MODULE_SCOPE, path)?.last()? {
            Binding::Def(id) => Some(match self.m.scopes[*id].kind {
                ScopeKind::Class => Val::Class(*id),
                _ => Val::Function(*id),
            }),
            _ => None,
        }
    }

    /// Attribute `attr` of one value.
    fn attribute_of(&self, object: &Val<'t>, attr: &str, depth: u32) -> Vec<Alt<'t>> {
        if let Val::Ref(path) = object {
            if let Some(own) = self.own_def_of_ref(path) {
                return self.attribute_of(&own, attr, depth + 1);
            }
        }
        match object {
            Val::Instance(class, ctor) if attr == "__dict__" => {
                vec![Alt::fixed(Val::InstanceDict(*class, *ctor))]
            }
            // `self.__class__(**self.settings)`: a construction of the
            // object's own class, as `type(self)(...)` is.
            Val::Instance(class, _) if attr == "__class__" => {
                vec![Alt::fixed(Val::Class(*class))]
            }
            Val::Instance(class, None) => self.instance_field(*class, attr, depth),
            Val::Instance(class, ctor) => self.field(*class, *ctor, attr, depth),
            // `cls.__name__` of a class or function of this module (a registry
            // keyed by it); `__qualname__` its dotted path from the module
            // (`Stepper.collide`, `make.<locals>.apply`).
            Val::Class(def) | Val::Function(def)
                if self.m.scopes[*def].kind != ScopeKind::Lambda && attr == "__name__" =>
            {
                vec![Alt::fixed(Val::Str(self.m.scopes[*def].name.clone()))]
            }
            Val::Class(def) | Val::Function(def) | Val::Jitted(def, ..)
                if attr == "__qualname__" =>
            {
                vec![Alt::fixed(
                    self.m.qualname(*def).map(Val::Str).unwrap_or(Val::AnyStr),
                )]
            }
            // A JAX value read back (`spec.sharding.mesh`, to make a new
            // sharding over the mesh an argument came with): what it was
            // made with: an abstract mesh with its Explicit axes and device
            // (`ShardingUse::origin`); where two differ, a device of unknown
            // platform and no Explicit axis (the rules that need either stay
            // silent).
            Val::Spec(used) if attr == "sharding" => vec![Alt::fixed(Val::Sharding(*used))],
            Val::Sharding(used) if attr == "mesh" => {
                let only = |abstract_mesh: bool| ShardingUse {
                    abstract_mesh,
                    concrete_mesh: !abstract_mesh,
                    ..ShardingUse::default()
                };
                let mesh = if used.same_kind(&only(true)) {
                    MeshValue::Abstract(used.origin.info().unwrap_or(AbstractMeshInfo {
                        device_platform: Some(String::new()),
                        repr: None,
                        has_explicit_axis: false,
                        current: false,
                    }))
                } else if used.same_kind(&only(false)) {
                    MeshValue::Concrete
                } else {
                    MeshValue::Unknown
                };
                vec![Alt::fixed(Val::Mesh(mesh))]
            }
            Val::Sharding(used) if attr == "spec" && !used.unknown => {
                vec![Alt::fixed(Val::Sharding(ShardingUse {
                    spec: true,
                    ..ShardingUse::default()
                }))]
            }
            // `jax.devices()[0].platform`: the default backend's platform,
            // which the host decides (as `jax.default_backend()`); of a
            // named backend, that backend's.
            Val::Device(backend) if attr == "platform" => match backend.as_deref() {
                None => host_backends(),
                Some(named) => match device_platform(named) {
                    Some(platform) => vec![Alt::fixed(Val::Str(platform.to_owned()))],
                    None => vec![Alt::fixed(Val::AnyStr)],
                },
            },
            Val::Device(_) if attr == "device_kind" => vec![Alt::fixed(Val::AnyStr)],
            // A module-level def of another module, by its path there (a
            // class an importer registered, `EXPERIMENTS[cls.__name__] = cls`):
            // the path's last name. (A token of a closure has no such name.)
            Val::Ref(path)
                if matches!(attr, "__name__" | "__qualname__")
                    && !path.starts_with(super::reach::LOCAL_REF)
                    && !path.starts_with(super::reach::OWN_REF) =>
            {
                let name = path.rsplit('.').next().unwrap_or(path);
                vec![Alt::fixed(Val::Str(name.to_owned()))]
            }
            Val::Class(class) if self.m.enum_kind(*class).is_some() => {
                self.enum_member(*class, attr, depth)
            }
            Val::Class(class) => self.field(*class, None, attr, depth),
            Val::EnumMember(class, name) => match attr {
                "name" => vec![Alt::fixed(Val::Str(name.clone()))],
                "value" => self.enum_value(*class, name, depth),
                _ => self.field(*class, None, attr, depth),
            },
            // A member of a `str`/`int` enum is read as its value, which is
            // also what its `.value` is.
            Val::Str(_) | Val::AnyStr | Val::Int(_) if attr == "value" => {
                vec![Alt::fixed(object.clone())]
            }
            Val::Object(fields) => fields
                .iter()
                .find(|(n, _)| n == attr)
                .map(|(_, alts)| from_consts(alts))
                .or_else(|| self.own_property(object, fields, attr, depth))
                .or_else(|| self.own_class_attribute(fields, attr, depth))
                .or_else(|| self.own_method_of_object(fields, attr))
                .or_else(|| self.foreign_property(object, fields, attr))
                .unwrap_or_else(|| vec![Alt::unknown()]),
            Val::ArgNamespace(None) => self.argparse_default(attr, depth),
            Val::ArgNamespace(Some(file)) => self.foreign_argparse_default(file, attr, depth),
            Val::ParamRef(slot) => {
                let mut slot = slot.as_ref().clone();
                slot.path.push(attr.to_owned());
                vec![Alt::fixed(Val::ParamRef(Arc::new(slot)))]
            }
            Val::AbslFlags => self.absl_flag_named(attr, depth),
            Val::AbslFlag(call, cscope) if attr == "value" => {
                self.absl_flag_value(*call, *cscope, depth)
            }
            // `AbstractDevice(..., platform=p).platform` is `p`.
            Val::AbstractDevice(Some(p)) if attr == "platform" && !p.is_empty() => {
                vec![Alt::fixed(Val::Str(p.clone()))]
            }
            // `AbstractMesh(..., abstract_device=d).abstract_device` is `d`.
            Val::Mesh(MeshValue::Abstract(info)) if attr == "abstract_device" && !info.current => {
                vec![Alt::fixed(match &info.device_platform {
                    None => Val::None,
                    Some(p) => Val::AbstractDevice(Some(p.clone())),
                })]
            }
            // A mesh built with a shape is not empty; the current abstract
            // mesh (`get_abstract_mesh()`) may be.
            Val::Mesh(MeshValue::Concrete) if attr == "empty" => vec![Alt::fixed(Val::Bool(false))],
            Val::Mesh(MeshValue::Abstract(info)) if attr == "empty" && info.repr.is_some() => {
                vec![Alt::fixed(Val::Bool(false))]
            }
            _ => vec![Alt::unknown()],
        }
    }

    /// `replace(obj, ...)` / `obj.replace(...)` calls that could copy an
    /// instance of `class` with other field values (a dataclass-like class,
    /// or one with a `replace` method); keyword-less calls (`str.replace`)
    /// are not.
    fn field_replacements(&self, class: ScopeId) -> Vec<usize> {
        let m = self.m;
        if !m.is_dataclass_like(class) && m.method(class, "replace").is_none() {
            return Vec::new();
        }
        m.calls_named("replace")
            .iter()
            .copied()
            .filter(|&i| {
                let args = m.args_of(m.calls[i].node);
                !args.keywords.is_empty() || args.has_dict_splat
            })
            .collect()
    }

    /// Attribute `attr` of an instance of `class` whose construction is not
    /// known: each visible construction (or the class's own value when
    /// none is), and each `replace` that sets it, may be the one. One value
    /// when they all agree; else each is a run-time choice.
    fn instance_field(&self, class: ScopeId, attr: &str, depth: u32) -> Vec<Alt<'t>> {
        let m = self.m;
        let mut makers = m.class_constructions(class);
        makers.extend(m.value_calls(class));
        makers.extend(m.maybe_value_calls(class));
        let replacements = self.field_replacements(class);
        // Made nowhere we can see: by a module that imports the class, or
        // by a builder it is passed to. Such a construction may set a
        // constructor field.
        if makers.is_empty() && m.dataclass_field_position(class, attr).is_some() {
            let mut out = self.field(class, None, attr, depth);
            out.push(Alt::unknown());
            return cap(out
                .into_iter()
                .map(|mut a| {
                    a.why = Why::Choice;
                    a
                })
                .collect());
        }
        if makers.len() <= 1 && replacements.is_empty() {
            return self.field(class, makers.first().copied(), attr, depth);
        }
        if makers.len() + replacements.len() > MAX_ALTS {
            return vec![Alt::unknown()];
        }
        let mut ways: Vec<Vec<Alt<'t>>> = if makers.is_empty() {
            vec![self.field(class, None, attr, depth)]
        } else {
            makers
                .iter()
                .map(|ctor| self.field(class, Some(*ctor), attr, depth + 1))
                .collect()
        };
        for i in replacements {
            let site = &m.calls[i];
            let args = m.args_of(site.node);
            match args.keyword(attr) {
                Some(value) => ways.push(self.eval_depth(value, site.scope, depth + 1)),
                None if args.has_dict_splat => ways.push(vec![Alt::unknown()]),
                None => {}
            }
        }
        let agreed = match ways.first().map(Vec::as_slice) {
            Some([first]) if first.why.certain() && !first.val.is_unknown() => ways
                .iter()
                .all(|w| matches!(w.as_slice(), [a] if a.why.certain() && a.val.same(&first.val))),
            _ => false,
        };
        if agreed {
            return ways.swap_remove(0);
        }
        cap(ways
            .into_iter()
            .flatten()
            .map(|mut a| {
                a.why = Why::Choice;
                a
            })
            .collect())
    }

    /// Attribute `attr` of an instance of `class` built by `ctor`: a
    /// constructor argument of a dataclass-like field, `self.attr = ...` in
    /// `__init__` (its parameters bound to the constructor's arguments), or
    /// the class attribute. Methods are not values here.
    fn field(
        &self,
        class: ScopeId,
        ctor: Option<(Node<'t>, ScopeId)>,
        attr: &str,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        let m = self.m;
        let read = self.attribute_read.take();
        // `@property def platforms(self): return ...`: its return values,
        // `self` this instance.
        if let Some(method) = m.method(class, attr) {
            if self.is_property(method) {
                return self.returns_on(method, Val::Instance(class, ctor), Vec::new(), depth);
            }
        }
        if let Some((call, call_scope)) = ctor {
            // `dataclasses.replace(obj, f=...)` / `obj.replace(f=...)`: the
            // keyword, else the field of the object it copies.
            // `c = Config(); c.platform = "tpu"` where the instance was made:
            // the store (it runs after the constructor).
            // `c = Runner(); c.configure("tpu")`: the method's store (unless
            // a plain one follows).
            // Made by a chain of methods returning `self` (`cfg =
            // Config().set(platforms="tpu")`): stores through the name come
            // after the chain's.
            let chain = self.self_chain_end(call, class);
            let by_method =
                self.method_store_after_construction(class, chain, call_scope, attr, depth);
            // Read where it was made: the stores before the read.
            let before = read.filter(|(_, s)| *s == call_scope).map(|(r, _)| r);
            match m.store_after_construction(chain, call_scope, attr, before) {
                PathStore::Value(value, scope)
                    if by_method
                        .as_ref()
                        .is_none_or(|found| value.start_byte() > found.call.end_byte()) =>
                {
                    return self.eval_depth(value, scope, depth + 1)
                }
                PathStore::Unknown => return vec![Alt::unknown()],
                _ => {}
            }
            if let Some(found) = by_method {
                let instance = Alt::fixed(Val::Instance(class, ctor));
                return self.eval_method_store(&found, instance, call_scope, depth);
            }
            if let Some(alts) = self.store_through_parameter(chain, call_scope, attr, read, depth) {
                return alts;
            }
            if chain.id() != call.id() {
                if let Some(alts) = self.chained_state(chain, chain, call_scope, attr, depth, 0) {
                    return alts;
                }
            }
            if let Some(base) = self.replace_base(call, call_scope) {
                // A keyword, also one unpacked (`replace(cfg, **overrides)`).
                match self.call_argument(call, call_scope, attr, None, depth) {
                    Lookup::Found(alts) => return alts,
                    Lookup::Unknown => return vec![Alt::unknown()],
                    Lookup::Missing => {}
                }
                let mut out = Vec::new();
                for b in self.eval_depth(base, call_scope, depth + 1) {
                    let Val::Instance(class, ctor) = b.val else {
                        out.push(Alt::unknown());
                        continue;
                    };
                    let fields = self.field(class, ctor, attr, depth + 1);
                    out.extend(fields.into_iter().filter_map(|mut f| {
                        // The copy's methods run on the copy.
                        if let Val::Method(method, class, _) = f.val {
                            f.val = Val::Method(method, class, Some((call, call_scope)));
                        }
                        f.under(&b.why, &b.choices)
                    }));
                }
                return cap(out);
            }
            if let Some(position) = m.dataclass_field_position(class, attr) {
                match self.call_argument(call, call_scope, attr, Some(position), depth) {
                    Lookup::Found(alts) => return alts,
                    Lookup::Unknown => return vec![Alt::unknown()],
                    Lookup::Missing => {}
                }
            }
            // `__init__(self, **kw)` setting each keyword on `self`.
            if let Some(found) = m
                .method(class, "__init__")
                .and_then(|init| self.keyword_store(call, init, attr))
            {
                // The keyword, or what a `**` unpacking passes (unknown when
                // that cannot be told).
                return match self.call_argument(found.call, call_scope, attr, None, depth) {
                    Lookup::Found(alts) => alts,
                    _ => vec![Alt::unknown()],
                };
            }
        }
        // What an inherited `__init__` of another module stores shadows the
        // class bodies here (`class Leaf(base.Core): value = None`).
        let class_body_only = m.attribute(class, attr).is_none_or(|bindings| {
            bindings.iter().all(|b| {
                matches!(b, Binding::Value { scope, .. } if m.scopes[*scope].kind == ScopeKind::Class)
            })
        });
        if class_body_only && m.method(class, attr).is_none() {
            if let Some(alts) = self.foreign_init_field(class, ctor, attr, depth) {
                return alts;
            }
        }
        let Some(bindings) = m.attribute(class, attr) else {
            // A method read as a value (`cls.init`, `obj.update`); a class
            // nested in the body (`Trainer.Config`) is that class.
            if let Some(method) = m.method(class, attr) {
                if m.scopes[method].kind == ScopeKind::Class {
                    return vec![Alt::fixed(Val::Class(method))];
                }
                let on_object = ctor.is_some()
                    && m.scopes[method].kind == ScopeKind::Function
                    && !m.is_static_method(method)
                    && !m.is_class_method(method);
                // A classmethod read off the class (`REGISTRY[k].handle`):
                // bound to that class, so `cls` in it is the class read
                // (`Val::method_receiver`), not each subclass.
                let on_class = ctor.is_none()
                    && m.scopes[method].kind == ScopeKind::Function
                    && m.is_class_method(method);
                return vec![Alt::fixed(if on_object || on_class {
                    Val::Method(method, class, ctor)
                } else {
                    Val::Function(method)
                })];
            }
            if let Some(alts) = self.foreign_base_attribute(class, ctor, attr) {
                return alts;
            }
            // Not found the usual way: Python calls `__getattr__(self, attr)`.
            if let (Some(getattr), Some(_)) = (m.method(class, "__getattr__"), ctor) {
                return self.dynamic_attribute(getattr, class, ctor, attr, depth);
            }
            // `class AttrDict(dict): __getattr__ = dict.__getitem__`: the entry.
            if let (Some(dict), true) = (
                self.dict_of_instance(class, ctor),
                m.getattr_is_getitem(class),
            ) {
                return match self.lookup_key(&dict, &Val::Str(attr.to_owned()), depth) {
                    Lookup::Found(alts) if !alts.is_empty() => alts,
                    _ => vec![Alt::unknown()],
                };
            }
            return vec![Alt::unknown()];
        };
        // `self.x = ...` in `__init__` runs after the class body's default.
        let in_init: Vec<&Binding<'t>> = bindings
            .iter()
            .filter(|b| matches!(b, Binding::Value { scope, .. } if m.scopes[*scope].kind == ScopeKind::Function))
            .collect();
        let mut chosen: Vec<&Binding<'t>> = if in_init.is_empty() {
            bindings.iter().collect()
        } else {
            in_init
        };
        // Not a store in a body that never runs (a constant condition).
        chosen.retain(|b| match b {
            Binding::Value { scope, target, .. }
                if m.scopes[*scope].kind == ScopeKind::Function =>
            {
                let start = target.start_byte();
                !m.branch_ranges(*scope)
                    .dead
                    .iter()
                    .any(|r| r.contains(&start))
            }
            _ => true,
        });
        // Stores under conditions this construction's arguments decide
        // (`if self.target_devices is None:` in `__init__`, or in a method
        // `__init__` calls on `self`, with the call passing 8): only those
        // of the branches that run for it. Another module's factory
        // (`return JaxGrid(shape, target_devices)`) is evaluated with its
        // parameters bound, so the decision follows its caller's value.
        if chosen.len() > 1 {
            if let (Some((call, call_scope)), Some(init)) = (ctor, m.method(class, "__init__")) {
                let deciding = self.bound.borrow().len() > 6
                    || self
                        .deciding_construction
                        .borrow()
                        .iter()
                        .any(|(c, _)| *c == call.id());
                if !deciding {
                    let init_text = text(m.scopes[init].node, m.src);
                    let mut methods: Vec<ScopeId> = chosen
                        .iter()
                        .filter_map(|b| match b {
                            Binding::Value { scope, .. }
                                if *scope == init
                                    || (m.scopes[*scope].class == Some(class)
                                        && init_text.contains(&format!(
                                            "self.{}(",
                                            m.scopes[*scope].name
                                        ))) =>
                            {
                                Some(*scope)
                            }
                            _ => None,
                        })
                        .collect();
                    methods.sort_unstable();
                    methods.dedup();
                    let instance = Alt::fixed(Val::Instance(class, ctor));
                    for method in methods {
                        // Read for one call of a factory the object was made
                        // in (its `made_here` choice): that call's values.
                        let way = self.read_way.borrow().clone();
                        let decide = || {
                            m.build_branches_by(method, &|c| {
                                let mut alts = self.eval(c, method);
                                if alts.iter().any(|a| compatible(&a.choices, &way)) {
                                    alts.retain(|a| compatible(&a.choices, &way));
                                }
                                alts
                            })
                            .dead
                        };
                        let construction = Bound {
                            def: init,
                            call,
                            call_scope,
                            receiver: Some(instance.clone()),
                            given: Vec::new(),
                        };
                        self.deciding_construction
                            .borrow_mut()
                            .push((call.id(), method));
                        let dead = self.with_bound(construction, || {
                            if method == init {
                                decide()
                            } else {
                                let on_self = Bound {
                                    def: method,
                                    call: m.scopes[method].node,
                                    call_scope: method,
                                    receiver: Some(instance.clone()),
                                    given: Vec::new(),
                                };
                                self.with_bound(on_self, decide)
                            }
                        });
                        self.deciding_construction.borrow_mut().pop();
                        chosen.retain(|b| {
                            !matches!(b, Binding::Value { scope, target, .. }
                                if *scope == method
                                    && dead.iter().any(|r| r.contains(&target.start_byte())))
                        });
                    }
                }
            }
        }
        // A store that runs on every path through `__init__` replaces the
        // ones of `__init__` before it (`self.mesh = None`, then
        // `self.mesh = AbstractMesh(...)`); other methods' stores stay.
        let mut init_call: Option<(Node<'t>, ScopeId)> = None;
        if let Some(init) = m.method(class, "__init__") {
            let unconditional = chosen
                .iter()
                .filter_map(|b| match b {
                    Binding::Value { scope, target, .. }
                        if *scope == init && m.is_body_statement_target(*target, init) =>
                    {
                        Some(target.start_byte())
                    }
                    _ => None,
                })
                .max();
            // So does a method `__init__` calls on `self` as a plain
            // statement, storing as a plain statement of its own
            // (`self._init_platform(platform)`): its last store, there.
            let by_method = self
                .init_method_store(init, class, attr, &chosen)
                .filter(|(call, _, _)| unconditional.is_none_or(|u| call.start_byte() > u));
            if let Some((call, method, kept)) = by_method {
                init_call = Some((call, method));
                chosen.retain(|b| {
                    !matches!(b, Binding::Value { scope, target, .. }
                        if *scope == method && target.id() != kept.id())
                });
            }
            let last = by_method
                .map(|(call, _, _)| call.start_byte())
                .or(unconditional);
            if let Some(last) = last {
                chosen.retain(|b| {
                    !matches!(b, Binding::Value { scope, target, .. }
                        if *scope == init && target.start_byte() < last)
                });
            }
        }
        let mut out = Vec::new();
        let several = chosen.len() > 1;
        for binding in chosen {
            let Binding::Value { value, scope, .. } = binding else {
                out.push(Alt::unknown());
                continue;
            };
            let method = *scope;
            let is_method = m.scopes[method].kind == ScopeKind::Function;
            // Stored by a method `__init__` calls: that call, in this construction.
            let init = m.method(class, "__init__");
            let by_init_call = match (init_call, ctor, init) {
                (Some((init_call, called)), Some((call, call_scope)), Some(init))
                    if called == method && self.bound.borrow().len() <= 6 =>
                {
                    let instance = Alt::fixed(Val::Instance(class, ctor));
                    let construction = Bound {
                        def: init,
                        call,
                        call_scope,
                        receiver: Some(instance.clone()),
                        given: Vec::new(),
                    };
                    let on_self = Bound {
                        def: method,
                        call: init_call,
                        call_scope: init,
                        receiver: Some(instance),
                        given: Vec::new(),
                    };
                    Some(self.with_bound(construction, || {
                        self.with_bound(on_self, || self.eval_depth(*value, method, depth + 1))
                    }))
                }
                _ => None,
            };
            let alts = match (by_init_call, is_method, ctor) {
                (Some(alts), _, _) => alts,
                (None, true, Some((call, call_scope))) if m.scopes[method].name == "__init__" => {
                    let receiver = Alt::fixed(Val::Instance(class, ctor));
                    // A base class's `__init__` runs through the
                    // `super().__init__(...)` of the class's own: its
                    // parameters are that call's arguments (`mode` of
                    // `Base.__init__` is not the subclass call's second
                    // argument).
                    let Some(frames) = self.init_frames(class, method, call, call_scope, &receiver)
                    else {
                        out.push(Alt::unknown());
                        continue;
                    };
                    self.with_all_bound(frames, &|| {
                        // A dict built in `__init__` from its parameters
                        // (`{**DEFAULTS, **overrides}`) is read later,
                        // when this call's arguments are no longer bound:
                        // its entries now.
                        map(self.eval_depth(*value, method, depth + 1), |v| match v {
                            Val::Dict(node, s) if m.scope_within(*s, method) => self
                                .dict_entries(*node, *s, 0, depth)
                                .map(|e| Val::Entries(Arc::new(e)))
                                .unwrap_or_else(|| v.clone()),
                            _ => v.clone(),
                        })
                    })
                }
                _ => self.eval_depth(*value, method, depth + 1),
            };
            // A list the class's objects grow through the attribute
            // (`self.callbacks.append(cb)` in `add_callback`).
            let alts = match is_list_literal(*value, m.src) {
                true => self.held_list(*value, method, depth).unwrap_or(alts),
                false => alts,
            };
            out.extend(alts.into_iter().map(|mut a| {
                if several {
                    a.why = Why::Choice;
                }
                a
            }));
        }
        // Calls of a keyword setter that this read did not follow (on
        // another receiver, through a `partial`) may store the attribute:
        // each is one more choice, as a method's `self.attr = v` is.
        let unseen = self.unseen_keyword_stores(class, ctor, attr, depth);
        if !unseen.is_empty() {
            for a in out.iter_mut() {
                a.why = Why::Choice;
            }
            out.extend(unseen);
        }
        cap(out)
    }

    /// An attribute name given as a value: a literal, or a name with one
    /// constant string (`getattr(self._config, name)` in `__getattr__`).
    fn constant_name(&self, node: Node<'t>, scope: ScopeId, depth: u32) -> Option<String> {
        if let Some(name) = string_value(node, self.m.src) {
            return Some(name);
        }
        match self.eval_depth(node, scope, depth + 1).as_slice() {
            [Alt {
                val: Val::Str(name),
                why: Why::Fixed,
                ..
            }] => Some(name.clone()),
            _ => None,
        }
    }

    /// `obj.attr` answered by the class's `__getattr__` (a config object
    /// over a dict of values): its returns with `name` bound to `attr`.
    fn dynamic_attribute(
        &self,
        getattr: ScopeId,
        class: ScopeId,
        ctor: Option<(Node<'t>, ScopeId)>,
        attr: &str,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        self.returns_on(
            getattr,
            Val::Instance(class, ctor),
            vec![vec![Alt::fixed(Val::Str(attr.to_owned()))]],
            depth,
        )
    }

    /// `d.get(k, default)` on a dict whose entries are known: the entry,
    /// else the default (`None` without one).
    fn dict_get(
        &self,
        func: Node<'t>,
        args: &Args<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let dicts = self.eval_as_dicts(func.field("object")?, scope, depth);
        // (An instance of a `dict` subclass of this module filled by its
        // own `__init__` is read as `init_dict_lookup` reads it, unless
        // it has a `get` of its own.)
        let m = self.m;
        let dict_like = |v: &Val<'t>| {
            v.is_dict()
                || matches!(v, Val::Instance(class, _) if m.is_dict_subclass(*class)
                    && m.method(*class, "get").is_none()
                    && m.method(*class, "__getitem__").is_none())
        };
        if dicts.is_empty() || !dicts.iter().all(|a| dict_like(&a.val)) {
            return None;
        }
        let keys = self.eval_depth(*args.positional.first()?, scope, depth + 1);
        let default = || match args.positional.get(1) {
            Some(d) => self.eval_depth(*d, scope, depth + 1),
            None => vec![Alt::fixed(Val::None)],
        };
        let mut out = Vec::new();
        for (dict, key, why, choices) in pairs(&[dicts, keys]) {
            if !is_key_constant(&key) {
                out.push(Alt::unknown());
                continue;
            }
            // Read where the call is (a store after it, or replaced before
            // it, is not what it reads).
            let read = self.m.parent_of(func).map(|call| (call, scope));
            let lookup =
                self.reading_under(&choices, || self.lookup_read_at(read, &dict, &key, depth));
            let found = match lookup {
                Lookup::Found(alts) => Some(alts),
                Lookup::Missing => Some(default()),
                Lookup::Unknown => None,
            };
            match found {
                Some(alts) => out.extend(alts.into_iter().filter_map(|a| a.under(&why, &choices))),
                None => out.push(Alt::unknown()),
            }
        }
        Some(cap(out))
    }

    /// The stores into the dict literal `dict`: `NAME[k] = v` through the
    /// name it is bound to, and `E.attr[k] = v` where `E.attr` evaluates to
    /// this dict (`self.d[k]`, `C.REG[k]`, `cls.REG[k]`, `reg.d[k]` for a
    /// dict held in an attribute). `None` when a store's receiver may be
    /// this dict or another, as the run decides: its entries cannot be told.
    fn dict_stores(
        &self,
        dict: Node<'t>,
        depth: u32,
    ) -> Option<std::rc::Rc<super::DictStores<'t>>> {
        // Changed by a function it is passed to: not followed, not known.
        if self.m.passed_to_changing_def(dict) {
            return None;
        }
        let named = self.m.dict_stores(dict);
        let held = self.m.attribute_dict_stores(dict);
        // `cfg.platforms = v` on an object whose `__setattr__` stores the
        // item: a store of the key "platforms".
        let by_attribute = if self.sets_items_by_attribute(dict, depth) {
            self.m.attribute_stores_through_name(dict)
        } else {
            Vec::new()
        };
        if held.is_empty() && by_attribute.is_empty() {
            return Some(named);
        }
        if too_deep(depth) {
            return None;
        }
        let mut out: super::DictStores<'t> = (*named).clone();
        out.extend(by_attribute);
        for store in held.iter() {
            let holders = self.m.subclasses(store.owner);
            let objects = self.eval_depth(store.object, store.scope, depth + 1);
            let holds = |a: &Alt<'t>| match a.val {
                Val::Instance(class, _) => holders.contains(&class),
                Val::Class(class) => store.class_level && holders.contains(&class),
                _ => false,
            };
            if !objects.is_empty() && objects.iter().all(holds) {
                out.push((store.key, store.value, store.scope));
            } else if objects.iter().any(holds) {
                return None;
            }
        }
        // In document order, as the named stores are: a later store of a
        // key replaces an earlier one.
        out.sort_by_key(|(_, v, _)| v.start_byte());
        Some(std::rc::Rc::new(out))
    }

    /// The value node of `key` in a dict literal or `dict(k=v)`: `Some(None)`
    /// when it certainly has no such key, `None` when it cannot be told.
    pub(crate) fn dict_entry(
        &self,
        dict: Node<'t>,
        scope: ScopeId,
        key: &Val<'t>,
        depth: u32,
    ) -> Option<Option<Node<'t>>> {
        let m = self.m;
        if dict.kind_name() == "call" {
            let args = m.args_of(dict);
            if args.has_splat || !args.positional.is_empty() {
                return None;
            }
            let Val::Str(k) = key else {
                return Some(None);
            };
            return Some(args.keyword(k));
        }
        let mut cursor = dict.walk();
        for pair in dict.named_children(&mut cursor) {
            match pair.kind_name() {
                "pair" => {}
                "comment" => continue,
                _ => return None,
            }
            let (k, v) = (pair.field("key")?, pair.field("value")?);
            match self.eval_key(k, scope, depth + 1).as_slice() {
                [Alt { val, .. }] if val.same(key) => return Some(Some(v)),
                [Alt { val, .. }] if is_key_constant(val) => {}
                _ => return None,
            }
        }
        // `D[k] = v` stores: the last one of this key.
        let mut found = None;
        for (k, v, store_scope) in self.dict_stores(dict, depth)?.iter() {
            let runs = m.store_runs(*v, *store_scope, dict);
            if runs == StoreRuns::Never {
                continue;
            }
            match self.eval_key(*k, *store_scope, depth + 1).as_slice() {
                [Alt { val, .. }] if val.same(key) && runs == StoreRuns::Maybe => return None,
                [Alt { val, .. }] if val.same(key) => found = Some(*v),
                [Alt { val, .. }] if is_key_constant(val) => {}
                _ => return None,
            }
        }
        Some(found)
    }

    /// `var.get()` on a `ContextVar`: the value of each `var.set(v)` of the
    /// module (each as sure as its value: code reads a context variable
    /// inside the context that sets it), and the default (`get(d)`, else
    /// the constructor's `default=`) as a run-time choice.
    fn context_var_get(
        &self,
        func: Node<'t>,
        args: &Args<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        let vars = self.eval_depth(func.field("object")?, scope, depth + 1);
        let ctors: Vec<(Node<'t>, ScopeId)> = vars
            .iter()
            .map(|a| match a.val {
                Val::ContextVar(ctor, ctor_scope) => Some((ctor, ctor_scope)),
                _ => None,
            })
            .collect::<Option<_>>()?;
        if ctors.is_empty() {
            return None;
        }
        // Set by the context a lowering runs in (`overlay.rs`).
        let overlaid: Option<Vec<Vec<Alt<'t>>>> =
            ctors.iter().map(|(ctor, _)| m.overlay_var(*ctor)).collect();
        if let Some(overlaid) = overlaid {
            return Some(overlaid.into_iter().flatten().collect());
        }
        let mut out = Vec::new();
        for site in m.call_sites_named(&["set"]) {
            let Some(object) = site
                .node
                .field("function")
                .filter(|f| f.kind_name() == "attribute")
                .and_then(|f| f.field("object"))
            else {
                continue;
            };
            let same_var = self
                .eval_depth(object, site.scope, depth + 1)
                .iter()
                .any(|a| matches!(a.val, Val::ContextVar(c, _) if ctors.iter().any(|(d, _)| d.id() == c.id())));
            if !same_var {
                continue;
            }
            if let Some(&value) = m.args_of(site.node).positional.first() {
                out.extend(self.eval_depth(value, site.scope, depth + 1));
            }
        }
        let set_somewhere = !out.is_empty();
        for (ctor, ctor_scope) in ctors {
            let default = args
                .positional
                .first()
                .map(|d| (*d, scope))
                .or_else(|| m.args_of(ctor).keyword("default").map(|d| (d, ctor_scope)));
            if let Some((d, d_scope)) = default {
                // A `None` default is the "not set" mark: code that reads
                // the variable where nothing set it takes another path.
                out.extend(
                    self.eval_depth(d, d_scope, depth + 1)
                        .into_iter()
                        .filter(|a| !(set_somewhere && matches!(a.val, Val::None)))
                        .map(|mut a| {
                            a.why = Why::Choice;
                            a
                        }),
                );
            }
        }
        Some(cap(out))
    }

    /// Where a call's keyword `key` comes from, also through `**`: its own
    /// keyword; for `**kwargs`, the enclosing function's `**` parameter,
    /// each of its callers (every call site runs); for `**d`, the entry of
    /// a dict literal. `Passed::Absent` (the API's default) when nothing
    /// passes it.
    pub fn keyword_sources(
        &self,
        call: Node<'t>,
        scope: ScopeId,
        key: &str,
    ) -> Vec<KeywordSource<'t>> {
        let mut out = Vec::new();
        self.keyword_sources_into(call, scope, key, &Why::Fixed, &[], 0, &mut out);
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn keyword_sources_into(
        &self,
        call: Node<'t>,
        scope: ScopeId,
        key: &str,
        why: &Why,
        choices: &[Choice],
        depth: u32,
        out: &mut Vec<KeywordSource<'t>>,
    ) {
        let m = self.m;
        let source = |passed| KeywordSource {
            passed,
            why: why.clone(),
            choices: choices.to_vec(),
        };
        if out.len() >= MAX_ALTS {
            out.push(source(Passed::Unknown));
            return;
        }
        let args = m.args_of(call);
        if let (Some(holder), Some(value)) = (args.keyword_arg(key), args.keyword(key)) {
            out.push(source(Passed::At {
                holder,
                value,
                scope,
            }));
            return;
        }
        // (`args_of` just read the call: one without `**` is known as such.)
        let splats = if m.known_without_dict_splat(call) {
            Vec::new()
        } else {
            dict_splats(call)
        };
        if splats.is_empty() {
            out.push(source(Passed::Absent));
            return;
        }
        if depth > 4 {
            cut();
        }
        if depth > 4 || !self.spend() {
            out.push(source(Passed::Unknown));
            return;
        }
        for splat in splats {
            if let Some(def) = self.m.kwargs_parameter_of(splat, scope) {
                let point = m.scopes[def].node.id();
                for site in m.def_call_sites(def).iter() {
                    let why = why.and(&Why::Each(format!(
                        "for the call at line {}",
                        line_of(site.call)
                    )));
                    let Some(choices) = merge_choices(choices, &[(point, site.call.id())]) else {
                        continue;
                    };
                    match site.kind {
                        SiteKind::Direct { .. } => self.keyword_sources_into(
                            site.call,
                            site.scope,
                            key,
                            &why,
                            &choices,
                            depth + 1,
                            out,
                        ),
                        SiteKind::Partial { .. } => {
                            let args = m.args_of(site.call);
                            let passed = match (args.keyword_arg(key), args.keyword(key)) {
                                (Some(holder), Some(value)) => Passed::At {
                                    holder,
                                    value,
                                    scope: site.scope,
                                },
                                _ => Passed::Unknown,
                            };
                            out.push(KeywordSource {
                                passed,
                                why,
                                choices,
                            });
                        }
                        SiteKind::Passed | SiteKind::Opaque => out.push(KeywordSource {
                            passed: Passed::Unknown,
                            why,
                            choices,
                        }),
                    }
                }
                continue;
            }
            for d in self.eval_depth(splat, scope, depth + 1) {
                let Some(choices) = merge_choices(choices, &d.choices) else {
                    continue;
                };
                let why = why.and(&d.why);
                let passed = match &d.val {
                    // Entries without a node to point at (`**self.lower_kwargs`
                    // holding a decorator's `**kwargs`, imported entries).
                    Val::KwArgs { .. }
                    | Val::Entries(_)
                    | Val::InstanceDict(..)
                    | Val::Comprehension(..) => {
                        match self.reading_under(&d.choices, || {
                            self.lookup_key(&d.val, &Val::Str(key.to_owned()), depth + 1)
                        }) {
                            Lookup::Found(alts) if !alts.is_empty() => Passed::Values(alts),
                            Lookup::Missing => Passed::Absent,
                            _ => Passed::Unknown,
                        }
                    }
                    &Val::Dict(dict, dict_scope) => {
                        match self.dict_entry(
                            dict,
                            dict_scope,
                            &Val::Str(key.to_owned()),
                            depth + 1,
                        ) {
                            // Stored on each pass of a loop the call comes
                            // after: the last pass's value, which the store
                            // alone cannot say (`lookup_after_stores` can).
                            Some(Some(value))
                                if !m
                                    .loops_around(
                                        value,
                                        m.innermost_scope_at(value.start_byte()),
                                        Some(call),
                                    )
                                    .is_empty() =>
                            {
                                let key = Val::Str(key.to_owned());
                                match self.lookup_read_at(
                                    Some((call, scope)),
                                    &d.val,
                                    &key,
                                    depth + 1,
                                ) {
                                    Lookup::Found(alts) if !alts.is_empty() => Passed::Values(alts),
                                    Lookup::Missing => Passed::Absent,
                                    _ => Passed::Unknown,
                                }
                            }
                            Some(Some(value)) => match self.m.parent_of(value) {
                                Some(holder) => Passed::At {
                                    holder,
                                    value,
                                    scope: dict_scope,
                                },
                                None => Passed::Unknown,
                            },
                            Some(None) => Passed::Absent,
                            None => Passed::Unknown,
                        }
                    }
                    _ => Passed::Unknown,
                };
                out.push(KeywordSource {
                    passed,
                    why,
                    choices,
                });
            }
        }
    }

    /// What a function given as a value returns, its parameters not bound:
    /// a lambda's body, a local def's `return` values.
    fn function_value_returns(
        &self,
        f: Node<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        match f.kind_name() {
            "lambda" => {
                let body = f.field("body")?;
                let lambda_scope = m.scope_of_def(f)?;
                Some(self.eval_depth(body, lambda_scope, depth + 1))
            }
            "identifier" => match m.binding_at(scope, text(f, m.src), f) {
                Some(Binding::Def(def)) => {
                    if m.scopes[*def].kind != ScopeKind::Function
                        || m.scopes[*def].returned.is_empty()
                    {
                        return None;
                    }
                    Some(cap(self.eval_returned(
                        &returned_values_noted(m, *def),
                        *def,
                        depth,
                    )))
                }
                _ => None,
            },
            _ => None,
        }
        .or_else(|| {
            // A function kept as a value (`to_sharding = lambda axes: ...`,
            // a registry entry, a parameter): what each it may be returns.
            if too_deep(depth) {
                return None;
            }
            let mut out = Vec::new();
            for alt in self.eval_depth(f, scope, depth + 1) {
                let (def, receiver) = match alt.val {
                    Val::Function(def) | Val::Jitted(def, ..) => (def, None),
                    Val::Method(def, class, made) => {
                        (def, Some(m.method_receiver(def, class, made)))
                    }
                    _ => return None,
                };
                let returns = match m.scopes[def].kind {
                    ScopeKind::Lambda => {
                        self.eval_depth(m.scopes[def].node.field("body")?, def, depth + 1)
                    }
                    ScopeKind::Function if !m.scopes[def].returned.is_empty() => {
                        match receiver {
                            // `self` the object, the other parameters unknown.
                            Some(receiver) => {
                                if self.bound.borrow().iter().any(|b| b.def == def)
                                    || self.bound.borrow().len() > 6
                                {
                                    return None;
                                }
                                let given = m.unknown_arguments(def);
                                self.with_given(def, &given, Some(Alt::fixed(receiver)), || {
                                    self.eval_returned(&returned_values_noted(m, def), def, depth)
                                })
                            }
                            None => self.eval_returned(&returned_values_noted(m, def), def, depth),
                        }
                    }
                    _ => return None,
                };
                out.extend(
                    returns
                        .into_iter()
                        .filter_map(|r| r.under(&alt.why, &alt.choices)),
                );
            }
            (!out.is_empty()).then(|| cap(out))
        })
    }

    /// What `with cm as name` binds: for a `@contextmanager` generator of
    /// this module, the values it yields (its parameters bound to the
    /// call); otherwise not known.
    fn entered(&self, as_pattern: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Alt<'t>> {
        let m = self.m;
        let Some(call) = as_pattern
            .named_child(0)
            .map(unparenthesize)
            .filter(|c| c.kind_name() == "call")
        else {
            return vec![Alt::unknown()];
        };
        let Some(func) = call
            .field("function")
            .filter(|f| f.kind_name() == "identifier")
        else {
            return vec![Alt::unknown()];
        };
        let Some(Binding::Def(def)) = m.binding_at(scope, text(func, m.src), func) else {
            return vec![Alt::unknown()];
        };
        let def = *def;
        if !m.is_context_manager(def)
            || self.bound.borrow().iter().any(|b| b.def == def)
            || self.bound.borrow().len() > 6
        {
            return vec![Alt::unknown()];
        }
        let yielded: Vec<Option<Node<'t>>> = m
            .yields_of(m.scopes[def].node)
            .into_iter()
            .map(|y| y.named_child(0))
            .collect();
        if yielded.is_empty() {
            return vec![Alt::unknown()];
        }
        let bound = Bound {
            def,
            call,
            call_scope: scope,
            receiver: None,
            given: Vec::new(),
        };
        self.with_bound(bound, || cap(self.eval_one_of(&yielded, def, depth)))
    }

    /// The values a function gives back, evaluated in `def` (`None` for a
    /// bare `yield`): when there are several, which one is given back is a
    /// run-time choice.
    fn eval_one_of(&self, values: &[Option<Node<'t>>], def: ScopeId, depth: u32) -> Vec<Alt<'t>> {
        let several = values.len() > 1;
        let mut out = Vec::new();
        for value in values {
            let alts = match value {
                Some(v) => self.eval_depth(*v, def, depth + 1),
                None => vec![Alt::fixed(Val::None)],
            };
            out.extend(alts.into_iter().map(|mut a| {
                if several {
                    a.why = Why::Choice;
                }
                a
            }));
        }
        out
    }

    /// A method read as an attribute: `@property`, `@functools.cached_property`.
    fn is_property(&self, method: ScopeId) -> bool {
        self.m.is_property(method)
    }

    /// The object a replace call copies: `dataclasses.replace(obj, ...)`'s
    /// first argument, `obj.replace(...)`'s receiver.
    fn replace_base(&self, call: Node<'t>, scope: ScopeId) -> Option<Node<'t>> {
        let m = self.m;
        if m.callee(call, scope).as_deref() == Some("dataclasses.replace") {
            return m.args_of(call).positional.first().copied();
        }
        let func = call.field("function")?;
        if func.kind_name() == "attribute"
            && func.field("attribute").map(|a| text(a, m.src)) == Some("replace")
        {
            return func.field("object");
        }
        None
    }

    /// `value` (an expression of the last frame's def) with each frame's
    /// def bound to its call, outermost first (a helper returning a context
    /// manager's call, then that context manager); a frame's receiver is
    /// the first parameter's value of a method (`__enter__` of the object a
    /// `with` makes).
    /// `f()` with `frames` bound (outermost first), as `eval_in_frames`
    /// evaluates; `None` where that gives up (a frame bound already, too
    /// deep).
    pub(crate) fn in_frames<R>(
        &self,
        frames: &[super::overlay::BoundCall<'t>],
        f: &dyn Fn() -> R,
    ) -> Option<R> {
        let ((def, call, call_scope, receiver), rest) = frames.split_first()?;
        if self.bound.borrow().iter().any(|b| b.def == *def) || self.bound.borrow().len() > 6 {
            return None;
        }
        let bound = Bound {
            def: *def,
            call: *call,
            call_scope: *call_scope,
            receiver: receiver.clone(),
            given: Vec::new(),
        };
        self.with_bound(bound, || {
            if rest.is_empty() {
                Some(f())
            } else {
                self.in_frames(rest, f)
            }
        })
    }

    pub(crate) fn eval_in_frames(
        &self,
        frames: &[super::overlay::BoundCall<'t>],
        value: Node<'t>,
    ) -> Vec<Alt<'t>> {
        let Some(&(def, ..)) = frames.last() else {
            return vec![Alt::unknown()];
        };
        self.in_frames(frames, &|| self.eval_depth(value, def, 1))
            .unwrap_or_else(|| vec![Alt::unknown()])
    }

    /// The receiver of the call of method `def` that made the value being
    /// read (its `made_here` choice in `read_way`): `obj` of that
    /// `obj.method(...)`, read where the call was made.
    fn receiver_of_made_call(&self, def: ScopeId, depth: u32) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        let point = m.scopes[def].node.id();
        let call_id = self
            .read_way
            .borrow()
            .iter()
            .find(|(p, _)| *p == point)
            .map(|(_, c)| *c)?;
        let (object, scope) = m.method_call_receiver(call_id)?;
        // Read as the call's own arguments are: not under this way.
        let outer = self.read_way.take();
        let alts = self.eval_depth(object, scope, depth + 1);
        self.read_way.replace(outer);
        Some(alts)
    }

    /// `f()` reading items of a container that holds `choices`: items
    /// taken another way are none of its items.
    fn reading_under<R>(&self, choices: &[Choice], f: impl FnOnce() -> R) -> R {
        if choices.is_empty() {
            return f();
        }
        let way =
            merge_choices(&self.read_way.borrow(), choices).unwrap_or_else(|| choices.to_vec());
        let outer = self.read_way.replace(way);
        let out = f();
        self.read_way.replace(outer);
        out
    }

    /// `f()` in the frames below frame `frame` (the ones in force where its
    /// call was made); the frames from it up, and what was decided for
    /// them, are set aside meanwhile.
    fn in_caller_of<R>(&self, frame: usize, f: impl FnOnce() -> R) -> R {
        let above = self.bound.borrow_mut().split_off(frame);
        let (kept, set_aside): (Vec<_>, Vec<_>) = self
            .given_branches
            .take()
            .into_iter()
            .partition(|(f, _, _)| *f < frame);
        self.given_branches.replace(kept);
        let (deciding, deciding_aside): (Vec<_>, Vec<_>) = self
            .deciding_given
            .take()
            .into_iter()
            .partition(|(f, _)| *f < frame);
        self.deciding_given.replace(deciding);
        let out = f();
        self.bound.borrow_mut().extend(above);
        self.given_branches.borrow_mut().extend(set_aside);
        self.deciding_given.borrow_mut().extend(deciding_aside);
        out
    }

    /// The frames a construction `call` of `class` runs `init` in: the
    /// class's own `__init__` bound to the call, then each base's through
    /// the `super().__init__(...)` of the one before, down to `init`.
    /// `None` when `init` is not reached that way (a base `__init__` the
    /// subclass never calls: what it stores is not known to be there).
    fn init_frames(
        &self,
        class: ScopeId,
        init: ScopeId,
        call: Node<'t>,
        call_scope: ScopeId,
        receiver: &Alt<'t>,
    ) -> Option<Vec<Bound<'t>>> {
        let m = self.m;
        let mut current = m.method(class, "__init__")?;
        let mut frames = vec![Bound {
            def: current,
            call,
            call_scope,
            receiver: Some(receiver.clone()),
            given: Vec::new(),
        }];
        while current != init {
            if frames.len() > 4 {
                return None;
            }
            let (super_call, next) = m.super_init_call(current)?;
            frames.push(Bound {
                def: next,
                call: super_call,
                call_scope: current,
                receiver: Some(receiver.clone()),
                given: Vec::new(),
            });
            current = next;
        }
        Some(frames)
    }

    /// `f()` with `frames` bound, outermost first.
    fn with_all_bound<R>(&self, mut frames: Vec<Bound<'t>>, f: &dyn Fn() -> R) -> R {
        if frames.is_empty() {
            return f();
        }
        let first = frames.remove(0);
        self.with_bound(first, || self.with_all_bound(frames, f))
    }

    fn with_bound<R>(&self, bound: Bound<'t>, f: impl FnOnce() -> R) -> R {
        self.bound.borrow_mut().push(bound);
        let out = f();
        let mut frames = self.bound.borrow_mut();
        frames.pop();
        let depth = frames.len();
        self.given_branches
            .borrow_mut()
            .retain(|(frame, _, _)| *frame < depth);
        out
    }

    /// The branches of `scope` for a name read there when `scope` is a
    /// function being evaluated for a call (its innermost frame: its
    /// parameters bound to the call's arguments, or to values given by a
    /// call from another module), decided with those values (`if devices is
    /// not None: mesh = AbstractMesh(...) else: mesh = Mesh(...)` reads one
    /// `mesh`; `if b is None: b = "x"` reads "x" for a call not passing
    /// `b`). `None` outside such a frame.
    fn branches_decided_by_call(
        &self,
        scope: ScopeId,
    ) -> Option<std::rc::Rc<super::reach::Branches>> {
        let m = self.m;
        let frame = {
            // The innermost call of it (a closure made there reads it too).
            self.bound.borrow().iter().rposition(|b| b.def == scope)
        };
        // Not while this frame's own conditions are being decided (those of
        // another frame, a function called from one, may be).
        let frame = frame.filter(|f| !self.deciding_given.borrow().contains(&(*f, scope)))?;
        if let Some((_, _, found)) = self
            .given_branches
            .borrow()
            .iter()
            .find(|(f, s, _)| *f == frame && *s == scope)
        {
            return Some(found.clone());
        }
        self.deciding_given.borrow_mut().push((frame, scope));
        let built = std::rc::Rc::new(m.build_branches_by(scope, &|expr| self.eval(expr, scope)));
        self.deciding_given.borrow_mut().pop();
        self.given_branches
            .borrow_mut()
            .push((frame, scope, built.clone()));
        Some(built)
    }

    /// The key of `subscript`: its index, or the tuple of its indices
    /// (`d[a, b]`).
    fn eval_index(&self, subscript: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Alt<'t>> {
        let indices = crate::syntax::subscript_indices(subscript);
        match indices.as_slice() {
            [] => return vec![Alt::unknown()],
            [one] => return self.eval_depth(*one, scope, depth),
            _ => {}
        }
        let parts: Vec<Vec<Alt<'t>>> = indices
            .iter()
            .map(|i| or_unknown(self.eval_depth(*i, scope, depth + 1)))
            .collect();
        product(&parts, |vals| Val::Seq(SeqKind::Tuple, vals))
    }

    /// The value of a store's key node: an expression, or the subscript
    /// `d[a, b]` itself, whose key is the tuple of its indices
    /// (`super::item_store`).
    fn eval_key(&self, key: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Alt<'t>> {
        // `cfg.platforms = v` as an item store
        // (`Module::attribute_stores_through_name`): the key is the name.
        if self.m.parent_of(key).is_some_and(|a| {
            a.kind_name() == "attribute" && a.field("attribute").is_some_and(|n| n.id() == key.id())
        }) {
            return vec![Alt::fixed(Val::Str(text(key, self.m.src).to_owned()))];
        }
        let stored_into = key.kind_name() == "subscript"
            && self.m.parent_of(key).is_some_and(|p| {
                p.kind_name() == "assignment" && p.field("left").is_some_and(|l| l.id() == key.id())
            });
        if stored_into {
            self.eval_index(key, scope, depth)
        } else {
            self.eval_depth(key, scope, depth)
        }
    }

    fn eval_subscript(&self, node: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Alt<'t>> {
        let m = self.m;
        let (Some(value), Some(index)) = (node.field("value"), node.field("subscript")) else {
            return vec![Alt::unknown()];
        };
        // `os.environ["X"]` is a str.
        if m.canonical(value, scope).as_deref() == Some("os.environ") {
            return vec![Alt::fixed(Val::AnyStr)];
        }
        if index.kind_name() == "slice" {
            return self.eval_slice(value, index, scope, depth);
        }
        // `_STACK[-1]` under a manager that pushed onto it (`overlay.rs`).
        if text(index, m.src) == "-1" && matches!(value.kind_name(), "identifier" | "attribute") {
            if let Some(alts) = m.overlay_top(scope, text(value, m.src)) {
                return alts;
            }
        }
        let parts = vec![
            self.eval_as_dicts(value, scope, depth),
            self.eval_index(node, scope, depth + 1),
        ];
        let mut out = Vec::new();
        for (base, key, why, choices) in pairs(&parts) {
            match (&base, &key) {
                (Val::Seq(_, items), Val::Int(i)) => {
                    let val = item_at(items, *i).unwrap_or(Val::Unknown);
                    out.push(Alt { val, why, choices });
                }
                // `sys.argv[i]`: a string given on the command line (index
                // 0 is the script).
                (Val::Argv, Val::Int(i)) => out.push(Alt {
                    val: Val::AnyStr,
                    why: if *i == 0 { why } else { Why::Choice },
                    choices,
                }),
                (Val::Devices(backend), Val::Int(_)) => out.push(Alt {
                    val: Val::Device(backend.clone()),
                    why,
                    choices,
                }),
                // `Backend["TPU"]`: the enum's member of that name.
                (Val::Class(class), key) if m.enum_kind(*class).is_some() => out.push(Alt {
                    val: self.enum_lookup(*class, key, true, depth),
                    why,
                    choices,
                }),
                (Val::Comprehension(comp, cscope), _) => {
                    let found = self.reading_under(&choices, || {
                        self.comprehension_item(*comp, *cscope, &key, depth)
                    });
                    out.extend(found.into_iter().filter_map(|a| a.under(&why, &choices)));
                }
                (dict, _)
                    if dict.is_dict()
                        || matches!(dict, Val::Instance(class, _)
                            if m.is_dict_subclass(*class) && m.method(*class, "__getitem__").is_none()) =>
                {
                    let lookup = self.reading_under(&choices, || {
                        self.lookup_read_at(Some((node, scope)), dict, &key, depth)
                    });
                    let found = match lookup {
                        Lookup::Found(alts) if !alts.is_empty() => alts,
                        _ => vec![Alt::unknown()],
                    };
                    out.extend(found.into_iter().filter_map(|a| a.under(&why, &choices)));
                }
                // `registry[key]` on an object whose class defines
                // `__getitem__`: Python calls it with the key.
                (Val::Instance(class, _), _) if !too_deep(depth) => {
                    let Some(getitem) = m.method(*class, "__getitem__") else {
                        out.push(Alt {
                            val: Val::Unknown,
                            why,
                            choices,
                        });
                        continue;
                    };
                    let receiver = Alt {
                        val: base.clone(),
                        why: why.clone(),
                        choices: choices.clone(),
                    };
                    let given = vec![vec![Alt {
                        val: key.clone(),
                        why: why.clone(),
                        choices: choices.clone(),
                    }]];
                    let found = self.returns_bound(getitem, Some(receiver), given);
                    out.extend(found.into_iter().filter_map(|a| a.under(&why, &choices)));
                }
                _ => out.push(Alt {
                    val: Val::Unknown,
                    why,
                    choices,
                }),
            }
        }
        cap(out)
    }

    /// The values of `node` as something iterated (`sorted(d)`, `max(xs)`):
    /// a dict as the list of its keys, a comprehension as its items when
    /// they can be told.
    fn iterated(&self, node: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Alt<'t>> {
        let alts = self.eval_depth(node, scope, depth + 1);
        let alts = self.expand_comprehensions(alts, SeqKind::List, depth + 1);
        let mut out = Vec::new();
        for a in alts {
            if a.val.is_dict() {
                out.extend(self.dict_view(a, "keys", depth + 1));
            } else {
                out.push(a);
            }
        }
        cap(out)
    }

    /// `seq[a:b]` with constant bounds (or none) and no step: the items of a
    /// known sequence or string; of a list whose members are known but not
    /// their order, each member may or may not be kept.
    fn eval_slice(
        &self,
        value: Node<'t>,
        slice: Node<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        let mut bounds: [Option<Node<'t>>; 3] = [None; 3];
        let mut part = 0;
        let mut cursor = slice.walk();
        for child in slice.children(&mut cursor) {
            match child.kind_name() {
                ":" => part += 1,
                "comment" => {}
                _ if part < 3 => bounds[part] = Some(child),
                _ => return vec![Alt::unknown()],
            }
        }
        let bound = |node: Option<Node<'t>>| -> Option<Option<i64>> {
            let Some(node) = node else {
                return Some(None);
            };
            let alts = self.eval_depth(node, scope, depth + 1);
            match alts.as_slice() {
                [Alt {
                    val: Val::Int(i),
                    why,
                    ..
                }] if why.certain() => Some(Some(*i)),
                [Alt {
                    val: Val::None,
                    why,
                    ..
                }] if why.certain() => Some(None),
                _ => None,
            }
        };
        let (Some(start), Some(stop)) = (bound(bounds[0]), bound(bounds[1])) else {
            return vec![Alt::unknown()];
        };
        if bounds[2].is_some() {
            return vec![Alt::unknown()];
        }
        let range = |len: usize| {
            let len = len as i64;
            let clamp = |i: i64| if i < 0 { (len + i).max(0) } else { i.min(len) } as usize;
            let from = start.map(clamp).unwrap_or(0);
            let to = stop.map(clamp).unwrap_or(len as usize);
            from..to.max(from)
        };
        map(self.eval_depth(value, scope, depth + 1), |v| match v {
            Val::Seq(kind, items) => Val::Seq(*kind, items[range(items.len())].to_vec()),
            Val::Str(s) if s.is_ascii() => Val::Str(s[range(s.len())].to_owned()),
            Val::Str(_) | Val::AnyStr => Val::AnyStr,
            Val::Members(kind, members) => Val::Members(
                *kind,
                Arc::new(
                    members
                        .iter()
                        .map(|m| Alt {
                            why: Why::Choice,
                            ..m.clone()
                        })
                        .collect(),
                ),
            ),
            _ => Val::Unknown,
        })
    }

    /// `lookup_key` as a read at `read` sees the dict (`subscript_read`: a
    /// store after it, or replaced before it, is not what it reads).
    fn lookup_read_at(
        &self,
        read: Option<(Node<'t>, ScopeId)>,
        dict: &Val<'t>,
        key: &Val<'t>,
        depth: u32,
    ) -> Lookup<'t> {
        self.subscript_read.set(read);
        let lookup = self.lookup_key(dict, key, depth);
        self.subscript_read.set(None);
        lookup
    }

    /// Entry `key` of one dict value: a literal, `dict(...)`, imported
    /// entries, the `**kwargs` of a call, an instance's `__dict__`.
    fn lookup_key(&self, dict: &Val<'t>, key: &Val<'t>, depth: u32) -> Lookup<'t> {
        if !is_key_constant(key) || too_deep(depth) {
            return Lookup::Unknown;
        }
        match dict {
            // `{k: v for k, v in pairs}` unpacked into a call (`f(**kwargs)`).
            Val::Comprehension(comp, scope) if comp.kind_name() == "dictionary_comprehension" => {
                match comp.field("body").filter(|b| b.kind_name() == "pair") {
                    Some(pair) => self.comprehension_entry(pair, *scope, key, depth),
                    None => Lookup::Unknown,
                }
            }
            // Entries of another module keep no enum members as keys.
            Val::Entries(_) if matches!(key, Val::EnumMember(..)) => Lookup::Unknown,
            Val::Entries(entries) => match entries.iter().find(|(k, _)| k.val().same(key)) {
                Some((_, values)) => Lookup::Found(from_consts(values)),
                // Entries others may add (`with_registrations`).
                None if entries.iter().any(|(k, _)| matches!(k, Const::Unknown)) => Lookup::Unknown,
                None => Lookup::Missing,
            },
            Val::Dict(node, scope) => match self.m.registered_entry(*node, key) {
                // Stored by the module calling into this one when it was
                // imported (`@register("matmul")`).
                Some(values) => Lookup::Found(from_consts(&values)),
                // An object whose class stores attributes as items
                // (ml_collections' `ConfigDict.__setattr__`): `obj.key = v`
                // anywhere may have set or replaced the entry.
                None if !self.sets_items_by_attribute(*node, depth)
                    && self.attribute_store_may_set(*node, key, depth) =>
                {
                    Lookup::Unknown
                }
                None => self.literal_lookup(*node, *scope, key, depth),
            },
            Val::KwArgs {
                call,
                call_scope,
                def,
            } => {
                let Val::Str(name) = key else {
                    return Lookup::Missing;
                };
                // A keyword a named parameter takes is not in `**kwargs`.
                if self.m.scopes[*def].params().iter().any(|(p, _)| p == name) {
                    return Lookup::Missing;
                }
                match self.m.args_of(*call).keyword(name) {
                    Some(arg) => Lookup::Found(self.eval_depth(arg, *call_scope, depth + 1)),
                    None => self.splat_argument(*call, *call_scope, name, depth),
                }
            }
            Val::Instance(class, ctor) if self.m.is_dict_subclass(*class) => {
                self.init_dict_lookup(*class, *ctor, key, depth)
            }
            Val::InstanceDict(class, ctor) => match key {
                Val::Str(name) => Lookup::Found(self.field(*class, *ctor, name, depth + 1)),
                _ => Lookup::Unknown,
            },
            _ => Lookup::Unknown,
        }
    }

    /// `dict` is the construction (`Config()`, bound to a name) of a class
    /// of this module whose `__setattr__` stores the item: `__setattr__ =
    /// dict.__setitem__`, or a method whose body certainly runs
    /// `self[name] = value` of its own parameters.
    fn sets_items_by_attribute(&self, dict: Node<'t>, depth: u32) -> bool {
        let m = self.m;
        if dict.kind_name() != "call" || too_deep(depth) {
            return false;
        }
        let classes = self.classes_constructed(dict, depth);
        let [class] = classes.as_slice() else {
            return false;
        };
        if !m.is_dict_subclass(*class) {
            return false;
        }
        if let Some(method) = m.method(*class, "__setattr__") {
            let def = m.scopes[method].node;
            let params = m.scopes[method].params();
            let [(me, _), (name, _), (value, _)] = params else {
                return false;
            };
            let Some(body) = def.field("body") else {
                return false;
            };
            let mut cursor = body.walk();
            return body.named_children(&mut cursor).any(|statement| {
                let Some(assignment) = statement.named_child(0).filter(|a| {
                    statement.kind_name() == "expression_statement" && a.kind_name() == "assignment"
                }) else {
                    return false;
                };
                let (Some(left), Some(right)) =
                    (assignment.field("left"), assignment.field("right"))
                else {
                    return false;
                };
                left.kind_name() == "subscript"
                    && left.field("value").is_some_and(|o| text(o, m.src) == me)
                    && crate::syntax::single_index(left).is_some_and(|k| text(k, m.src) == name)
                    && text(right, m.src) == value
            });
        }
        m.attribute(*class, "__setattr__").is_some_and(|bindings| {
            bindings.iter().all(|b| {
                matches!(b, Binding::Value { value, .. } if text(*value, m.src) == "dict.__setitem__")
            })
        })
    }

    /// `dict` is the construction of a class that defines `__setattr__` or
    /// `__setitem__` (or binds one in its body), and the module stores an
    /// attribute named `key` on an object that may be that one
    /// (`config.platforms = ...`).
    fn attribute_store_may_set(&self, dict: Node<'t>, key: &Val<'t>, depth: u32) -> bool {
        let m = self.m;
        let Val::Str(key) = key else {
            return false;
        };
        if dict.kind_name() != "call" || too_deep(depth) {
            return false;
        }
        let stores_items = |class: &ScopeId| {
            ["__setattr__", "__setitem__"]
                .iter()
                .any(|hook| m.method(*class, hook).is_some() || m.attribute(*class, hook).is_some())
        };
        let mut classes = self.classes_constructed(dict, depth);
        classes.retain(stores_items);
        if classes.is_empty() {
            return false;
        }
        self.attribute_stores_named(key).any(|store| {
            let Some(object) = store.field("object") else {
                return false;
            };
            let object_scope = m.innermost_scope_at(object.start_byte());
            self.eval_depth(object, object_scope, depth + 1)
                .iter()
                .any(|a| match &a.val {
                    Val::Instance(c, ctor) => {
                        classes.contains(c) && ctor.is_none_or(|(call, _)| call.id() == dict.id())
                    }
                    _ => false,
                })
        })
    }

    /// The classes of this module the call `call` constructs, however it
    /// names them (`ConfigDict()`, `CLASSES["config"]()`).
    fn classes_constructed(&self, call: Node<'t>, depth: u32) -> Vec<ScopeId> {
        let Some(func) = call.field("function") else {
            return Vec::new();
        };
        let scope = self.m.innermost_scope_at(call.start_byte());
        self.eval_depth(func, scope, depth + 1)
            .iter()
            .filter_map(|a| match a.val {
                Val::Class(class) => Some(class),
                _ => None,
            })
            .collect()
    }

    /// The attribute nodes `obj.attr` of the module that are assignment
    /// targets (`obj.attr = v`), any `obj`.
    fn attribute_stores_named<'a>(&'a self, attr: &'a str) -> impl Iterator<Item = Node<'t>> + 'a {
        let m = self.m;
        whole_words(m.src, attr).filter_map(move |at| {
            m.node_for_span(at..at + attr.len())
                .and_then(|ident| m.parent_of(ident))
                .filter(|a| a.kind_name() == "attribute")
                .filter(|a| {
                    m.parent_of(*a).is_some_and(|p| {
                        p.kind_name() == "assignment"
                            && p.field("left").is_some_and(|l| l.id() == a.id())
                    })
                })
        })
    }

    /// Entry `key` of each value of `expr` (a `**expr` unpacked into a dict
    /// or a call): found in all, missing in all, or not known.
    fn splat_lookup(
        &self,
        expr: Node<'t>,
        scope: ScopeId,
        key: &Val<'t>,
        depth: u32,
    ) -> Lookup<'t> {
        self.mapping_lookup(expr, scope, key, depth, false)
    }

    /// `splat_lookup`, and with `pairs` also of an iterable of pairs (the
    /// argument of `dict(...)`: `dict(zip(names, values))`, `dict((k, v)
    /// for ...)`), whose last pair with the key gives its entry.
    fn mapping_lookup(
        &self,
        expr: Node<'t>,
        scope: ScopeId,
        key: &Val<'t>,
        depth: u32,
        pairs: bool,
    ) -> Lookup<'t> {
        let mut dicts = self.eval_as_dicts(expr, scope, depth);
        if pairs {
            dicts = self.expand_comprehensions(dicts, SeqKind::List, depth + 1);
        }
        // Read for one call of the function that made the dict holding it
        // (`made_here` in `read_way`): that call's `**kwargs` only.
        {
            let way = self.read_way.borrow();
            dicts.retain(|d| compatible(&d.choices, &way));
        }
        if dicts.is_empty() {
            return Lookup::Unknown;
        }
        let mut found = Vec::new();
        let mut missing = 0;
        for d in &dicts {
            let lookup = match &d.val {
                Val::Seq(_, items) if pairs => pairs_lookup(items, key),
                dict => self.reading_under(&d.choices, || self.lookup_key(dict, key, depth + 1)),
            };
            match lookup {
                Lookup::Found(alts) => {
                    found.extend(alts.into_iter().filter_map(|a| a.under(&d.why, &d.choices)))
                }
                Lookup::Missing if d.why.certain() => missing += 1,
                Lookup::Unknown if d.why.certain() => return Lookup::Unknown,
                // One alternative of a run-time choice that cannot be read
                // (`**cfg.kwargs` where `cfg` is the default's config or
                // another): unknown for that choice only; the default's
                // entry still decides a plain run.
                _ => found.push(Alt {
                    val: Val::Unknown,
                    why: d.why.clone(),
                    choices: d.choices.clone(),
                }),
            }
        }
        match (missing, found.is_empty()) {
            (0, _) => Lookup::Found(cap(found)),
            (n, true) if n == dicts.len() => Lookup::Missing,
            // In some dicts and not in others: which one a run uses is not known here.
            _ => Lookup::Unknown,
        }
    }

    /// The argument `call` passes for parameter `name` (at `position` among
    /// the positional ones, if it can be passed by position): its own, or
    /// one from a `**` unpacking; `Missing` when it passes none.
    /// The argument a call through a `functools.partial(def, ...)` value
    /// passes to `def`'s parameter (`g = partial(mm, backend="x")`, then
    /// `g(x)`, `h = g; h(x)`, `self.step(x)` for a partial kept in a
    /// field): the call's keyword, else the partial's, else the stored
    /// positionals then the call's. `None` when the callee is not a partial
    /// of `def`. Each partial the callee may be answers for itself, under
    /// the choices that made it.
    fn through_partial_argument(
        &self,
        call: Node<'t>,
        call_scope: ScopeId,
        def: ScopeId,
        name: &str,
        position: Option<usize>,
        depth: u32,
    ) -> Option<Lookup<'t>> {
        let m = self.m;
        let func = call.field("function")?;
        if !matches!(func.kind_name(), "identifier" | "attribute" | "subscript") {
            return None;
        }
        let callees = self.eval_depth(func, call_scope, depth + 1);
        if !callees
            .iter()
            .all(|c| matches!(c.val, Val::Partial { def: d, .. } if d == def))
        {
            return None;
        }
        let mut found: Vec<Alt<'t>> = Vec::new();
        let mut missing = false;
        for callee in &callees {
            let Val::Partial { made, scope, .. } = callee.val else {
                return None;
            };
            // The partials this one wraps, outermost first: each stores
            // arguments ahead of the next one's.
            let mut chain = vec![(made, scope)];
            let mut merged = through_partial(&m.args_of(made), &m.args_of(call));
            while chain.len() < MAX_PARTIAL_CHAIN {
                let (outer, outer_scope) = chain[chain.len() - 1];
                let Some(&inner) = m.args_of(outer).positional.first() else {
                    break;
                };
                let inner = self.eval_depth(inner, outer_scope, depth + 1);
                let [Alt {
                    val: Val::Partial { made, scope, .. },
                    ..
                }] = inner.as_slice()
                else {
                    break;
                };
                merged = through_partial(&m.args_of(*made), &merged);
                chain.push((*made, *scope));
            }
            let arg = match merged.keyword(name) {
                Some(arg) => arg,
                None if merged.has_splat => return Some(Lookup::Unknown),
                None => match position.and_then(|p| merged.positional.get(p).copied()) {
                    Some(arg) => arg,
                    None => {
                        missing = true;
                        continue;
                    }
                },
            };
            // A stored argument is read where its partial was made.
            let scope = chain
                .iter()
                .find(|(p, _)| p.byte_range().contains(&arg.start_byte()))
                .map_or(call_scope, |(_, s)| *s);
            found.extend(
                self.eval_depth(arg, scope, depth + 1)
                    .into_iter()
                    .filter_map(|a| a.under(&callee.why, &callee.choices)),
            );
        }
        Some(match (missing, found.is_empty()) {
            (true, true) => Lookup::Missing,
            (false, false) => Lookup::Found(cap(found)),
            // Some partials pass it and some leave the default: the default
            // is not evaluated here.
            _ => Lookup::Unknown,
        })
    }

    /// Parameter `name` (at `position` among what a call passes) of the
    /// def that the partial `inner` wraps, not bound by `inner`: what the
    /// partials made of it bind (`partial(inner, fn=g)`, `inner` reached by
    /// value: inline, through a name, a field, a return), each on the
    /// choice of that partial (`Val::Partial` of a partial carries it).
    /// Unknown when none binds it.
    fn wrapping_partial_argument(
        &self,
        inner: Node<'t>,
        name: &str,
        position: Option<usize>,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        let m = self.m;
        let mut out = Vec::new();
        for &i in m.calls_named("partial") {
            let site = &m.calls[i];
            if site.node.id() == inner.id()
                || m.callee(site.node, site.scope).as_deref() != Some(names::PARTIAL)
            {
                continue;
            }
            let args = m.args_of(site.node);
            let Some(&first) = args.positional.first() else {
                continue;
            };
            let wraps = self
                .eval_depth(first, site.scope, depth + 1)
                .iter()
                .any(|a| matches!(a.val, Val::Partial { site: s, .. } if s.id() == inner.id()));
            if !wraps {
                continue;
            }
            let outer = through_partial(&args, &Args::default());
            let merged = through_partial(&m.args_of(inner), &outer);
            let arg = merged
                .keyword(name)
                .or_else(|| position.and_then(|p| merged.positional.get(p).copied()));
            // Stored by `inner` itself it would have been found there: the
            // argument is this partial's.
            let alts = match arg {
                Some(arg) => self.eval_depth(arg, site.scope, depth + 1),
                None => vec![Alt::unknown()],
            };
            let why = Why::Each(format!("for the partial at line {}", line_of(site.node)));
            let choice = [(inner.id(), site.node.id())];
            out.extend(alts.into_iter().filter_map(|a| a.under(&why, &choice)));
            if out.len() > MAX_ALTS {
                break;
            }
        }
        if out.is_empty() {
            return vec![Alt::unknown()];
        }
        cap(out)
    }

    fn call_argument(
        &self,
        call: Node<'t>,
        call_scope: ScopeId,
        name: &str,
        position: Option<usize>,
        depth: u32,
    ) -> Lookup<'t> {
        let args = self.m.args_of(call);
        if let Some(arg) = args
            .keyword(name)
            .or_else(|| position.and_then(|p| args.positional.get(p).copied()))
        {
            return Lookup::Found(self.eval_depth(arg, call_scope, depth + 1));
        }
        if let (true, Some(p)) = (args.has_list_splat, position) {
            // `mm(*args)` forwarding a tuple whose items are known.
            if !args.has_dict_splat {
                if let Some((rest, before)) = Args::trailing_list_splat(call) {
                    if p >= before {
                        return self.spread_item(rest, call_scope, p - before, depth);
                    }
                }
            }
            return Lookup::Unknown;
        }
        if args.has_dict_splat {
            return self.splat_argument(call, call_scope, name, depth);
        }
        Lookup::Missing
    }

    /// `spread_item`'s values, none when they are not known.
    pub(crate) fn spread_values(
        &self,
        rest: Node<'t>,
        scope: ScopeId,
        index: usize,
    ) -> Vec<Alt<'t>> {
        match self.spread_item(rest, scope, index, 0) {
            Lookup::Found(alts) => alts,
            _ => Vec::new(),
        }
    }

    /// Item `index` of what `*rest` unpacks (a tuple or list of known
    /// length: `*args` of a function its callers give positional arguments);
    /// `Missing` when every one is shorter (the parameter's default applies).
    fn spread_item(&self, rest: Node<'t>, scope: ScopeId, index: usize, depth: u32) -> Lookup<'t> {
        let alts = self.eval_depth(rest, scope, depth + 1);
        let shorter = |a: &Alt<'t>| matches!(&a.val, Val::Seq(_, items) if items.len() <= index);
        if !alts.is_empty() && alts.iter().all(shorter) {
            return Lookup::Missing;
        }
        let out: Vec<Alt<'t>> = alts
            .into_iter()
            .map(|a| match &a.val {
                Val::Seq(_, items) => Alt {
                    val: items.get(index).cloned().unwrap_or(Val::Unknown),
                    ..a
                },
                _ => Alt::unknown(),
            })
            .collect();
        Lookup::Found(or_unknown(out))
    }

    /// What the `**` unpackings of `call` pass as keyword `name` (the call's
    /// own keywords already looked at).
    fn splat_argument(&self, call: Node<'t>, scope: ScopeId, name: &str, depth: u32) -> Lookup<'t> {
        let key = Val::Str(name.to_owned());
        let mut out = Lookup::Missing;
        for splat in dict_splats(call) {
            match self.splat_lookup(splat, scope, &key, depth) {
                Lookup::Found(alts) => out = Lookup::Found(alts),
                Lookup::Missing => {}
                Lookup::Unknown => return Lookup::Unknown,
            }
        }
        out
    }

    /// Entry `key` of a dict literal or `dict(...)` call, with its `**`
    /// unpackings (later entries win) and the `D[k] = v` stores into it.
    fn literal_lookup(
        &self,
        dict: Node<'t>,
        scope: ScopeId,
        key: &Val<'t>,
        depth: u32,
    ) -> Lookup<'t> {
        // (Taken first: the lookups evaluating entries and stores below are
        // not this read.)
        let read = self.subscript_read.take();
        if !is_key_constant(key) {
            return Lookup::Unknown;
        }
        let mut result = Lookup::Missing;
        if dict.kind_name() == "call" {
            result = self.dict_call_lookup(dict, scope, key, depth, 0);
        } else {
            let mut cursor = dict.walk();
            for pair in dict.named_children(&mut cursor) {
                match pair.kind_name() {
                    "pair" => {
                        let (Some(k), Some(v)) = (pair.field("key"), pair.field("value")) else {
                            return Lookup::Unknown;
                        };
                        match self.eval_key(k, scope, depth + 1).as_slice() {
                            [Alt { val, .. }] if val.same(key) => {
                                result = Lookup::Found(self.value_read_at(
                                    v,
                                    scope,
                                    read.map(|(r, _)| r),
                                    depth,
                                ));
                            }
                            [Alt { val, .. }] if is_key_constant(val) => {}
                            _ => result = Lookup::Unknown,
                        }
                    }
                    "dictionary_splat" => {
                        let Some(expr) = pair.named_child(0) else {
                            return Lookup::Unknown;
                        };
                        match self.splat_lookup(unparenthesize(expr), scope, key, depth) {
                            Lookup::Missing => {}
                            other => result = other,
                        }
                    }
                    "comment" => {}
                    // A dict comprehension.
                    _ => return Lookup::Unknown,
                }
            }
        }
        self.lookup_after_stores(dict, result, read, key, depth)
    }

    /// Entry `key` of an instance of a `dict` subclass of this module whose
    /// own `__init__` fills it (`super().__init__(d or {}, **kw)`, `for k,
    /// v in d.items(): self[k] = ...`: ml_collections-, EasyDict-style
    /// configs), that `__init__` bound to the constructor call: what its
    /// `dict` initialisations pass, then its item stores into `self`, in
    /// order; then the stores made through the name the instance is given.
    /// Unknown when `__init__` changes `self` some other way, or may not.
    fn init_dict_lookup(
        &self,
        class: ScopeId,
        ctor: Option<(Node<'t>, ScopeId)>,
        key: &Val<'t>,
        depth: u32,
    ) -> Lookup<'t> {
        let m = self.m;
        let read = self.subscript_read.take();
        let (Some(init), Some((call, call_scope))) = (m.method(class, "__init__"), ctor) else {
            return Lookup::Unknown;
        };
        if too_deep(depth) || !is_key_constant(key) {
            return Lookup::Unknown;
        }
        // `super().__init__` must be `dict`'s: no base here has its own.
        let Some(owner) = m.scopes[init].class else {
            return Lookup::Unknown;
        };
        if m.base_classes(owner)
            .into_iter()
            .any(|base| m.method(base, "__init__").is_some())
        {
            return Lookup::Unknown;
        }
        let Some(changes) = self.init_dict_changes(init, class) else {
            return Lookup::Unknown;
        };
        let receiver = Alt::fixed(Val::Instance(class, ctor));
        let frames = [(init, call, call_scope, Some(receiver))];
        let made = self.in_frames(&frames, &|| {
            let mut result = Lookup::Missing;
            for change in &changes {
                match *change {
                    InitDictChange::Init(init_call, skip) => {
                        match self.dict_call_lookup(init_call, init, key, depth + 1, skip) {
                            Lookup::Missing => {}
                            other => result = other,
                        }
                    }
                    InitDictChange::Store(k, v) => {
                        let keys = self.eval_key(k, init, depth + 1);
                        if keys.iter().any(|a| !is_key_constant(&a.val)) {
                            return Lookup::Unknown;
                        }
                        let matching: Vec<&Alt<'t>> =
                            keys.iter().filter(|a| a.val.same(key)).collect();
                        if matching.is_empty() {
                            continue;
                        }
                        let values = self.value_read_at(v, init, None, depth);
                        // In a loop, the last pass storing the key wins.
                        let Some(stored) =
                            self.after_passes(under_keys(&matching, &values), v, init, None)
                        else {
                            return Lookup::Unknown;
                        };
                        // Stored certainly (the key of an element that is
                        // certainly there): it replaces what was there;
                        // else either may be the entry.
                        let every = matching.iter().all(|k| k.why.certain());
                        result = match (every, result) {
                            (true, _) | (false, Lookup::Missing) => Lookup::Found(cap(stored)),
                            (false, Lookup::Found(before)) => Lookup::Found(cap(before
                                .into_iter()
                                .chain(stored)
                                .map(|mut a| {
                                    a.why = Why::Choice;
                                    a
                                })
                                .collect())),
                            (false, Lookup::Unknown) => Lookup::Unknown,
                        };
                    }
                }
            }
            result
        });
        let Some(made) = made else {
            return Lookup::Unknown;
        };
        self.lookup_after_stores(call, made, read, key, depth)
    }

    /// How `init`, the `__init__` of a `dict` subclass (`class` or a base),
    /// fills `self`, in order: `dict` initialisations (`super().__init__(...)`,
    /// `dict.__init__(self, ...)`, `self.update(...)`) and item stores
    /// (`self[k] = v`), each certain to run. `None` when it may change
    /// `self` some other way (`self.pop(...)`, passing `self` on, a store
    /// under a condition, an attribute store a `__setattr__` may make an
    /// item).
    fn init_dict_changes(&self, init: ScopeId, class: ScopeId) -> Option<Vec<InitDictChange<'t>>> {
        let m = self.m;
        let def = m.scopes[init].node;
        let (me, _) = m.scopes[init].params().first()?;
        let sets_items =
            m.method(class, "__setattr__").is_some() || m.attribute(class, "__setattr__").is_some();
        let body = def.field("body")?;
        let mut changes: Vec<InitDictChange<'t>> = Vec::new();
        let mut stack = vec![body];
        let certain = |node: Node<'t>| m.store_runs(node, init, def) == StoreRuns::Certainly;
        while let Some(node) = stack.pop() {
            match node.kind_name() {
                "function_definition" | "class_definition" | "lambda" => {
                    // A closure that may change `self` later.
                    if identifier_texts(node, m.src).contains(&me.as_str()) {
                        return None;
                    }
                    continue;
                }
                // `super().__init__(...)`: `dict`'s (no base here has one).
                "call" if super::is_super_init(node, m.src) => {
                    if !certain(node) {
                        return None;
                    }
                    changes.push(InitDictChange::Init(node, 0));
                }
                "identifier" if text(node, m.src) == me => {
                    let parent = m.parent_of(node)?;
                    let holds =
                        |field: &str| parent.field(field).is_some_and(|n| n.id() == node.id());
                    match parent.kind_name() {
                        "subscript" if holds("value") => {
                            let up = m.parent_of(parent)?;
                            match up.kind_name() {
                                "assignment"
                                    if up.field("left").is_some_and(|l| l.id() == parent.id()) =>
                                {
                                    let (k, v) = super::item_store(parent)?;
                                    if !certain(parent) {
                                        return None;
                                    }
                                    changes.push(InitDictChange::Store(k, v));
                                }
                                "augmented_assignment" | "delete_statement" => return None,
                                // A read.
                                _ => {}
                            }
                        }
                        "attribute" if holds("object") => {
                            let name = parent.field("attribute").map(|a| text(a, m.src))?;
                            let assigned = m.parent_of(parent).is_some_and(|p| {
                                p.kind_name() == "assignment"
                                    && p.field("left").is_some_and(|l| l.id() == parent.id())
                            });
                            match name {
                                "update" => {
                                    let call =
                                        m.parent_of(parent).filter(|c| c.kind_name() == "call")?;
                                    if !certain(call) {
                                        return None;
                                    }
                                    changes.push(InitDictChange::Init(call, 0));
                                }
                                "setdefault" | "pop" | "popitem" | "clear" | "__setitem__"
                                | "__delitem__" | "__init__" => return None,
                                _ if assigned && sets_items => return None,
                                _ => {}
                            }
                        }
                        "argument_list" => {
                            let call = m.parent_of(parent)?;
                            let function = call.field("function").map(|f| text(f, m.src));
                            let first = parent.named_child(0).is_some_and(|a| a.id() == node.id());
                            match function {
                                // `super(Config, self).__init__(...)`.
                                Some("super") => {}
                                // `dict.__init__(self, ...)`.
                                Some("dict.__init__") if first && certain(call) => {
                                    changes.push(InitDictChange::Init(call, 1));
                                }
                                _ => return None,
                            }
                        }
                        _ => return None,
                    }
                }
                _ => {}
            }
            let mut cursor = node.walk();
            stack.extend(node.named_children(&mut cursor));
        }
        changes.sort_by_key(|c| match c {
            InitDictChange::Init(n, _) | InitDictChange::Store(n, _) => n.start_byte(),
        });
        Some(changes)
    }

    /// Entry `key` of the dict a call with `dict`'s arguments makes
    /// (`dict(base, k=v, **more)`, `super().__init__(base, k=v)`), the
    /// first `skip` positional arguments left out (`dict.__init__(self, ...)`).
    fn dict_call_lookup(
        &self,
        call: Node<'t>,
        scope: ScopeId,
        key: &Val<'t>,
        depth: u32,
        skip: usize,
    ) -> Lookup<'t> {
        let m = self.m;
        let mut result = Lookup::Missing;
        let args = m.args_of(call);
        if args.positional.len() > skip + 1 {
            return Lookup::Unknown;
        }
        if let Some(base) = args.positional.get(skip) {
            result = self.mapping_lookup(*base, scope, key, depth, true);
        }
        let Some(list) = call.field("arguments") else {
            return Lookup::Unknown;
        };
        let mut cursor = list.walk();
        for arg in list.named_children(&mut cursor) {
            match arg.kind_name() {
                "keyword_argument" => {
                    let matches = matches!(key, Val::Str(k) if arg.field("name").is_some_and(|n| text(n, m.src) == k));
                    if let (true, Some(v)) = (matches, arg.field("value")) {
                        result = Lookup::Found(self.eval_depth(v, scope, depth + 1));
                    }
                }
                "dictionary_splat" => {
                    let Some(expr) = arg.named_child(0) else {
                        return Lookup::Unknown;
                    };
                    match self.splat_lookup(unparenthesize(expr), scope, key, depth) {
                        Lookup::Missing => {}
                        other => result = other,
                    }
                }
                "list_splat" => return Lookup::Unknown,
                _ => {}
            }
        }
        result
    }

    /// Entry `key` of the dict `dict` made, as a read at `read` sees it:
    /// `made` (what the dict held when made), then the stores into it.
    fn lookup_after_stores(
        &self,
        dict: Node<'t>,
        made: Lookup<'t>,
        read: Option<(Node<'t>, ScopeId)>,
        key: &Val<'t>,
        depth: u32,
    ) -> Lookup<'t> {
        let m = self.m;
        let result = made;
        // `D[k] = v` stores into it; a store whose key has several
        // alternatives (a registration decorator's name) gives the value
        // made the same way as the matching key.
        let mut stored = Vec::new();
        let Some(stores) = self.dict_stores(dict, depth) else {
            return Lookup::Unknown;
        };
        // The last store of the key so far that certainly ran, straight-line
        // before the read when in the read's own scope: a later one there
        // replaces it. In another scope (the dict a call returns), a later
        // straight-line store of the same scope does, when every store so
        // far is of that scope (its body ran whole before the read).
        let mut replacing: Option<(Node<'t>, ScopeId)> = None;
        let mut scopes_stored: Vec<ScopeId> = Vec::new();
        for (k, v, store_scope) in stores.iter() {
            let runs = m.store_runs(*v, *store_scope, dict);
            if runs == StoreRuns::Never {
                continue;
            }
            // (A change made some other way, `node.update(...)` through a
            // name for a dict inside it, is listed as its statement.)
            let statement = if k.id() == v.id() {
                *v
            } else {
                m.parent_of(*v).unwrap_or(*v)
            };
            let same_scope_as_read = read.filter(|(_, s)| s == store_scope);
            // Run after the read (or being run as it reads: the read is in
            // its own value): not what the read sees.
            if same_scope_as_read.is_some_and(|(r, _)| statement.end_byte() > r.start_byte()) {
                continue;
            }
            // `d.update(other)`: the entry `other` holds for the key.
            let updated = (k.id() == v.id())
                .then(|| self.updated_entry(*v, *store_scope, key, depth))
                .flatten();
            // `d.setdefault(key, default)`: another key's, or one the dict
            // already holds (its entry stays), changes nothing here.
            if k.id() == v.id() && updated.is_none() {
                if let Some(set_key) = setdefault_key(*v, m.src) {
                    let other = self
                        .eval_depth(set_key, *store_scope, depth + 1)
                        .iter()
                        .all(|a| is_key_constant(&a.val) && !a.val.same(key));
                    if other || matches!(result, Lookup::Found(_)) {
                        continue;
                    }
                }
            }
            let (keys, values) = match updated {
                Some(Lookup::Missing) => continue,
                Some(Lookup::Unknown) => return Lookup::Unknown,
                Some(Lookup::Found(values)) => (vec![Alt::fixed(key.clone())], Some(values)),
                None => (self.eval_key(*k, *store_scope, depth + 1), None),
            };
            if keys.iter().any(|a| !is_key_constant(&a.val)) {
                return Lookup::Unknown;
            }
            let matching: Vec<&Alt<'t>> = keys.iter().filter(|a| a.val.same(key)).collect();
            if matching.is_empty() {
                continue;
            }
            // `if cond: options["lowering_platforms"] = ...`: stored or not,
            // as the run decides.
            if runs == StoreRuns::Maybe {
                return Lookup::Unknown;
            }
            // (A list stored, as it is when read: `D["k"] = []` then
            // `D["k"].append(f)`.)
            let values = values.unwrap_or_else(|| {
                self.value_read_at(*v, *store_scope, read.map(|(r, _)| r), depth)
            });
            let whole_body = |node: Node<'t>| {
                m.is_straight_line(node, *store_scope, m.scopes[*store_scope].node)
            };
            let replaces = match (same_scope_as_read, replacing) {
                (Some(_), Some((before, _))) => {
                    keys.len() == 1 && m.is_straight_line(before, *store_scope, statement)
                }
                (None, Some((before, before_scope))) => {
                    before_scope == *store_scope
                        && scopes_stored.iter().all(|s| s == store_scope)
                        && keys.len() == 1
                        && whole_body(before)
                        && whole_body(statement)
                        && !named_between(m.src, before, statement)
                }
                _ => false,
            };
            if replaces {
                stored.clear();
            }
            if keys.len() == 1 && (same_scope_as_read.is_some() || whole_body(statement)) {
                replacing = Some((statement, *store_scope));
            }
            scopes_stored.push(*store_scope);
            // Stored on each pass of a loop the read comes after: the last
            // pass's value is what stays (`for p in PLATFORMS: cfg["p"] = p`).
            let Some(this) = self.after_passes(
                under_keys(&matching, &values),
                statement,
                *store_scope,
                read.map(|(r, _)| r),
            ) else {
                return Lookup::Unknown;
            };
            stored.extend(self.after_calls(this, dict, *k, *store_scope, read, depth));
        }
        if !stored.is_empty() {
            return Lookup::Found(cap(stored));
        }
        result
    }

    /// What a store in a function, made on each of its calls (`set(self,
    /// name, val): self.values[name] = val`, called twice with one key),
    /// leaves for a read: the calls run one after another, so the read sees
    /// the last of them that ran before it. When every call is straight-line
    /// code of the read's own scope, that is the last one before the read
    /// (as certain as the call); otherwise which one is not known, and each
    /// is only a run-time choice.
    fn after_calls(
        &self,
        alts: Vec<Alt<'t>>,
        dict: Node<'t>,
        key: Node<'t>,
        store_scope: ScopeId,
        read: Option<(Node<'t>, ScopeId)>,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        let m = self.m;
        let Some(def) = m.function_scope(store_scope) else {
            return alts;
        };
        // A dict each call makes anew (`config = {}` in the function): a
        // read of one call's dict is on that call's way already.
        if super::encloses(m.scopes[def].node, dict) {
            return alts;
        }
        let point = m.scopes[def].node.id();
        let call_of = |a: &Alt<'t>| a.choices.iter().find(|(p, _)| *p == point).map(|(_, c)| *c);
        let mut calls: Vec<usize> = alts.iter().filter_map(call_of).collect();
        calls.sort_unstable();
        calls.dedup();
        if calls.len() < 2 {
            return alts;
        }
        let sites = m.def_call_sites(def);
        let site_of = |id: usize| sites.iter().find(|s| s.call.id() == id);
        // A read in a function being evaluated for a call (`settings.get(k)`
        // reading `self._values[k]`) happens when that call does.
        let calls_scope = calls
            .first()
            .and_then(|&id| site_of(id))
            .map(|site| site.scope);
        let read = read.map(|(mut at, mut at_scope)| {
            for frame in self.bound.borrow().iter().rev() {
                if Some(at_scope) == calls_scope {
                    break;
                }
                if frame.call.kind_name() == "call" && m.scope_within(at_scope, frame.def) {
                    (at, at_scope) = (frame.call, frame.call_scope);
                }
            }
            // Not being evaluated for a call: a class body runs where the
            // class is defined, a function where its one call is (`f()`,
            // or `jax.jit(f).trace(x)` staging it).
            for _ in 0..MAX_READ_HOPS {
                if Some(at_scope) == calls_scope {
                    break;
                }
                let scope = &m.scopes[at_scope];
                match scope.kind {
                    ScopeKind::Class => match scope.parent {
                        Some(parent) => (at, at_scope) = (scope.node, parent),
                        None => break,
                    },
                    ScopeKind::Function => {
                        let sites = m.def_call_sites(at_scope);
                        match &sites[..] {
                            [site] if matches!(site.kind, SiteKind::Direct { .. }) => {
                                (at, at_scope) = (site.call, site.scope)
                            }
                            _ => break,
                        }
                    }
                    _ => break,
                }
            }
            (at, at_scope)
        });
        let one_target =
            self.calls_store_into_one_dict(def, key, store_scope, &calls, &site_of, depth);
        let ordered = read.filter(|_| one_target).and_then(|(read, read_scope)| {
            let mut before = Vec::new();
            for &id in &calls {
                let site = site_of(id)?;
                if site.scope != read_scope || !m.is_straight_line(site.call, read_scope, read) {
                    return None;
                }
                if site.call.end_byte() <= read.start_byte() {
                    before.push(site.call);
                }
            }
            Some(before)
        });
        match ordered {
            Some(before) => {
                // (None before the read: no call's store is seen.)
                let Some(last) = before.iter().max_by_key(|c| c.start_byte()).copied() else {
                    return alts.into_iter().filter(|a| call_of(a).is_none()).collect();
                };
                let note = format!("for the call at line {}", line_of(last));
                alts.into_iter()
                    .filter(|a| call_of(a).is_none_or(|c| c == last.id()))
                    .map(|mut a| {
                        a.choices.retain(|(p, _)| *p != point);
                        if matches!(&a.why, Why::Each(n) if *n == note) {
                            a.why = Why::Fixed;
                        }
                        a
                    })
                    .collect()
            }
            None => alts
                .into_iter()
                .map(|mut a| {
                    if call_of(&a).is_some() && matches!(a.why, Why::Each(_)) {
                        a.why = Why::Choice;
                    }
                    a
                })
                .collect(),
        }
    }

    /// Whether every call of `def` among `calls` stores into the same dict
    /// with the store `key` is the key of: a module-level dict (`REG[k] =
    /// v`), or one held by the receiver (`self.values[k] = v`) when every
    /// call's receiver is the same object (`config.set(...)` twice, not
    /// `c1.set(...)` and `c2.set(...)`).
    fn calls_store_into_one_dict<'s>(
        &self,
        def: ScopeId,
        key: Node<'t>,
        store_scope: ScopeId,
        calls: &[usize],
        site_of: &dyn Fn(usize) -> Option<&'s CallSiteOf<'t>>,
        depth: u32,
    ) -> bool
    where
        't: 's,
    {
        let m = self.m;
        let Some(object) = m
            .parent_of(key)
            .filter(|t| t.kind_name() == "subscript")
            .and_then(|t| t.field("value"))
        else {
            return false;
        };
        let Some(root) = super::attribute_root(object) else {
            return false;
        };
        let name = text(root, m.src);
        if m.is_module_name(store_scope, name) {
            return true;
        }
        let is_self = m.scopes[def]
            .params()
            .first()
            .is_some_and(|(p, _)| p == name)
            && m.scopes[def]
                .parent
                .is_some_and(|c| m.scopes[c].kind == ScopeKind::Class);
        if !is_self {
            return false;
        }
        let mut receiver: Option<usize> = None;
        for &id in calls {
            let Some(site) = site_of(id) else {
                return false;
            };
            let Some(object) = site
                .call
                .field("function")
                .filter(|f| f.kind_name() == "attribute")
                .and_then(|f| f.field("object"))
            else {
                return false;
            };
            // The one object the call can run on: of the objects the
            // receiver may be, those whose class runs this def (on another,
            // the call fails before any read), and of those made by a
            // default of run-time configuration, the one a plain run makes
            // (`REGISTRY[os.environ.get(K, "Settings")]()`).
            let receivers = self.eval_depth(object, site.scope, depth + 1);
            let plain_run = receivers.iter().any(|a| matches!(a.why, Why::Default(_)));
            let mut runs_def = receivers.iter().filter(|a| {
                !(plain_run && a.why.is_choice())
                    && match &a.val {
                        Val::Instance(class, _) => {
                            m.method(*class, &m.scopes[def].name) == Some(def)
                        }
                        _ => true,
                    }
            });
            let made = match (runs_def.next(), runs_def.next()) {
                (
                    Some(Alt {
                        val: Val::Instance(_, Some((ctor, _))),
                        ..
                    }),
                    None,
                ) => ctor.id(),
                _ => return false,
            };
            if receiver.is_some_and(|r| r != made) {
                return false;
            }
            receiver = Some(made);
        }
        true
    }

    /// `value` as a read at `read` sees it: a list literal changed after it
    /// is made, through the name it is bound to (`xs.append(x)`) or the
    /// name of the dict holding it (`KERNELS["copy"].append(f)`), has the
    /// changes made before the read (`grown_list`); unknown when they are
    /// not known, or when the read is not (`read` `None`).
    fn value_read_at(
        &self,
        value: Node<'t>,
        scope: ScopeId,
        read: Option<Node<'t>>,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        if !is_list_literal(value, self.m.src) {
            return self.eval_depth(value, scope, depth + 1);
        }
        let mutations = self.m.list_mutations(value);
        if mutations.adds.is_empty() && !mutations.shrinks && !mutations.unknown {
            return self.eval_depth(value, scope, depth + 1);
        }
        match read {
            Some(read) if !mutations.unknown => {
                self.grown_list(value, scope, &mutations, read, depth)
            }
            _ => vec![Alt::unknown()],
        }
    }

    /// The abstract mesh in force at `node` on every way it runs: set by an
    /// enclosing `with` in its scope, or the same at every call of the
    /// function holding it (`with use_abstract_mesh(m): lower_apply(...)`
    /// for a helper `lower_apply` calls), a known mesh certainly.
    /// Only in the checked file's model: its calls are all the ways
    /// there; an importer's call may run under no mesh.
    fn context_abstract_mesh(&self, node: Node<'t>, scope: ScopeId) -> Option<AbstractMeshInfo> {
        if !self.m.is_checked_here() {
            return None;
        }
        let mut visits = 0;
        self.context_abstract_mesh_within(node, scope, 0, &mut visits)
    }

    fn context_abstract_mesh_within(
        &self,
        node: Node<'t>,
        scope: ScopeId,
        depth: u32,
        visits: &mut u32,
    ) -> Option<AbstractMeshInfo> {
        // (Each call site is asked once per way to it: a few levels of
        // helpers, a few dozen sites in all.)
        *visits += 1;
        if *visits > 32 {
            return None;
        }
        let m = self.m;
        let here = m.context_meshes(node, scope);
        if !matches!(here.as_slice(), [(super::lowering::ContextMesh::None, ..)]) {
            // One mesh, whichever way (a loop over one mesh, its elements).
            let mut found: Option<AbstractMeshInfo> = None;
            for (mesh, why, _) in &here {
                let super::lowering::ContextMesh::Abstract(info) = mesh else {
                    return None;
                };
                let same = found.as_ref().is_none_or(|f| {
                    f.repr == info.repr && f.device_platform == info.device_platform
                });
                if !why.certain() || info.repr.is_none() || info.current || !same {
                    return None;
                }
                found = Some(info.clone());
            }
            return found;
        }
        if depth >= 6 {
            return None;
        }
        let def = m.function_scope(scope)?;
        let sites = m.def_call_sites(def);
        if sites.is_empty() || sites.len() > 8 {
            return None;
        }
        let mut found: Option<AbstractMeshInfo> = None;
        for site in sites.iter() {
            if !matches!(site.kind, SiteKind::Direct { .. }) {
                return None;
            }
            let info =
                self.context_abstract_mesh_within(site.call, site.scope, depth + 1, visits)?;
            if found
                .as_ref()
                .is_some_and(|f| f.repr != info.repr || f.device_platform != info.device_platform)
            {
                return None;
            }
            found = Some(info);
        }
        found
    }

    /// What `call`, `d.update(other)` with one positional argument, stores
    /// under `key`: `other`'s entry, found the same way for every value
    /// `other` may have (`d.update(overrides or {})` with `overrides=None`
    /// stores nothing); `None` for any other change (`d.update(k=v)`,
    /// `setdefault`).
    fn updated_entry(
        &self,
        call: Node<'t>,
        scope: ScopeId,
        key: &Val<'t>,
        depth: u32,
    ) -> Option<Lookup<'t>> {
        let method = call.field("function")?;
        if method.kind_name() != "attribute"
            || method.field("attribute").map(|a| text(a, self.m.src)) != Some("update")
        {
            return None;
        }
        let args = self.m.args_of(call);
        let [other] = args.positional.as_slice() else {
            return None;
        };
        if args.has_splat || !args.keywords.is_empty() {
            return None;
        }
        let (mut found, mut missing) = (Vec::new(), false);
        // Read for one call of the function that made the dict (its
        // `made_here` choice): what that call passes, not every call's.
        let way = self.read_way.borrow().clone();
        for alt in self.eval_depth(*other, scope, depth + 1) {
            if !compatible(&alt.choices, &way) {
                continue;
            }
            if !alt.val.is_dict() {
                return Some(Lookup::Unknown);
            }
            match self.lookup_key(&alt.val, key, depth + 1) {
                Lookup::Found(values) => found.extend(
                    values
                        .into_iter()
                        .filter_map(|v| v.under(&alt.why, &alt.choices)),
                ),
                Lookup::Missing => missing = true,
                Lookup::Unknown => return Some(Lookup::Unknown),
            }
        }
        // (Stored for some of `other`'s values only: not followed.)
        Some(match (found.is_empty(), missing) {
            (true, _) => Lookup::Missing,
            (false, false) => Lookup::Found(found),
            (false, true) => Lookup::Unknown,
        })
    }

    fn eval_call(&self, call: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Alt<'t>> {
        let m = self.m;
        let Some(func) = call.field("function") else {
            return vec![Alt::unknown()];
        };
        let args = m.args_of(call);
        let func_text = text(func, m.src);
        // `functools.wraps(fun)(wrapper)` returns `wrapper` (its metadata
        // copied from `fun`): a jit stays a jit.
        if func.kind_name() == "call"
            && args.positional.len() == 1
            && args.keywords.is_empty()
            && !args.has_splat
            && func
                .field("function")
                .and_then(|f| m.canonical(f, scope))
                .as_deref()
                == Some("functools.wraps")
        {
            return self.eval_depth(args.positional[0], scope, depth + 1);
        }
        // `object.__getattribute__(self, "name")`: the plain attribute.
        if func_text == "object.__getattribute__"
            && m.lookup(scope, "object").is_none()
            && args.positional.len() == 2
        {
            if let Some(name) = self.constant_name(args.positional[1], scope, depth) {
                let objects = self.eval_depth(args.positional[0], scope, depth + 1);
                let mut out = Vec::new();
                for o in objects {
                    let vals = self.attribute_of(&o.val, &name, depth);
                    out.extend(vals.into_iter().filter_map(|a| a.under(&o.why, &o.choices)));
                }
                return cap(out);
            }
        }
        // Builtins (not rebound in the module).
        if func.kind_name() == "identifier" && m.lookup(scope, func_text).is_none() {
            match func_text {
                "tuple" | "list" if args.positional.len() == 1 => {
                    let kind = if func_text == "list" {
                        SeqKind::List
                    } else {
                        SeqKind::Tuple
                    };
                    let alts = self.eval_depth(args.positional[0], scope, depth + 1);
                    return map(
                        // `tuple(p.platform for p in TARGETS if p.enabled)`
                        self.expand_comprehensions(alts, kind, depth),
                        |v| match v {
                            Val::Seq(_, items) => Val::Seq(kind, items.clone()),
                            Val::Members(_, members) => Val::Members(kind, members.clone()),
                            Val::Str(s) | Val::Split(s) if kind == SeqKind::Tuple => {
                                Val::Split(s.clone())
                            }
                            Val::Str(s) | Val::Split(s) => {
                                Val::Seq(kind, s.chars().map(|c| Val::Str(c.into())).collect())
                            }
                            // `list([...])` of a list comprehension not
                            // expanded: a copy.
                            Val::Comprehension(comp, _)
                                if kind == SeqKind::List
                                    && comp.kind_name() == "list_comprehension" =>
                            {
                                v.clone()
                            }
                            Val::Comprehension(..) => Val::Unknown,
                            // `list(xs)` of anything iterable is a list, its
                            // items not known: the type alone is certain
                            // (what `Traced.lower` rejects).
                            v if kind == SeqKind::List && iterable_not_known(v) => {
                                unknown_items(SeqKind::List)
                            }
                            _ => Val::Unknown,
                        },
                    );
                }
                // `range(n)` of known small bounds: its ints (a loop over it
                // runs that many times).
                "range" if (1..=3).contains(&args.positional.len()) && !args.has_splat => {
                    return self.with_int_args(&args, scope, depth, |ints| {
                        let (start, stop, step) = match ints {
                            Some([stop]) => (0, *stop, 1),
                            Some([start, stop]) => (*start, *stop, 1),
                            Some([start, stop, step]) if *step != 0 => (*start, *stop, *step),
                            _ => return Val::Unknown,
                        };
                        let len = if step > 0 {
                            (stop - start + step - 1).max(0) / step
                        } else {
                            (start - stop - step - 1).max(0) / -step
                        };
                        if len > MAX_RANGE_LEN as i64 {
                            return Val::Unknown;
                        }
                        Val::Seq(
                            SeqKind::List,
                            (0..len).map(|i| Val::Int(start + i * step)).collect(),
                        )
                    });
                }
                // A set of known items, for `in` tests (read as a tuple: it
                // is no list, which `Traced.lower` would reject as one).
                "set" | "frozenset" if args.positional.len() <= 1 && args.keywords.is_empty() => {
                    let Some(items) = args.positional.first() else {
                        return vec![Alt::fixed(Val::Seq(SeqKind::Tuple, Vec::new()))];
                    };
                    let alts = self.eval_depth(*items, scope, depth + 1);
                    let alts = self.expand_comprehensions(alts, SeqKind::Tuple, depth);
                    return map(alts, |v| match v {
                        Val::Seq(_, items) => Val::Seq(SeqKind::Tuple, items.clone()),
                        Val::Str(s) | Val::Split(s) => Val::Seq(
                            SeqKind::Tuple,
                            s.chars().map(|c| Val::Str(c.into())).collect(),
                        ),
                        _ => Val::Unknown,
                    });
                }
                // `sorted(xs)`: a new list, in Python's order for strings
                // and ints (`reverse=True` too); with a `key=`, the same
                // members in an order not known.
                "sorted" if args.positional.len() == 1 && !args.has_splat => {
                    let reverse = match args.keyword("reverse") {
                        None => Some(false),
                        Some(r) => match self.eval_depth(r, scope, depth + 1).as_slice() {
                            [a] => a.val.truthy(),
                            _ => None,
                        },
                    };
                    let keyed = args.keyword("key").is_some()
                        || args
                            .keywords
                            .iter()
                            .any(|(k, _, _)| k != "key" && k != "reverse");
                    return map(self.iterated(args.positional[0], scope, depth), |v| {
                        let items: Vec<Val<'t>> = match v {
                            Val::Seq(_, items) => items.clone(),
                            Val::Str(s) | Val::Split(s) => {
                                s.chars().map(|c| Val::Str(c.into())).collect()
                            }
                            Val::Members(_, members) => {
                                return Val::Members(SeqKind::List, members.clone())
                            }
                            // A new list whatever it sorts.
                            v if iterable_not_known(v) || matches!(v, Val::Comprehension(..)) => {
                                return unknown_items(SeqKind::List)
                            }
                            _ => return Val::Unknown,
                        };
                        let strs: Option<Vec<String>> = items
                            .iter()
                            .map(|i| match i {
                                Val::Str(s) => Some(s.clone()),
                                _ => None,
                            })
                            .collect();
                        let ints: Option<Vec<i64>> = items.iter().map(Val::int).collect();
                        let sorted = match (keyed, reverse, strs, ints) {
                            (false, Some(rev), Some(mut strs), _) => {
                                strs.sort();
                                if rev {
                                    strs.reverse();
                                }
                                Some(strs.into_iter().map(Val::Str).collect())
                            }
                            (false, Some(rev), None, Some(mut ints)) => {
                                ints.sort();
                                if rev {
                                    ints.reverse();
                                }
                                Some(ints.into_iter().map(Val::Int).collect())
                            }
                            _ => None,
                        };
                        match sorted {
                            Some(items) => Val::Seq(SeqKind::List, items),
                            None => Val::Members(
                                SeqKind::List,
                                Arc::new(items.into_iter().map(Alt::fixed).collect()),
                            ),
                        }
                    });
                }
                "tuple" | "list" if args.positional.is_empty() && args.keywords.is_empty() => {
                    let kind = if func_text == "list" {
                        SeqKind::List
                    } else {
                        SeqKind::Tuple
                    };
                    return vec![Alt::fixed(Val::Seq(kind, Vec::new()))];
                }
                "str" | "repr" | "format" => return vec![Alt::fixed(Val::AnyStr)],
                // `isinstance(platforms, (list, tuple))`, `isinstance(mesh,
                // AbstractMesh)`: decided for values whose type is known.
                "isinstance" if args.positional.len() == 2 && !args.has_splat => {
                    let Some(tests) = self.type_tests(args.positional[1], scope) else {
                        return vec![Alt::unknown()];
                    };
                    return map(self.eval_depth(args.positional[0], scope, depth + 1), |v| {
                        let mut any = Some(false);
                        for test in &tests {
                            match self.is_instance(v, test) {
                                Some(true) => return Val::Bool(true),
                                Some(false) => {}
                                None => any = None,
                            }
                        }
                        any.map(Val::Bool).unwrap_or(Val::Unknown)
                    });
                }
                "callable" if args.positional.len() == 1 && !args.has_splat => {
                    return map(
                        self.eval_depth(args.positional[0], scope, depth + 1),
                        |v| match v {
                            Val::Function(_)
                            | Val::Method(..)
                            | Val::Jitted(..)
                            | Val::Partial { .. }
                            | Val::Class(_) => Val::Bool(true),
                            Val::Str(_)
                            | Val::AnyStr
                            | Val::Seq(..)
                            | Val::Members(..)
                            | Val::Split(_)
                            | Val::Bool(_)
                            | Val::Int(_)
                            | Val::None
                            | Val::Dict(..)
                            | Val::Mesh(_)
                            | Val::Params(_) => Val::Bool(false),
                            _ => Val::Unknown,
                        },
                    );
                }
                // Iterators over constant sequences, as lists of their
                // elements (a loop takes each in turn).
                "zip" if !args.positional.is_empty() && !args.has_splat => {
                    let parts: Vec<Vec<Alt<'t>>> = args
                        .positional
                        .iter()
                        .map(|a| or_unknown(self.eval_depth(*a, scope, depth + 1)))
                        .collect();
                    return product(&parts, |vals| {
                        // A sequence not known (`zip(self.layers, weights)`
                        // with `weights` a traced argument) pairs each known
                        // row with an unknown item: zipped sequences are
                        // parallel, so the known ones give the rows.
                        let columns: Vec<Option<&Vec<Val<'t>>>> = vals
                            .iter()
                            .map(|v| match v {
                                Val::Seq(_, items) => Some(items),
                                _ => None,
                            })
                            .collect();
                        let Some(rows) = columns.iter().flatten().map(|c| c.len()).min() else {
                            return Val::Unknown;
                        };
                        Val::Seq(
                            SeqKind::List,
                            (0..rows)
                                .map(|i| {
                                    Val::Seq(
                                        SeqKind::Tuple,
                                        columns
                                            .iter()
                                            .map(|c| c.map_or(Val::Unknown, |c| c[i].clone()))
                                            .collect(),
                                    )
                                })
                                .collect(),
                        )
                    });
                }
                "enumerate" if !args.has_splat && (1..=2).contains(&args.positional.len()) => {
                    let start = args
                        .positional
                        .get(1)
                        .copied()
                        .or_else(|| args.keyword("start"));
                    let starts = match start {
                        Some(s) => self.eval_depth(s, scope, depth + 1),
                        None => vec![Alt::fixed(Val::Int(0))],
                    };
                    let parts = vec![
                        self.eval_depth(args.positional[0], scope, depth + 1),
                        starts,
                    ];
                    return product(&parts, |vals| match (&vals[0], &vals[1]) {
                        (Val::Seq(_, items), Val::Int(first)) => Val::Seq(
                            SeqKind::List,
                            items
                                .iter()
                                .zip(*first..)
                                .map(|(item, i)| {
                                    Val::Seq(SeqKind::Tuple, vec![Val::Int(i), item.clone()])
                                })
                                .collect(),
                        ),
                        _ => Val::Unknown,
                    });
                }
                "reversed" if args.positional.len() == 1 && !args.has_splat => {
                    return map(
                        self.eval_depth(args.positional[0], scope, depth + 1),
                        |v| match v {
                            Val::Seq(_, items) => {
                                Val::Seq(SeqKind::List, items.iter().rev().cloned().collect())
                            }
                            Val::Members(..) => v.clone(),
                            _ => Val::Unknown,
                        },
                    );
                }
                // `getattr(obj, "name"[, default])`: the attribute, when the
                // name is a constant.
                "vars" if args.positional.len() == 1 => {
                    return map(
                        self.eval_depth(args.positional[0], scope, depth + 1),
                        |v| match v {
                            Val::Instance(class, ctor) => Val::InstanceDict(*class, *ctor),
                            _ => Val::Unknown,
                        },
                    );
                }
                "getattr" if (2..=3).contains(&args.positional.len()) => {
                    if let Some(name) = self.constant_name(args.positional[1], scope, depth) {
                        // `getattr(_G, "platform")` after `_G.platform = v`: as
                        // the read `_G.platform` would be. (Stores that leave it
                        // unknown, `__enter__`/`__exit__` pairs, are read as
                        // before: the object's attribute, else the default.)
                        let object = unparenthesize(args.positional[0]);
                        if matches!(object.kind_name(), "identifier" | "attribute") {
                            let path = format!("{}.{name}", text(object, m.src));
                            if let Some(alts) = m.overlay_path(scope, &path) {
                                return alts;
                            }
                            if let PathStore::Value(value, store_scope) =
                                m.path_store_of(&path, call, scope)
                            {
                                return self.eval_depth(value, store_scope, depth + 1);
                            }
                        }
                        let objects = self.eval_depth(args.positional[0], scope, depth + 1);
                        let mut out = Vec::new();
                        for o in objects {
                            let vals = self.attribute_of(&o.val, &name, depth);
                            let vals = match (
                                vals.iter().all(|a| a.val.is_unknown()),
                                args.positional.get(2),
                            ) {
                                (true, Some(default)) => {
                                    self.eval_depth(*default, scope, depth + 1)
                                }
                                _ => vals,
                            };
                            out.extend(
                                vals.into_iter().filter_map(|a| a.under(&o.why, &o.choices)),
                            );
                        }
                        return cap(out);
                    }
                }
                // Folds of one known iterable: `max(sizes)`, `sum(counts)`,
                // `any(flags)`, `all(...)` (`max(xs, key=...)` not).
                "max" | "min" | "sum" | "any" | "all"
                    if args.positional.len() == 1
                        && args.keywords.is_empty()
                        && !args.has_splat =>
                {
                    let items = self.iterated(args.positional[0], scope, depth);
                    return map(items, |v| match v {
                        Val::Seq(_, items) => fold_items(func_text, items),
                        _ => Val::Unknown,
                    });
                }
                // `round(x)` / `abs(x)` of an int or a float (Python rounds
                // halves to even).
                "round" | "abs"
                    if args.positional.len() == 1
                        && args.keywords.is_empty()
                        && !args.has_splat =>
                {
                    return map(
                        self.eval_depth(args.positional[0], scope, depth + 1),
                        |v| match (func_text, v) {
                            ("round", Val::Float(f)) if f.abs() < 9.0e18 => {
                                Val::Int(f.round_ties_even() as i64)
                            }
                            ("round", Val::Int(i)) => Val::Int(*i),
                            ("abs", Val::Float(f)) => Val::Float(f.abs()),
                            ("abs", Val::Int(i)) => i.checked_abs().map_or(Val::Unknown, Val::Int),
                            _ => Val::Unknown,
                        },
                    );
                }
                // `max(1, n)`, `min(n, 8)` of ints.
                "max" | "min"
                    if args.positional.len() >= 2
                        && args.keywords.is_empty()
                        && !args.has_splat =>
                {
                    return self.with_int_args(&args, scope, depth, |ints| {
                        match (func_text, ints) {
                            ("max", Some(all)) => all.iter().max().copied().map(Val::Int),
                            ("min", Some(all)) => all.iter().min().copied().map(Val::Int),
                            _ => None,
                        }
                        .unwrap_or(Val::Unknown)
                    });
                }
                // `len(sys.argv)` is 1 in a plain run (run-time configuration
                // with a default); a constant collection's length.
                "len" if args.positional.len() == 1 => {
                    return self
                        .eval_depth(args.positional[0], scope, depth + 1)
                        .into_iter()
                        .map(|a| match &a.val {
                            Val::Argv => Alt {
                                val: Val::Int(1),
                                why: a.why.and(&Why::Default(
                                    "with no command-line arguments".to_owned(),
                                )),
                                choices: a.choices,
                            },
                            Val::Seq(_, items) => Alt {
                                val: Val::Int(items.len() as i64),
                                ..a
                            },
                            Val::Str(text) => Alt {
                                val: Val::Int(text.chars().count() as i64),
                                ..a
                            },
                            _ => Alt {
                                val: Val::Unknown,
                                ..a
                            },
                        })
                        .collect();
                }
                // `dict(d)` copies d.
                "dict"
                    if args.positional.len() == 1
                        && args.keywords.is_empty()
                        && !args.has_splat =>
                {
                    // A copy changed afterwards is a dict of its own: its
                    // base's entries, then its stores (`raw = dict(DEFAULTS);
                    // raw["platform"] = "tpu"`).
                    // (A dict it holds changed through the copy is changed
                    // in the original too, as the copy is shallow: not
                    // followed.)
                    match m.assigned_name_mutation(call) {
                        Mutation::None => {}
                        Mutation::Shallow => return vec![Alt::fixed(Val::Dict(call, scope))],
                        Mutation::Deep => return vec![Alt::unknown()],
                    }
                    // `dict(pairs)`: read through the call (`mapping_lookup`).
                    return map(
                        self.eval_depth(args.positional[0], scope, depth + 1),
                        |v| match v {
                            v if v.is_dict() => v.clone(),
                            Val::Seq(..) | Val::Comprehension(..) => Val::Dict(call, scope),
                            _ => Val::Unknown,
                        },
                    );
                }
                "dict" => return vec![Alt::fixed(Val::Dict(call, scope))],
                // `type(obj)` of an instance of a class of this module: that
                // class (`type(lora).compiler_params`).
                "type"
                    if args.positional.len() == 1
                        && args.keywords.is_empty()
                        && !args.has_splat =>
                {
                    let objects = self.eval_depth(args.positional[0], scope, depth + 1);
                    if objects.iter().all(|a| matches!(a.val, Val::Instance(..)))
                        && !objects.is_empty()
                    {
                        return map(objects, |v| match v {
                            Val::Instance(class, _) => Val::Class(*class),
                            _ => Val::Unknown,
                        });
                    }
                }
                // `int(x)` is an int or raises, whatever `x` is: its value
                // when `x` is a known integer, numeral or bool.
                "int"
                    if args.positional.len() == 1
                        && args.keywords.is_empty()
                        && !args.has_splat =>
                {
                    return map(
                        self.eval_depth(args.positional[0], scope, depth + 1),
                        |v| match v {
                            Val::Int(i) => Val::Int(*i),
                            Val::Bool(b) => Val::Int(i64::from(*b)),
                            // Toward zero.
                            Val::Float(f) if f.abs() < 9.0e18 => Val::Int(f.trunc() as i64),
                            Val::Str(text) => text
                                .trim()
                                .replace('_', "")
                                .parse::<i64>()
                                .map_or(Val::AnyInt, Val::Int),
                            _ => Val::AnyInt,
                        },
                    );
                }
                // `float(x)` of a known number or numeral.
                "float"
                    if args.positional.len() == 1
                        && args.keywords.is_empty()
                        && !args.has_splat =>
                {
                    return map(
                        self.eval_depth(args.positional[0], scope, depth + 1),
                        |v| match v {
                            Val::Int(_) | Val::Float(_) => {
                                v.number().map_or(Val::Unknown, Val::Float)
                            }
                            Val::Bool(b) => Val::Float(f64::from(u8::from(*b))),
                            Val::Str(text) => {
                                python_float(text.trim()).map_or(Val::Unknown, Val::Float)
                            }
                            _ => Val::Unknown,
                        },
                    );
                }
                "bool" if args.positional.len() == 1 => {
                    return map(self.eval_depth(args.positional[0], scope, depth + 1), |v| {
                        v.truthy().map(Val::Bool).unwrap_or(Val::Unknown)
                    })
                }
                _ => {}
            }
        }
        // String methods on a known string.
        if func.kind_name() == "attribute" {
            let method = func
                .field("attribute")
                .map(|a| text(a, m.src))
                .unwrap_or("");
            if STR_METHODS.contains(&method) || matches!(method, "parse_args" | "parse_known_args")
            {
                if let Some(alts) = self.string_or_parser_method(func, method, &args, scope, depth)
                {
                    return alts;
                }
            }
            // `traced.lower(...)` on a stage: a Lowered (JP015 follows it to
            // `.compile()` through helpers and returns).
            if method == "lower" {
                if let Some(object) = func.field("object") {
                    let stages = self.eval_depth(object, scope, depth + 1);
                    if !stages.is_empty() && stages.iter().all(|a| matches!(a.val, Val::Traced(..)))
                    {
                        return stages
                            .into_iter()
                            .map(|a| Alt {
                                val: Val::Lowered(call),
                                ..a
                            })
                            .collect();
                    }
                }
            }
            // `treedef.unflatten(leaves)` (the treedef from `tree_flatten`).
            if method == "unflatten" && args.positional.len() == 1 && args.keywords.is_empty() {
                let own = func.field("object").is_some_and(|object| {
                    self.eval_depth(object, scope, depth + 1)
                        .iter()
                        .any(|a| matches!(a.val, Val::Instance(..) | Val::Class(_)))
                });
                if !own {
                    return self.rebuilt_tree(args.positional[0], scope, depth);
                }
            }
            // `d.items()` / `.values()` / `.keys()` of a dict whose entries
            // are known: a list a loop takes in turn.
            if matches!(method, "items" | "values" | "keys")
                && args.positional.is_empty()
                && args.keywords.is_empty()
                && !args.has_splat
            {
                if let Some(object) = func.field("object") {
                    let dicts = self.eval_as_dicts(object, scope, depth);
                    if !dicts.is_empty() && dicts.iter().all(|a| a.val.is_dict()) {
                        return cap(dicts
                            .into_iter()
                            .flat_map(|a| self.dict_view(a, method, depth))
                            .collect());
                    }
                }
            }
            if method == "get" || (method == "pop" && !args.positional.is_empty()) {
                if let Some(alts) = self.context_var_get(func, &args, scope, depth) {
                    return alts;
                }
                if let Some(alts) = self.dict_get(func, &args, scope, depth) {
                    return alts;
                }
            }
            // `cfg.replace(field=...)` on a config object (flax structs,
            // dataclasses with a `replace` method).
            if method == "replace" {
                if let Some(object) = func.field("object") {
                    if let Some(alts) = self.replaced(call, object, &args, scope, depth) {
                        return alts;
                    }
                }
            }
        }
        // `dataclasses.replace(cfg, field=...)`
        if m.callee(call, scope).as_deref() == Some("dataclasses.replace") {
            if let Some(&object) = args.positional.first() {
                if let Some(alts) = self.replaced(call, object, &args, scope, depth) {
                    return alts;
                }
            }
        }
        let callee = m.callee(call, scope);
        // `J.trace(args)`: a stage (`jnp.trace` and friends are not, nor a
        // `trace` method of a class of this module).
        if func.kind_name() == "attribute"
            && func.field("attribute").map(|a| text(a, m.src)) == Some("trace")
            && !callee
                .as_deref()
                .is_some_and(|p| p.starts_with("numpy") || p.starts_with("jax.numpy"))
        {
            let own_method = func.field("object").is_some_and(|object| {
                self.eval_depth(object, scope, depth + 1).iter().any(
                    |a| matches!(a.val, Val::Instance(class, _) if m.method(class, "trace").is_some()),
                )
            });
            if !own_method {
                return vec![Alt::fixed(Val::Traced(call, scope))];
            }
        }
        // A name bound to `functools.partial(F, ...)` of a library API F,
        // made in this scope: F called with the stored arguments first.
        if let Some((path, merged)) = self.partial_of_library(func, &args, scope) {
            if let Some(alts) = self.library_call(&path, call, &merged, scope, depth) {
                return alts;
            }
        }
        if let Some(path) = callee.as_deref() {
            if let Some(alts) = self.library_call(path, call, &args, scope, depth) {
                return alts;
            }
            // A function of another module: what it returns for this
            // call's values, evaluated in its module.
            if let Some(alts) = self.foreign_call(path, None, call, scope, depth) {
                return alts;
            }
            // A function of another module given a constant key: what it
            // returns for that key (`get_topology("v5e-8")`).
            if let (Some(key), true) = (args.positional.first(), args.positional.len() == 1) {
                if args.keywords.is_empty() && !args.has_splat {
                    if let Some(alts) = self.keyed_external(path, *key, scope, depth) {
                        return alts;
                    }
                }
            }
            // A function of another module: what it returns, from its summary;
            // a class: an object of its fields, the keywords replacing them.
            if let Some(alts) = self.external_call(path, &args, scope, depth) {
                return alts;
            }
            // Something else of another module (a class): its methods are
            // looked up by path when called.
            if !path.starts_with("jax") && !path.starts_with("numpy") && path.contains('.') {
                if let Some(Binding::Import(_)) = func_root_binding(m, func, scope) {
                    return vec![Alt::fixed(Val::Imported(Arc::from(path)))];
                }
            }
        }
        // A class of this module: an instance.
        if func.kind_name() == "identifier" {
            if let Some(Binding::Def(id)) = m.binding_at(scope, func_text, func) {
                // `Backend("tpu")`: the enum's member with that value.
                if m.enum_kind(*id).is_some() {
                    if args.positional.len() != 1 || args.has_splat {
                        return vec![Alt::unknown()];
                    }
                    let id = *id;
                    return map(self.eval_depth(args.positional[0], scope, depth + 1), |v| {
                        self.enum_lookup(id, v, false, depth)
                    });
                }
                if m.scopes[*id].kind == ScopeKind::Class {
                    return vec![Alt::fixed(Val::Instance(*id, Some((call, scope))))];
                }
            }
        }
        // A class passed or kept as a value (`cls(...)`, `impl = OPS[k];
        // impl(...)`, `OPS[k](...)`): an instance of it.
        let class_value = match func.kind_name() {
            "identifier" => matches!(
                m.binding_at(scope, func_text, func),
                Some(Binding::Param { .. } | Binding::Value { .. })
            ),
            // `cfg.klass(cfg)`: a class kept in a field (axlearn's and
            // praxis's configs); a method or module attribute gives no class.
            "subscript" | "attribute" => true,
            // `load_case(name)(cfg)`: a class a call returned.
            "call" => true,
            _ => false,
        };
        if class_value {
            let classes = self.eval_depth(func, scope, depth + 1);
            // Classes of other modules given as values (`make(cls)` called
            // with an importer's class): objects of their fields.
            // (Not `obj.method(...)` on an object of this module's class that
            // another module made: that method runs, `returns_of`.)
            let own_method_call = || {
                let (Some(object), Some(attr)) = (func.field("object"), func.field("attribute"))
                else {
                    return false;
                };
                let attr = text(attr, m.src);
                self.eval_depth(object, scope, depth + 1).iter().any(|o| {
                    matches!(&o.val, Val::Object(fields)
                        if m.own_class_of_object(fields).is_some_and(|c| m.method(c, attr).is_some()))
                })
            };
            // Some alternatives may be run-time choices not known
            // (`IMPLS[os.environ.get(K, "loud")]` of an imported table):
            // those stay unknown.
            if classes.iter().any(|a| matches!(a.val, Val::Ref(_)))
                && classes.iter().all(|a| match a.val {
                    Val::Ref(_) => true,
                    Val::Unknown => a.why.is_choice(),
                    _ => false,
                })
                && !own_method_call()
            {
                let mut out = Vec::new();
                for a in &classes {
                    let Val::Ref(path) = &a.val else {
                        out.push(a.clone());
                        continue;
                    };
                    // Not known here (another module's call, one module
                    // deep, reads no other): an object of that class, its
                    // fields unknown, for the module owning the class to
                    // read (`Flow::own_property`).
                    let made = self
                        .foreign_call(path, None, call, scope, depth)
                        .or_else(|| self.external_call(path, &args, scope, depth))
                        .unwrap_or_else(|| {
                            vec![Alt::fixed(Val::Object(Arc::new(vec![class_field(path)])))]
                        });
                    out.extend(made.into_iter().filter_map(|o| o.under(&a.why, &a.choices)));
                }
                return cap(out);
            }
            // Classes, some alternatives perhaps unknown (`PRIORS[args.prior]`:
            // the default's class, or whatever else the command line names):
            // each known class makes its instance, the unknown ones stay so.
            if classes.iter().any(|a| matches!(a.val, Val::Class(_)))
                && classes
                    .iter()
                    .all(|a| matches!(a.val, Val::Class(_) | Val::Unknown))
            {
                let value = match args.positional.as_slice() {
                    [one] if !args.has_splat => self.eval_depth(*one, scope, depth + 1),
                    _ => vec![Alt::unknown()],
                };
                let mut out = Vec::new();
                for a in classes {
                    let Val::Class(id) = a.val else {
                        out.push(a);
                        continue;
                    };
                    if m.enum_kind(id).is_none() {
                        out.push(Alt {
                            val: Val::Instance(id, Some((call, scope))),
                            ..a
                        });
                        continue;
                    }
                    // An enum class kept as a value, called: its member.
                    for v in &value {
                        if let Some(merged) = v.clone().under(&a.why, &a.choices) {
                            out.push(Alt {
                                val: self.enum_lookup(id, &v.val, false, depth),
                                ..merged
                            });
                        }
                    }
                }
                return cap(out);
            }
        }
        // A function or method of this module: what it returns for this call.
        self.returns_of(call, func, scope, depth)
    }

    /// A call of `path`, a function or class of another module, from its
    /// summary: what the function returns; for a class, an object of its
    /// fields, the call's keywords replacing them, its class's path riding
    /// along for its methods.
    fn external_call(
        &self,
        path: &str,
        args: &Args<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let alts = self.external(&format!("{path}()"))?;
        let objects = alts.iter().all(|a| matches!(a.val, Val::Object(_)));
        if !objects {
            return Some(alts);
        }
        if !args.positional.is_empty() || args.has_splat {
            // Positional fields are not kept in order; its methods
            // are still known by the class's path.
            return Some(vec![Alt::fixed(Val::Imported(Arc::from(path)))]);
        }
        let class = class_field(path);
        let mut alts = self.with_overrides(alts, args, scope, depth);
        for alt in &mut alts {
            if let Val::Object(fields) = &alt.val {
                let mut fields: Fields = fields.as_ref().clone();
                fields.push(class.clone());
                alt.val = Val::Object(Arc::new(fields));
            }
        }
        Some(alts)
    }

    fn partial_of_library(
        &self,
        func: Node<'t>,
        args: &Args<'t>,
        scope: ScopeId,
    ) -> Option<(String, Args<'t>)> {
        let m = self.m;
        if func.kind_name() != "identifier" {
            return None;
        }
        let Some(Binding::Value {
            value,
            scope: pscope,
            ..
        }) = m.binding_at(scope, text(func, m.src), func)
        else {
            return None;
        };
        let value = unparenthesize(*value);
        // Arguments of two scopes are only combined when they are one scope.
        if *pscope != scope
            || value.kind_name() != "call"
            || m.callee(value, *pscope).as_deref() != Some(names::PARTIAL)
        {
            return None;
        }
        let stored = m.args_of(value);
        let (&target, rest) = stored.positional.split_first()?;
        let path = m.canonical(target, *pscope)?;
        if !path.starts_with("jax.") {
            return None;
        }
        let mut positional = rest.to_vec();
        positional.extend(args.positional.iter().copied());
        let mut keywords = args.keywords.clone();
        keywords.extend(stored.keywords);
        Some((
            path,
            Args {
                positional,
                keywords,
                has_splat: args.has_splat || stored.has_splat,
                has_dict_splat: args.has_dict_splat || stored.has_dict_splat,
                has_list_splat: args.has_list_splat || stored.has_list_splat,
            },
        ))
    }

    /// Objects with the fields named by `args`' keywords replaced.
    fn with_overrides(
        &self,
        objects: Vec<Alt<'t>>,
        args: &Args<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        let ways = self.overrides_by_choice(args, scope, depth);
        let mut out = Vec::new();
        for o in objects {
            let Val::Object(fields) = &o.val else {
                out.push(o);
                continue;
            };
            out.extend(overridden(fields, &o, &ways));
        }
        cap(out)
    }

    /// A call's keywords as field overrides (each its values, detached),
    /// one set per way the values are chosen: values on different choices
    /// (a loop's elements, call sites) make different objects, each on its
    /// choices, so that `replace(cfg, use_kernel=platform == "tpu")` in a
    /// loop over platforms keeps which element gave which field. Past
    /// `MAX_ALTS` ways, one set with every value and no choices.
    fn overrides_by_choice(
        &self,
        args: &Args<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Vec<(Vec<Choice>, FieldOverrides)> {
        let values: Vec<(String, Vec<Alt<'t>>)> = args
            .keywords
            .iter()
            .map(|(name, value, _)| (name.clone(), self.eval_depth(*value, scope, depth + 1)))
            .collect();
        let mut ways: Vec<(Vec<Choice>, FieldOverrides)> = vec![(Vec::new(), Vec::new())];
        for (name, alts) in &values {
            let mut groups: Vec<(&[Choice], Vec<Alt<'t>>)> = Vec::new();
            for alt in alts {
                match groups
                    .iter_mut()
                    .find(|(c, _)| *c == alt.choices.as_slice())
                {
                    Some((_, group)) => group.push(alt.clone()),
                    None => groups.push((&alt.choices, vec![alt.clone()])),
                }
            }
            let mut next = Vec::new();
            for (choices, overrides) in &ways {
                for (group_choices, group) in &groups {
                    let Some(merged) = merge_choices(choices, group_choices) else {
                        continue;
                    };
                    let mut overrides = overrides.clone();
                    overrides.push((name.clone(), self.detach(group, 1)));
                    next.push((merged, overrides));
                }
            }
            if next.len() > MAX_ALTS {
                let all = values
                    .iter()
                    .map(|(name, alts)| (name.clone(), self.detach(alts, 1)))
                    .collect();
                return vec![(Vec::new(), all)];
            }
            ways = next;
        }
        ways
    }

    /// A config object with some fields replaced: the object's fields, then
    /// the call's keywords, as an object of values.
    fn replaced(
        &self,
        call: Node<'t>,
        object: Node<'t>,
        args: &Args<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let objects = self.eval_depth(object, scope, depth + 1);
        // (An object not known, one of a run-time choice's, stays not
        // known; the others are replaced.)
        if !objects
            .iter()
            .all(|a| matches!(a.val, Val::Instance(..) | Val::Object(_) | Val::Unknown))
            || objects.iter().all(|a| a.val.is_unknown())
        {
            return None;
        }
        // Instances of this module's classes stay instances (their methods
        // and nested instances stay known): the replace call is their
        // constructor, read by `field` (its keywords, else the copied
        // object's fields).
        if objects
            .iter()
            .all(|a| matches!(a.val, Val::Instance(..) | Val::Unknown))
        {
            return Some(
                objects
                    .into_iter()
                    .map(|a| match a.val {
                        Val::Instance(class, _) => Alt {
                            val: Val::Instance(class, Some((call, scope))),
                            ..a
                        },
                        _ => a,
                    })
                    .collect(),
            );
        }
        let ways = self.overrides_by_choice(args, scope, depth);
        let mut out = Vec::new();
        for o in objects {
            let Const::Object(fields) = self
                .detach(std::slice::from_ref(&o), 0)
                .pop()
                .map(|a| a.val)
                .unwrap_or(Const::Unknown)
            else {
                out.push(Alt::unknown());
                continue;
            };
            out.extend(overridden(&fields, &o, &ways));
        }
        Some(cap(out))
    }

    fn string_or_parser_method(
        &self,
        func: Node<'t>,
        method: &str,
        args: &Args<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        let object = func.field("object")?;
        if matches!(method, "parse_args" | "parse_known_args") {
            // A parser another module made (and this one may add to).
            let made_in = match &self.eval_depth(object, scope, depth + 1)[..] {
                [Alt {
                    val: Val::ArgParser(Some(file)),
                    ..
                }] => Some(file.clone()),
                _ => None,
            };
            if made_in.is_none() && !m.has_argparse_arguments() {
                return None;
            }
            let ns = Val::ArgNamespace(made_in);
            return Some(vec![Alt::fixed(if method == "parse_known_args" {
                Val::Seq(SeqKind::Tuple, vec![ns, Val::Unknown])
            } else {
                ns
            })]);
        }
        let objects = self.eval_depth(object, scope, depth + 1);
        if !objects
            .iter()
            .all(|a| matches!(a.val, Val::Str(_) | Val::AnyStr))
        {
            return None;
        }
        if args.has_splat {
            return Some(vec![Alt::unknown()]);
        }
        // The arguments' values, one alternative each when they are known.
        let single = |node: &Node<'t>| match self.eval_depth(*node, scope, depth + 1).as_slice() {
            [one] => one.val.clone(),
            _ => Val::Unknown,
        };
        let mut given: Vec<Val<'t>> = args.positional.iter().map(single).collect();
        for (name, value, _) in &args.keywords {
            // `split(sep=",", maxsplit=1)`: by position.
            let at = match (method, name.as_str()) {
                (_, "sep" | "chars" | "prefix" | "suffix") => 0,
                ("split" | "rsplit", "maxsplit") => 1,
                ("splitlines", "keepends") => 0,
                _ => return Some(vec![Alt::unknown()]),
            };
            while given.len() <= at {
                given.push(Val::None);
            }
            given[at] = single(value);
        }
        Some(map(objects, |v| str_method(v, method, &given)))
    }

    /// Calls of library APIs whose results matter: params classes, the
    /// environment, `jax.default_backend()`, absl flags.
    fn library_call(
        &self,
        path: &str,
        call: Node<'t>,
        args: &Args<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let m = self.m;
        if let Some(family) = names::compiler_params_family(path) {
            return Some(vec![Alt::fixed(Val::Params(family))]);
        }
        if path.ends_with("InterpretParams") || path.ends_with("InterpretGPUParams") {
            return Some(vec![Alt::fixed(Val::InterpretParams)]);
        }
        let first_or = |key: &str| {
            args.positional
                .first()
                .copied()
                .or_else(|| args.keyword(key))
        };
        match path {
            "jax.experimental.pallas.tpu.TensorCoreMesh"
            | "jax.experimental.pallas.tpu.create_tensorcore_mesh" => Some(vec![Alt::fixed(
                Val::KernelMesh(super::reach::KernelMesh::Tpu),
            )]),
            "jax.experimental.pallas.mosaic_gpu.Mesh"
            | "jax.experimental.pallas.mosaic_gpu.WarpMesh" => Some(vec![Alt::fixed(
                Val::KernelMesh(super::reach::KernelMesh::Gpu),
            )]),
            "jax.sharding.AbstractDevice" => {
                let platform = args
                    .keyword("platform")
                    .or_else(|| args.positional.get(2).copied());
                // One device per value the platform takes (each element of a
                // loop over platforms is its own device).
                let Some(p) = platform else {
                    return Some(vec![Alt::fixed(Val::AbstractDevice(Some(String::new())))]);
                };
                Some(map(self.eval_depth(p, scope, depth + 1), |v| {
                    Val::AbstractDevice(Some(match v {
                        Val::Str(s) => s.clone(),
                        _ => String::new(),
                    }))
                }))
            }
            "contextvars.ContextVar" => Some(vec![Alt::fixed(Val::ContextVar(call, scope))]),
            // An object of the keywords' values (`SimpleNamespace(width=32)`).
            "types.SimpleNamespace" if args.positional.is_empty() && !args.has_splat => {
                let fields: Fields = args
                    .keywords
                    .iter()
                    .map(|(name, value, _)| {
                        let alts = self.eval_depth(*value, scope, depth + 1);
                        (name.clone(), self.detach(&alts, 1))
                    })
                    .collect();
                Some(vec![Alt::fixed(Val::Object(Arc::new(fields)))])
            }
            // A partial of a function of this module runs it: kept in a field,
            // returned by a factory or passed on, it still reaches that def.
            names::PARTIAL if !args.positional.is_empty() => {
                let first = unparenthesize(args.positional[0]);
                let shifts = args.positional.len() > 1 || args.has_list_splat;
                // A partial of a partial is the way this call makes its def
                // called: its choice (`inner site`, this call) picks what it
                // binds (`wrapping_partial_argument`).
                let wrapped = self
                    .eval_depth(first, scope, depth + 1)
                    .into_iter()
                    .filter_map(|a| match &a.val {
                        Val::Partial { site, .. } => {
                            let choice = [(site.id(), call.id())];
                            let choices = merge_choices(&a.choices, &choice)?;
                            Some(Alt { choices, ..a })
                        }
                        _ => Some(a),
                    })
                    .collect();
                Some(map(wrapped, |v| match v {
                    Val::Function(def) | Val::Jitted(def, ..) | Val::Method(def, ..)
                        if matches!(
                            m.scopes[*def].kind,
                            ScopeKind::Function | ScopeKind::Lambda
                        ) =>
                    {
                        let on = match v {
                            Val::Method(_, class, made) => Some((*class, *made)),
                            _ => None,
                        };
                        Val::Partial {
                            def: *def,
                            shifts,
                            made: call,
                            scope,
                            site: call,
                            on,
                        }
                    }
                    Val::Partial {
                        def,
                        shifts: s,
                        site,
                        on,
                        ..
                    } => Val::Partial {
                        def: *def,
                        shifts: *s || shifts,
                        made: call,
                        scope,
                        site: *site,
                        on: *on,
                    },
                    _ => Val::Unknown,
                }))
            }
            "jax.devices" | "jax.local_devices" => {
                // (A backend named by what is not a plain string: `""`.)
                let backend = args
                    .positional
                    .first()
                    .copied()
                    .or_else(|| args.keyword("backend"))
                    .map(|named| {
                        Arc::from(string_value(named, m.src).unwrap_or_default().as_str())
                    });
                Some(vec![Alt::fixed(Val::Devices(backend))])
            }
            "argparse.ArgumentParser" => Some(vec![Alt::fixed(Val::ArgParser(None))]),
            // `math.prod(shape)` of known ints.
            "math.prod" if args.positional.len() == 1 && args.keywords.is_empty() => {
                let items = self.iterated(args.positional[0], scope, depth);
                Some(map(items, |v| match v {
                    Val::Seq(_, items) => items
                        .iter()
                        .try_fold(1i64, |acc, i| acc.checked_mul(i.int()?))
                        .map_or(Val::Unknown, Val::Int),
                    _ => Val::Unknown,
                }))
            }
            // `itertools.product(a, b)` of known sequences: its tuples, in
            // order (a loop takes each in turn).
            "itertools.product"
                if !args.positional.is_empty() && !args.has_splat && args.keywords.is_empty() =>
            {
                let parts: Vec<Vec<Alt<'t>>> = args
                    .positional
                    .iter()
                    .map(|a| or_unknown(self.iterated(*a, scope, depth)))
                    .collect();
                Some(product(&parts, |vals| {
                    let mut rows: Vec<Vec<Val<'t>>> = vec![Vec::new()];
                    for v in &vals {
                        let Val::Seq(_, items) = v else {
                            return Val::Unknown;
                        };
                        rows = rows
                            .iter()
                            .flat_map(|row| {
                                items.iter().map(move |i| {
                                    let mut row = row.clone();
                                    row.push(i.clone());
                                    row
                                })
                            })
                            .collect();
                        if rows.len() > MAX_RANGE_LEN {
                            return Val::Unknown;
                        }
                    }
                    Val::Seq(
                        SeqKind::List,
                        rows.into_iter()
                            .map(|r| Val::Seq(SeqKind::Tuple, r))
                            .collect(),
                    )
                }))
            }
            // A configuration parsed from a constant JSON text.
            // A copy holds what the original holds.
            // `functools.update_wrapper(wrapper, fun)` returns `wrapper`.
            "functools.update_wrapper" if !args.positional.is_empty() => {
                Some(self.eval_depth(args.positional[0], scope, depth + 1))
            }
            "copy.deepcopy" | "copy.copy" if args.positional.len() == 1 => {
                let copied = self.eval_depth(args.positional[0], scope, depth + 1);
                // A dict copied and then changed (`d = copy.copy(D); d[k] = v`)
                // is not the one it copied: a copy whose own items are
                // stored reads as `dict(D)` does, its base's entries then
                // its stores; any other change is not followed.
                if copied.iter().any(|a| a.val.is_dict()) {
                    match m.assigned_name_mutation(call) {
                        Mutation::None => {}
                        Mutation::Shallow => return Some(vec![Alt::fixed(Val::Dict(call, scope))]),
                        _ => return Some(vec![Alt::unknown()]),
                    }
                }
                Some(copied)
            }
            // A Python literal written as text (`--platforms "('tpu',)"`).
            "ast.literal_eval" if args.positional.len() == 1 => Some(map(
                self.eval_depth(args.positional[0], scope, depth + 1),
                |v| match v {
                    Val::Str(text) => python_literal(text)
                        .map(|c| c.val())
                        .unwrap_or(Val::Unknown),
                    _ => Val::Unknown,
                },
            )),
            "json.loads" if args.positional.len() == 1 => Some(map(
                self.eval_depth(args.positional[0], scope, depth + 1),
                |v| match v {
                    Val::Str(text) => serde_json::from_str::<serde_json::Value>(text)
                        .map(|j| json_const(&j, 0).val())
                        .unwrap_or(Val::Unknown),
                    _ => Val::Unknown,
                },
            )),
            // `jax.vmap(f)`, `jax.grad(f)`, `jax.jit(f)`: a function that
            // calls f (what it reaches; its values are not f's).
            c if c != names::PARTIAL && super::reach::makes_a_function(c) => {
                let first = unparenthesize(*args.positional.first()?);
                let jit = c == names::JIT;
                Some(map(self.eval_depth(first, scope, depth + 1), |v| match v {
                    // The jit itself, with its keywords.
                    Val::Function(def)
                    | Val::Jitted(def, ..)
                    | Val::Partial {
                        def, shifts: false, ..
                    }
                    | Val::Method(def, ..)
                        if jit =>
                    {
                        Val::Jitted(*def, call, scope)
                    }
                    // A function another module gave (`variant_jit(fun)`
                    // called with the caller's def): a jit of it, for the
                    // module that lowers what this returns.
                    Val::Ref(path) if jit => Val::ForeignJitted(Arc::new(self.foreign_jit(
                        Const::Ref(path.to_string()),
                        call,
                        scope,
                    ))),
                    Val::Jitted(def, ..) => Val::Function(*def),
                    Val::Function(_)
                    | Val::Method(..)
                    | Val::Partial { .. }
                    | Val::Instance(..)
                    | Val::Class(_) => v.clone(),
                    _ => Val::Unknown,
                }))
            }
            "jax.tree_util.tree_map"
            | "jax.tree.map"
            | "jax.tree_map"
            | "jax.tree_util.tree_map_with_path"
            | "jax.tree.map_with_path" => {
                let f = unparenthesize(*args.positional.first()?);
                let leaves = self.function_value_returns(f, scope, depth)?;
                // Over one leaf (`jax.tree.map(lambda _: s, 0)`): f's value
                // itself, not a tree of it.
                let one_leaf = args.positional.get(1).is_some_and(|tree| {
                    let trees = self.eval_depth(*tree, scope, depth + 1);
                    !trees.is_empty()
                        && trees
                            .iter()
                            .all(|t| matches!(t.val, Val::Int(_) | Val::Str(_) | Val::Bool(_)))
                });
                if one_leaf && args.positional.len() == 2 {
                    return Some(leaves);
                }
                Some(map(leaves, |v| Val::Leaves(Box::new(v.clone()))))
            }
            // A tree rebuilt from a list of leaves (`tree_unflatten(treedef,
            // [sharding for _ in flat])`): every leaf is one of them.
            "jax.tree_util.tree_unflatten" | "jax.tree.unflatten" if args.positional.len() == 2 => {
                Some(self.rebuilt_tree(args.positional[1], scope, depth))
            }
            // An `OrderedDict` is a dict for what is stored and looked up
            // (keras's layout maps): read like `dict(...)`.
            "collections.OrderedDict" => Some(vec![Alt::fixed(Val::Dict(call, scope))]),
            // `dataclasses.fields(C)` of a dataclass of this module (or of
            // an instance of one): its fields in order, each with its `name`.
            "dataclasses.fields" if args.positional.len() == 1 => {
                let mut out = Vec::new();
                for alt in self.eval_depth(args.positional[0], scope, depth + 1) {
                    let class = match alt.val {
                        Val::Class(class) | Val::Instance(class, _) => Some(class),
                        _ => None,
                    };
                    let names = class
                        .filter(|c| m.is_dataclass_like(*c))
                        .map(|c| m.dataclass_field_names(c));
                    let val = match names {
                        Some(names) if !names.is_empty() => Val::Seq(
                            SeqKind::Tuple,
                            names
                                .into_iter()
                                .map(|name| {
                                    Val::Object(Arc::new(vec![(
                                        "name".to_owned(),
                                        vec![ConstAlt {
                                            val: Const::Str(name),
                                            why: Why::Fixed,
                                        }],
                                    )]))
                                })
                                .collect(),
                        ),
                        _ => Val::Unknown,
                    };
                    out.push(Alt { val, ..alt });
                }
                Some(cap(out))
            }
            // A dataclass field's default (read where the class body is).
            "dataclasses.field" => {
                if let Some(default) = args.keyword("default") {
                    return Some(self.eval_depth(default, scope, depth + 1));
                }
                let factory = args.keyword("default_factory")?;
                let factory = unparenthesize(factory);
                if factory.kind_name() == "lambda" {
                    let body = factory.field("body")?;
                    let lambda_scope = m.scope_of_def(factory).unwrap_or(scope);
                    return Some(self.eval_depth(body, lambda_scope, depth + 1));
                }
                // `default_factory=Config`: a class of this module, made
                // with its defaults.
                if factory.kind_name() == "identifier" {
                    if let Some(Binding::Def(id)) =
                        m.binding_at(scope, text(factory, m.src), factory)
                    {
                        if m.scopes[*id].kind == ScopeKind::Class {
                            // Called with no arguments: the factory name
                            // stands for that construction (no arguments,
                            // so every field is its default), not for any
                            // instance of the class made anywhere.
                            return Some(vec![Alt::fixed(Val::Instance(
                                *id,
                                Some((factory, scope)),
                            ))]);
                        }
                        // `default_factory=default_tools`: what the function
                        // returns, called with no arguments.
                        if m.scopes[*id].kind == ScopeKind::Function && !too_deep(depth) {
                            let returned = self.returns_bound(*id, None, Vec::new());
                            if !returned.is_empty() {
                                return Some(returned);
                            }
                        }
                    }
                    // `default_factory=list` / `tuple`: an empty one.
                    let builtin = |name: &str| {
                        text(factory, m.src) == name && m.binding_at(scope, name, factory).is_none()
                    };
                    if builtin("list") {
                        return Some(vec![Alt::fixed(Val::Seq(SeqKind::List, Vec::new()))]);
                    }
                    if builtin("tuple") {
                        return Some(vec![Alt::fixed(Val::Seq(SeqKind::Tuple, Vec::new()))]);
                    }
                }
                None
            }
            names::ABSTRACT_MESH => Some(
                m.abstract_mesh_alts(self, args, scope)
                    .into_iter()
                    .map(|(info, why, choices)| Alt {
                        val: Val::Mesh(MeshValue::Abstract(info)),
                        why,
                        choices,
                    })
                    .collect(),
            ),
            // The current abstract mesh: the one every way here runs under
            // (`with use_abstract_mesh(m): helper()` for a call in `helper`),
            // when that is one known abstract mesh; else one whose device,
            // if any, is not visible.
            "jax.sharding.get_abstract_mesh" => {
                let info = (!too_deep(depth))
                    .then(|| self.context_abstract_mesh(call, scope))
                    .flatten()
                    .unwrap_or(AbstractMeshInfo {
                        device_platform: Some(String::new()),
                        repr: None,
                        has_explicit_axis: false,
                        current: true,
                    });
                Some(vec![Alt::fixed(Val::Mesh(MeshValue::Abstract(info)))])
            }
            "jax.make_mesh"
            | "jax.sharding.make_mesh"
            | "jax.sharding.Mesh"
            | "jax.experimental.mesh_utils.create_device_mesh" => {
                Some(vec![Alt::fixed(Val::Mesh(MeshValue::Concrete))])
            }
            names::NAMED_SHARDING => {
                let Some(mesh) = first_or("mesh") else {
                    return Some(vec![Alt::fixed(Val::Sharding(ShardingUse::unknown()))]);
                };
                Some(map(self.eval_depth(mesh, scope, depth + 1), |v| {
                    Val::Sharding(match v {
                        Val::Mesh(MeshValue::Abstract(info)) if info.current => ShardingUse {
                            current_mesh: true,
                            ..ShardingUse::default()
                        },
                        Val::Mesh(MeshValue::Abstract(info)) => ShardingUse {
                            abstract_mesh: true,
                            origin: AbstractOrigin::of(info),
                            ..ShardingUse::default()
                        },
                        Val::Mesh(MeshValue::Concrete) => ShardingUse {
                            concrete_mesh: true,
                            ..ShardingUse::default()
                        },
                        _ => ShardingUse::unknown(),
                    })
                }))
            }
            names::PARTITION_SPEC => Some(vec![Alt::fixed(Val::Sharding(ShardingUse {
                spec: true,
                ..ShardingUse::default()
            }))]),
            "jax.sharding.SingleDeviceSharding" | "jax.sharding.PositionalSharding" => {
                Some(vec![Alt::fixed(Val::Sharding(ShardingUse {
                    concrete_mesh: true,
                    ..ShardingUse::default()
                }))])
            }
            names::SHAPE_DTYPE_STRUCT => match args.keyword("sharding") {
                None => Some(vec![Alt::fixed(Val::Spec(ShardingUse::default()))]),
                Some(sharding) => Some(map(self.eval_depth(sharding, scope, depth + 1), |v| {
                    Val::Spec(self.sharding_use_of(v))
                })),
            },
            // `device_put(x, device)` commits an array to devices; without
            // a device, and from `jnp`/`jax.random`, it is uncommitted (no
            // device assignment of its own). NumPy arrays are host data.
            p if p == names::DEVICE_PUT => {
                let placed =
                    args.positional.len() > 1 || args.keyword("device").is_some() || args.has_splat;
                Some(vec![Alt::fixed(Val::Array { committed: placed })])
            }
            // (`jnp.zeros(shape, device=sharding)` is placed.)
            p if (p.starts_with("jax.numpy.") && !p.starts_with("jax.numpy.dtype"))
                || p.starts_with("jax.random.") =>
            {
                let placed = args.keyword("device").is_some() || args.has_dict_splat;
                Some(vec![Alt::fixed(Val::Array { committed: placed })])
            }
            // One string per host, each on its own host.
            "jax.default_backend" => Some(host_backends()),
            "os.environ.get" | "os.getenv" => {
                let key = args
                    .positional
                    .first()
                    .copied()
                    .or_else(|| args.keyword("key"));
                let default = args
                    .positional
                    .get(1)
                    .copied()
                    .or_else(|| args.keyword("default"));
                let key_text = key
                    .and_then(|k| string_value(k, m.src))
                    .unwrap_or_else(|| "the variable".to_owned());
                // What the environment holds is a str, chosen at run time.
                let mut out = vec![Alt {
                    val: Val::AnyStr,
                    why: Why::Choice,
                    choices: Vec::new(),
                }];
                // Set by the program itself: its default is not what a
                // plain run reads.
                let written = key
                    .and_then(|k| string_value(k, m.src))
                    .is_some_and(|k| m.env_written(&k));
                match default {
                    _ if written => {}
                    Some(d) => {
                        let note = format!(
                            "with the default of ${key_text} {} (line {})",
                            text(d, m.src),
                            line_of(d)
                        );
                        out.extend(
                            self.eval_depth(d, scope, depth + 1)
                                .into_iter()
                                .filter_map(|a| a.under(&Why::Default(note.clone()), &[])),
                        );
                    }
                    // Unset in a plain run: `None`.
                    None => out.push(Alt {
                        val: Val::None,
                        why: Why::Default(format!(
                            "with ${key_text} unset (line {})",
                            line_of(call)
                        )),
                        choices: Vec::new(),
                    }),
                }
                Some(cap(out))
            }
            p if flag_define_kind(p).is_some() => {
                Some(vec![Alt::fixed(Val::AbslFlag(call, scope))])
            }
            _ => None,
        }
    }

    /// What a call of a function or method of this module returns, with its
    /// parameters bound to the call's arguments. Several `return`s are a
    /// run-time choice unless their conditions are constant.
    fn returns_of(
        &self,
        call: Node<'t>,
        func: Node<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        let m = self.m;
        // Methods of objects from other modules, from their summaries.
        let mut imported: Vec<Alt<'t>> = Vec::new();
        // (def, receiver alternatives)
        let targets: Vec<(ScopeId, Option<Alt<'t>>, Alt<'t>)> = match func.kind_name() {
            "identifier" => match m.binding_at(scope, text(func, m.src), func) {
                Some(Binding::Def(def)) if m.scopes[*def].kind == ScopeKind::Function => {
                    vec![(*def, None, Alt::fixed(Val::Unknown))]
                }
                Some(Binding::Def(_) | Binding::Import(_)) => Vec::new(),
                // A function kept as a value (`step = STEPS[name]`, a
                // parameter, a loop variable): what the functions it may be
                // return.
                _ => self.functions_called(func, scope, depth, &mut imported),
            },
            "subscript" | "call" | "parenthesized_expression" => {
                self.functions_called(func, scope, depth, &mut imported)
            }
            "attribute" => {
                let (Some(object), Some(attr)) = (func.field("object"), func.field("attribute"))
                else {
                    return vec![Alt::unknown()];
                };
                let attr = text(attr, m.src);
                let mut out = Vec::new();
                for o in self.eval_depth(object, scope, depth + 1) {
                    // An object of this module's class that another module
                    // made: its method, `self` that object; one inherited
                    // from another module's class runs there, on the object
                    // with its class's class-body attributes.
                    if let Val::Object(fields) = &o.val {
                        if let Some(class) = self.m.own_class_of_object(fields) {
                            match m.method(class, attr) {
                                Some(method)
                                    if m.scopes[method].kind == ScopeKind::Function
                                        && !m.is_static_method(method)
                                        && !m.is_class_method(method) =>
                                {
                                    let receiver = Alt::fixed(o.val.clone());
                                    out.push((method, Some(receiver), o));
                                    continue;
                                }
                                None => {
                                    let inherited = m.foreign_base_method(class, attr);
                                    let receiver = self.with_class_attributes(class, fields);
                                    let found = inherited.and_then(|path| {
                                        self.foreign_call(
                                            &path,
                                            Some(&receiver),
                                            call,
                                            scope,
                                            depth,
                                        )
                                    });
                                    if let Some(alts) = found {
                                        imported.extend(
                                            alts.into_iter()
                                                .filter_map(|a| a.under(&o.why, &o.choices)),
                                        );
                                        continue;
                                    }
                                }
                                _ => {}
                            }
                        }
                    }
                    // An object of another module's class: its path.
                    let class_path = match &o.val {
                        Val::Imported(path) => Some(path.to_string()),
                        Val::Object(fields) => object_class(fields).map(str::to_owned),
                        _ => None,
                    };
                    if let Some(path) = class_path {
                        let method = format!("{path}.{attr}");
                        let found = self
                            .foreign_call(&method, Some(&o.val), call, scope, depth)
                            .or_else(|| self.external(&format!("{method}()")));
                        // A keyword setter returning its object
                        // (`Config().set(platforms=p)`): that object with
                        // the keywords stored.
                        let found = match (&o.val, found) {
                            (Val::Object(fields), Some(alts))
                                if m.foreign_keyword_setter(&method) =>
                            {
                                Some(self.with_keywords_set(fields, alts, call, scope, depth))
                            }
                            (_, found) => found,
                        };
                        if let Some(alts) = found {
                            imported.extend(
                                alts.into_iter().filter_map(|a| a.under(&o.why, &o.choices)),
                            );
                        }
                        continue;
                    }
                    if let Val::Instance(class, _) = &o.val {
                        if let Some(method) = m.method(*class, attr) {
                            if m.scopes[method].kind == ScopeKind::Function {
                                let receiver = Alt::fixed(o.val.clone());
                                out.push((method, Some(receiver), o));
                                continue;
                            }
                        } else if let Some(path) = m.foreign_base_method(*class, attr) {
                            // Inherited from a class of another module: run
                            // there on this object, whose fields (class-body
                            // overrides too) travel with it.
                            if let Some(alts) =
                                self.foreign_call(&path, Some(&o.val), call, scope, depth)
                            {
                                imported.extend(
                                    alts.into_iter().filter_map(|a| a.under(&o.why, &o.choices)),
                                );
                                continue;
                            }
                        }
                    }
                    // `Config.from_json(text)`: a class or static method
                    // called on the class.
                    if let Val::Class(class) = &o.val {
                        if let Some(method) = m.method(*class, attr) {
                            if m.is_class_method(method) {
                                let receiver = Alt::fixed(o.val.clone());
                                out.push((method, Some(receiver), o));
                            } else if m.is_static_method(method) {
                                out.push((method, None, o));
                            }
                        }
                    }
                }
                // No method of that name: a field holding a function
                // (`prof.platform_fn()` with `platform_fn=lambda: "tpu"`
                // given to the constructor), called as it is.
                if out.is_empty() && imported.is_empty() {
                    out = self.functions_called(func, scope, depth, &mut imported);
                }
                out
            }
            _ => Vec::new(),
        };
        if targets.is_empty() {
            return if imported.is_empty() {
                vec![Alt::unknown()]
            } else {
                cap(imported)
            };
        }
        let mut out = imported;
        for (def, receiver, o) in targets {
            // A recursive call may run again (a recursive walk one level
            // down); a few levels, as deep as nested literals go.
            if self
                .bound
                .borrow()
                .iter()
                .filter(|b| b.def == def && b.call.id() == call.id())
                .count()
                >= MAX_RECURSION
                || self.bound.borrow().len() > 6
            {
                out.push(Alt::unknown());
                continue;
            }
            let bound = Bound {
                def,
                call,
                call_scope: scope,
                receiver,
                given: Vec::new(),
            };
            if m.scopes[def].returned.is_empty() {
                // No `return`: the function returns None; a generator whose
                // yields are straight-line statements of its body gives
                // them in turn (`for p in platforms():`).
                if m.scopes[def].node.field("body").is_some() && !m.is_generator(def) {
                    out.push(Alt::fixed(Val::None));
                } else if let Some(yields) = m.straight_yields(def) {
                    let items: Vec<Vec<Alt<'t>>> = self.with_bound(bound, || {
                        yields
                            .iter()
                            .map(|y| self.eval_depth(*y, def, depth + 1))
                            .collect()
                    });
                    out.extend(product(&items, |vals| Val::Seq(SeqKind::Tuple, vals)));
                } else if let Some((for_loop, value)) = m.loop_yield(def) {
                    // `for p in PLATFORMS: yield f(p)`: one item per element.
                    let (alts, iterated) = self.with_bound(bound, || {
                        (
                            self.eval_depth(value, def, depth + 1),
                            for_loop
                                .field("right")
                                .map(|r| self.eval_depth(r, def, depth + 1)),
                        )
                    });
                    let point = for_loop.id();
                    match loop_items(&alts, point) {
                        Some(items) => {
                            out.extend(product(&items, |vals| Val::Seq(SeqKind::Tuple, vals)))
                        }
                        // `for lr in RATES: yield Run(name=...)` with what it
                        // yields the same for every element: that, once per
                        // element.
                        None if !alts.is_empty()
                            && alts
                                .iter()
                                .all(|a| a.choices.iter().all(|(p, _)| *p != point)) =>
                        {
                            let count = iterated.as_deref().and_then(|its| match its {
                                [Alt {
                                    val: Val::Seq(_, elements),
                                    why,
                                    ..
                                }] if why.certain() && elements.len() <= 64 => Some(elements.len()),
                                _ => None,
                            });
                            match count {
                                Some(n) => {
                                    let items = vec![alts.clone(); n];
                                    out.extend(product(&items, |vals| {
                                        Val::Seq(SeqKind::Tuple, vals)
                                    }))
                                }
                                None => out.push(Alt::fixed(Val::Members(
                                    SeqKind::Tuple,
                                    Arc::new(
                                        alts.iter()
                                            .map(|a| Alt {
                                                why: Why::Choice,
                                                ..a.clone()
                                            })
                                            .collect(),
                                    ),
                                ))),
                            }
                        }
                        None => out.push(Alt::unknown()),
                    }
                } else {
                    out.push(Alt::unknown());
                }
                continue;
            }
            let alts = self.with_bound(bound, || {
                self.eval_returned(&self.returned_for_call(def), def, depth)
            });
            // A value made inside the def and read later, when this frame is
            // gone, holds this call's arguments: a closure (`sequential(layers)`
            // returns `apply`), a dict display, a comprehension or an object it
            // constructed (`make_cfg(p)` returns `{"platforms": p}`). Reading
            // the def's parameters through it is this call's choice, not
            // every call's.
            let made_here = [(m.scopes[def].node.id(), call.id())];
            let alts = alts.into_iter().filter_map(|a| {
                let holds_call = match a.val {
                    Val::Function(inner) | Val::Jitted(inner, ..) => {
                        inner != def && m.scope_within(inner, def)
                    }
                    Val::Dict(_, at)
                    | Val::Comprehension(_, at)
                    | Val::Instance(_, Some((_, at))) => m.scope_within(at, def),
                    _ => false,
                };
                if holds_call {
                    let why = a.why.clone();
                    a.under(&why, &made_here)
                } else {
                    Some(a)
                }
            });
            out.extend(alts.filter_map(|a| a.under(&o.why, &o.choices)));
        }
        cap(out)
    }

    /// `node`'s values, an instance of a `dict` subclass of this module
    /// (an attribute-dict config) read as the dict its constructor made.
    fn eval_as_dicts(&self, node: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Alt<'t>> {
        map(self.eval_depth(node, scope, depth + 1), |v| match v {
            Val::Instance(class, ctor) => self
                .dict_of_instance(*class, *ctor)
                .unwrap_or_else(|| v.clone()),
            _ => v.clone(),
        })
    }

    /// The dict an instance of a `dict` subclass holds, when its class keeps
    /// `dict`'s constructor (`AttrDict(platforms=...)`, `AttrDict({...})`).
    fn dict_of_instance(
        &self,
        class: ScopeId,
        ctor: Option<(Node<'t>, ScopeId)>,
    ) -> Option<Val<'t>> {
        let (call, scope) = ctor?;
        (self.m.is_dict_subclass(class) && self.m.method(class, "__init__").is_none())
            .then_some(Val::Dict(call, scope))
    }

    /// A pytree rebuilt from the list `leaves`: `Leaves` of its element when
    /// every element is the same value (a comprehension's body, a list of
    /// one sharding repeated).
    fn rebuilt_tree(&self, leaves: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Alt<'t>> {
        let mut out = Vec::new();
        for alt in self.eval_depth(leaves, scope, depth + 1) {
            match &alt.val {
                Val::Comprehension(comp, cscope) => {
                    let elements = self.comprehension_element(*comp, *cscope, depth);
                    out.extend(
                        map(elements, |v| Val::Leaves(Box::new(v.clone())))
                            .into_iter()
                            .filter_map(|a| a.under(&alt.why, &alt.choices)),
                    );
                }
                Val::Seq(_, items)
                    if items.first().is_some_and(|first| {
                        !first.is_unknown() && items.iter().all(|i| i.same(first))
                    }) =>
                {
                    out.push(Alt {
                        val: Val::Leaves(Box::new(items[0].clone())),
                        ..alt
                    });
                }
                _ => out.push(Alt {
                    val: Val::Unknown,
                    ..alt
                }),
            }
        }
        cap(out)
    }

    /// The functions of this module a called value may be (`REGISTRY[k]()`,
    /// `make()()`), with no receiver; what is not one joins `other` as
    /// `Unknown`. Empty when none is (the call is then not ours to follow).
    fn functions_called(
        &self,
        func: Node<'t>,
        scope: ScopeId,
        depth: u32,
        other: &mut Vec<Alt<'t>>,
    ) -> Vec<(ScopeId, Option<Alt<'t>>, Alt<'t>)> {
        let m = self.m;
        let values = self.eval_depth(func, scope, depth + 1);
        let is_def = |v: &Val<'t>| matches!(v, Val::Function(def) | Val::Jitted(def, ..) if matches!(m.scopes[*def].kind, ScopeKind::Function | ScopeKind::Lambda));
        // A callable instance (`layer = Dense(); layer(x)`, an operator
        // object): its class's `__call__`, with `self` the instance.
        let dunder_call = |v: &Val<'t>| match v {
            Val::Instance(class, _) => m
                .method(*class, "__call__")
                .filter(|d| m.scopes[*d].kind == ScopeKind::Function),
            // A method read off an object: run on that object.
            Val::Method(method, ..) => Some(*method),
            _ => None,
        };
        if !values
            .iter()
            .any(|a| is_def(&a.val) || dunder_call(&a.val).is_some())
        {
            return Vec::new();
        }
        let mut out = Vec::new();
        for o in values {
            if let Some(method) = dunder_call(&o.val) {
                let receiver = Alt::fixed(match o.val {
                    Val::Method(def, class, made) => m.method_receiver(def, class, made),
                    _ => o.val.clone(),
                });
                out.push((method, Some(receiver), o));
                continue;
            }
            match o.val {
                Val::Function(def) | Val::Jitted(def, ..) if is_def(&o.val) => {
                    out.push((def, None, o))
                }
                _ => other.push(Alt {
                    val: Val::Unknown,
                    ..o
                }),
            }
        }
        out
    }

    /// The default of an argparse argument `dest` (`--platform` or
    /// `--lowering-platforms` for `lowering_platforms`, or `dest=`), with
    /// `nargs` and `type` applied the way argparse applies them.
    fn argparse_default(&self, dest: &str, depth: u32) -> Vec<Alt<'t>> {
        let m = self.m;
        let mut parsers = 0;
        let mut all: Vec<Alt<'t>> = Vec::new();
        for site in m.call_sites_named(&["add_argument"]) {
            let args = m.args_of(site.node);
            let flags: Vec<String> = args
                .positional
                .iter()
                .filter_map(|a| string_value(*a, m.src))
                .collect();
            if m.argument_dest(site.node).as_deref() != Some(dest) {
                continue;
            }
            let flag = flags.first().cloned().unwrap_or_else(|| dest.to_owned());
            let nargs = args.keyword("nargs").map(|n| text(n, m.src).to_owned());
            let type_ = args.keyword("type").map(|t| text(t, m.src).to_owned());
            let action = args.keyword("action").and_then(|a| string_value(a, m.src));
            let scope = site.scope;
            let mut out = Vec::new();
            // What a user passes: a str unless nargs, type or action say otherwise.
            let given = match (&nargs, type_.as_deref(), action.as_deref()) {
                (None, None | Some("str"), None | Some("store")) => Val::AnyStr,
                _ => Val::Unknown,
            };
            out.push(Alt {
                val: given,
                why: Why::Choice,
                choices: Vec::new(),
            });
            let default = args.keyword("default");
            let note = |shown: &str, at: Node<'t>| {
                format!("with the default {flag} {shown} (line {})", line_of(at))
            };
            match (default, action.as_deref()) {
                (Some(d), _) => {
                    let why = Why::Default(note(text(d, m.src), d));
                    // argparse applies `type` to a string default only:
                    // `type=lambda s: s.split(",")` or a def of this
                    // module is what it returns for the default, `int` the
                    // number the text spells.
                    let defaults = self.eval_depth(d, scope, depth + 1);
                    let converter = args
                        .keyword("type")
                        .map(unparenthesize)
                        .filter(|t| text(*t, m.src) != "str");
                    for a in defaults {
                        let converted = match (&a.val, converter) {
                            (Val::Str(given), Some(t)) => {
                                self.converted_default(t, scope, given, depth)
                            }
                            (Val::AnyStr, Some(_)) => vec![Alt::unknown()],
                            (v, _) => vec![Alt::fixed(v.clone())],
                        };
                        for c in converted {
                            out.push(Alt {
                                val: c.val,
                                why: a.why.and(&c.why).and(&why),
                                choices: a.choices.clone(),
                            });
                        }
                    }
                }
                (None, Some("store_true")) => out.push(Alt {
                    val: Val::Bool(false),
                    why: Why::Default(note("False", site.node)),
                    choices: Vec::new(),
                }),
                (None, Some("store_false")) => out.push(Alt {
                    val: Val::Bool(true),
                    why: Why::Default(note("True", site.node)),
                    choices: Vec::new(),
                }),
                (None, _) => out.push(Alt {
                    val: Val::None,
                    why: Why::Default(note("None", site.node)),
                    choices: Vec::new(),
                }),
            }
            parsers += 1;
            all.extend(out);
        }
        match parsers {
            0 => {}
            1 => return cap(all),
            // Parsers of one option each (`--platform` in two commands'
            // parsers): which one parsed is not followed, so no default is
            // the plain run's.
            _ => {
                return cap(all
                    .into_iter()
                    .map(|a| Alt {
                        why: Why::Choice,
                        ..a
                    })
                    .collect())
            }
        }
        // `sub.set_defaults(func=cmd_aot)`: an attribute no argument
        // defines; a subcommand's handler is its `args.func(args)`.
        let set = m.namespace_defaults(dest);
        if set.is_empty() {
            return vec![Alt::unknown()];
        }
        let mut out = Vec::new();
        for &(value, scope) in &set {
            let why = match set.len() {
                1 => Why::Fixed,
                _ => Why::Choice,
            };
            for a in self.eval_depth(value, scope, depth + 1) {
                // A setting (not a handler) is the value a run of that
                // subcommand uses unless the command line says otherwise.
                let why = match a.val {
                    Val::Function(_) | Val::Class(_) => why.clone(),
                    _ => why.and(&Why::Default(format!(
                        "with the default {dest}={} of set_defaults (line {})",
                        text(value, m.src),
                        line_of(value)
                    ))),
                };
                out.push(Alt {
                    why: a.why.and(&why),
                    ..a
                });
            }
        }
        cap(out)
    }

    /// The default of argument `dest` of a parser the module of `file`
    /// made (`Val::ArgNamespace`), unless this module adds it itself.
    fn foreign_argparse_default(&self, file: &str, dest: &str, depth: u32) -> Vec<Alt<'t>> {
        let m = self.m;
        let added_here = m
            .call_sites_named(&["add_argument"])
            .iter()
            .any(|site| m.argument_dest(site.node).as_deref() == Some(dest));
        if added_here {
            return self.argparse_default(dest, depth);
        }
        m.resolver
            .get()
            .and_then(|resolver| resolver.summary_of(std::path::Path::new(file)))
            .and_then(|summary| {
                summary
                    .arguments
                    .iter()
                    .find(|(name, _)| name == dest)
                    .map(|(_, alts)| from_consts(alts))
            })
            .unwrap_or_else(|| vec![Alt::unknown()])
    }

    /// What argparse's `type=` converter gives for the string default
    /// `text`: a lambda's or a def's return with its parameter the text,
    /// `int`'s number; unknown otherwise.
    fn converted_default(
        &self,
        converter: Node<'t>,
        scope: ScopeId,
        text_value: &str,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        let m = self.m;
        let given = vec![vec![Alt::fixed(Val::Str(text_value.to_owned()))]];
        let def = match converter.kind_name() {
            "lambda" => m.scope_of_def(converter),
            "identifier" => match m.binding_at(scope, text(converter, m.src), converter) {
                Some(Binding::Def(id)) if m.scopes[*id].kind == ScopeKind::Function => Some(*id),
                None if text(converter, m.src) == "int" => {
                    return vec![Alt::fixed(
                        text_value
                            .trim()
                            .parse::<i64>()
                            .map(Val::Int)
                            .unwrap_or(Val::Unknown),
                    )];
                }
                _ => None,
            },
            _ => None,
        };
        match def {
            Some(def) if !too_deep(depth) => {
                let returned = self.returns_bound(def, None, given);
                if returned.is_empty() {
                    vec![Alt::unknown()]
                } else {
                    returned
                }
            }
            _ => vec![Alt::unknown()],
        }
    }

    /// `FLAGS.name`: the flag `name` defined in this module.
    fn absl_flag_named(&self, name: &str, depth: u32) -> Vec<Alt<'t>> {
        let m = self.m;
        for site in m.calls.iter() {
            let Some(callee) = m.callee(site.node, site.scope) else {
                continue;
            };
            if flag_define_kind(&callee).is_none() {
                continue;
            }
            let args = m.args_of(site.node);
            let flag = args
                .positional
                .first()
                .copied()
                .or_else(|| args.keyword("name"))
                .and_then(|n| string_value(n, m.src));
            if flag.as_deref() == Some(name) {
                return self.absl_flag_value(site.node, site.scope, depth);
            }
        }
        vec![Alt::unknown()]
    }

    /// The value of a `flags.DEFINE_*(name, default, ...)` flag: its default
    /// (parsed as absl parses it), or what the command line gives.
    fn absl_flag_value(&self, define: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Alt<'t>> {
        let m = self.m;
        let callee = m.callee(define, scope).unwrap_or_default();
        let kind = flag_define_kind(&callee).unwrap_or_default();
        let args = m.args_of(define);
        let name = args
            .positional
            .first()
            .copied()
            .and_then(|n| string_value(n, m.src))
            .unwrap_or_default();
        let default = args
            .positional
            .get(1)
            .copied()
            .or_else(|| args.keyword("default"));
        let given = match kind {
            "string" | "enum" => Val::AnyStr,
            _ => Val::Unknown,
        };
        let mut out = vec![Alt {
            val: given,
            why: Why::Choice,
            choices: Vec::new(),
        }];
        if let Some(d) = default {
            let why = Why::Default(format!(
                "with the default --{name} {} (line {})",
                text(d, m.src),
                line_of(d)
            ));
            for a in self.eval_depth(d, scope, depth + 1) {
                let val = match (kind, &a.val) {
                    // DEFINE_list parses a comma-separated string default.
                    ("list" | "multi_string", Val::Str(s)) => Val::Seq(
                        SeqKind::List,
                        if s.is_empty() {
                            Vec::new()
                        } else {
                            s.split(',')
                                .map(|p| Val::Str(p.trim().to_owned()))
                                .collect()
                        },
                    ),
                    ("list" | "multi_string", Val::Seq(_, items)) => {
                        Val::Seq(SeqKind::List, items.clone())
                    }
                    ("string" | "enum", v @ (Val::Str(_) | Val::None)) => v.clone(),
                    ("bool", v @ Val::Bool(_)) => v.clone(),
                    _ => Val::Unknown,
                };
                out.push(Alt {
                    val,
                    why: a.why.and(&why),
                    choices: a.choices,
                });
            }
        }
        cap(out)
    }

    /// Alternatives with every `ParamRef` replaced by what it is when the
    /// caller passes nothing: the parameter's default (read through its
    /// attributes), for questions that no caller is asked about.
    pub fn with_defaults(&self, alts: Vec<Alt<'t>>) -> Vec<Alt<'t>> {
        let mut out = Vec::new();
        for alt in alts {
            let Val::ParamRef(slot) = &alt.val else {
                out.push(alt);
                continue;
            };
            let def = &self.m.scopes[slot.def];
            let default = def.params().get(slot.index).and_then(|(_, d)| *d);
            let values = match default {
                Some(d) => self.project(self.eval(d, def.parent.unwrap_or(0)), &slot.path),
                None => vec![Alt::unknown()],
            };
            out.extend(
                values
                    .into_iter()
                    .filter_map(|a| a.under(&alt.why, &alt.choices)),
            );
        }
        cap(out)
    }

    /// The values of attributes `path` read off each alternative.
    pub fn project(&self, mut alts: Vec<Alt<'t>>, path: &[String]) -> Vec<Alt<'t>> {
        for attr in path {
            let mut next = Vec::new();
            for o in alts {
                let vals = match &o.val {
                    Val::Instance(class, ctor) => self.field(*class, *ctor, attr, 0),
                    Val::Object(fields) => fields
                        .iter()
                        .find(|(n, _)| n == attr)
                        .map(|(_, alts)| from_consts(alts))
                        .unwrap_or_else(|| vec![Alt::unknown()]),
                    _ => vec![Alt::unknown()],
                };
                next.extend(vals.into_iter().filter_map(|a| a.under(&o.why, &o.choices)));
            }
            alts = cap(next);
        }
        alts
    }

    /// What a sharding value (or a pytree of them) uses.
    pub fn sharding_use_of(&self, v: &Val<'t>) -> ShardingUse {
        let mut out = ShardingUse::default();
        match v {
            Val::Sharding(u) => out.merge(*u),
            Val::None => {}
            // `jax.tree.map(lambda _: sharding, params)`: every leaf is f's value.
            Val::Leaves(leaf) => out.merge(self.sharding_use_of(leaf)),
            Val::Seq(_, items) => {
                for item in items {
                    out.merge(self.sharding_use_of(item));
                }
            }
            Val::Dict(dict, scope) => {
                for value in self.dict_values(*dict, *scope) {
                    out.merge(self.sharding_use_of(&value.val));
                }
            }
            Val::Comprehension(comp, scope) => {
                for value in self.comprehension_element(*comp, *scope, 0) {
                    out.merge(self.sharding_use_of(&value.val));
                }
            }
            Val::Entries(entries) => {
                for (_, values) in entries.iter() {
                    for value in from_consts(values) {
                        out.merge(self.sharding_use_of(&value.val));
                    }
                }
            }
            // A pytree node of this module (`EnvState(spec, spec)`, a
            // NamedTuple or dataclass of shardings): its fields are leaves.
            Val::Instance(class, Some((call, scope))) if self.m.is_dataclass_like(*class) => {
                let (fields, complete) = self.pytree_fields(*call, *scope);
                out.unknown |= !complete;
                for alt in fields {
                    out.merge(self.sharding_use_of(&alt.val));
                }
            }
            _ => out.unknown = true,
        }
        out
    }

    /// What an argument (or pytree of arguments) of a lowered function is:
    /// abstract values with their shardings, placed arrays, or other.
    pub fn argument_use(&self, v: &Val<'t>, depth: u32) -> ArgUse {
        let mut out = ArgUse::default();
        if depth > 6 {
            return out;
        }
        match v {
            Val::Spec(u) => {
                out.abstract_value = true;
                out.sharding.merge(*u);
            }
            Val::Array { committed } => out.concrete |= *committed,
            Val::Leaves(leaf) => out.merge(self.argument_use(leaf, depth + 1)),
            Val::Entries(entries) => {
                for (_, values) in entries.iter() {
                    for value in values {
                        out.merge(self.argument_use(&value.val.val(), depth + 1));
                    }
                }
            }
            Val::Seq(_, items) => {
                for item in items {
                    out.merge(self.argument_use(item, depth + 1));
                }
            }
            Val::Dict(dict, scope) => {
                for value in self.dict_values(*dict, *scope) {
                    out.merge(self.argument_use(&value.val, depth + 1));
                }
            }
            Val::Comprehension(comp, scope) => {
                for value in self.comprehension_element(*comp, *scope, depth) {
                    out.merge(self.argument_use(&value.val, depth + 1));
                }
            }
            // A state object (`State(x=spec, step=spec)`): its fields are leaves.
            Val::Instance(class, Some((call, scope))) if self.m.is_dataclass_like(*class) => {
                for alt in self.pytree_fields(*call, *scope).0 {
                    out.merge(self.argument_use(&alt.val, depth + 1));
                }
            }
            _ => {}
        }
        out
    }

    /// The values of a pytree node's fields, from the construction `call`
    /// (`State(spec, step=spec)`), and whether that is all of them (no `*`/`**`).
    fn pytree_fields(&self, call: Node<'t>, scope: ScopeId) -> (Vec<Alt<'t>>, bool) {
        let args = self.m.args_of(call);
        let values = args
            .positional
            .iter()
            .copied()
            .chain(args.keywords.iter().map(|(_, v, _)| *v))
            .flat_map(|value| self.eval(value, scope))
            .collect();
        (values, !args.has_splat)
    }

    /// The value of a comprehension's elements (a dict comprehension's values).
    fn comprehension_element(&self, comp: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Alt<'t>> {
        let Some(body) = comp.field("body") else {
            return vec![Alt::unknown()];
        };
        let body = if body.kind_name() == "pair" {
            match body.field("value") {
                Some(v) => v,
                None => return vec![Alt::unknown()],
            }
        } else {
            body
        };
        self.eval_depth(body, scope, depth + 1)
    }

    /// Entry `key` of a dict comprehension whose item is `pair`: the values
    /// of the elements whose key it is (`Missing` when every key is known
    /// and none is it); with keys not known, the value every entry has, or
    /// any of them.
    fn comprehension_entry(
        &self,
        pair: Node<'t>,
        scope: ScopeId,
        key: &Val<'t>,
        depth: u32,
    ) -> Lookup<'t> {
        let all = match self.entries_with_key(pair, scope, key, depth) {
            Ok(Some(entries)) => {
                // `if` clauses keep an element or drop it: each kept entry's
                // filters decided for its element, else not known.
                let Some(out) = self.kept_by_filters(pair, scope, entries, depth) else {
                    return Lookup::Unknown;
                };
                return if out.is_empty() {
                    Lookup::Missing
                } else {
                    Lookup::Found(cap(out))
                };
            }
            Ok(None) => return Lookup::Unknown,
            Err(all) => all,
        };
        // Which entry is not known: the value every entry has, when
        // they all have the same one; else any of them.
        let same = all.first().is_some_and(|(_, first, ..)| {
            !first.is_unknown()
                && all
                    .iter()
                    .all(|(_, v, why, _)| why.certain() && v.same(first))
        });
        Lookup::Found(cap(all
            .into_iter()
            .map(|(_, val, why, choices)| Alt {
                val,
                why: if same { why } else { Why::Choice },
                choices,
            })
            .collect()))
    }

    /// Whether the dict comprehension `comp` (in `scope`) keeps the entry
    /// of its iterated dict with the string key `key`: its `if` clauses
    /// decided for that entry. `None` when a key or a filter is not known.
    pub(crate) fn comprehension_keeps(
        &self,
        comp: Node<'t>,
        scope: ScopeId,
        key: &str,
    ) -> Option<bool> {
        let pair = comp.field("body").filter(|b| b.kind_name() == "pair")?;
        let entries = self
            .entries_with_key(pair, scope, &Val::Str(key.to_owned()), 0)
            .ok()??;
        if entries.is_empty() {
            return None;
        }
        Some(!self.kept_by_filters(pair, scope, entries, 1)?.is_empty())
    }

    /// The elements of a dict comprehension (`pair` its item) whose key is
    /// `key`, before its `if` clauses (`Ok(None)` when the item cannot be
    /// read); when `key` or an element's key is not a known constant, every
    /// element as (key, value, why, choices) instead (`Err`).
    #[allow(clippy::type_complexity)]
    fn entries_with_key(
        &self,
        pair: Node<'t>,
        scope: ScopeId,
        key: &Val<'t>,
        depth: u32,
    ) -> Result<Option<Vec<Alt<'t>>>, Vec<(Val<'t>, Val<'t>, Why, Vec<Choice>)>> {
        let (Some(k), Some(v)) = (pair.field("key"), pair.field("value")) else {
            return Ok(None);
        };
        let parts = [
            self.eval_key(k, scope, depth + 1),
            self.eval_depth(v, scope, depth + 1),
        ];
        let mut all = pairs(&parts);
        all.retain(|(.., choices)| compatible(choices, &self.read_way.borrow()));
        if !is_key_constant(key) || !all.iter().all(|(k, ..)| is_key_constant(k)) {
            return Err(all);
        }
        Ok(Some(
            all.into_iter()
                .filter(|(k, ..)| k.same(key))
                .map(|(_, val, why, choices)| Alt { val, why, choices })
                .collect(),
        ))
    }

    /// The values of a comprehension's `if` clauses, one list each (per
    /// element, by the comprehension's choice of it).
    fn comprehension_filters(
        &self,
        comp: Node<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Vec<Vec<Alt<'t>>> {
        let mut cursor = comp.walk();
        comp.named_children(&mut cursor)
            .filter(|c| c.kind_name() == "if_clause")
            .map(|c| {
                c.named_child(0)
                    .map(|cond| self.eval_depth(cond, scope, depth + 1))
                    .unwrap_or_else(|| vec![Alt::unknown()])
            })
            .collect()
    }

    /// The entries of a dict comprehension (`pair` its item) its `if`
    /// clauses keep: each one's filters decided for its element (the
    /// comprehension's choice of it). `None` when a filter is not known for
    /// an element.
    fn kept_by_filters(
        &self,
        pair: Node<'t>,
        scope: ScopeId,
        entries: Vec<Alt<'t>>,
        depth: u32,
    ) -> Option<Vec<Alt<'t>>> {
        let comp = self.m.parent_of(pair)?;
        let filters = self.comprehension_filters(comp, scope, depth);
        if filters.is_empty() {
            return Some(entries);
        }
        let point = comp.id();
        let index_of = |a: &Alt<'t>| a.choices.iter().find(|(p, _)| *p == point).map(|(_, i)| *i);
        let mut kept = Vec::new();
        for entry in entries {
            let i = index_of(&entry)?;
            let mut keep = true;
            for filter in &filters {
                let mine: Vec<&Alt<'t>> = filter
                    .iter()
                    .filter(|a| index_of(a).is_none_or(|j| j == i))
                    .collect();
                // Decided when every alternative for the element agrees
                // (an entry's other values may multiply them).
                let first = mine.first()?.val.truthy()?;
                if mine.iter().any(|a| a.val.truthy() != Some(first)) {
                    return None;
                }
                keep &= first;
            }
            if keep {
                kept.push(entry);
            }
        }
        Some(kept)
    }

    /// `comp[key]`: the value a dict comprehension gives the entry `key`
    /// (its body's key and value evaluated together, element by element),
    /// or element `key` of a list comprehension over a known sequence;
    /// `Unknown` when that is not known.
    fn comprehension_item(
        &self,
        comp: Node<'t>,
        scope: ScopeId,
        key: &Val<'t>,
        depth: u32,
    ) -> Vec<Alt<'t>> {
        let Some(body) = comp.field("body") else {
            return vec![Alt::unknown()];
        };
        if body.kind_name() == "pair" {
            return match self.comprehension_entry(body, scope, key, depth) {
                Lookup::Found(alts) => alts,
                Lookup::Missing | Lookup::Unknown => vec![Alt::unknown()],
            };
        }
        let Val::Int(index) = key else {
            return vec![Alt::unknown()];
        };
        let Some((items, choices)) = self.certain_comprehension(comp, scope, depth) else {
            return vec![Alt::unknown()];
        };
        let item = item_at(&items, *index).unwrap_or(Val::Unknown);
        vec![Alt {
            choices,
            ..Alt::fixed(item)
        }]
    }

    /// The items of a comprehension over a constant sequence, one `for`
    /// and any `if`s: each element's value (the body evaluated with the
    /// loop variable at that element: the alternatives whose loop choice is
    /// that index), the filters decided per element. `None` when an element
    /// or a filter is not known.
    ///
    /// Over run-time configuration (`os.environ.get("K", "a,b").split(",")`)
    /// the items are those of the default, as certain as a default is, and
    /// the `bool` says that other runs hold other items (the alternatives
    /// chosen at run time, left out here).
    fn expand_comprehension(
        &self,
        comp: Node<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Option<(Vec<Val<'t>>, Why, bool, Vec<Choice>)> {
        self.expand_comprehension_on(comp, scope, depth, None)
    }

    /// `expand_comprehension` on each way an enclosing loop or call gives
    /// its elements (`(item for item in ("value", (run,)))` in `for run in
    /// RUNS:`: one sequence per run), when its items are not one value
    /// else; each with that way's choices.
    fn expand_comprehension_per_way(
        &self,
        comp: Node<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Vec<(Vec<Val<'t>>, Why, bool, Vec<Choice>)> {
        let point = comp.id();
        let Some(body) = comp.field("body").filter(|b| b.kind_name() != "pair") else {
            return Vec::new();
        };
        let mut ways: Vec<Vec<Choice>> = Vec::new();
        for alt in self.eval_depth(body, scope, depth + 1) {
            let way: Vec<Choice> = alt
                .choices
                .iter()
                .filter(|(p, _)| *p != point)
                .copied()
                .collect();
            if !way.is_empty() && !ways.contains(&way) {
                ways.push(way);
            }
        }
        if ways.len() < 2 || ways.len() > MAX_ALTS {
            return Vec::new();
        }
        let mut out = Vec::new();
        for way in ways {
            match self.expand_comprehension_on(comp, scope, depth, Some(&way)) {
                Some((items, why, other_runs, choices)) => {
                    let Some(choices) = merge_choices(&choices, &way) else {
                        continue;
                    };
                    out.push((items, why, other_runs, choices));
                }
                None => return Vec::new(),
            }
        }
        out
    }

    fn expand_comprehension_on(
        &self,
        comp: Node<'t>,
        scope: ScopeId,
        depth: u32,
        way: Option<&[Choice]>,
    ) -> Option<(Vec<Val<'t>>, Why, bool, Vec<Choice>)> {
        if too_deep(depth) {
            return None;
        }
        let mut cursor = comp.walk();
        let clauses: Vec<Node<'t>> = comp
            .named_children(&mut cursor)
            .filter(|c| matches!(c.kind_name(), "for_in_clause" | "if_clause"))
            .collect();
        let mut fors = clauses.iter().filter(|c| c.kind_name() == "for_in_clause");
        let (Some(for_clause), None) = (fors.next(), fors.next()) else {
            return None;
        };
        // Certain, or a configured default (then so are the items).
        let known = |why: &Why| !why.is_choice();
        let iterated = self.eval_depth(for_clause.field("right")?, scope, depth + 1);
        // A default beside run-time choices: the default's items.
        let configured = iterated.iter().any(|a| matches!(a.why, Why::Default(_)));
        let iterated_other_runs = configured && iterated.iter().any(|a| !known(&a.why));
        let iterated: Vec<Alt<'t>> = iterated
            .into_iter()
            .filter(|a| !configured || known(&a.why))
            .filter(|a| way.is_none_or(|w| merge_choices(w, &a.choices).is_some()))
            .collect();
        let (n, mut why) = match iterated.as_slice() {
            [Alt {
                val: Val::Seq(_, items),
                why,
                ..
            }] if known(why) && items.len() <= MAX_RANGE_LEN => (items.len(), why.clone()),
            // Over an enum class: its members.
            [Alt {
                val: Val::Class(class),
                why,
                ..
            }] if known(why) => (self.enum_members(*class, depth)?.len(), why.clone()),
            _ => return None,
        };
        let body = comp.field("body").filter(|b| b.kind_name() != "pair")?;
        let filters = self.comprehension_filters(comp, scope, depth);
        let bodies = self.eval_depth(body, scope, depth + 1);
        // A body or filter that run-time configuration with a default
        // decides (`CLASSES[os.environ.get("K", "a")]()`): the items of a
        // plain run, as for a configured sequence.
        let configured_by_default = |alts: &[Alt<'t>]| {
            alts.iter().any(|a| matches!(a.why, Why::Default(_)))
                && alts.iter().any(|a| !known(&a.why))
        };
        let other_runs = iterated_other_runs
            || configured_by_default(&bodies)
            || filters.iter().any(|f| configured_by_default(f));
        let point = comp.id();
        let index_of = |a: &Alt<'t>| a.choices.iter().find(|(p, _)| *p == point).map(|(_, i)| *i);
        // A function element's choices other than this loop's (the factory
        // call that made a closure, `f for f in (deploy,)`) stay with the
        // sequence: they tell which closure it is. (A data element's are
        // dropped, as a comprehension's items always were.)
        let for_element = |alts: &[Alt<'t>], i: usize| -> Option<(Val<'t>, Why, Vec<Choice>)> {
            let mine: Vec<&Alt<'t>> = alts
                .iter()
                .filter(|a| index_of(a).is_none_or(|j| j == i))
                .filter(|a| !other_runs || known(&a.why))
                .filter(|a| way.is_none_or(|w| merge_choices(w, &a.choices).is_some()))
                .collect();
            match mine.as_slice() {
                [one] if known(&one.why) && !one.val.is_unknown() => {
                    let function = matches!(
                        one.val,
                        Val::Function(_) | Val::Jitted(..) | Val::Partial { .. } | Val::Method(..)
                    );
                    let choices = one
                        .choices
                        .iter()
                        .filter(|(p, _)| function && *p != point)
                        .copied();
                    Some((one.val.clone(), one.why.clone(), choices.collect()))
                }
                _ => None,
            }
        };
        let mut items = Vec::new();
        let mut choices = Vec::new();
        for i in 0..n {
            let mut keep = true;
            for filter in &filters {
                let (decided, filter_why, filter_choices) = for_element(filter, i)?;
                keep &= decided.truthy()?;
                why = why.and(&filter_why);
                choices = merge_choices(&choices, &filter_choices)?;
            }
            if keep {
                let (item, item_why, item_choices) = for_element(&bodies, i)?;
                items.push(item);
                why = why.and(&item_why);
                choices = merge_choices(&choices, &item_choices)?;
            }
        }
        Some((items, why, other_runs, choices))
    }

    /// `f` of the call's positional arguments as ints (`None` when one is
    /// not a known int), one alternative per combination of their values.
    fn with_int_args(
        &self,
        args: &Args<'t>,
        scope: ScopeId,
        depth: u32,
        f: impl Fn(Option<&[i64]>) -> Val<'t>,
    ) -> Vec<Alt<'t>> {
        let parts: Vec<Vec<Alt<'t>>> = args
            .positional
            .iter()
            .map(|a| self.eval_depth(*a, scope, depth + 1))
            .collect();
        product(&parts, |vals| {
            let ints: Option<Vec<i64>> = vals.iter().map(Val::int).collect();
            f(ints.as_deref())
        })
    }

    /// An f-string: its text with each interpolation's value (a `str` or
    /// an `int`), one alternative per combination; `AnyStr` when a value
    /// is not known.
    fn eval_fstring(&self, node: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Alt<'t>> {
        use crate::syntax::FStringPart;
        let any = vec![Alt::fixed(Val::AnyStr)];
        let Some(parts) = crate::syntax::fstring_parts(node, self.m.src) else {
            return any;
        };
        let values: Vec<Vec<Alt<'t>>> = parts
            .iter()
            .map(|part| match part {
                FStringPart::Text(t) => vec![Alt::fixed(Val::Str(t.clone()))],
                FStringPart::Expr(e) => self.eval_depth(*e, scope, depth + 1),
            })
            .collect();
        product(&values, |vals| {
            let mut out = String::new();
            for v in vals {
                match v {
                    Val::Str(s) => out.push_str(&s),
                    Val::Int(i) => out.push_str(&i.to_string()),
                    _ => return Val::AnyStr,
                }
            }
            Val::Str(out)
        })
    }

    /// The items of a comprehension when they are certain (not through a
    /// configured default), with the choices they were made on:
    /// `expand_comprehension`.
    fn certain_comprehension(
        &self,
        comp: Node<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Option<(Vec<Val<'t>>, Vec<Choice>)> {
        self.expand_comprehension(comp, scope, depth)
            .filter(|(_, why, other_runs, _)| why.certain() && !other_runs)
            .map(|(items, _, _, choices)| (items, choices))
    }

    /// `alts` with each comprehension that can be expanded made the
    /// sequence of kind `kind` of its items, as certain as they are.
    fn expand_comprehensions(&self, alts: Vec<Alt<'t>>, kind: SeqKind, depth: u32) -> Vec<Alt<'t>> {
        let mut out = Vec::new();
        for a in alts {
            let Val::Comprehension(comp, cscope) = a.val else {
                out.push(a);
                continue;
            };
            let expanded: Vec<_> = match self.expand_comprehension(comp, cscope, depth) {
                Some(one) => vec![one],
                None => self.expand_comprehension_per_way(comp, cscope, depth),
            }
            .into_iter()
            .filter_map(|(items, why, other_runs, choices)| {
                let choices = merge_choices(&a.choices, &choices)?;
                Some((items, why, other_runs, choices))
            })
            .collect();
            if expanded.is_empty() {
                out.push(a);
                continue;
            }
            for (items, why, other_runs, choices) in expanded {
                if other_runs {
                    out.push(Alt {
                        why: Why::Choice,
                        ..a.clone()
                    });
                }
                out.push(Alt {
                    val: Val::Seq(kind, items),
                    why: a.why.and(&why),
                    choices,
                });
            }
        }
        out
    }

    /// `items()`, `values()` or `keys()` of the dict `dict`: the list of its
    /// entries when they are all known, one list per way the entries'
    /// alternatives combine; else `Unknown`.
    fn dict_view(&self, dict: Alt<'t>, method: &str, depth: u32) -> Vec<Alt<'t>> {
        let unknown = |a: Alt<'t>| {
            vec![Alt {
                val: Val::Unknown,
                ..a
            }]
        };
        let mut entries: Vec<(Vec<Alt<'t>>, Vec<Alt<'t>>)> = Vec::new();
        let mut stored_elsewhere: Vec<Alt<'t>> = Vec::new();
        match &dict.val {
            Val::Dict(node, dscope)
                if node.kind_name() == "dictionary" || node.kind_name() == "call" =>
            {
                if node.kind_name() == "call" {
                    // `dict(k=v, ...)`: its keywords, in order.
                    let args = self.m.args_of(*node);
                    let is_dict = node.field("function").is_some_and(|f| {
                        text(f, self.m.src) == "dict" && self.m.lookup(*dscope, "dict").is_none()
                    });
                    if !is_dict || args.keywords.len() > MAX_ALTS * 4 {
                        return unknown(dict);
                    }
                    // `dict(base, **more, k=v)`: its entries when their
                    // keys are known (values as module summaries keep them).
                    if args.has_splat || !args.positional.is_empty() {
                        match self.dict_entries(*node, *dscope, 0, depth + 1) {
                            Some(known) if known.len() <= MAX_ALTS * 4 => {
                                for (key, values) in known.iter() {
                                    entries
                                        .push((vec![Alt::fixed(key.val())], from_consts(values)));
                                }
                            }
                            _ => return unknown(dict),
                        }
                    } else {
                        for (name, v, _) in args.keywords {
                            entries.push((
                                vec![Alt::fixed(Val::Str(name.to_owned()))],
                                self.eval_depth(v, *dscope, depth + 1),
                            ));
                        }
                    }
                }
                let mut cursor = node.walk();
                for pair in node.named_children(&mut cursor) {
                    if node.kind_name() == "call" {
                        break;
                    }
                    match (pair.kind_name(), pair.field("key"), pair.field("value")) {
                        ("comment", _, _) => {}
                        ("pair", Some(k), Some(v)) if entries.len() < MAX_ALTS * 4 => {
                            entries.push((
                                self.eval_depth(k, *dscope, depth + 1),
                                self.eval_depth(v, *dscope, depth + 1),
                            ))
                        }
                        _ => return unknown(dict),
                    }
                }
                // `D = {}; D["serve"] = call` in the same block: entries too,
                // each key a constant (a later store replaces its entry).
                let Some(stores) = self.dict_stores(*node, depth) else {
                    return unknown(dict);
                };
                for (key, value, store_scope) in stores.iter() {
                    let straight =
                        *store_scope == *dscope && self.m.is_straight_line(*value, *dscope, *node);
                    let key_alts = self.eval_key(*key, *store_scope, depth + 1);
                    // Stored by another function (`def add(name, fn):
                    // REG[name] = fn`): an entry for each call of it, in no
                    // known order, as an element pushed onto a list
                    // elsewhere is (`grown_list`).
                    if *store_scope != *dscope && stored_elsewhere.len() < MAX_ALTS * 2 {
                        let runs = self.m.store_runs(*value, *store_scope, *node);
                        if runs == super::StoreRuns::Never {
                            continue;
                        }
                        let why = match runs {
                            super::StoreRuns::Certainly => {
                                Why::Each(format!("stored at line {}", line_of(*value)))
                            }
                            _ => Why::Choice,
                        };
                        let value_alts = self.eval_depth(*value, *store_scope, depth + 1);
                        let view = match method {
                            "keys" => key_alts,
                            "values" => value_alts,
                            _ => {
                                product(&[key_alts, value_alts], |kv| Val::Seq(SeqKind::Tuple, kv))
                            }
                        };
                        // Which call of the storing function made an entry
                        // is no choice of the reader's path.
                        stored_elsewhere.extend(view.into_iter().map(|a| Alt {
                            why: a.why.and(&why),
                            choices: Vec::new(),
                            val: a.val,
                        }));
                        continue;
                    }
                    let constant = match key_alts.as_slice() {
                        [k] if k.why.certain() => {
                            matches!(k.val, Val::Str(_) | Val::Int(_) | Val::Bool(_))
                        }
                        _ => false,
                    };
                    if !straight || !constant || entries.len() >= MAX_ALTS * 4 {
                        return unknown(dict);
                    }
                    let same_key = |alts: &[Alt<'t>]| match (alts, key_alts.as_slice()) {
                        ([a], [b]) => a.val.same_constant(&b.val),
                        _ => false,
                    };
                    entries.retain(|(k, _)| !same_key(k));
                    entries.push((key_alts, self.eval_depth(*value, *store_scope, depth + 1)));
                }
            }
            Val::Entries(known) if known.len() <= MAX_ALTS * 4 => {
                for (key, values) in known.iter() {
                    entries.push((vec![Alt::fixed(key.val())], from_consts(values)));
                }
            }
            // `**kwargs`: the keywords of the call no named parameter takes,
            // in the call's order (a `**` unpacked into the call: not known).
            Val::KwArgs {
                call,
                call_scope,
                def,
            } => {
                let args = self.m.args_of(*call);
                if args.has_dict_splat || args.keywords.len() > MAX_ALTS * 4 {
                    return unknown(dict);
                }
                let params = self.m.scopes[*def].params();
                for (name, value, _) in &args.keywords {
                    if params.iter().any(|(p, _)| p == name) {
                        continue;
                    }
                    entries.push((
                        vec![Alt::fixed(Val::Str(name.to_owned()))],
                        self.eval_depth(*value, *call_scope, depth + 1),
                    ));
                }
            }
            _ => return unknown(dict),
        }
        let items: Vec<Vec<Alt<'t>>> = entries
            .into_iter()
            .map(|(key, value)| match method {
                "keys" => key,
                "values" => value,
                _ => product(&[key, value], |kv| Val::Seq(SeqKind::Tuple, kv)),
            })
            .collect();
        if !stored_elsewhere.is_empty() {
            // The literal's own entries may be replaced by a store of the
            // same key: each is one that may be there.
            let mut members: Vec<Alt<'t>> = items
                .into_iter()
                .flatten()
                .map(|a| Alt {
                    why: Why::Choice,
                    ..a
                })
                .collect();
            members.extend(stored_elsewhere);
            if members.len() > MAX_ALTS * 2 {
                return unknown(dict);
            }
            return vec![Alt::fixed(Val::Members(SeqKind::List, Arc::new(members)))]
                .into_iter()
                .filter_map(|a| a.under(&dict.why, &dict.choices))
                .collect();
        }
        product(&items, |vals| {
            if vals.iter().any(Val::is_unknown) {
                Val::Unknown
            } else {
                Val::Seq(SeqKind::List, vals)
            }
        })
        .into_iter()
        .filter_map(|a| a.under(&dict.why, &dict.choices))
        .collect()
    }

    /// The values of a dict literal's entries (or `dict(k=v)`'s keywords).
    fn dict_values(&self, dict: Node<'t>, scope: ScopeId) -> Vec<Alt<'t>> {
        let m = self.m;
        let mut out = Vec::new();
        if dict.kind_name() == "call" {
            for (_, v, _) in m.args_of(dict).keywords {
                out.extend(self.eval(v, scope));
            }
            return out;
        }
        let mut cursor = dict.walk();
        for pair in dict.named_children(&mut cursor) {
            if let Some(v) = pair.field("value") {
                out.extend(self.eval(v, scope));
            }
        }
        // A store that may be into it counts: any of its values may be read.
        let stores = self.dict_stores(dict, 0).unwrap_or_else(|| {
            let mut all = (*m.dict_stores(dict)).clone();
            all.extend(
                m.attribute_dict_stores(dict)
                    .iter()
                    .map(|store| (store.key, store.value, store.scope)),
            );
            std::rc::Rc::new(all)
        });
        for (_, v, store_scope) in stores.iter() {
            out.extend(self.eval(*v, *store_scope));
        }
        out
    }

    /// A dict literal's (or `dict(...)`'s) entries, when every key is one
    /// constant, and so is every key of what it unpacks with `**` (at most
    /// 64 entries). `depth` is the nesting for `detach`, `at` the
    /// evaluation depth.
    fn dict_entries(&self, dict: Node<'t>, scope: ScopeId, depth: u32, at: u32) -> Option<Entries> {
        if too_deep(at) {
            return None;
        }
        let stores = self.dict_stores(dict, at)?;
        let mut out = self.display_entries(dict, scope, depth, at)?;
        // `D[k] = v` after it is made (`raw = {...}; raw["k"] = v; return
        // raw`), in order: only statements of the scope that made it that
        // certainly run, each of one constant key (else it cannot be told).
        for (k, v, store_scope) in stores.iter() {
            if *store_scope != scope {
                return None;
            }
            match self.m.store_runs(*v, *store_scope, dict) {
                StoreRuns::Never => continue,
                StoreRuns::Maybe => return None,
                StoreRuns::Certainly => {}
            }
            let key = match self.eval_key(*k, scope, at + 1).as_slice() {
                [Alt { val, .. }] if matches!(val, Val::Str(_) | Val::Int(_) | Val::Bool(_)) => {
                    val.detached()
                }
                _ => return None,
            };
            // In a loop: what its last pass stores stays.
            let alts =
                self.after_passes(self.value_read_at(*v, scope, None, at), *v, scope, None)?;
            put_entry(&mut out, key, self.detach(&alts, depth + 1));
        }
        (out.len() <= 64).then_some(out)
    }

    /// The entries of a dict comprehension over known elements (`{name:
    /// spec(s) for name, s in SHAPES.items()}`): each element's key, which
    /// must be a constant, with the values of the elements its `if`
    /// clauses keep. `None` when an element cannot be told.
    fn comprehension_entries(&self, comp: Node<'t>, scope: ScopeId, depth: u32) -> Option<Entries> {
        let pair = comp.field("body").filter(|b| b.kind_name() == "pair")?;
        let (k, v) = (pair.field("key")?, pair.field("value")?);
        let parts = [self.eval_depth(k, scope, 1), self.eval_depth(v, scope, 1)];
        let all = pairs(&parts);
        if all.len() > 64 {
            return None;
        }
        let mut keys: Vec<Val<'t>> = Vec::new();
        for (key, _, why, _) in &all {
            if !why.certain() || !matches!(key, Val::Str(_) | Val::Int(_) | Val::Bool(_)) {
                return None;
            }
            if !keys.iter().any(|k| k.same(key)) {
                keys.push(key.clone());
            }
        }
        let mut out: Entries = Vec::new();
        for key in keys {
            let values: Vec<Alt<'t>> = all
                .iter()
                .filter(|(k, ..)| k.same(&key))
                .map(|(_, val, why, choices)| Alt {
                    val: val.clone(),
                    why: why.clone(),
                    choices: choices.clone(),
                })
                .collect();
            let kept = self.kept_by_filters(pair, scope, values, 1)?;
            if !kept.is_empty() {
                put_entry(&mut out, key.detached(), self.detach(&kept, depth + 1));
            }
        }
        Some(out)
    }

    /// The entries a dict display or `dict(...)` call is made with.
    fn display_entries(
        &self,
        dict: Node<'t>,
        scope: ScopeId,
        depth: u32,
        at: u32,
    ) -> Option<Entries> {
        let m = self.m;
        let mut out: Entries = Vec::new();
        let put = put_entry;
        if dict.kind_name() == "call" {
            let args = m.args_of(dict);
            if args.has_list_splat || args.positional.len() > 1 {
                return None;
            }
            if let Some(base) = args.positional.first() {
                out = self.splat_entries(*base, scope, depth, at)?;
            }
            for splat in dict_splats(dict) {
                for (k, v) in self.splat_entries(splat, scope, depth, at)? {
                    put(&mut out, k, v);
                }
            }
            for (name, value, _) in args.keywords.iter().take(64) {
                let alts = self.eval_depth(*value, scope, at + 1);
                put(
                    &mut out,
                    Const::Str(name.clone()),
                    self.detach(&alts, depth + 1),
                );
            }
            return (out.len() <= 64).then_some(out);
        }
        let mut cursor = dict.walk();
        for pair in dict.named_children(&mut cursor) {
            match pair.kind_name() {
                "pair" => {}
                "comment" => continue,
                "dictionary_splat" => {
                    for (k, v) in
                        self.splat_entries(unparenthesize(pair.named_child(0)?), scope, depth, at)?
                    {
                        put(&mut out, k, v);
                    }
                    continue;
                }
                _ => return None,
            }
            if out.len() >= 64 {
                return None;
            }
            let (k, v) = (pair.field("key")?, pair.field("value")?);
            let key = match self.eval_depth(k, scope, at + 1).as_slice() {
                [Alt { val, .. }] if matches!(val, Val::Str(_) | Val::Int(_) | Val::Bool(_)) => {
                    val.detached()
                }
                _ => return None,
            };
            let alts = self.eval_depth(v, scope, at + 1);
            put(&mut out, key, self.detach(&alts, depth + 1));
        }
        (out.len() <= 64).then_some(out)
    }

    /// The entries of what `expr` unpacks with `**`, when it is one dict
    /// whose keys are all known.
    fn splat_entries(
        &self,
        expr: Node<'t>,
        scope: ScopeId,
        depth: u32,
        at: u32,
    ) -> Option<Entries> {
        if too_deep(at) {
            return None;
        }
        let [alt] = self.eval_as_dicts(expr, scope, at).try_into().ok()?;
        match alt.val {
            Val::Entries(e) => Some(e.as_ref().clone()),
            Val::Dict(node, s) => self.dict_entries(node, s, depth, at + 1),
            Val::KwArgs {
                call,
                call_scope,
                def,
            } => {
                let m = self.m;
                let params = m.scopes[def].params();
                let args = m.args_of(call);
                let mut out: Entries = Vec::new();
                for splat in dict_splats(call) {
                    out.extend(self.splat_entries(splat, call_scope, depth, at + 1)?);
                }
                for (name, value, _) in args.keywords.iter().take(64) {
                    let alts = self.eval_depth(*value, call_scope, at + 1);
                    out.push((Const::Str(name.clone()), self.detach(&alts, depth + 1)));
                }
                out.retain(
                    |(k, _)| !matches!(k, Const::Str(n) if params.iter().any(|(p, _)| p == n)),
                );
                Some(out)
            }
            _ => None,
        }
    }

    /// Values of module-level names for a module summary: no syntax nodes;
    /// an instance becomes an object of its attributes' values.
    pub fn detach(&self, alts: &[Alt<'t>], depth: u32) -> Vec<ConstAlt> {
        // Inside an argument of another module's call (`foreign_args_in`):
        // nested values only of its way, and their choices noted.
        let way = self.detach_way.borrow().clone();
        if depth > 0 {
            if let Some(nested) = self.detach_nested.borrow_mut().as_mut() {
                for a in alts {
                    if !a.choices.is_empty() && is_data(&a.val) && !nested.contains(&a.choices) {
                        nested.push(a.choices.clone());
                    }
                }
            }
        }
        alts.iter()
            .filter(|a| {
                way.as_ref()
                    .is_none_or(|way| depth == 0 || compatible(&a.choices, way))
            })
            .map(|a| {
                // What a container holds is read under its own choices (the
                // dict a factory's call at line 9 made holds that call's
                // arguments only).
                let inner_way = match (&way, a.choices.is_empty()) {
                    (_, true) => None,
                    (None, false) => Some(a.choices.clone()),
                    (Some(way), false) => merge_choices(way, &a.choices),
                };
                let val = match inner_way {
                    Some(inner) => {
                        let outer = self.detach_way.replace(Some(inner));
                        let val = self.detach_one(a, depth);
                        self.detach_way.replace(outer);
                        val
                    }
                    None => self.detach_one(a, depth),
                };
                ConstAlt {
                    val,
                    why: a.why.clone(),
                }
            })
            .collect()
    }

    /// One alternative of `detach`. Containers are detached item by item,
    /// so what a function returns in a tuple, a list or an object's field
    /// crosses as it would alone.
    fn detach_one(&self, a: &Alt<'t>, depth: u32) -> Const {
        if let Some(every_function) = self.detach_tokens.get() {
            if let Some(token) = self.token_of(a, every_function) {
                return token;
            }
        }
        match &a.val {
            Val::Instance(class, ctor) if depth < 2 => {
                let mut fields = Vec::new();
                let mut names = self.m.attribute_names(*class);
                // Stored where it was made (`config.model = ...` in
                // `get_config()`): fields too, for the importer.
                if let Some((call, _)) = ctor {
                    names.extend(self.m.stored_after_construction_names(*call));
                    for (inherited, _, _) in self
                        .foreign_init_objects(*class, *ctor, depth)
                        .unwrap_or_default()
                    {
                        names.extend(inherited.into_iter().map(|(n, _)| n));
                    }
                    names.sort();
                    names.dedup();
                }
                for attr in names {
                    // (Under the object's choices: made by a method's call,
                    // `self` there is that call's receiver.)
                    let alts =
                        self.reading_under(&a.choices, || self.field(*class, *ctor, &attr, 0));
                    if alts.iter().all(|a| a.val.is_unknown()) {
                        continue;
                    }
                    fields.push((attr, self.detach(&alts, depth + 1)));
                }
                // The class rides along, so the importer finds its
                // methods (`DEFAULT = Meter()`, then `DEFAULT.update(x)`).
                if let Some(name) = self.m.module_def_name(*class) {
                    if !fields.iter().any(|(n, _)| n == "__class__") {
                        fields.push(class_field(name));
                    }
                }
                Const::Object(Arc::new(fields))
            }
            Val::Dict(dict, scope) if depth < 2 => self
                .dict_entries(*dict, *scope, depth, 0)
                .map(|e| Const::Entries(Arc::new(e)))
                .unwrap_or(Const::Dict),
            Val::Comprehension(comp, scope)
                if depth < 2 && comp.kind_name() == "dictionary_comprehension" =>
            {
                self.comprehension_entries(*comp, *scope, depth)
                    .map(|e| Const::Entries(Arc::new(e)))
                    .unwrap_or(Const::Dict)
            }
            // A module-level def, by the name it is bound to.
            Val::Function(def) | Val::Jitted(def, ..) | Val::Class(def) => self
                .m
                .module_def_name(*def)
                .map(|name| Const::Ref(name.to_owned()))
                .unwrap_or(Const::Unknown),
            Val::Seq(kind, items)
                if depth < MAX_DETACH_DEPTH && items.len() <= MAX_DETACHED_ITEMS =>
            {
                let items = items
                    .iter()
                    .map(|item| {
                        let item = Alt {
                            val: item.clone(),
                            ..a.clone()
                        };
                        self.detach_one(&item, depth + 1)
                    })
                    .collect();
                Const::Seq(*kind, items)
            }
            Val::Members(kind, members)
                if depth < MAX_DETACH_DEPTH && members.len() <= MAX_DETACHED_ITEMS =>
            {
                Const::Members(*kind, self.detach(members, depth + 1))
            }
            // A parser (or what it parsed) made here: by this file, where
            // the importer reads its arguments.
            // (A summary's model has no file: `""` is the summary's own,
            // filled in by `ModuleSummary::build`.)
            Val::ArgParser(None) | Val::ArgNamespace(None) => {
                let file = self
                    .m
                    .file
                    .borrow()
                    .as_ref()
                    .map(|f| f.to_string_lossy().into_owned())
                    .unwrap_or_default();
                match a.val {
                    Val::ArgParser(_) => Const::ArgParser(file),
                    _ => Const::ArgNamespace(file),
                }
            }
            v => v.detached(),
        }
    }
}

/// The identifiers in `node`'s text (attribute names too), each once.
/// Whether `reader` reads a name that `names` holds.
fn reads_a_name_of(reader: Node<'_>, names: Node<'_>, src: &str) -> bool {
    let read = identifier_texts(reader, src);
    identifier_texts(names, src)
        .iter()
        .any(|name| read.contains(name))
}

fn identifier_texts<'s>(node: Node<'_>, src: &'s str) -> Vec<&'s str> {
    let mut out: Vec<&str> = Vec::new();
    let mut cursor = node.walk();
    let mut descend = true;
    loop {
        let n = cursor.node();
        if descend && n.kind() == "identifier" {
            let t = text(n, src);
            if !out.contains(&t) {
                out.push(t);
            }
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        if cursor.goto_next_sibling() {
            descend = true;
            continue;
        }
        if !cursor.goto_parent() || cursor.node().id() == node.id() {
            break;
        }
        descend = false;
    }
    out
}

/// The name in `obj.name` or in a keyword argument `f(name=...)`: not a
/// mention of a variable of that name.
/// Up to this many bytes of statements, `mentioned_more_than` searches
/// for a name instead of counting every word once.
const SMALL_MODEL_BYTES: usize = 16 * 1024;

/// How many times `name` is a whole word of `texts`, words being the runs
/// of `_` and alphanumeric characters (as `mentioned_more_than` splits them).
fn word_count<'s>(texts: impl IntoIterator<Item = &'s str>, name: &str) -> usize {
    texts
        .into_iter()
        .map(|text| whole_words(text, name).count())
        .sum()
}

/// Where `name` is a whole word of `text` (byte offsets); nothing when
/// `name` is not a word.
pub(crate) fn whole_words<'a>(text: &'a str, name: &'a str) -> impl Iterator<Item = usize> + 'a {
    let is_word = |c: char| c == '_' || c.is_alphanumeric();
    let valid = !name.is_empty() && name.chars().all(is_word);
    // A match starts and ends on character boundaries (`name` is UTF-8).
    memchr::memmem::find_iter(text.as_bytes(), name.as_bytes())
        .filter(move |_| valid)
        .filter(move |&at| {
            let before = text.get(..at).and_then(|t| t.chars().next_back());
            let after = text.get(at + name.len()..).and_then(|t| t.chars().next());
            !before.is_some_and(is_word) && !after.is_some_and(is_word)
        })
}

/// The name of a `def` in a class body: a method, never a mention of a
/// module-level name (`def register(self, fn)` beside a `register` function).
fn is_method_name(node: Node<'_>) -> bool {
    let Some(def) = node
        .parent()
        .filter(|p| p.kind_name() == "function_definition")
        .filter(|p| p.field("name").is_some_and(|n| n.id() == node.id()))
    else {
        return false;
    };
    // (Decorated: the def sits in a `decorated_definition` in the block.)
    let mut holder = def.parent();
    if holder.is_some_and(|h| h.kind_name() == "decorated_definition") {
        holder = holder.and_then(|h| h.parent());
    }
    holder
        .filter(|b| b.kind_name() == "block")
        .and_then(|b| b.parent())
        .is_some_and(|c| c.kind_name() == "class_definition")
}

fn is_member_name(node: Node<'_>) -> bool {
    let Some(parent) = node.parent() else {
        return false;
    };
    let field = match parent.kind_name() {
        "attribute" => "attribute",
        "keyword_argument" => "name",
        _ => return false,
    };
    parent.field(field).is_some_and(|n| n.id() == node.id())
}

/// What `ast.literal_eval(text)` gives, for the literals that matter
/// (strings, ints, bools, `None`, tuples, lists, dicts of constant keys);
/// `None` for anything else (floats, sets, bytes, expressions).
fn python_literal(source: &str) -> Option<Const> {
    if source.len() > 4096 {
        return None;
    }
    let tree = crate::syntax::parse(source, None)?;
    let root = tree.root_node();
    if root.has_error() || root.named_child_count() != 1 {
        return None;
    }
    let statement = root.named_child(0)?;
    if statement.kind() != "expression_statement" || statement.named_child_count() != 1 {
        return None;
    }
    fn parts<'a>(n: Node<'a>) -> Vec<Node<'a>> {
        let mut cursor = n.walk();
        n.named_children(&mut cursor)
            .filter(|c| c.kind() != "comment")
            .collect()
    }
    fn literal(node: Node<'_>, src: &str, depth: u32) -> Option<Const> {
        if depth > 8 {
            return None;
        }
        let node = unparenthesize(node);
        let fixed = |val: Const| ConstAlt {
            val,
            why: Why::Fixed,
        };
        Some(match node.kind() {
            "string" => Const::Str(string_value(node, src)?),
            "integer" => Const::Int(text(node, src).replace('_', "").parse().ok()?),
            "true" => Const::Bool(true),
            "false" => Const::Bool(false),
            "none" => Const::None,
            "unary_operator" if text(node, src).starts_with('-') => {
                match literal(node.field("argument")?, src, depth + 1)? {
                    Const::Int(i) => Const::Int(i.checked_neg()?),
                    _ => return None,
                }
            }
            "tuple" | "list" => Const::Seq(
                if node.kind() == "tuple" {
                    SeqKind::Tuple
                } else {
                    SeqKind::List
                },
                parts(node)
                    .into_iter()
                    .map(|item| literal(item, src, depth + 1))
                    .collect::<Option<Vec<_>>>()?,
            ),
            "dictionary" => {
                let mut entries: Entries = Vec::new();
                for pair in parts(node) {
                    if pair.kind() != "pair" {
                        return None;
                    }
                    let key = literal(pair.field("key")?, src, depth + 1)?;
                    let value = literal(pair.field("value")?, src, depth + 1)?;
                    entries.retain(|(k, _)| !k.val().same(&key.val()));
                    entries.push((key, vec![fixed(value)]));
                }
                Const::Entries(Arc::new(entries))
            }
            _ => return None,
        })
    }
    literal(statement.named_child(0)?, source, 0)
}

/// A JSON value as a constant (floats and deep nesting not kept).
fn json_const(value: &serde_json::Value, depth: u32) -> Const {
    use serde_json::Value as J;
    if depth > 8 {
        return Const::Unknown;
    }
    let fixed = |val: Const| {
        vec![ConstAlt {
            val,
            why: Why::Fixed,
        }]
    };
    match value {
        J::Null => Const::None,
        J::Bool(b) => Const::Bool(*b),
        J::Number(n) => n.as_i64().map_or(Const::Unknown, Const::Int),
        J::String(s) => Const::Str(s.clone()),
        J::Array(items) if items.len() <= 64 => Const::Seq(
            SeqKind::List,
            items.iter().map(|i| json_const(i, depth + 1)).collect(),
        ),
        J::Object(entries) if entries.len() <= 64 => Const::Entries(Arc::new(
            entries
                .iter()
                .map(|(k, v)| (Const::Str(k.clone()), fixed(json_const(v, depth + 1))))
                .collect(),
        )),
        _ => Const::Unknown,
    }
}

/// Applies `f` to each alternative's value.
/// How a value of each element of `loop_node` is named in messages (and
/// recognised again: `last_iteration`, `grown_list`).
fn loop_note(loop_node: Node<'_>) -> String {
    format!("in the loop at line {}", line_of(loop_node))
}

/// What a name bound in the body of `loop_node` holds after the loop: the
/// alternatives of its last element (and those not made by the loop).
fn last_iteration<'t>(alts: Vec<Alt<'t>>, loop_node: Node<'t>) -> Vec<Alt<'t>> {
    let id = loop_node.id();
    let element = |a: &Alt<'t>| a.choices.iter().find(|(p, _)| *p == id).map(|(_, i)| *i);
    let Some(last) = alts.iter().filter_map(element).max() else {
        return alts;
    };
    let note = loop_note(loop_node);
    alts.into_iter()
        .filter(|a| element(a).is_none_or(|i| i == last))
        .map(|mut a| {
            a.choices.retain(|(p, _)| *p != id);
            if matches!(&a.why, Why::Each(n) if *n == note) {
                a.why = Why::Fixed;
            }
            a
        })
        .collect()
}

/// The values a store of `values` under the keys `matching` (the
/// alternatives of its key that are the key read) gives: each value as
/// the key it is stored under was made (its choices, its certainty).
fn under_keys<'t>(matching: &[&Alt<'t>], values: &[Alt<'t>]) -> Vec<Alt<'t>> {
    matching
        .iter()
        .flat_map(|k| {
            values
                .iter()
                .cloned()
                .filter_map(|value| value.under(&k.why, &k.choices))
        })
        .collect()
}

/// What a store made on each pass of `loop_node` leaves after it: the last
/// pass's alternatives (`last_iteration`); one that is each element's but
/// keeps no element choice cannot be told from the others, so it is only a
/// run-time choice.
fn last_pass<'t>(alts: Vec<Alt<'t>>, loop_node: Node<'t>) -> Vec<Alt<'t>> {
    let note = loop_note(loop_node);
    last_iteration(alts, loop_node)
        .into_iter()
        .map(|mut a| {
            if matches!(&a.why, Why::Each(n) if *n == note) {
                a.why = Why::Choice;
            }
            a
        })
        .collect()
}

/// True if a `break` may leave the loop `loop_node` (one of its own, not of
/// a loop nested in it).
fn has_break(loop_node: Node<'_>) -> bool {
    has_jump(loop_node, &["break_statement"])
}

/// Whether the body of `loop_node` holds one of `jumps` (`break`,
/// `continue`) of this loop, not of a loop or def nested in it.
pub(crate) fn has_jump(loop_node: Node<'_>, jumps: &[&str]) -> bool {
    loop_node
        .field("body")
        .is_some_and(|body| block_has_jump(body, jumps))
}

/// Whether `block` holds one of `jumps` that leaves a loop around it (not
/// one of a loop or def nested in it).
pub(crate) fn block_has_jump(block: Node<'_>, jumps: &[&str]) -> bool {
    fn walk(node: Node<'_>, jumps: &[&str]) -> bool {
        let mut cursor = node.walk();
        let found = node
            .named_children(&mut cursor)
            .any(|child| match child.kind_name() {
                kind if jumps.contains(&kind) => true,
                "for_statement"
                | "while_statement"
                | "function_definition"
                | "class_definition" => {
                    // A nested loop's `break` leaves that loop; its `else` is ours.
                    child
                        .field("alternative")
                        .is_some_and(|alt| walk(alt, jumps))
                }
                _ => walk(child, jumps),
            });
        found
    }
    walk(block, jumps)
}

fn map<'t>(alts: Vec<Alt<'t>>, f: impl Fn(&Val<'t>) -> Val<'t>) -> Vec<Alt<'t>> {
    cap(alts
        .into_iter()
        .map(|a| Alt {
            val: f(&a.val),
            why: a.why,
            choices: a.choices,
        })
        .collect())
}

/// A Python float literal's value (`2.5e-4`, `1_000.0`, `1.`); `None` for
/// an imaginary one (`1j`).
fn python_float(literal: &str) -> Option<f64> {
    let digits = literal.replace('_', "");
    let value: f64 = digits.parse().ok()?;
    value.is_finite().then_some(value)
}

/// `a op b` of floats as Python computes it (`//` and `%` floor); `None`
/// where Python raises (division by zero) or the result is not finite.
fn python_float_op(op: &str, a: f64, b: f64) -> Option<f64> {
    let value = match op {
        "+" => a + b,
        "-" => a - b,
        "*" => a * b,
        "/" if b != 0.0 => a / b,
        "//" if b != 0.0 => (a / b).floor(),
        "%" if b != 0.0 => a - b * (a / b).floor(),
        // (A negative base to a fractional power is complex in Python.)
        "**" if a >= 0.0 || b.fract() == 0.0 => a.powf(b),
        _ => return None,
    };
    value.is_finite().then_some(value)
}

/// `a op b` of Python ints (`+ - * // % **`, floor division and a modulo
/// with the divisor's sign); `None` on overflow, a zero divisor, a
/// negative power (a float) or another operator.
fn python_int_op(op: &str, a: i64, b: i64) -> Option<i64> {
    let floor_div = || {
        let q = a.checked_div(b)?;
        // Rust truncates toward zero; Python floors.
        Some(if (a % b != 0) && ((a < 0) != (b < 0)) {
            q - 1
        } else {
            q
        })
    };
    match op {
        "+" => a.checked_add(b),
        "-" => a.checked_sub(b),
        "*" => a.checked_mul(b),
        "//" => floor_div(),
        "%" => a.checked_sub(b.checked_mul(floor_div()?)?),
        "**" => a.checked_pow(u32::try_from(b).ok()?),
        _ => None,
    }
}

/// Every consistent combination of one alternative per part.
/// The longest `range(...)` spelled out as its ints.
const MAX_RANGE_LEN: usize = 64;

fn product<'t>(parts: &[Vec<Alt<'t>>], f: impl Fn(Vec<Val<'t>>) -> Val<'t>) -> Vec<Alt<'t>> {
    let mut acc: Vec<(Vec<Val<'t>>, Why, Vec<Choice>)> = vec![(Vec::new(), Why::Fixed, Vec::new())];
    for part in parts {
        let mut next = Vec::new();
        for (vals, why, choices) in &acc {
            for alt in part {
                let Some(merged) = merge_choices(choices, &alt.choices) else {
                    continue;
                };
                let mut vals = vals.clone();
                vals.push(alt.val.clone());
                next.push((vals, why.and(&alt.why), merged));
                if next.len() > MAX_ALTS * 4 {
                    return vec![Alt::unknown()];
                }
            }
        }
        acc = next;
    }
    cap(acc
        .into_iter()
        .map(|(vals, why, choices)| Alt {
            val: f(vals),
            why,
            choices,
        })
        .collect())
}

/// The consistent pairs of two parts, with the combined why and choices.
fn pairs<'t>(parts: &[Vec<Alt<'t>>]) -> Vec<(Val<'t>, Val<'t>, Why, Vec<Choice>)> {
    let mut out = Vec::new();
    for a in &parts[0] {
        for b in &parts[1] {
            if let Some(choices) = merge_choices(&a.choices, &b.choices) {
                out.push((a.val.clone(), b.val.clone(), a.why.and(&b.why), choices));
            }
        }
    }
    out
}

/// Questions about the module that value flow asks.
impl<'t> Module<'t> {
    /// The bindings of `name` in `scope` itself.
    /// The method calls of `scope` (`obj.method(...)`), by the receiver's
    /// text (`obj`), with the method's name. Asked for every attribute read
    /// (`last_method_store_in`): a scan of the scope's calls each time
    /// costs a config module of thousands of calls the square of that.
    pub(crate) fn method_calls_in(&self, scope: ScopeId) -> std::rc::Rc<MethodCalls<'t>> {
        if let Some(known) = self.method_calls.borrow().get(&scope) {
            return known.clone();
        }
        let mut out: MethodCalls<'t> = MethodCalls::new();
        for &i in &self.scopes[scope].calls {
            let call = self.calls[i].node;
            let Some(function) = call
                .field("function")
                .filter(|f| f.kind_name() == "attribute")
            else {
                continue;
            };
            let (Some(object), Some(method)) =
                (function.field("object"), function.field("attribute"))
            else {
                continue;
            };
            out.entry(text(object, self.src))
                .or_default()
                .push((call, text(method, self.src)));
        }
        let out = std::rc::Rc::new(out);
        self.method_calls.borrow_mut().insert(scope, out.clone());
        out
    }

    pub(crate) fn bindings_in(&self, scope: ScopeId, name: &str) -> Option<&[Binding<'t>]> {
        self.bindings
            .get(&(scope, name.to_owned()))
            .map(Vec::as_slice)
    }

    pub(crate) fn is_static_method(&self, def: ScopeId) -> bool {
        self.scopes[def]
            .decorators()
            .iter()
            .any(|d| text(*d, self.src).ends_with("staticmethod"))
    }

    pub(crate) fn is_class_method(&self, def: ScopeId) -> bool {
        self.scopes[def]
            .decorators()
            .iter()
            .any(|d| text(*d, self.src).ends_with("classmethod"))
    }

    fn is_generator(&self, def: ScopeId) -> bool {
        text(self.scopes[def].node, self.src).contains("yield")
    }

    /// The values a generator yields, when every `yield` is a statement of
    /// its body's own block (none in a branch or loop, none bare, no
    /// `yield from`), at most a few: what iterating it gives, in order.
    fn straight_yields(&self, def: ScopeId) -> Option<Vec<Node<'t>>> {
        let node = self.scopes[def].node;
        let body = node.field("body")?;
        let yields = self.yields_of(node);
        if yields.is_empty() || yields.len() > MAX_ALTS {
            return None;
        }
        yields
            .iter()
            .map(|y| {
                let statement = self
                    .parent_of(*y)
                    .filter(|p| p.kind_name() == "expression_statement")?;
                let in_body = self
                    .parent_of(statement)
                    .is_some_and(|b| b.id() == body.id());
                (in_body && !self.is_yield_from(*y))
                    .then(|| y.named_child(0))
                    .flatten()
            })
            .collect()
    }

    /// Whether `y` is a `yield from` (it yields another iterable's items).
    fn is_yield_from(&self, y: Node<'t>) -> bool {
        text(y, self.src)
            .trim_start_matches("yield")
            .trim_start()
            .starts_with("from ")
    }

    /// A generator's one `yield` when it is a plain statement of a `for`
    /// loop's body, the loop a plain statement of the def's body and its
    /// body free of branches and jumps (every element yields once): the
    /// loop and the yielded expression.
    pub(crate) fn loop_yield(&self, def: ScopeId) -> Option<(Node<'t>, Node<'t>)> {
        let node = self.scopes[def].node;
        let body = node.field("body")?;
        let [y] = self.yields_of(node)[..] else {
            return None;
        };
        let statement = self
            .parent_of(y)
            .filter(|p| p.kind_name() == "expression_statement")?;
        let block = self
            .parent_of(statement)
            .filter(|b| b.kind_name() == "block")?;
        let for_loop = self.parent_of(block).filter(|f| {
            f.kind_name() == "for_statement"
                && f.field("body").is_some_and(|b| b.id() == block.id())
        })?;
        if self.parent_of(for_loop).map(|b| b.id()) != Some(body.id())
            || for_loop.field("alternative").is_some()
            || self.is_yield_from(y)
        {
            return None;
        }
        let mut stack = vec![block];
        while let Some(n) = stack.pop() {
            if matches!(
                n.kind_name(),
                "if_statement"
                    | "while_statement"
                    | "for_statement"
                    | "try_statement"
                    | "with_statement"
                    | "match_statement"
                    | "break_statement"
                    | "continue_statement"
                    | "return_statement"
                    | "conditional_expression"
                    | "boolean_operator"
            ) {
                return None;
            }
            let mut cursor = n.walk();
            stack.extend(n.named_children(&mut cursor));
        }
        Some((for_loop, y.named_child(0)?))
    }

    /// The argument position a caller fills for parameter `index` of `def`,
    /// `None` for keyword-only parameters. `bound_self`: the call passes the
    /// first parameter implicitly (`obj.m(...)`, `Class(...)`).
    pub(crate) fn param_position(
        &self,
        def: ScopeId,
        index: usize,
        bound_self: bool,
    ) -> Option<usize> {
        let params = self.scopes[def].params();
        let before = &params[..index.min(params.len())];
        if before.iter().any(|(p, _)| p == "*") {
            return None;
        }
        let real = before.iter().filter(|(p, _)| p != "*" && p != "/").count();
        if bound_self {
            real.checked_sub(1)
        } else {
            Some(real)
        }
    }

    /// Every call of the function `def` that can see it, with what it
    /// passes for parameter `index` / `name`. Calls through a
    /// `functools.partial(f, ...)` or a `jax.jit(f)` wrapper count, with the
    /// arguments they bind; any other use of the function as a value (stored,
    /// passed on) has callers we cannot see, and gives an `Unknown` source.
    /// `None` when the calls are not all visible at all (methods through
    /// `*args`).
    /// The function whose `**name` parameter `splat` (a name) is.
    pub(crate) fn kwargs_parameter_of(&self, splat: Node<'t>, scope: ScopeId) -> Option<ScopeId> {
        if splat.kind_name() != "identifier" {
            return None;
        }
        let name = text(splat, self.src);
        let mut current = Some(scope);
        while let Some(id) = current {
            let def = &self.scopes[id];
            match def.kind {
                ScopeKind::Function | ScopeKind::Lambda => {
                    let params = def.node.field("parameters")?;
                    let mut cursor = params.walk();
                    let found = params.named_children(&mut cursor).any(|p| {
                        p.kind_name() == "dictionary_splat_pattern"
                            && p.named_child(0).is_some_and(|n| text(n, self.src) == name)
                    });
                    if found {
                        return (def.kind == ScopeKind::Function).then_some(id);
                    }
                    // Bound in this function otherwise: not forwarded.
                    if self.bindings_in(id, name).is_some() {
                        return None;
                    }
                    current = def.parent;
                }
                _ => return None,
            }
        }
        None
    }

    /// True when a call with `**kwargs` certainly does not pass keyword
    /// `key`: every `**` it unpacks is its function's `**` parameter, and
    /// no caller of that function passes `key` (through theirs, in turn).
    fn never_passes(&self, call: Node<'t>, scope: ScopeId, key: &str, depth: u32) -> bool {
        if depth > 4 || self.args_of(call).keyword(key).is_some() {
            return false;
        }
        dict_splats(call).into_iter().all(|splat| {
            let Some(def) = self.kwargs_parameter_of(splat, scope) else {
                return false;
            };
            // No call seen (a callable object's `__call__`, a function
            // other modules call): its callers may pass anything.
            let sites = self.def_call_sites(def);
            !sites.is_empty()
                && sites.iter().all(|site| match site.kind {
                    SiteKind::Direct { .. } => {
                        self.never_passes(site.call, site.scope, key, depth + 1)
                    }
                    _ => false,
                })
        })
    }

    /// A def under a local decorator whose wrapper calls it with keyword
    /// `name` (`def deco(fn): def wrapper(*a, **k): return fn(*a,
    /// platforms=P, **k)`): every call goes through the wrapper, so those
    /// keywords are what the parameter gets, each in the wrapper's scope.
    fn injected_keyword(
        &self,
        def: ScopeId,
        name: &str,
    ) -> Option<Vec<(Node<'t>, ScopeId, ParamSource<'t>)>> {
        let decorators = self.scopes[def].decorators();
        let [decorator] = decorators.as_slice() else {
            return None;
        };
        let decorator = *decorator;
        if decorator.kind_name() != "identifier" {
            return None;
        }
        let outer = self.scopes[def].parent.unwrap_or(super::MODULE_SCOPE);
        let Some(Binding::Def(deco)) = self.binding_at(outer, text(decorator, self.src), decorator)
        else {
            return None;
        };
        let deco = *deco;
        if self.scopes[deco].kind != ScopeKind::Function {
            return None;
        }
        let wrapped = self.scopes[deco].params().first()?.0.clone();
        let mut out = Vec::new();
        for &i in self.calls_named(&wrapped) {
            let site = &self.calls[i];
            if site.scope == deco || !self.scope_within(site.scope, deco) {
                continue;
            }
            let func = site.node.field("function")?;
            if func.kind_name() != "identifier"
                || !matches!(
                    self.binding_at(site.scope, &wrapped, func),
                    Some(Binding::Param { scope, index: 0, .. }) if *scope == deco
                )
            {
                continue;
            }
            match self.args_of(site.node).keyword(name) {
                Some(value) => out.push((site.node, site.scope, ParamSource::Arg(value))),
                None => match self.stored_into_forwarded_kwargs(site.node, site.scope, name, def) {
                    Some(source) => out.push((site.node, site.scope, source)),
                    None => return None,
                },
            }
        }
        (!out.is_empty()).then_some(out)
    }

    /// Whether the store `target` (`kwargs[name] = v`) is the one statement
    /// of an `if name not in kwargs:` that itself runs whenever the wrapper
    /// does: it runs exactly when the caller did not pass `name`.
    fn store_unless_passed(
        &self,
        target: Node<'t>,
        kwargs: &str,
        name: &str,
        wrapper: ScopeId,
        body: Node<'t>,
    ) -> bool {
        let Some(statement) = self
            .parent_of(target)
            .filter(|a| a.kind_name() == "assignment")
            .and_then(|a| self.parent_of(a))
            .filter(|e| e.kind_name() == "expression_statement")
        else {
            return false;
        };
        let Some(block) = self
            .parent_of(statement)
            .filter(|b| b.kind_name() == "block")
        else {
            return false;
        };
        let Some(test) = self.parent_of(block).filter(|i| {
            i.kind_name() == "if_statement"
                && i.field("alternative").is_none()
                && i.field("consequence").is_some_and(|c| c.id() == block.id())
        }) else {
            return false;
        };
        let condition = test.field("condition").map(|c| text(c, self.src));
        block.named_child_count() == 1
            && condition.is_some_and(|c| {
                c == format!("\"{name}\" not in {kwargs}")
                    || c == format!("'{name}' not in {kwargs}")
            })
            && self.store_runs(test, wrapper, body) == StoreRuns::Certainly
    }

    /// Whether `def` has calls in this module and none of them may pass
    /// keyword `name` (none passes it or unpacks `**` into the call).
    fn callers_leave_out(&self, def: ScopeId, name: &str) -> bool {
        let sites = self.def_call_sites(def);
        !sites.is_empty()
            && sites.iter().all(|site| {
                matches!(site.kind, SiteKind::Direct { .. }) && {
                    let args = self.args_of(site.call);
                    args.keyword(name).is_none() && !args.has_dict_splat
                }
            })
    }

    /// A wrapper's call `fn(*args, **kwargs)` passing on its own `**kwargs`
    /// after changing it: `kwargs["platform"] = "cpu"` before the call is
    /// that argument; any other change that may set `name` (`update`,
    /// `setdefault`, a key not known) makes it not known. `None` when
    /// nothing changes `name` in what is passed on. A store only when the
    /// caller did not pass `name` (`kwargs.setdefault(name, v)`, or under
    /// `if name not in kwargs:`) is that argument when every call of the
    /// decorated `def` in the module leaves `name` out.
    fn stored_into_forwarded_kwargs(
        &self,
        call: Node<'t>,
        scope: ScopeId,
        name: &str,
        def: ScopeId,
    ) -> Option<ParamSource<'t>> {
        let arguments = call.field("arguments")?;
        let mut cursor = arguments.walk();
        let splat = arguments
            .named_children(&mut cursor)
            .find(|a| a.kind_name() == "dictionary_splat")?
            .named_child(0)?;
        let wrapper = self.kwargs_parameter_of(splat, scope)?;
        let kwargs = text(splat, self.src);
        let body = self.scopes[wrapper].node;
        let mut found = None;
        for start in whole_words(text(body, self.src), kwargs) {
            let at = body.start_byte() + start;
            if at >= call.start_byte() {
                break;
            }
            let Some(use_node) = self
                .node_for_span(at..at + kwargs.len())
                .filter(|n| n.kind_name() == "identifier")
            else {
                continue;
            };
            let Some(parent) = self.parent_of(use_node) else {
                continue;
            };
            let holds = |field: &str| parent.field(field).is_some_and(|n| n.id() == use_node.id());
            match parent.kind_name() {
                "subscript" if holds("value") => {
                    let Some((key, value)) = super::item_store(parent) else {
                        if self
                            .parent_of(parent)
                            .is_some_and(|p| p.kind_name() == "delete_statement")
                        {
                            return Some(ParamSource::Unknown);
                        }
                        continue;
                    };
                    match string_value(key, self.src) {
                        Some(k) if k != name => {}
                        Some(_)
                            if self.store_runs(value, wrapper, body) == StoreRuns::Certainly =>
                        {
                            found = Some(ParamSource::Arg(value))
                        }
                        Some(_)
                            if self.store_unless_passed(parent, kwargs, name, wrapper, body)
                                && self.callers_leave_out(def, name) =>
                        {
                            found = Some(ParamSource::Arg(value))
                        }
                        _ => return Some(ParamSource::Unknown),
                    }
                }
                "attribute" if holds("object") => {
                    let method = parent.field("attribute").map(|a| text(a, self.src));
                    if method == Some("setdefault") {
                        // `kwargs.setdefault(key, v)`: sets `key` only.
                        let Some(set) = self.parent_of(parent).filter(|c| c.kind_name() == "call")
                        else {
                            return Some(ParamSource::Unknown);
                        };
                        let args = self.args_of(set);
                        let key = args
                            .positional
                            .first()
                            .and_then(|k| string_value(*k, self.src));
                        match (key, args.positional.get(1)) {
                            (Some(k), _) if k != name => {}
                            (Some(_), Some(value))
                                if args.positional.len() == 2
                                    && self.store_runs(set, wrapper, body)
                                        == StoreRuns::Certainly
                                    && self.callers_leave_out(def, name) =>
                            {
                                found = Some(ParamSource::Arg(*value))
                            }
                            _ => return Some(ParamSource::Unknown),
                        }
                    } else if !matches!(method, Some("get" | "keys" | "items" | "values" | "copy"))
                    {
                        return Some(ParamSource::Unknown);
                    }
                }
                _ => {}
            }
        }
        found
    }

    pub(crate) fn param_call_sites(
        &self,
        def: ScopeId,
        index: usize,
        name: &str,
    ) -> Option<Vec<(Node<'t>, ScopeId, ParamSource<'t>)>> {
        if let Some(injected) = self.injected_keyword(def, name) {
            return Some(injected);
        }
        let sites = self.def_call_sites(def);
        let mut out = Vec::new();
        for site in sites.iter() {
            let args = self.args_of(site.call);
            let source = match site.kind {
                SiteKind::Opaque => ParamSource::Unknown,
                // Passed on as a value (`helper(fn, x)`, `jax.jit(fn)`): the
                // receiver calls it with data; a parameter with a default
                // keeps it, unless this call passes one of that name along
                // (or `**kwargs`), or jit makes it static (a caller's then).
                SiteKind::Passed => {
                    let forwarded = args.keyword(name).is_some() || args.has_splat;
                    let static_arg = callee_is_jit(self, site.call, site.scope)
                        && self.is_static_arg(site.call, index, name);
                    match self.scopes[def].params().get(index) {
                        Some((_, Some(_))) if !forwarded && !static_arg => ParamSource::Default,
                        _ => ParamSource::Unknown,
                    }
                }
                SiteKind::Direct { bound_self } | SiteKind::Partial { bound_self } => {
                    let skip = usize::from(matches!(site.kind, SiteKind::Partial { .. }));
                    let position = self.param_position(def, index, bound_self);
                    let arg = args
                        .keyword(name)
                        .or_else(|| position.and_then(|p| args.positional.get(p + skip).copied()));
                    match (arg, site.kind) {
                        (Some(arg), _) => ParamSource::Arg(arg),
                        // `f(*args, **kwargs)` forwarding what its own callers
                        // pass: the default when none of them passes it.
                        (None, _)
                            if args.has_dict_splat
                                && !(position.is_none()
                                    && self.never_passes(site.call, site.scope, name, 0)) =>
                        {
                            if args.has_list_splat && position.is_some() {
                                ParamSource::Unknown
                            } else {
                                ParamSource::Splat
                            }
                        }
                        // `mm(*args)`: an item of what it unpacks.
                        (None, _)
                            if args.has_list_splat
                                && !args.has_dict_splat
                                && position.is_some() =>
                        {
                            match (Args::trailing_list_splat(site.call), position) {
                                (Some((rest, before)), Some(p)) if p + skip >= before => {
                                    ParamSource::Spread(rest, p + skip - before)
                                }
                                _ => ParamSource::Unknown,
                            }
                        }
                        (None, _) if args.has_splat && position.is_some() => ParamSource::Unknown,
                        // Not bound by the partial: a partial of it, or the
                        // partial's callers, pass it.
                        (None, SiteKind::Partial { .. }) => ParamSource::Wrapped(position),
                        (None, _) => ParamSource::Default,
                    }
                }
            };
            out.push((site.call, site.scope, source));
        }
        Some(out)
    }

    /// The call sites of a def (cached): direct calls by name, partials and
    /// jit wrappers of it, and its other uses as a value.
    pub(crate) fn def_call_sites(&self, def: ScopeId) -> std::rc::Rc<Vec<CallSiteOf<'t>>> {
        let caches = self.caches();
        if let Some(found) = caches.def_sites.borrow().get(&def) {
            return found.clone();
        }
        let building = caches.value_calls_building.get();
        let sites = std::rc::Rc::new(self.find_def_call_sites(def));
        // Found while the registry calls are being indexed, they lack
        // those: not kept.
        if building {
            cut();
        } else {
            caches.def_sites.borrow_mut().insert(def, sites.clone());
        }
        sites
    }

    fn find_def_call_sites(&self, def: ScopeId) -> Vec<CallSiteOf<'t>> {
        let scope = &self.scopes[def];
        // `__init__` is called through the class name.
        let (def_name, through_class) = match (scope.class, scope.name.as_str()) {
            (Some(class), "__init__") => (self.scopes[class].name.as_str(), true),
            _ => (scope.name.as_str(), false),
        };
        let is_method = scope.class.is_some();
        // Only calls that can see this def: in the scope it is defined in, or
        // nested inside it (tests define many a local `def f`).
        let home = if through_class {
            self.scopes[scope.class.unwrap_or(0)].parent.unwrap_or(0)
        } else if is_method {
            0
        } else {
            scope.parent.unwrap_or(0)
        };
        let mut out = Vec::new();
        let mut accounted = 0usize;
        for &call in self.calls_named(def_name) {
            let site = &self.calls[call];
            if !self.scope_within(site.scope, home) {
                continue;
            }
            let Some(callee) = site.node.field("function") else {
                continue;
            };
            // A plain function is called by its name, a method through an
            // object; other calls of the same name are something else.
            if !is_method && callee.kind_name() != "identifier" {
                continue;
            }
            if is_method && !through_class && callee.kind_name() != "attribute" {
                continue;
            }
            // `obj.m(...)` where `obj` is visibly another class's instance
            // (or `self` of an unrelated class) calls another `m`.
            if is_method && !through_class && !self.receiver_may_be(callee, site.scope, def) {
                continue;
            }
            accounted += 1;
            // A static method has no receiver: its first parameter is the
            // call's first argument.
            let bound_self = is_method
                && !self.is_static_method(def)
                && (through_class || callee.kind_name() == "attribute");
            out.push(CallSiteOf {
                call: site.node,
                scope: site.scope,
                kind: SiteKind::Direct { bound_self },
            });
        }
        // `cls(...)` in a classmethod, `OPS[k](...)`: constructions through
        // a value call `__init__` too; so does one that a run-time choice
        // may construct (`OPS[args.op](...)`): an instance made there is
        // made with its arguments.
        if through_class {
            if let Some(class) = scope.class {
                let mut calls = self.value_calls(class);
                calls.extend(self.maybe_value_calls(class));
                for (call, call_scope) in calls {
                    out.push(CallSiteOf {
                        call,
                        scope: call_scope,
                        kind: SiteKind::Direct { bound_self: true },
                    });
                }
            }
        }
        // `model(x)` of an instance: its `__call__` with `self` bound; a
        // bound method called or staged through a value
        // (`jax.jit(model.apply).trace(x)`).
        if is_method && !through_class {
            for (call, call_scope) in self.value_calls(def) {
                out.push(CallSiteOf {
                    call,
                    scope: call_scope,
                    kind: SiteKind::Direct { bound_self: true },
                });
            }
        }
        if is_method || through_class {
            return out;
        }
        // `f.trace(x)` / `f.lower(x)` of a jitted def call it with those arguments.
        {
            for &i in self.staging_calls_on(def_name) {
                let site = &self.calls[i];
                let Some(object) = site.node.field("function").and_then(|f| f.field("object"))
                else {
                    continue;
                };
                if !matches!(self.binding_at(site.scope, def_name, object), Some(Binding::Def(id)) if *id == def)
                {
                    continue;
                }
                accounted += 1;
                out.push(CallSiteOf {
                    call: site.node,
                    scope: site.scope,
                    kind: SiteKind::Direct { bound_self: false },
                });
            }
        }
        // Uses of the function as a value, found as arguments of calls.
        let mut dispatched = false;
        for (site, arg) in self.value_arguments(def_name) {
            let resolves = self
                .binding_at(site.scope, def_name, arg)
                .is_some_and(|b| matches!(b, Binding::Def(id) if *id == def));
            if !resolves {
                continue;
            }
            accounted += 1;
            // Stored in the parsed namespace: called as `args.func(args)`.
            if self.is_set_defaults(site.node) && !self.args_of(site.node).positional.contains(&arg)
            {
                dispatched = true;
                continue;
            }
            let callee = self.callee(site.node, site.scope).unwrap_or_default();
            let first = self
                .args_of(site.node)
                .positional
                .first()
                .is_some_and(|f| f.id() == arg.id());
            if callee == names::PARTIAL && first {
                out.push(CallSiteOf {
                    call: site.node,
                    scope: site.scope,
                    kind: SiteKind::Partial { bound_self: false },
                });
            } else if callee == names::JIT && first {
                out.extend(self.jit_call_sites(site.node, site.scope));
            } else {
                out.push(CallSiteOf {
                    call: site.node,
                    scope: site.scope,
                    kind: SiteKind::Passed,
                });
            }
        }
        // The default of a parameter that is only ever called (`def
        // save(make_fn=make)`, then `make_fn(...)`): those calls, when they
        // certainly call it, are its sites below; one never read passes it
        // nowhere.
        // (Asked only of a name mentioned more than those: the identifier
        // index it reads is a walk of the whole tree.)
        let (defaulted, partials) = if self.mentioned_more_than(def_name, accounted + 1) {
            self.called_param_defaults(def, def_name)
        } else {
            (0, Vec::new())
        };
        accounted += defaulted;
        for (call, call_scope) in partials {
            out.push(CallSiteOf {
                call,
                scope: call_scope,
                kind: SiteKind::Partial { bound_self: false },
            });
        }
        // Any other mention (stored in a list, returned, decorated by
        // something) has callers we cannot see; the calls through a
        // registry that the value flow resolves to it are seen.
        // (A decorator may store it: `@register("rmh")`.)
        let opaque = self.mentioned_more_than(def_name, accounted + 1)
            && self.def_mentions(def, def_name) > accounted + 1;
        // Passed to a def or class of this module that may keep it
        // (`FnConfig(impl).fn(...)`): the calls through the field are its
        // calls too. (A library's call, `jax.vmap(f)`, keeps nothing we read.)
        let passed = out.iter().any(|s| {
            matches!(s.kind, SiteKind::Passed)
                && s.call
                    .field("function")
                    .filter(|f| f.kind_name() == "identifier")
                    .is_some_and(|f| {
                        matches!(
                            self.binding_at(s.scope, text(f, self.src), f),
                            Some(Binding::Def(_))
                        )
                    })
        });
        if opaque || dispatched || passed || defaulted > 0 || !scope.decorators().is_empty() {
            for (call, call_scope) in self.value_calls(def) {
                if self.scope_within(call_scope, home) {
                    out.push(CallSiteOf {
                        call,
                        scope: call_scope,
                        kind: SiteKind::Direct { bound_self: false },
                    });
                }
            }
        }
        if opaque {
            // Kept only as an entry of a table (`IMPLS = {"tpu": f, ...}`):
            // what reads it from the table calls it (those calls through the
            // table are the value calls above) or passes it on, as a def
            // passed by name is passed: with data, its defaults kept.
            let unaccounted = self
                .def_mentions(def, def_name)
                .saturating_sub(accounted + 1);
            let entries = self.table_entries_of(def, def_name);
            if !entries.is_empty() && entries.len() >= unaccounted {
                for table in entries {
                    out.push(CallSiteOf {
                        call: table,
                        scope: home,
                        kind: SiteKind::Passed,
                    });
                }
            } else {
                out.push(CallSiteOf {
                    call: scope.node,
                    scope: home,
                    kind: SiteKind::Opaque,
                });
            }
        }
        out
    }

    /// The call whose callee `read` is (`read(...)`).
    fn call_of_callee(&self, read: Node<'t>) -> Option<Node<'t>> {
        self.parent_of(read).filter(|call| {
            call.kind() == "call" && call.field("function").is_some_and(|f| f.id() == read.id())
        })
    }

    /// How many mentions of `def` (named `name`) are the default of a
    /// parameter whose every read calls it: the callee of a call through
    /// which the value flow certainly calls `def` (`Flow::value_calls`), or
    /// the function of a `functools.partial` bound to a name only so called
    /// (those partials returned, sites of `def` as a partial of it by name
    /// is). Such a default is passed nowhere else.
    fn called_param_defaults(&self, def: ScopeId, name: &str) -> (usize, Vec<(Node<'t>, ScopeId)>) {
        let mut value_calls: Option<Vec<usize>> = None;
        let mut count = 0;
        let mut partials = Vec::new();
        for mention in self.identifiers_named(name) {
            let Some(param) = self.parent_of(mention).filter(|p| {
                matches!(p.kind(), "default_parameter" | "typed_default_parameter")
                    && p.field("value").is_some_and(|v| v.id() == mention.id())
            }) else {
                continue;
            };
            let resolves = self
                .lookup(self.scope_at(mention), name)
                .is_some_and(|found| {
                    found
                        .iter()
                        .any(|b| matches!(b, Binding::Def(id) if *id == def))
                });
            let function = self
                .parent_of(param)
                .and_then(|params| self.parent_of(params))
                .and_then(|f| self.scope_of_def(f));
            let (Some(function), Some(param_name), true) =
                (function, param.field("name"), resolves)
            else {
                continue;
            };
            let param_name = text(param_name, self.src);
            let body = self.scopes[function].node.byte_range();
            let calls = value_calls
                .get_or_insert_with(|| self.value_calls(def).iter().map(|(c, _)| c.id()).collect());
            // Every read of `name` bound there (by `bound`) in `function`
            // is the callee of a call.
            let only_calls = |name: &str, bound: &dyn Fn(&Binding<'t>) -> bool| {
                self.identifiers_named(name).into_iter().all(|read| {
                    let read_scope = self.scope_at(read);
                    let binds = self.parent_of(read).is_some_and(|a| {
                        a.kind() == "assignment"
                            && a.field("left").is_some_and(|l| l.id() == read.id())
                    });
                    if binds
                        || !body.contains(&read.start_byte())
                        || !self.binding_at(read_scope, name, read).is_some_and(bound)
                    {
                        return true;
                    }
                    self.call_of_callee(read).is_some()
                })
            };
            // (Or bound by `functools.partial(param, ...)` to a name only
            // called: `run = partial(make_fn, platforms=p)`, then `run()`.)
            let through_partial = |read: Node<'t>| -> Option<(Node<'t>, ScopeId)> {
                let call = self
                    .parent_of(read)
                    .filter(|a| a.kind() == "argument_list")
                    .and_then(|a| self.parent_of(a))?;
                let read_scope = self.scope_at(read);
                let args = self.args_of(call);
                let target = super::assigned_name(call)?;
                (args.positional.first().is_some_and(|f| f.id() == read.id())
                    && self.callee(call, read_scope).as_deref() == Some(names::PARTIAL)
                    && only_calls(
                        text(target, self.src),
                        &|b| matches!(b, Binding::Value { target: t, .. } if t.id() == target.id()),
                    ))
                .then_some((call, read_scope))
            };
            let mut made = Vec::new();
            let only_called = self.identifiers_named(param_name).into_iter().all(|read| {
                let read_scope = self.scope_at(read);
                if !body.contains(&read.start_byte())
                    || !matches!(self.binding_at(read_scope, param_name, read),
                        Some(Binding::Param { scope, .. }) if *scope == function)
                {
                    return true;
                }
                if let Some(partial) = through_partial(read) {
                    made.push(partial);
                    return true;
                }
                self.call_of_callee(read)
                    .is_some_and(|call| calls.contains(&call.id()))
            });
            if only_called {
                count += 1;
                partials.extend(made);
            }
        }
        (count, partials)
    }

    /// The collection literals holding `def` (named `name`) as an entry: a
    /// dict's value, an element of a list, tuple or set.
    fn table_entries_of(&self, def: ScopeId, name: &str) -> Vec<Node<'t>> {
        let mut out = Vec::new();
        for at in self.identifiers_named(name) {
            let Some(parent) = self.parent_of(at) else {
                continue;
            };
            let table = match parent.kind_name() {
                "pair" if parent.field("value").is_some_and(|v| v.id() == at.id()) => self
                    .parent_of(parent)
                    .filter(|d| d.kind_name() == "dictionary"),
                "list" | "tuple" | "set" => Some(parent),
                _ => None,
            };
            let Some(table) = table else {
                continue;
            };
            let resolves = matches!(
                self.binding_at(self.scope_at(at), name, at),
                Some(Binding::Def(id)) if *id == def
            );
            if resolves {
                out.push(table);
            }
        }
        out
    }

    /// Whether parameter `index` / `name` is static in the `jax.jit(f, ...)`
    /// call `jit` (`static_argnames`, `static_argnums`).
    fn is_static_arg(&self, jit: Node<'t>, index: usize, name: &str) -> bool {
        let args = self.args_of(jit);
        let named = args.keyword("static_argnames").is_some_and(|n| {
            let t = text(n, self.src);
            t.contains(&format!("\"{name}\"")) || t.contains(&format!("'{name}'"))
        });
        let numbered = args.keyword("static_argnums").is_some_and(|n| {
            text(n, self.src)
                .split(|c: char| !c.is_ascii_digit())
                .any(|d| d.parse::<usize>().ok() == Some(index))
        });
        named || numbered
    }

    /// Whether the receiver of the method call `callee` (`obj.m`) may be an
    /// instance of the class defining `method`: unknown receivers may; a
    /// receiver whose class is visible must be related to it.
    fn receiver_may_be(&self, callee: Node<'t>, scope: ScopeId, method: ScopeId) -> bool {
        let Some(class) = self.scopes[method].class else {
            return true;
        };
        let Some(object) = callee.field("object") else {
            return true;
        };
        // `jax.export.export(...)`: a library object named through an import.
        if object.kind_name() == "attribute" && self.canonical(object, scope).is_some() {
            return false;
        }
        // `jit(f).trace(x).lower()`: a JAX stage, not an instance of ours.
        if object.kind_name() == "call"
            && object
                .field("function")
                .and_then(|f| f.field("attribute"))
                .is_some_and(|a| matches!(text(a, self.src), "trace" | "lower" | "jit"))
        {
            return false;
        }
        let receiver_class = match self.class_of_receiver(object, scope) {
            Some(c) => Some(c),
            None if object.kind_name() == "identifier" => {
                match self.binding_at(scope, text(object, self.src), object) {
                    // A module (`export.export(...)`), not an instance.
                    Some(Binding::Import(_)) => return false,
                    Some(Binding::Value { value, scope, .. }) => {
                        let value = unparenthesize(*value);
                        match value.kind_name() {
                            "call" => value.field("function").and_then(|f| {
                                if f.kind_name() != "identifier" {
                                    return None;
                                }
                                match self.binding_at(*scope, text(f, self.src), f)? {
                                    Binding::Def(id)
                                        if self.scopes[*id].kind == ScopeKind::Class =>
                                    {
                                        Some(*id)
                                    }
                                    _ => None,
                                }
                            }),
                            // A literal is a builtin object: `"x".lower()`.
                            "string" | "list" | "tuple" | "dictionary" | "integer" => return false,
                            _ => None,
                        }
                    }
                    _ => None,
                }
            }
            None => None,
        };
        match receiver_class {
            None => true,
            Some(c) => self.subclasses(class).contains(&c) || self.subclasses(c).contains(&class),
        }
    }

    /// The calls of a `jax.jit(f, ...)` wrapper: `jax.jit(f)(x)`,
    /// `jax.jit(f).trace(x)`, or calls of the name it is bound to.
    fn jit_call_sites(&self, jit: Node<'t>, scope: ScopeId) -> Vec<CallSiteOf<'t>> {
        let direct = |call: Node<'t>, scope: ScopeId| CallSiteOf {
            call,
            scope,
            kind: SiteKind::Direct { bound_self: false },
        };
        // The wrapper used as a value: its calls pass data.
        let opaque = vec![CallSiteOf {
            call: jit,
            scope,
            kind: SiteKind::Passed,
        }];
        let Some(parent) = self.parent_of(jit) else {
            return opaque;
        };
        match parent.kind_name() {
            "call" => vec![direct(parent, scope)],
            "attribute" => match self.parent_of(parent).filter(|p| p.kind_name() == "call") {
                Some(call)
                    if parent.field("attribute").is_some_and(|a| {
                        matches!(text(a, self.src), "trace" | "lower" | "eval_shape")
                    }) =>
                {
                    vec![direct(call, scope)]
                }
                _ => opaque,
            },
            "assignment" => {
                let Some(target) = parent
                    .field("left")
                    .filter(|l| l.kind_name() == "identifier")
                else {
                    return opaque;
                };
                let name = text(target, self.src);
                let mut out: Vec<CallSiteOf<'t>> = self
                    .calls_named(name)
                    .iter()
                    .map(|&i| self.calls[i])
                    .filter(|c| {
                        c.node
                            .field("function")
                            .is_some_and(|f| f.kind_name() == "identifier")
                    })
                    .map(|c| direct(c.node, c.scope))
                    .collect();
                // `fn.trace(x)` / `fn.lower(x)` call it with those arguments.
                out.extend(
                    self.staging_calls_on(name)
                        .iter()
                        .map(|&i| self.calls[i])
                        .map(|c| direct(c.node, c.scope)),
                );
                if self.mentioned_more_than(name, out.len() + 1) {
                    out.extend(opaque);
                }
                out
            }
            _ => opaque,
        }
    }

    /// The `name.trace(...)` / `name.lower(...)` / `name.eval_shape(...)`
    /// calls (cached index by receiver name).
    fn staging_calls_on(&self, name: &str) -> &[usize] {
        let index = self.staging_calls.get_or_init(|| {
            let mut index: HashMap<&'t str, Vec<usize>> = HashMap::new();
            for method in ["trace", "lower", "eval_shape"] {
                for &i in self.calls_named(method) {
                    let object = self.calls[i]
                        .node
                        .field("function")
                        .and_then(|f| f.field("object"))
                        .filter(|o| o.kind_name() == "identifier");
                    if let Some(object) = object {
                        index.entry(text(object, self.src)).or_default().push(i);
                    }
                }
            }
            index
        });
        index.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Calls with a plain name `name` among their arguments (cached index).
    fn value_arguments(&self, name: &str) -> Vec<(super::CallSite<'t>, Node<'t>)> {
        let index = self.value_args.get_or_init(|| {
            let mut index: HashMap<String, Vec<(usize, Node<'t>)>> = HashMap::new();
            for (i, site) in self.calls.iter().enumerate() {
                let args = Args::of(site.node, self.src);
                for arg in args
                    .positional
                    .iter()
                    .chain(args.keywords.iter().map(|(_, v, _)| v))
                {
                    if arg.kind_name() == "identifier" {
                        index
                            .entry(text(*arg, self.src).to_owned())
                            .or_default()
                            .push((i, *arg));
                    }
                }
            }
            index
        });
        index
            .get(name)
            .map(|v| v.iter().map(|(i, n)| (self.calls[*i], *n)).collect())
            .unwrap_or_default()
    }

    /// True if `name` is used as an identifier more than `known` times in
    /// the code this model covers. A count of whole words (one scan of the
    /// text per model, shared) answers most names; only a name with more
    /// words than that is looked up in the tree (strings and comments do
    /// not count).
    pub(crate) fn mentioned_more_than(&self, name: &str, known: usize) -> bool {
        // A model of a few statements (a unit of incremental analysis) is
        // searched for the name itself: counting every word of it costs more
        // than the few names asked for.
        if let Some(statements) = &self.statements {
            let len = *self
                .covered_bytes
                .get_or_init(|| statements.iter().map(|s| s.byte_range().len()).sum());
            if len <= SMALL_MODEL_BYTES {
                let count = word_count(statements.iter().map(|s| text(*s, self.src)), name);
                return count > known && self.identifier_mentions(name) > known;
            }
        }
        let words = self.word_counts.get_or_init(|| {
            let mut counts = rustc_hash::FxHashMap::<&'t str, u32>::default();
            let mut count_words = |text: &'t str| {
                for word in text
                    .split(|c: char| !(c == '_' || c.is_alphanumeric()))
                    .filter(|w| !w.is_empty())
                {
                    *counts.entry(word).or_default() += 1;
                }
            };
            match &self.statements {
                Some(statements) => {
                    for s in statements {
                        count_words(text(*s, self.src));
                    }
                }
                None => count_words(self.src),
            }
            counts
        });
        if words.get(name).map_or(0, |c| *c as usize) <= known {
            return false;
        }
        self.identifier_mentions(name) > known
    }

    /// How many identifiers named `name` in the code this model covers
    /// may read `def`: not those another binding of the name shadows (a
    /// parameter or local variable of another function that happens to
    /// share the name: `def wrap(factory):` beside `def factory(name):`).
    fn def_mentions(&self, def: ScopeId, name: &str) -> usize {
        self.identifiers_named(name)
            .into_iter()
            .filter(|&n| {
                // A parameter of that name declares another binding.
                let declares_param = self.parent_of(n).is_some_and(|p| {
                    p.kind() == "parameters"
                        || (matches!(
                            p.kind(),
                            "default_parameter"
                                | "typed_parameter"
                                | "typed_default_parameter"
                                | "list_splat_pattern"
                                | "dictionary_splat_pattern"
                        ) && self
                            .parent_of(p)
                            .is_some_and(|pp| pp.kind() == "parameters")
                            && p.named_child(0).is_some_and(|c| c.id() == n.id()))
                });
                // A name whose bindings there do not hold the def is another
                // variable (`settings = Settings() if settings is None else
                // settings` in a function whose parameter is `settings`).
                let scope = self.scope_at(n);
                let may_be_def = self.lookup(scope, name).is_none_or(|found| {
                    found
                        .iter()
                        .any(|b| matches!(b, Binding::Def(id) if *id == def))
                });
                !declares_param
                    && may_be_def
                    && !is_member_name(n)
                    && !is_method_name(n)
                    && !self
                        .binding_at(scope, name, n)
                        .is_some_and(|b| !matches!(b, Binding::Def(id) if *id == def))
            })
            .count()
    }

    /// The identifier nodes named `name` in the code this model covers, in
    /// the order of a depth-first walk that visits later siblings first.
    pub(crate) fn identifiers_named(&self, name: &str) -> Vec<Node<'t>> {
        let index = self.identifiers_by_name.get_or_init(|| {
            let holders: Vec<Node<'t>> = match &self.statements {
                Some(statements) => statements.clone(),
                None => vec![self.root],
            };
            let mut index: rustc_hash::FxHashMap<&'t str, Vec<Node<'t>>> = Default::default();
            let mut cursor = self.root.walk();
            for holder in holders {
                let mut stack = vec![holder];
                while let Some(n) = stack.pop() {
                    if n.kind() == "identifier" {
                        index.entry(text(n, self.src)).or_default().push(n);
                        continue;
                    }
                    stack.extend(n.named_children(&mut cursor));
                }
            }
            index
        });
        index.get(name).cloned().unwrap_or_default()
    }

    /// How many times `name` occurs as an identifier in the code this model
    /// covers.
    pub(crate) fn identifier_mentions(&self, name: &str) -> usize {
        if name.is_empty() {
            return 0;
        }
        let is_ident = |b: u8| b == b'_' || b.is_ascii_alphanumeric();
        // Whole words that are identifiers in the tree (not in a string or
        // a comment).
        let count_in = |holder: Node<'t>| {
            let start = holder.start_byte();
            let bytes = text(holder, self.src).as_bytes();
            memchr::memmem::find_iter(bytes, name.as_bytes())
                .filter(|&at| {
                    let before = at.checked_sub(1).map(|i| bytes[i]);
                    let after = bytes.get(at + name.len()).copied();
                    !before.is_some_and(is_ident)
                        && !after.is_some_and(is_ident)
                        && holder
                            .descendant_for_byte_range(start + at, start + at + name.len())
                            .is_some_and(|n| {
                                n.kind_name() == "identifier"
                                    && !is_member_name(n)
                                    && !is_method_name(n)
                            })
                })
                .count()
        };
        match &self.statements {
            Some(statements) => statements.iter().map(|s| count_in(*s)).sum(),
            None => count_in(self.root),
        }
    }

    /// `class` and the classes of this module deriving from it.
    pub(crate) fn subclasses(&self, class: ScopeId) -> Vec<ScopeId> {
        let mut out = vec![class];
        let mut i = 0;
        while i < out.len() && out.len() < 64 {
            let current = out[i];
            for (id, s) in self.scopes.iter().enumerate() {
                if s.kind == ScopeKind::Class
                    && !out.contains(&id)
                    && self.base_classes(id).contains(&current)
                {
                    out.push(id);
                }
            }
            i += 1;
        }
        out
    }

    /// Calls of `id` through a value, where the callee certainly is it: a
    /// class constructed by `impl = OPS[key]; impl(...)`, `OPS[key]()` or
    /// `cls(...)`, or a function called through a subscript
    /// (`SAMPLERS["rmh"](f)`).
    pub(crate) fn value_calls(&self, id: ScopeId) -> Vec<(Node<'t>, ScopeId)> {
        self.value_calls_of(id)
            .into_iter()
            .filter(|&(_, _, certain)| certain)
            .map(|(call, scope, _)| (call, scope))
            .collect()
    }

    /// Calls that may construct class `id` through a value, as one
    /// alternative of a run-time choice (`PRIORS[args.prior](...)`): an
    /// instance may be made there, whose fields nobody may take as the only
    /// construction's.
    pub(crate) fn maybe_value_calls(&self, id: ScopeId) -> Vec<(Node<'t>, ScopeId)> {
        self.value_calls_of(id)
            .into_iter()
            .filter(|&(_, _, certain)| !certain)
            .map(|(call, scope, _)| (call, scope))
            .collect()
    }

    fn value_calls_of(&self, id: ScopeId) -> Vec<(Node<'t>, ScopeId, bool)> {
        let caches = self.caches();
        if let Some(index) = caches.value_calls.borrow().as_ref() {
            // The first pass's index, read while the second pass runs: no
            // answer found with it is kept.
            if caches.value_calls_building.get() {
                cut();
            }
            return index.get(&id).cloned().unwrap_or_default();
        }
        // Asked again while building (an evaluation below needs an
        // instance): no answer rather than recursion; that call is looked
        // at again with the first pass's index.
        if caches.value_calls_building.replace(true) {
            caches
                .value_calls_reentered
                .set(caches.value_calls_reentered.get() + 1);
            cut();
            return Vec::new();
        }
        let mut index: HashMap<ScopeId, Vec<(Node<'t>, ScopeId, bool)>> = HashMap::new();
        // Names bound to a value are read as callees only where some class
        // is used as a value: named other than by its `class` statement and
        // its direct constructions (subscript callees are always read).
        let kept_as_value = (0..self.scopes.len()).any(|c| {
            self.scopes[c].kind == ScopeKind::Class
                && self.identifier_mentions(&self.scopes[c].name)
                    > self.class_constructions(c).len() + 1
        });
        // The same for functions: one named other than by its `def` and its
        // calls by name (a default of a parameter, an argument kept in a
        // field: `def save(export_fn=export)`, `Cfg(fn=impl)`) may be called
        // through a parameter or a field.
        let function_kept = (0..self.scopes.len()).any(|f| {
            let scope = &self.scopes[f];
            scope.kind == ScopeKind::Function
                && scope.class.is_none()
                && self.identifier_mentions(&scope.name)
                    > self
                        .calls_named(&scope.name)
                        .iter()
                        .filter(|&&c| {
                            self.calls[c]
                                .node
                                .field("function")
                                .is_some_and(|f| f.kind_name() == "identifier")
                        })
                        .count()
                        + 1
        });
        // Instances called (`model(x)`, `jax.jit(model).trace(x)`) run
        // their class's `__call__`: read where some class has one.
        let callable_class = (0..self.scopes.len()).any(|c| {
            self.scopes[c].kind == ScopeKind::Class && self.method(c, "__call__").is_some()
        });
        // `site` a call of `callee` (`certain`: the callee certainly is it).
        let add = |index: &mut HashMap<ScopeId, Vec<(Node<'t>, ScopeId, bool)>>,
                   callee: ScopeId,
                   site: &super::CallSite<'t>,
                   certain: bool| {
            let calls = index.entry(callee).or_default();
            if !calls.iter().any(|(n, _, _)| n.id() == site.node.id()) {
                calls.push((site.node, site.scope, certain));
            }
        };
        // Two passes: a call whose callee's value needed the index (`layer`
        // of `for layer in self.layers`, the instance made through a
        // registry) is read again with the first pass's index.
        let mut todo: Vec<usize> = (0..self.calls.len()).collect();
        let mut retry: Vec<usize> = Vec::new();
        for pass in 0..2 {
            if pass == 1 {
                if retry.is_empty() {
                    break;
                }
                todo = std::mem::take(&mut retry);
                *caches.value_calls.borrow_mut() = Some(std::rc::Rc::new(index.clone()));
            }
            for &at in &todo {
                let site = &self.calls[at];
                let Some(func) = site.node.field("function") else {
                    continue;
                };
                // `jax.jit(IMPLS[k])(x)`, `jax.jit(fn).trace(x)`: the jitted
                // value is called with these arguments.
                let jitted = self.jitted_by_call(func, site.scope);
                // `holder.jitted.trace(x)`, `make_step().lower(x)`: a jit kept in
                // a field or returned traces its function with these arguments.
                if jitted.is_none() {
                    let held = self.held_jit_staged(func, site.scope);
                    if !held.is_empty() {
                        for f in held {
                            add(&mut index, f, site, true);
                        }
                        continue;
                    }
                }
                let func = jitted.unwrap_or(func);
                // `args.func(args)` of `set_defaults(func=cmd)`: calls a def.
                let through_namespace = func.kind_name() == "attribute"
                    && func
                        .field("attribute")
                        .is_some_and(|a| !self.namespace_defaults(text(a, self.src)).is_empty());
                let indirect = through_namespace
                    || match func.kind_name() {
                        // `OPS[k](...)`: a class constructed, or a function called
                        // through a registry (`SAMPLERS["rmh"](logdensity)`).
                        "subscript" => true,
                        // `jax.jit(make(fn)).trace(x)`: what the factory returns.
                        "call" => jitted.is_some(),
                        // `impl = OPS[k]; impl(...)`, and `cls(...)` of a
                        // parameter given the class (`make(Exporter)`).
                        "identifier" if kept_as_value || function_kept || callable_class => {
                            matches!(
                                self.binding_at(site.scope, text(func, self.src), func),
                                Some(
                                    Binding::Value { .. }
                                        | Binding::Param { .. }
                                        | Binding::Loop { .. }
                                        | Binding::Item { .. }
                                )
                            )
                        }
                        // `cfg.klass(cfg)`: a class (or function) kept in a field
                        // (not a method's name: `obj.update(x)` is no construction).
                        // `jax.jit(obj.method).trace(x)`: the method, on `obj`.
                        "attribute" if jitted.is_some() => true,
                        "attribute" if kept_as_value || function_kept || callable_class => func
                            .field("attribute")
                            .is_some_and(|a| self.may_hold_a_class(text(a, self.src))),
                        _ => false,
                    };
                if !indirect {
                    continue;
                }
                let reentered = caches.value_calls_reentered.get();
                let alts = self.flow_with_budget(400).eval(func, site.scope);
                if pass == 0 && caches.value_calls_reentered.get() != reentered {
                    retry.push(at);
                }
                // `args.handler(args)`: whichever subcommand's handler the command
                // line picks is called here, with these arguments: each handler's
                // call site (it runs only when picked, and then from here).
                if through_namespace {
                    for alt in &alts {
                        if let Val::Function(f) = alt.val {
                            add(&mut index, f, site, true);
                        }
                    }
                    continue;
                }
                // A run-time choice among classes: each may be constructed here.
                // A function it picks from a table (`IMPLS[jax.default_backend()]`,
                // or a name holding what the host picked) is called here whenever
                // it is picked: a call site of each.
                if !alts.iter().all(|a| a.why.certain()) {
                    let picked_from_table = if func.kind_name() == "subscript" {
                        !self.arguments_read_key(func, site.node)
                    } else {
                        // The arguments cannot read the host's pick.
                        alts.iter()
                            .all(|a| a.why.certain() || matches!(a.why, Why::Host(_)))
                    };
                    for alt in &alts {
                        match alt.val {
                            Val::Class(c) => add(&mut index, c, site, false),
                            Val::Function(f) if picked_from_table => add(&mut index, f, site, true),
                            // Whichever instance the run picks is called
                            // with these arguments (they cannot read the
                            // pick, made where it was constructed).
                            Val::Instance(c, _)
                                if callable_class
                                    && (picked_from_table || func.kind_name() != "subscript") =>
                            {
                                if let Some(call) = self.method(c, "__call__") {
                                    add(&mut index, call, site, true)
                                }
                            }
                            _ => {}
                        }
                    }
                    continue;
                }
                // Several certain callees (`for name in NAMES: REGISTRY[name](x)`,
                // each element runs): the call is a call site of each, unless its
                // arguments read what picks the callee (`LOWER[p](p)` passes each
                // def its own `p` only, which a site of all cannot say).
                if alts.is_empty() {
                    continue;
                }
                let apart = match func.kind_name() {
                    "subscript" => self.arguments_read_key(func, site.node),
                    // `for layer in self.layers: x = layer(x)`: each element
                    // is called here, as long as the arguments read nothing
                    // the loop picks with it (`for f, p in pairs: f(p)`).
                    "identifier" => self.arguments_read_loop_targets(func, site),
                    _ => true,
                };
                if alts.len() > 1 && apart {
                    continue;
                }
                // A wrapper forwarding what it is given (`fn(*args, **kwargs)`
                // in a decorator, `fn` its parameter) is no call site of its
                // own: the calls of the decorated name bind the function. A
                // function taken from a loop, a table or a local name
                // (`for f in self.fns: f(*args)`) is called here: its
                // parameters are what the unpacking passes.
                let forwards = self.args_of(site.node).has_splat
                    && (func.kind_name() != "identifier"
                        || matches!(
                            self.binding_at(site.scope, text(func, self.src), func),
                            Some(Binding::Param { .. })
                        ));
                let mut callees: Vec<ScopeId> = Vec::new();
                for alt in &alts {
                    let called = match alt.val {
                        Val::Class(c) if kept_as_value => Some(c),
                        Val::Function(f) if func.kind_name() == "subscript" => Some(f),
                        Val::Function(f) if function_kept && !forwards => Some(f),
                        Val::Instance(c, _) if callable_class => self.method(c, "__call__"),
                        // A bound method, called or staged: `self` is bound.
                        Val::Method(method, _, _) => Some(method),
                        _ => None,
                    };
                    if let Some(callee) = called.filter(|c| !callees.contains(c)) {
                        callees.push(callee);
                    }
                }
                for callee in callees {
                    add(&mut index, callee, site, true);
                }
            }
        }
        let found = index.get(&id).cloned().unwrap_or_default();
        *caches.value_calls.borrow_mut() = Some(std::rc::Rc::new(index));
        caches.value_calls_building.set(false);
        caches.branches_provisional.borrow_mut().clear();
        found
    }

    /// Whether the arguments of the call at `site` read a name the loop
    /// binding `func` binds beside it (true too when `func` is no loop's).
    fn arguments_read_loop_targets(&self, func: Node<'t>, site: &super::CallSite<'t>) -> bool {
        let Some(Binding::Loop { loop_node, .. }) =
            self.binding_at(site.scope, text(func, self.src), func)
        else {
            return true;
        };
        match (loop_node.field("left"), site.node.field("arguments")) {
            (Some(left), Some(arguments)) => reads_a_name_of(arguments, left, self.src),
            _ => true,
        }
    }

    /// Whether the arguments of `call` read what picks its callee from the
    /// table `subscript` (`LOWER[p](p)` passes each def its own `p` only,
    /// which a call site of all of them cannot say).
    fn arguments_read_key(&self, subscript: Node<'t>, call: Node<'t>) -> bool {
        match (subscript.field("subscript"), call.field("arguments")) {
            (Some(key), Some(arguments)) => reads_a_name_of(arguments, key, self.src),
            _ => true,
        }
    }

    /// The function a call of `func` runs when `func` jits it:
    /// `jax.jit(F)` called, or staged (`jax.jit(F).trace`, `.lower`,
    /// `.eval_shape`): `F`, which the call's arguments are passed to.
    fn jitted_by_call(&self, func: Node<'t>, scope: ScopeId) -> Option<Node<'t>> {
        let func = unparenthesize(func);
        let jit = match func.kind_name() {
            "call" => func,
            "attribute" => {
                let method = text(func.field("attribute")?, self.src);
                if !matches!(method, "trace" | "lower" | "eval_shape") {
                    return None;
                }
                unparenthesize(func.field("object")?)
            }
            _ => return None,
        };
        if jit.kind_name() != "call" || self.callee(jit, scope).as_deref() != Some(names::JIT) {
            return None;
        }
        self.args_of(jit)
            .positional
            .first()
            .map(|f| unparenthesize(*f))
    }

    /// The functions of the jits a staging call (`X.trace`, `X.lower`,
    /// `X.eval_shape`) stages where `X` is a field or a call's result that
    /// holds them (names and `jax.jit(...)` calls are read by the syntax:
    /// `jit_call_sites`, `jitted_by_call`); what the host picks counts.
    fn held_jit_staged(&self, func: Node<'t>, scope: ScopeId) -> Vec<ScopeId> {
        let func = unparenthesize(func);
        if func.kind_name() != "attribute" {
            return Vec::new();
        }
        let staging = func
            .field("attribute")
            .is_some_and(|a| matches!(text(a, self.src), "trace" | "lower" | "eval_shape"));
        let Some(object) = func.field("object").map(unparenthesize) else {
            return Vec::new();
        };
        if !staging || !matches!(object.kind_name(), "attribute" | "call") {
            return Vec::new();
        }
        if object.kind_name() == "call" && self.callee(object, scope).as_deref() == Some(names::JIT)
        {
            return Vec::new();
        }
        let mut out = Vec::new();
        let method = func.field("attribute").map_or("", |a| text(a, self.src));
        for alt in self.flow_with_budget(400).eval(object, scope) {
            let staged = match alt.val {
                Val::Jitted(f, _, _) => Some(f),
                // `jax.jit(model)` kept: the value flow holds the instance,
                // whose `__call__` is staged (unless its class has a
                // method of that name: then that is called).
                Val::Instance(class, _) if self.method(class, method).is_none() => {
                    self.method(class, "__call__")
                }
                _ => None,
            };
            if let Some(f) = staged {
                if (alt.why.certain() || matches!(alt.why, Why::Host(_))) && !out.contains(&f) {
                    out.push(f);
                }
            }
        }
        out
    }

    /// Whether `obj.<name>(...)` may call a class kept in a field: `name`
    /// is stored as an attribute somewhere and names no def (a method).
    pub(crate) fn may_hold_a_class(&self, name: &str) -> bool {
        let stored = (0..self.scopes.len())
            .any(|c| self.scopes[c].kind == ScopeKind::Class && self.attribute(c, name).is_some())
            || self
                .path_stores
                .keys()
                .any(|p| p.rsplit('.').next() == Some(name));
        stored
            && !self
                .scopes
                .iter()
                .any(|s| s.kind == ScopeKind::Function && s.name == name)
    }

    /// True if the function `def` (a method `__init__`/`__enter__` through
    /// its class) is called only from bodies that never run: its call
    /// sites (the constructions of its class) all lie in branches decided
    /// false, and nothing else names it. False when it has no call site
    /// here (an entry point, a library function) or one not known.
    pub(crate) fn called_only_from_dead_code(&self, def: ScopeId) -> bool {
        let scope = &self.scopes[def];
        if scope.kind != ScopeKind::Function {
            return false;
        }
        let sites: Vec<(Node<'t>, ScopeId)> = match scope.class {
            Some(class) if matches!(scope.name.as_str(), "__init__" | "__enter__") => {
                let made = self.class_constructions(class);
                // Named elsewhere too (passed as a value, subclassed): not
                // every way it is made is seen.
                if self.identifier_mentions(&self.scopes[class].name) > made.len() + 1 {
                    return false;
                }
                made
            }
            Some(_) => return false,
            None => {
                let sites = self.def_call_sites(def);
                if sites
                    .iter()
                    .any(|s| !matches!(s.kind, SiteKind::Direct { .. }))
                {
                    return false;
                }
                sites.iter().map(|s| (s.call, s.scope)).collect()
            }
        };
        !sites.is_empty()
            && sites
                .iter()
                .all(|&(call, scope)| self.never_runs(call, scope))
    }

    pub(crate) fn class_constructions(&self, class: ScopeId) -> Vec<(Node<'t>, ScopeId)> {
        let name = &self.scopes[class].name;
        self.calls_named(name)
            .iter()
            .filter_map(|&i| {
                let site = &self.calls[i];
                let func = site.node.field("function")?;
                if func.kind_name() != "identifier" {
                    return None;
                }
                match self.binding_at(site.scope, name, func)? {
                    Binding::Def(id) if *id == class => Some((site.node, site.scope)),
                    _ => None,
                }
            })
            .collect()
    }

    /// A class deriving (here or through local bases) from the builtin
    /// `dict` or `collections.UserDict`.
    pub(crate) fn is_dict_subclass(&self, class: ScopeId) -> bool {
        // Bases may name each other (`class A(B)`, `class B(A)` in code
        // being typed): each class is looked at once.
        let mut seen = vec![class];
        let mut chain = vec![class];
        while let Some(c) = chain.pop() {
            let scope = &self.scopes[c];
            if let Some(supers) = scope.node.field("superclasses") {
                let mut cursor = supers.walk();
                let direct = supers.named_children(&mut cursor).any(|b| {
                    let t = text(b, self.src);
                    (t == "dict" && self.lookup(scope.parent.unwrap_or(0), "dict").is_none())
                        || t == "UserDict"
                        || t == "collections.UserDict"
                });
                if direct {
                    return true;
                }
            }
            for base in self.base_classes(c) {
                if !seen.contains(&base) && seen.len() < 16 {
                    seen.push(base);
                    chain.push(base);
                }
            }
        }
        false
    }

    /// `__getattr__ = dict.__getitem__` (or `dict.get`) in the class body (or
    /// a local base's).
    pub(crate) fn getattr_is_getitem(&self, class: ScopeId) -> bool {
        self.attribute(class, "__getattr__")
            .is_some_and(|bindings| {
                bindings.iter().any(|b| {
                    matches!(b, Binding::Value { value, .. }
                    if matches!(text(*value, self.src), "dict.__getitem__" | "dict.get"))
                })
            })
    }

    /// True for a dataclass-like class (fields are constructor parameters in
    /// order): `@dataclass`, `@struct.dataclass`, `NamedTuple`, `PyTreeNode`.
    /// The fields a dataclass of this module declares, its bases' first
    /// (as `dataclasses.fields` lists them): the annotated names of each
    /// class body, `ClassVar`s left out.
    pub(crate) fn dataclass_field_names(&self, class: ScopeId) -> Vec<String> {
        let mut chain = self.class_and_bases(class);
        chain.reverse();
        let mut names: Vec<String> = Vec::new();
        for id in chain {
            let Some(body) = self.scopes[id].node.field("body") else {
                continue;
            };
            let mut cursor = body.walk();
            for statement in body.named_children(&mut cursor) {
                let Some(assignment) = super::statement_assignment(statement) else {
                    continue;
                };
                let (Some(left), Some(annotation)) =
                    (assignment.field("left"), assignment.field("type"))
                else {
                    continue;
                };
                if left.kind_name() != "identifier"
                    || text(annotation, self.src).contains("ClassVar")
                {
                    continue;
                }
                let name = text(left, self.src).to_owned();
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        names
    }

    pub(crate) fn is_dataclass_like(&self, class: ScopeId) -> bool {
        if self.makes_dataclass_fields(class) {
            return true;
        }
        // A plain subclass without an `__init__` of its own is constructed
        // by its dataclass base's (`class PPO(Algorithm)` of a frozen
        // dataclass `Algorithm`): the base's fields, by position and name.
        let mut current = class;
        for _ in 0..8 {
            if self.method(current, "__init__").is_some() {
                return false;
            }
            let Some(&base) = self.base_classes(current).first() else {
                return false;
            };
            if base == class {
                return false;
            }
            if self.makes_dataclass_fields(base) {
                return self.method(base, "__init__").is_none();
            }
            current = base;
        }
        false
    }

    /// Whether `class` itself makes its annotated names fields: decorated
    /// `@dataclass`, a `NamedTuple`/struct, or made one by its base's
    /// `__init_subclass__`.
    fn makes_dataclass_fields(&self, class: ScopeId) -> bool {
        let scope = &self.scopes[class];
        let decorated = scope.decorators().iter().any(|d| {
            let t = text(*d, self.src);
            let head = t.split('(').next().unwrap_or(t);
            head.ends_with("dataclass") || head.ends_with("dataclasses.dataclass")
        });
        let based = scope.node.field("superclasses").is_some_and(|s| {
            let t = text(s, self.src);
            t.contains("NamedTuple") || t.contains("PyTreeNode") || t.contains("struct.Struct")
        });
        // A local base whose `__init_subclass__` makes every subclass a
        // dataclass (equinox-style `Module`s).
        let mut chain = vec![class];
        let mut made_by_base = false;
        while let Some(base) = chain
            .last()
            .and_then(|c| self.base_classes(*c).first().copied())
        {
            if chain.contains(&base) || chain.len() > 8 {
                break;
            }
            made_by_base |= self
                .method(base, "__init_subclass__")
                .is_some_and(|m| text(self.scopes[m].node, self.src).contains("dataclass"));
            chain.push(base);
        }
        decorated || based || made_by_base
    }

    /// The annotated fields of a class body, in order (`x: int = 3`).
    fn annotated_fields(&self, class: ScopeId) -> Vec<String> {
        let mut out = Vec::new();
        let Some(body) = self.scopes[class].node.field("body") else {
            return out;
        };
        let mut cursor = body.walk();
        for statement in body.named_children(&mut cursor) {
            if statement.kind_name() != "expression_statement" {
                continue;
            }
            let Some(assign) = statement.named_child(0) else {
                continue;
            };
            if assign.kind_name() == "assignment" && assign.field("type").is_some() {
                if let Some(left) = assign
                    .field("left")
                    .filter(|l| l.kind_name() == "identifier")
                {
                    let name = text(left, self.src);
                    if !text(assign, self.src).contains("ClassVar") {
                        out.push(name.to_owned());
                    }
                }
            }
        }
        out
    }

    /// For a dataclass-like class: the constructor position of field `attr`
    /// (inherited fields first).
    pub(crate) fn dataclass_field_position(&self, class: ScopeId, attr: &str) -> Option<usize> {
        if !self.is_dataclass_like(class) || self.method(class, "__init__").is_some() {
            return None;
        }
        let mut chain = vec![class];
        let mut current = class;
        while let Some(&base) = self.base_classes(current).first() {
            if chain.contains(&base) || chain.len() > 8 {
                break;
            }
            chain.push(base);
            current = base;
        }
        let mut fields: Vec<String> = Vec::new();
        // (A plain class's annotations are no fields.)
        for c in chain
            .iter()
            .rev()
            .filter(|c| self.makes_dataclass_fields(**c))
        {
            for f in self.annotated_fields(*c) {
                if !fields.contains(&f) {
                    fields.push(f);
                }
            }
        }
        fields.iter().position(|f| f == attr)
    }

    /// Attribute names bound on instances of `class` or its local bases.
    pub(crate) fn attribute_names(&self, class: ScopeId) -> Vec<String> {
        let mut classes = vec![class];
        let mut i = 0;
        while i < classes.len() && classes.len() < 16 {
            for b in self.base_classes(classes[i]) {
                if !classes.contains(&b) {
                    classes.push(b);
                }
            }
            i += 1;
        }
        let mut names: Vec<String> = self
            .attributes
            .keys()
            .filter(|(c, _)| classes.contains(c))
            .map(|(_, n)| n.clone())
            .collect();
        // Dataclass fields without a default (`platform: str`) are attributes too.
        for class in &classes {
            if self.makes_dataclass_fields(*class) {
                names.extend(self.annotated_fields(*class));
            }
        }
        names.sort();
        names.dedup();
        names.truncate(32);
        names
    }

    /// Whether something other than a class body of `class` or its bases
    /// here binds `attr` (`self.attr = ...` in a method, `setattr`): an
    /// instance may then hold its own.
    pub(crate) fn stored_on_instances(&self, class: ScopeId, attr: &str) -> bool {
        self.class_and_bases(class).iter().any(|c| {
            self.attributes.get(&(*c, attr.to_owned())).is_some_and(|bindings| {
                bindings.iter().any(|b| {
                    !matches!(b, Binding::Value { scope, .. } if self.scopes[*scope].kind == ScopeKind::Class)
                })
            })
        })
    }

    pub(crate) fn has_argparse_arguments(&self) -> bool {
        !self.calls_named("add_argument").is_empty()
    }

    /// The attribute of the parsed namespace an `add_argument` call sets:
    /// its `dest=`, else its long flag (else its first) without dashes.
    pub(crate) fn argument_dest(&self, call: Node<'t>) -> Option<String> {
        let args = self.args_of(call);
        if let Some(dest) = args.keyword("dest") {
            return string_value(dest, self.src);
        }
        let flags: Vec<String> = args
            .positional
            .iter()
            .filter_map(|a| string_value(*a, self.src))
            .collect();
        let long = flags
            .iter()
            .find(|f| f.starts_with("--"))
            .or(flags.first())?;
        Some(long.trim_start_matches('-').replace('-', "_"))
    }

    /// The attributes `parse_args()` gives, each with its default as a
    /// plain run sees it (`Flow::argparse_default`), for the modules that
    /// parse a parser this one makes; notes name the file `place`.
    pub(crate) fn argparse_arguments(&self, place: Option<&str>) -> Vec<(String, Vec<ConstAlt>)> {
        let mut dests: Vec<String> = self
            .call_sites_named(&["add_argument"])
            .iter()
            .filter_map(|site| self.argument_dest(site.node))
            .collect();
        dests.sort();
        dests.dedup();
        dests
            .into_iter()
            .map(|dest| {
                let flow = self.flow();
                let mut alts = flow.detach(&flow.argparse_default(&dest, 0), 0);
                // The note names the line of another file: and the file.
                if let Some(place) = place {
                    for alt in &mut alts {
                        if let Why::Default(note) = &mut alt.why {
                            *note = note.replace("(line ", &format!("({place} line "));
                        }
                    }
                }
                (dest, alts)
            })
            .collect()
    }

    /// The values `parser.set_defaults(name=value)` gives the parsed
    /// namespace's attribute `name`, with their scopes.
    pub(crate) fn namespace_defaults(&self, name: &str) -> Vec<(Node<'t>, ScopeId)> {
        self.calls_named("set_defaults")
            .iter()
            .filter_map(|&i| {
                let site = &self.calls[i];
                let value = self.args_of(site.node).keyword(name)?;
                Some((value, site.scope))
            })
            .collect()
    }

    /// True if `call` is `parser.set_defaults(...)` (its keywords become
    /// attributes of the parsed namespace).
    fn is_set_defaults(&self, call: Node<'t>) -> bool {
        call.field("function").is_some_and(|f| {
            f.kind_name() == "attribute"
                && f.field("attribute")
                    .is_some_and(|a| text(a, self.src) == "set_defaults")
        })
    }

    /// Names bound to `functools.partial(F, ...)` (found by the callee's text
    /// first: a cheap scan of the bindings), with `F` and the scope it is in.
    pub(crate) fn names_bound_to_partials(&self) -> Vec<(&str, Node<'t>, ScopeId)> {
        let mut out = Vec::new();
        for ((_, name), bindings) in &self.bindings {
            for b in bindings {
                let Binding::Value { value, scope, .. } = b else {
                    continue;
                };
                let value = unparenthesize(*value);
                let is_partial_call = value.kind_name() == "call"
                    && value
                        .field("function")
                        .is_some_and(|f| text(f, self.src).ends_with("partial"))
                    && self.callee(value, *scope).as_deref() == Some(names::PARTIAL);
                if !is_partial_call {
                    continue;
                }
                if let Some(first) = self.args_of(value).positional.first() {
                    out.push((name.as_str(), *first, *scope));
                }
            }
        }
        out
    }

    /// Calls of names bound to `functools.partial(F, ...)` where `F` is the
    /// library API `target` (`jit_fn = partial(jax.jit, device=d)`, then
    /// `jit_fn(f, backend="cpu")`), each with the stored arguments merged
    /// into its own (stored positionals first, its keywords winning). Only
    /// partials made in the scope of the call: the arguments are evaluated
    /// in one scope.
    /// Only the sites of rule `rule`'s query count.
    pub fn calls_through_partial(
        &self,
        target: &str,
        rule: usize,
    ) -> Vec<(super::CallSite<'t>, Args<'t>)> {
        let mut names: Vec<&str> = Vec::new();
        for (name, first, scope) in self.names_bound_to_partials() {
            if self.canonical(first, scope).as_deref() == Some(target) && !names.contains(&name) {
                names.push(name);
            }
        }
        let mut out = Vec::new();
        for name in names {
            for site in self.sites_named(rule, &[name]) {
                let Some(func) = site
                    .node
                    .field("function")
                    .filter(|f| f.kind_name() == "identifier")
                else {
                    continue;
                };
                let Some(Binding::Value { value, scope, .. }) =
                    self.binding_at(site.scope, name, func)
                else {
                    continue;
                };
                if *scope != site.scope {
                    continue;
                }
                let stored = self.args_of(unparenthesize(*value));
                let own = self.args_of(site.node);
                out.push((site, through_partial(&stored, &own)));
            }
        }
        out
    }

    /// The file this module is, for its tokens (`Module::local_ref`),
    /// without reading other modules (one module deep).
    pub fn set_file(&self, file: &std::path::Path) {
        *self.file.borrow_mut() = Some(file.to_path_buf());
    }

    /// Lets value flow read the summaries of the modules this one imports.
    pub fn use_resolver(&self, file: &std::path::Path, resolver: &'t dyn super::Resolver) {
        self.resolver.set(Some(resolver));
        *self.file.borrow_mut() = Some(file.to_path_buf());
    }

    /// The value of `path` (a canonical dotted path; `f()` for what `f`
    /// returns) defined in another module of the workspace, from its summary.
    /// Looked up once per path, and only for paths this module imports.
    pub(crate) fn external_value(&self, path: &str) -> Option<Vec<ConstAlt>> {
        if let Some(found) = self.external_values.borrow().get(path) {
            return found.clone();
        }
        let found = self.find_external_value(path);
        self.external_values
            .borrow_mut()
            .insert(path.to_owned(), found.clone());
        found
    }

    /// Whether function `path` (as imported here) is defined in a module
    /// the resolver finds: only then are a call's arguments worth
    /// evaluating for it (most dotted calls are of the standard library).
    pub(crate) fn resolves(&self, path: &str) -> bool {
        self.ask_resolver_once(&self.resolvable, path, |resolver, file| {
            resolver.resolve_function(file, path).is_some()
        })
    }

    /// `ask` of the resolver about `path` from this module's file, kept in
    /// `cache`; false without a resolver or a file.
    fn ask_resolver_once(
        &self,
        cache: &std::cell::RefCell<rustc_hash::FxHashMap<String, bool>>,
        path: &str,
        ask: impl FnOnce(&dyn super::Resolver, &std::path::Path) -> bool,
    ) -> bool {
        if let Some(known) = cache.borrow().get(path) {
            return *known;
        }
        let found = match (self.resolver.get(), self.file.borrow().clone()) {
            (Some(resolver), Some(file)) => ask(resolver, &file),
            _ => {
                self.note_unfollowed(path);
                false
            }
        };
        cache.borrow_mut().insert(path.to_owned(), found);
        found
    }

    /// What this module registers into other modules' module-level dicts
    /// when it is imported: module-level decorators (`@register("matmul")`,
    /// `@register`) and call statements (`register_export(...)`) whose
    /// function is a registrar of another module of the workspace
    /// (`ModuleSummary::registrars`), each asked what it stores for this
    /// call (`Resolver::call_stores`). Computed once; empty while being
    /// computed (the calls' own arguments are evaluated without it).
    pub(crate) fn registrations(&self) -> Arc<Vec<super::summary::Registration>> {
        if let Some(found) = self.registrations.borrow().as_ref() {
            return found.clone();
        }
        if self.registering.replace(true) {
            cut();
            return Arc::default();
        }
        let found = Arc::new(self.find_registrations());
        self.registering.set(false);
        *self.registrations.borrow_mut() = Some(found.clone());
        found
    }

    /// The entries this module registered into the dict `path` names (a
    /// module-level dict of another module, as imported here).
    pub(crate) fn registered_into(&self, path: &str) -> Vec<(Const, Vec<ConstAlt>)> {
        let registrations = self.registrations();
        let (Some(resolver), Some(file)) = (self.resolver.get(), self.file.borrow().clone()) else {
            return Vec::new();
        };
        let Some((summary, name)) = resolver.resolve(&file, path) else {
            return Vec::new();
        };
        // And what the modules this one imports registered there
        // (`import experiments` for its `@register` decorators): only into
        // a module with registrars.
        let imported = match summary.registrars.is_empty() {
            true => Vec::new(),
            false => resolver.imported_registrations_into(&file, &summary.file),
        };
        if registrations.is_empty() && imported.is_empty() {
            return Vec::new();
        }
        registrations
            .iter()
            .chain(&imported)
            .filter(|r| r.file == summary.file && r.dict == name)
            .map(|r| (r.key.clone(), r.values.clone()))
            .collect()
    }

    /// What the module calling into this one registered into the
    /// module-level dict literal `dict` under `key`.
    pub(crate) fn registered_entry(&self, dict: Node<'t>, key: &Val<'_>) -> Option<Vec<ConstAlt>> {
        let registered = self.caller_registered.borrow().clone();
        if registered.is_empty() {
            return None;
        }
        let file = self.file.borrow().clone()?;
        let name = self.module_level_name_of(dict)?;
        registered
            .iter()
            .rev()
            .find(|r| *r.file == *file && r.dict == name && r.key.val().same(key))
            .map(|r| r.values.clone())
    }

    fn find_registrations(&self) -> Vec<super::summary::Registration> {
        let (Some(resolver), Some(file)) = (self.resolver.get(), self.file.borrow().clone()) else {
            return Vec::new();
        };
        let registrar = |path: &str| {
            !super::reach::is_library_path(path)
                && path.contains('.')
                && resolver
                    .resolve_function(&file, path)
                    .is_some_and(|(summary, name)| {
                        summary.registrars.contains(&name) && *summary.file != *file
                    })
        };
        let flow = self.flow();
        let mut out = Vec::new();
        for stmt in self.top_level_statements() {
            match stmt.kind_name() {
                "decorated_definition" => {
                    let Some(def) = stmt.field("definition").and_then(|d| self.scope_of_def(d))
                    else {
                        continue;
                    };
                    let val = match self.scopes[def].kind {
                        ScopeKind::Class => Val::Class(def),
                        _ => Val::Function(def),
                    };
                    for decorator in self.scopes[def].decorators() {
                        let is_call = decorator.kind_name() == "call";
                        let path = match is_call {
                            true => self.callee(decorator, super::MODULE_SCOPE),
                            false => self.canonical(decorator, super::MODULE_SCOPE),
                        };
                        let Some(path) = path.filter(|p| registrar(p)) else {
                            continue;
                        };
                        // `@register("k")` calls the factory, then applies what it
                        // returns to the def; `@register` applies itself.
                        let decorated = flow.detach_passing(&[Alt::fixed(val.clone())]);
                        let stores = if is_call {
                            let Some(call) =
                                flow.foreign_args(None, decorator, super::MODULE_SCOPE, 0)
                            else {
                                continue;
                            };
                            resolver.call_stores(&file, &path, &call, Some(&decorated))
                        } else {
                            let call = super::summary::ForeignCall {
                                positional: vec![decorated],
                                ..Default::default()
                            };
                            resolver.call_stores(&file, &path, &call, None)
                        };
                        out.extend(stores);
                    }
                }
                "expression_statement" => {
                    let Some(call) = stmt.named_child(0).filter(|c| c.kind_name() == "call") else {
                        continue;
                    };
                    let Some(path) = self.callee(call, super::MODULE_SCOPE) else {
                        continue;
                    };
                    if !registrar(&path) {
                        continue;
                    }
                    if let Some(args) = flow.foreign_args(None, call, super::MODULE_SCOPE, 0) {
                        out.extend(resolver.call_stores(&file, &path, &args, None));
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// The class of this module an object another module made and handed
    /// here is of: its class by the bare name (`named_for`), or by this
    /// module's own path (an object a callee made from the class it was
    /// given), so that what is read of it runs in this module's evaluation
    /// (loop elements on their choices).
    pub(crate) fn own_class_of_object(&self, fields: &Fields) -> Option<ScopeId> {
        let name = object_class(fields)?;
        let own;
        let name = match name.contains('.') {
            false => name,
            true => {
                own = self.own_def_named(name)?;
                own.as_str()
            }
        };
        match self.lookup(0, name) {
            Some([Binding::Def(class)]) if self.scopes[*class].kind == ScopeKind::Class => {
                Some(*class)
            }
            _ => None,
        }
    }

    /// Method `attr` of this module's `class` by this module's own dotted
    /// path (`pkg.mod.Class.attr`): how an object of the class that another
    /// module made reaches it, asked of this module as another module's
    /// method is.
    pub(crate) fn own_method_path(&self, class: ScopeId, attr: &str) -> Option<String> {
        let module = super::contract::module_name(self.file.borrow().as_deref()?)?;
        Some(format!("{module}.{}.{attr}", self.scopes[class].name))
    }

    /// Whether no module the resolver finds defines the class `path` (as
    /// imported here), asked once per path; true without a resolver.
    pub(crate) fn class_path_unresolved(&self, path: &str) -> bool {
        !self.ask_resolver_once(&self.resolvable_classes, path, |resolver, file| {
            resolver.resolve(file, path).is_some()
        })
    }

    /// The name of this module's own module-level def that `path` (a
    /// dotted path, as another module names it) resolves to, if it does.
    pub(crate) fn own_def_named(&self, path: &str) -> Option<String> {
        let (resolver, file) = (self.resolver.get()?, self.file.borrow().clone()?);
        let (summary, name) = resolver.resolve(&file, path)?;
        (*summary.file == *file && !name.contains('.')).then_some(name)
    }

    /// Whether `path` (as imported here) names a module-level function of
    /// another module that reaches something (its summary lists it): such
    /// a function passed on as a value is worth naming (`Val::Ref`).
    pub(crate) fn imports_reaching_function(&self, path: &str) -> bool {
        // The libraries' own names are never the workspace's (and asking
        // costs a look at the disk per model).
        if super::reach::is_library_path(path) || !path.contains('.') {
            return false;
        }
        self.ask_resolver_once(&self.reaching_imports, path, |resolver, file| {
            resolver
                .resolve(file, path)
                .is_some_and(|(summary, name)| summary.functions.contains_key(&name))
        })
    }

    /// What a call of `path` (a function or method of another module)
    /// returns with the call's values bound (`Resolver::call_returns`).
    pub(crate) fn foreign_returns(
        &self,
        path: &str,
        call: &super::summary::ForeignCall,
    ) -> Option<Vec<ConstAlt>> {
        self.note_unfollowed(path);
        let resolver = self.resolver.get()?;
        let file = self.file.borrow().clone()?;
        let mut alts = resolver.call_returns(&file, path, call)?;
        self.forget_overridden_defaults(&mut alts);
        Some(alts)
    }

    /// The fields of `object`, made by another module's class `base`, that
    /// its `__init__` stored: not its `__class__`, nor the base's class-body
    /// values, which a subclass's body overrides.
    pub(crate) fn stored_by_foreign_init(&self, base: &str, object: &Fields) -> Fields {
        let base_body = self.foreign_class_constants(base);
        object
            .iter()
            .filter(|(name, alts)| {
                name != "__class__"
                    && !base_body
                        .iter()
                        .any(|(n, body)| n == name && super::summary::same_values(body, alts))
            })
            .cloned()
            .collect()
    }

    /// The class-body values of another module's class `path` (as imported
    /// here), from its summary: `(name, values)`.
    pub(crate) fn foreign_class_constants(&self, path: &str) -> Vec<(String, Vec<ConstAlt>)> {
        self.note_unfollowed(path);
        let (Some(resolver), Some(file)) = (self.resolver.get(), self.file.borrow().clone()) else {
            return Vec::new();
        };
        let Some((summary, name)) = resolver.resolve(&file, path) else {
            return Vec::new();
        };
        let prefix = format!("{name}.");
        summary
            .constants
            .iter()
            .filter_map(|(key, alts)| {
                let attr = key.strip_prefix(&prefix)?;
                (!attr.contains('.')).then(|| (attr.to_owned(), alts.clone()))
            })
            .collect()
    }

    /// This module sets environment variable `key` itself
    /// (`os.environ.setdefault("K", ...)`, `os.environ["K"] = ...`,
    /// `os.putenv("K", ...)`): a read of it does not see its default.
    pub(crate) fn env_written(&self, key: &str) -> bool {
        self.caller_env.borrow().iter().any(|k| k == key)
            || self
                .env_keys
                .get_or_init(|| self.scan_env_keys_set())
                .iter()
                .any(|k| k == key)
    }

    /// The environment variables this module's text sets
    /// (`os.environ.setdefault("K", ...)`, `os.environ["K"] = ...`,
    /// `os.putenv("K", ...)`), by a literal name.
    pub(crate) fn env_keys_set(&self) -> Vec<String> {
        self.env_keys
            .get_or_init(|| self.scan_env_keys_set())
            .clone()
    }

    fn scan_env_keys_set(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for needle in ["environ.setdefault(", "putenv(", "environ["] {
            for (at, _) in self.src.match_indices(needle) {
                let rest = self.src[at + needle.len()..].trim_start();
                let Some(quote) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') else {
                    continue;
                };
                let Some(end) = rest[1..].find(quote) else {
                    continue;
                };
                let key = &rest[1..1 + end];
                // `environ["K"]` stores only when assigned.
                if needle == "environ[" {
                    let after = rest[end + 2..].trim_start();
                    let Some(after) = after.strip_prefix(']') else {
                        continue;
                    };
                    let after = after.trim_start();
                    if !after.starts_with('=') || after.starts_with("==") {
                        continue;
                    }
                }
                if !key.is_empty() && !out.iter().any(|k| k == key) {
                    out.push(key.to_owned());
                }
            }
        }
        out
    }

    /// Values another module gives by the default of an environment
    /// variable this module sets: a run-time choice here.
    fn forget_overridden_defaults(&self, alts: &mut [ConstAlt]) {
        for alt in alts {
            if let Why::Default(note) = &alt.why {
                let key = note
                    .split_once('$')
                    .and_then(|(_, rest)| rest.split_whitespace().next());
                if key.is_some_and(|k| self.env_written(k)) {
                    alt.why = Why::Choice;
                }
            }
        }
    }

    /// Read without a resolver, another module's `path` was asked about.
    fn note_unfollowed(&self, path: &str) {
        if self.resolver.get().is_none()
            && path.contains('.')
            && !super::reach::is_library_path(path)
        {
            self.wanted_imports.set(true);
        }
    }

    fn find_external_value(&self, path: &str) -> Option<Vec<ConstAlt>> {
        self.note_unfollowed(path);
        let resolver = self.resolver.get()?;
        let file = self.file.borrow().clone()?;
        // `f("key")`: f's keyed returns for that key.
        let keyed = path
            .strip_suffix("\")")
            .and_then(|p| p.split_once("(\""))
            .map(|(p, k)| (p, k.to_owned()));
        let (path, call, key) = match (keyed, path.strip_suffix("()")) {
            (Some((p, k)), _) => (p, true, Some(k)),
            (None, Some(p)) => (p, true, None),
            (None, None) => (path, false, None),
        };
        if path.starts_with("jax.") || path.starts_with("numpy.") || !path.contains('.') {
            return None;
        }
        // `pkg.module.NAME`: the resolver finds the module holding NAME; a
        // method `pkg.module.Class.method` is `Class.method` in that module.
        let (mut summary, mut name) = resolver.resolve(&file, path).or_else(|| {
            let (prefix, last) = path.rsplit_once('.')?;
            let (summary, class) = resolver.resolve(&file, prefix)?;
            Some((summary, format!("{class}.{last}")))
        })?;
        // Through re-exports (`from .configs import KernelConfig` in a
        // package's `__init__.py`), a few steps.
        for _ in 0..4 {
            if let Some(key) = &key {
                if let Some(table) = summary.keyed_returns.get(&name) {
                    return table
                        .iter()
                        .find(|(k, _)| k == key)
                        .map(|(_, alts)| alts.clone());
                }
            } else {
                let table = if call {
                    &summary.returns
                } else {
                    &summary.constants
                };
                if let Some(found) = table.get(&name) {
                    return Some(found.clone());
                }
            }
            let (head, rest) = match name.split_once('.') {
                Some((head, rest)) => (head, Some(rest)),
                None => (name.as_str(), None),
            };
            let target = summary.reexports.get(head)?;
            let target = match rest {
                Some(rest) => format!("{target}.{rest}"),
                None => target.clone(),
            };
            let (next, next_name) = resolver.resolve(&summary.file, &target)?;
            summary = next;
            name = next_name;
        }
        None
    }
}

use std::collections::HashMap;

/// See `Val::ParamRef`.
#[derive(Clone, Debug)]
pub struct ParamRefVal<'t> {
    pub def: ScopeId,
    pub index: usize,
    pub name: String,
    pub path: Vec<String>,
    _node: std::marker::PhantomData<Node<'t>>,
}

/// What the arguments of a lowered function are.
#[derive(Clone, Copy, Debug, Default)]
pub struct ArgUse {
    /// Some argument is a `ShapeDtypeStruct`.
    pub abstract_value: bool,
    /// What those abstract values' shardings use.
    pub sharding: ShardingUse,
    /// Some argument is an array on a device.
    pub concrete: bool,
}

impl ArgUse {
    fn merge(&mut self, other: ArgUse) {
        self.abstract_value |= other.abstract_value;
        self.sharding.merge(other.sharding);
        self.concrete |= other.concrete;
    }
}

fn callee_is_jit<'t>(m: &Module<'t>, call: Node<'t>, scope: ScopeId) -> bool {
    m.callee(call, scope).as_deref() == Some(names::JIT)
}

/// The binding of the first name of a dotted callee (`mod` of `mod.Cls`).
fn func_root_binding<'m, 't>(
    m: &'m Module<'t>,
    func: Node<'t>,
    scope: ScopeId,
) -> Option<&'m Binding<'t>> {
    let mut root = func;
    while root.kind_name() == "attribute" {
        root = root.field("object")?;
    }
    if root.kind_name() != "identifier" {
        return None;
    }
    m.binding_at(scope, text(root, m.src), root)
}

/// What a call site passes for a parameter.
/// An entry looked up in a dict value.
enum Lookup<'t> {
    Found(Vec<Alt<'t>>),
    /// Certainly not in the dict.
    Missing,
    Unknown,
}

#[derive(Clone, Copy, Debug)]
pub enum ParamSource<'t> {
    Arg(Node<'t>),
    /// Not among the call's own arguments; perhaps in what it unpacks with
    /// `**` (there is no `*` that could pass it by position).
    Splat,
    /// Item `n` of what the call's trailing `*rest` unpacks.
    Spread(Node<'t>, usize),
    /// Nothing: the parameter's default applies.
    Default,
    /// Not bound by the partial that is the call (its position among the
    /// parameters a call passes, if it has one): perhaps by a partial made
    /// of that partial (`partial(partial(f), fn=g)`).
    Wrapped(Option<usize>),
    /// Passed where we cannot see it.
    Unknown,
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum SiteKind {
    /// `f(...)`, `obj.m(...)`, `Class(...)` (`bound_self`: the first
    /// parameter is passed implicitly).
    Direct { bound_self: bool },
    /// `functools.partial(f, ...)`: binds some parameters.
    Partial { bound_self: bool },
    /// Passed as an argument to a call (a helper, `jax.jit`) that calls it.
    Passed,
    /// A use of the function whose calls are not visible.
    Opaque,
}

/// A call on an object whose method stores one of its attributes
/// (`Flow::last_method_store`).
struct MethodStore<'t> {
    call: Node<'t>,
    method: ScopeId,
    /// The value it stores, when it certainly does.
    value: Option<Node<'t>>,
    /// The value is the call's keyword argument (a keyword setter,
    /// `Module::keyword_setters`), read where the call is; else an
    /// expression of the method, read with the call bound.
    at_call: bool,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct CallSiteOf<'t> {
    pub call: Node<'t>,
    pub scope: ScopeId,
    pub kind: SiteKind,
}

/// The expressions a call unpacks with `**`.
fn dict_splats(call: Node<'_>) -> Vec<Node<'_>> {
    let Some(list) = call.field("arguments") else {
        return Vec::new();
    };
    let mut cursor = list.walk();
    list.named_children(&mut cursor)
        .filter(|a| a.kind_name() == "dictionary_splat")
        .filter_map(|a| a.named_child(0))
        .map(unparenthesize)
        .collect()
}

/// Fields an object is made or copied with (`Flow::overrides_by_choice`).
type FieldOverrides = Vec<(String, Vec<ConstAlt>)>;

/// The object of `fields` (the value of `object`) with each way's fields
/// replaced, one alternative per way compatible with `object`'s choices.
fn overridden<'t>(
    fields: &Fields,
    object: &Alt<'t>,
    ways: &[(Vec<Choice>, FieldOverrides)],
) -> Vec<Alt<'t>> {
    ways.iter()
        .filter_map(|(choices, overrides)| {
            let choices = merge_choices(&object.choices, choices)?;
            let mut fields = fields.clone();
            for (name, value) in overrides {
                fields.retain(|(n, _)| n != name);
                fields.push((name.clone(), value.clone()));
            }
            Some(Alt {
                val: Val::Object(Arc::new(fields)),
                why: object.why.clone(),
                choices,
            })
        })
        .collect()
}

/// A value read for what it is (a platform, params, a flag), not called,
/// looked into or handed to `jit` (a mesh or sharding picks a jit wrapper,
/// `partial(jax.jit, out_shardings=s) if s else jax.jit`, which takes
/// certain values only).
fn is_plain_value(val: &Val) -> bool {
    matches!(
        val,
        Val::Str(_)
            | Val::AnyStr
            | Val::Seq(..)
            | Val::Bool(_)
            | Val::Int(_)
            | Val::None
            | Val::Params(_)
            | Val::InterpretParams
    )
}

/// A value whose alternatives on different choices make another module's
/// call answer differently (not a function: it crosses as a token holding
/// its own choices).
fn is_data(val: &Val) -> bool {
    matches!(
        val,
        Val::Str(_)
            | Val::Seq(..)
            | Val::Bool(_)
            | Val::Int(_)
            | Val::None
            | Val::Params(_)
            | Val::InterpretParams
            | Val::AbstractDevice(_)
            | Val::Mesh(_)
            | Val::Sharding(_)
            | Val::Spec(_)
            | Val::Object(_)
    )
}

/// The ways of choosing one value for each argument, given the distinct
/// choice lists of each argument's values: their compatible combinations,
/// merged. Empty (no split) when no argument's values are on choices or
/// there are more than a few ways.
fn choice_ways(per_argument: &[Vec<Vec<Choice>>]) -> Vec<Vec<Choice>> {
    if per_argument
        .iter()
        .all(|lists| lists.iter().all(|c| c.is_empty()))
    {
        return Vec::new();
    }
    let mut ways: Vec<Vec<Choice>> = vec![Vec::new()];
    for lists in per_argument {
        let mut next: Vec<Vec<Choice>> = Vec::new();
        for way in &ways {
            for choices in lists {
                if let Some(merged) = merge_choices(way, choices) {
                    if !next.contains(&merged) {
                        next.push(merged);
                    }
                }
            }
        }
        if next.len() > 4 {
            return Vec::new();
        }
        ways = next;
    }
    ways
}

/// A call to another module's function as a whole, and once per way of
/// choosing its arguments (`Flow::foreign_args_by_way`).
pub(crate) type ForeignWays = (
    super::summary::ForeignCall,
    Vec<(Vec<Choice>, super::summary::ForeignCall)>,
);

/// Where a keyword argument comes from (`Flow::keyword_sources`).
#[derive(Clone, Debug)]
pub struct KeywordSource<'t> {
    pub passed: Passed<'t>,
    pub why: Why,
    pub choices: Vec<Choice>,
}

#[derive(Clone, Debug)]
pub enum Passed<'t> {
    /// Written here: the node holding it (a keyword argument, a dict
    /// entry), its value and the value's scope.
    At {
        holder: Node<'t>,
        value: Node<'t>,
        scope: ScopeId,
    },
    /// Passed from a dict whose entry has no node of its own here: its values.
    Values(Vec<Alt<'t>>),
    /// Not passed: the API's default.
    Absent,
    /// Passed where it cannot be seen.
    Unknown,
}

/// The `return` values of a function, for `Flow::eval_one_of`, less those
/// in branches that never run (`if False: return "cpu"`), unless that is all.
pub(crate) fn returned_values<'t>(m: &Module<'t>, def: ScopeId) -> Vec<Option<Node<'t>>> {
    returned_values_noted(m, def)
        .into_iter()
        .map(|(n, _)| n)
        .collect()
}

/// A `return` value, with the note of the default of run-time
/// configuration it runs by, if a default decided that it does.
pub(crate) type Returned<'t> = (Option<Node<'t>>, Option<String>);

/// `returned_values`, each with the default it runs by (`Branches::by_default`).
pub(crate) fn returned_values_noted<'t>(m: &Module<'t>, def: ScopeId) -> Vec<Returned<'t>> {
    live_returns(&m.scopes[def].returned, &m.branch_ranges(def))
}

/// The returns `branches` leaves, each with the default it runs by; all of
/// them when none is left.
fn live_returns<'t>(all: &[Node<'t>], branches: &super::reach::Branches) -> Vec<Returned<'t>> {
    let within = |n: &Node<'t>, r: &std::ops::Range<usize>| {
        r.contains(&n.start_byte()) && n.end_byte() <= r.end
    };
    let live: Vec<Returned<'t>> = all
        .iter()
        .filter(|r| !branches.dead.iter().any(|d| within(r, d)))
        .map(|r| {
            let note = branches
                .by_default
                .iter()
                .find(|(range, _)| within(r, range))
                .map(|(_, note)| note.clone());
            (Some(*r), note)
        })
        .collect();
    if live.is_empty() {
        all.iter().map(|r| (Some(*r), None)).collect()
    } else {
        live
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(t: &str) -> Val<'static> {
        Val::Str(t.to_owned())
    }

    /// `str` methods compute what Python computes (checked against
    /// CPython 3.12 by hand), and give only the type for any string.
    /// Integer arithmetic as CPython 3.12 computes it (the expected
    /// values printed by `python3 -c "print(7 // -2, ...)"`).
    #[test]
    fn int_ops_compute_what_python_does() {
        let cases = [
            ("//", 7, 2, Some(3)),
            ("//", 7, -2, Some(-4)),
            ("//", -7, 2, Some(-4)),
            ("//", -7, -2, Some(3)),
            ("//", 6, -3, Some(-2)),
            ("%", 7, -2, Some(-1)),
            ("%", -7, 2, Some(1)),
            ("%", -7, -2, Some(-1)),
            ("%", 6, 3, Some(0)),
            ("//", 1, 0, None),
            ("%", 1, 0, None),
            ("+", 800, 1, Some(801)),
            ("-", 1, 800, Some(-799)),
            ("*", 1600, 2, Some(3200)),
            ("*", i64::MAX, 2, None),
            ("//", i64::MIN, -1, None),
            ("**", 2, 3, Some(8)),
            ("**", 2, -1, None),
            ("**", 10, 40, None),
        ];
        for (op, a, b, want) in cases {
            assert_eq!(python_int_op(op, a, b), want, "{a} {op} {b}");
        }
    }

    #[test]
    fn float_ops_compute_what_python_does() {
        let cases = [
            ("/", 1.0, 4.0, Some(0.25)),
            ("//", -7.5, 2.0, Some(-4.0)),
            ("%", -7.5, 2.0, Some(0.5)),
            ("%", 7.5, -2.0, Some(-0.5)),
            ("/", 1.0, 0.0, None),
            ("**", -8.0, 0.5, None),
            ("**", 4.0, 0.5, Some(2.0)),
            ("*", 1e308, 10.0, None),
        ];
        for (op, a, b, want) in cases {
            assert_eq!(python_float_op(op, a, b), want, "{a} {op} {b}");
        }
        assert_eq!(python_float("2.5e-4"), Some(2.5e-4));
        assert_eq!(python_float("1_000.0"), Some(1000.0));
        assert_eq!(python_float("1j"), None);
    }

    #[test]
    fn str_methods_compute_what_python_does() {
        let strs = |v: Val<'_>| v.strings().map(|(_, items)| items);
        assert_eq!(
            strs(str_method(&s("platform = tpu"), "partition", &[s("=")])),
            Some(vec!["platform ".into(), "=".into(), " tpu".into()])
        );
        assert_eq!(
            strs(str_method(&s("a"), "rpartition", &[s("=")])),
            Some(vec!["".into(), "".into(), "a".into()])
        );
        assert_eq!(
            strs(str_method(&s("a,b,c"), "rsplit", &[s(","), Val::Int(1)])),
            Some(vec!["a,b".into(), "c".into()])
        );
        assert_eq!(
            strs(str_method(&s("a,b,c"), "split", &[s(","), Val::Int(1)])),
            Some(vec!["a".into(), "b,c".into()])
        );
        assert_eq!(
            python_splitlines("a\n\nb\r\nc\rd\n"),
            vec!["a", "", "b", "c", "d"]
        );
        assert_eq!(python_splitlines(""), Vec::<&str>::new());
        assert!(matches!(str_method(&s("--tpu"), "lstrip", &[s("-")]), Val::Str(t) if t == "tpu"));
        assert!(matches!(str_method(&s(" tpu "), "strip", &[]), Val::Str(t) if t == "tpu"));
        assert!(
            matches!(str_method(&s(","), "join", &[Val::Seq(SeqKind::Tuple, vec![s("a"), s("b")])]), Val::Str(t) if t == "a,b")
        );
        assert!(matches!(
            str_method(&s("12"), "isdigit", &[]),
            Val::Bool(true)
        ));
        assert!(matches!(
            str_method(&s(""), "isdigit", &[]),
            Val::Bool(false)
        ));
        assert!(matches!(
            str_method(
                &s("tpu_v5"),
                "startswith",
                &[Val::Seq(SeqKind::Tuple, vec![s("gpu"), s("tpu")])]
            ),
            Val::Bool(true)
        ));
        // Any string: the type, not a value.
        assert!(matches!(
            str_method(&Val::AnyStr, "split", &[s(",")]),
            Val::Members(SeqKind::List, _)
        ));
        assert!(matches!(
            str_method(&Val::AnyStr, "upper", &[]),
            Val::AnyStr
        ));
        assert!(matches!(
            str_method(&Val::AnyStr, "isdigit", &[]),
            Val::Unknown
        ));
        assert!(matches!(
            python_literal("('tpu', \"cuda\")").map(|c| c.val()),
            Some(Val::Seq(SeqKind::Tuple, items)) if items.len() == 2
        ));
        assert!(matches!(
            python_literal("[-1, True, None]").map(|c| c.val()),
            Some(Val::Seq(SeqKind::List, _))
        ));
        assert!(matches!(
            python_literal("{'platforms': ['cpu']}").map(|c| c.val()),
            Some(Val::Entries(_))
        ));
        assert!(python_literal("f(x)").is_none());
        assert!(python_literal("1.5").is_none());
        assert!(python_literal("'a' 'b' +").is_none());
        // Not modelled, or arguments not known.
        assert!(matches!(str_method(&s("a"), "encode", &[]), Val::Unknown));
        assert!(matches!(
            str_method(&s("a"), "split", &[Val::Unknown]),
            Val::Members(..)
        ));
    }
}

#[cfg(test)]
mod word_count_tests {
    use super::word_count;

    /// The count of whole words `mentioned_more_than` takes from its map.
    fn by_split(text: &str, name: &str) -> usize {
        text.split(|c: char| !(c == '_' || c.is_alphanumeric()))
            .filter(|w| !w.is_empty() && *w == name)
            .count()
    }

    #[test]
    fn word_count_is_the_split_count() {
        let texts = [
            "f(x) + f_1(f) # f\nff = f",
            "aaa aa a_aa aa",
            "ababa x aba",
            "é_f f é f\u{e9}f ∑f f∑",
            "",
            "f",
        ];
        for text in texts {
            for name in ["f", "aa", "aba", "f_1", "é_f", "x y", "", "∑f"] {
                assert_eq!(
                    word_count([text], name),
                    by_split(text, name),
                    "{name:?} in {text:?}"
                );
            }
        }
    }
}

/// When `node` is in a `return` inside `loop`'s body (not in a nested def):
/// the `if` conditions between them, each with the value it must have for
/// the `return` to run (`None` otherwise, or when an `elif` or a `while`
/// stands between).
fn return_guards_in_loop<'t>(node: Node<'t>, loop_node: Node<'t>) -> Option<Vec<(Node<'t>, bool)>> {
    let body = loop_node.field("body")?;
    if !(body.start_byte() <= node.start_byte() && node.end_byte() <= body.end_byte()) {
        return None;
    }
    let mut guards = Vec::new();
    let mut in_return = false;
    let mut child = node;
    while let Some(parent) = child.parent() {
        if parent.id() == body.id() {
            break;
        }
        match parent.kind_name() {
            "return_statement" => in_return = true,
            "function_definition"
            | "lambda"
            | "class_definition"
            | "while_statement"
            | "for_statement"
            | "elif_clause"
            | "try_statement"
            | "with_statement" => return None,
            "if_statement" => {
                let condition = parent.field("condition")?;
                if parent
                    .field("consequence")
                    .is_some_and(|c| c.id() == child.id())
                {
                    guards.push((condition, true));
                } else if child.kind_name() == "else_clause" {
                    // `if c: ... else: return x`, with no `elif` before it.
                    let mut c = parent.walk();
                    if parent
                        .named_children(&mut c)
                        .any(|n| n.kind_name() == "elif_clause")
                    {
                        return None;
                    }
                    guards.push((condition, false));
                } else if condition.id() != child.id() {
                    return None;
                }
            }
            _ => {}
        }
        child = parent;
    }
    in_return.then_some(guards)
}

/// `alts`, or one unknown alternative when there are none (a traced
/// argument has no value at all): a part of a `product` that is not known,
/// rather than one that empties it.
fn or_unknown(alts: Vec<Alt<'_>>) -> Vec<Alt<'_>> {
    if alts.is_empty() {
        vec![Alt::unknown()]
    } else {
        alts
    }
}

/// Whether `call` passes keyword `attr`, or unpacks a `**` mapping that may.
fn may_pass_keyword<'t>(m: &Module<'t>, call: Node<'t>, attr: &str) -> bool {
    m.args_of(call).keyword(attr).is_some() || !dict_splats(call).is_empty()
}

/// Whether every `return` of `method` returns its `self` (a builder's link).
fn returns_self(m: &Module<'_>, method: ScopeId) -> bool {
    let Some((self_name, _)) = m.scopes[method].params().first() else {
        return false;
    };
    let returns = returned_values(m, method);
    !returns.is_empty()
        && returns
            .iter()
            .all(|r| r.is_some_and(|r| text(r, m.src) == self_name))
}

/// The items a loop yields, per element, from the yielded value's
/// alternatives: each tells its element by the loop's choice (`point`),
/// which is then dropped (what the loop gives is all of them, in order).
/// `None` when an alternative does not tell its element or an element has
/// none.
fn loop_items<'t>(alts: &[Alt<'t>], point: usize) -> Option<Vec<Vec<Alt<'t>>>> {
    let mut items: Vec<Vec<Alt<'t>>> = Vec::new();
    for a in alts {
        let i = a.choices.iter().find(|(p, _)| *p == point)?.1;
        if i >= 64 {
            return None;
        }
        if items.len() <= i {
            items.resize(i + 1, Vec::new());
        }
        items[i].push(Alt {
            val: a.val.clone(),
            why: match &a.why {
                // The loop's own "each element" is the sequence's order.
                Why::Each(_) => Why::Fixed,
                other => other.clone(),
            },
            choices: a
                .choices
                .iter()
                .filter(|(p, _)| *p != point)
                .cloned()
                .collect(),
        });
    }
    (!items.is_empty() && items.iter().all(|i| !i.is_empty())).then_some(items)
}

/// An entry put into detached dict entries: a later entry of a key wins
/// over an earlier one.
fn put_entry(out: &mut Entries, key: Const, alts: Vec<ConstAlt>) {
    out.retain(|(k, _)| !k.val().same(&key.val()));
    out.push((key, alts));
}

/// The arguments a call through `functools.partial(f, *stored, **kw)` passes
/// to `f`: the stored positionals (after `f`) then the call's, the call's
/// keywords winning over the stored ones.
pub(crate) fn through_partial<'t>(stored: &Args<'t>, own: &Args<'t>) -> Args<'t> {
    let mut positional: Vec<Node<'t>> = stored.positional.iter().skip(1).copied().collect();
    positional.extend(own.positional.iter().copied());
    let mut keywords = own.keywords.clone();
    keywords.extend(stored.keywords.iter().cloned());
    Args {
        positional,
        keywords,
        has_splat: own.has_splat || stored.has_splat,
        has_dict_splat: own.has_dict_splat || stored.has_dict_splat,
        has_list_splat: own.has_list_splat || stored.has_list_splat,
    }
}

/// The key argument of `call` when it is `d.setdefault(key, ...)`.
fn setdefault_key<'t>(call: Node<'t>, src: &str) -> Option<Node<'t>> {
    let method = call
        .field("function")
        .filter(|f| f.kind_name() == "attribute")?;
    if method.field("attribute").map(|a| text(a, src)) != Some("setdefault") {
        return None;
    }
    call.field("arguments")?.named_child(0).filter(|a| {
        !matches!(
            a.kind_name(),
            "list_splat" | "dictionary_splat" | "keyword_argument"
        )
    })
}

/// A value a dict can be looked up by here.
fn is_key_constant(v: &Val<'_>) -> bool {
    match v {
        Val::Str(_) | Val::Int(_) | Val::Bool(_) | Val::EnumMember(..) => true,
        // `D[("matmul", "tpu")]`, `D["matmul", "tpu"]`.
        Val::Seq(SeqKind::Tuple, items) => items.iter().all(is_key_constant),
        _ => false,
    }
}

/// `max`, `min`, `sum`, `any` or `all` of known items: ints (and bools,
/// which are ints), or strings for `max`/`min`; for `any`/`all`, items of a
/// known truth value.
fn fold_items<'t>(fold: &str, items: &[Val<'t>]) -> Val<'t> {
    let ints: Option<Vec<i64>> = items
        .iter()
        .map(|i| match i {
            Val::Int(n) => Some(*n),
            Val::Bool(b) => Some(*b as i64),
            _ => None,
        })
        .collect();
    let strs: Option<Vec<&str>> = items
        .iter()
        .map(|i| match i {
            Val::Str(s) => Some(s.as_str()),
            _ => None,
        })
        .collect();
    match fold {
        "any" | "all" => {
            let truths: Option<Vec<bool>> = items.iter().map(Val::truthy).collect();
            match truths {
                Some(t) if fold == "any" => Val::Bool(t.iter().any(|b| *b)),
                Some(t) => Val::Bool(t.iter().all(|b| *b)),
                None => Val::Unknown,
            }
        }
        "sum" if items.iter().any(|i| matches!(i, Val::Float(_))) => items
            .iter()
            .map(Val::number)
            .sum::<Option<f64>>()
            .filter(|f| f.is_finite())
            .map_or(Val::Unknown, Val::Float),
        "sum" => match ints {
            Some(ints) => ints
                .iter()
                .try_fold(0i64, |acc, n| acc.checked_add(*n))
                .map_or(Val::Unknown, Val::Int),
            None => Val::Unknown,
        },
        // (`max([])` raises: no value.)
        _ => {
            let pick_max = fold == "max";
            let floats: Option<Vec<f64>> = items.iter().map(Val::number).collect();
            let has_float = items.iter().any(|i| matches!(i, Val::Float(_)));
            if let (true, Some(floats)) = (has_float, floats) {
                // The first of equal ones, as Python keeps it.
                let mut best: Option<usize> = None;
                for (i, f) in floats.iter().enumerate() {
                    let better = best.is_none_or(|b| {
                        if pick_max {
                            *f > floats[b]
                        } else {
                            *f < floats[b]
                        }
                    });
                    if better {
                        best = Some(i);
                    }
                }
                return best.map_or(Val::Unknown, |b| items[b].clone());
            }
            match (ints, strs) {
                (Some(ints), _) if !ints.is_empty() => {
                    let found = if pick_max {
                        ints.iter().max()
                    } else {
                        ints.iter().min()
                    };
                    found.map_or(Val::Unknown, |n| Val::Int(*n))
                }
                (_, Some(strs)) if !strs.is_empty() => {
                    let found = if pick_max {
                        strs.iter().max()
                    } else {
                        strs.iter().min()
                    };
                    found.map_or(Val::Unknown, |s| Val::Str((*s).to_owned()))
                }
                _ => Val::Unknown,
            }
        }
    }
}

/// A way the `__init__` of a `dict` subclass fills `self`
/// (`Flow::init_dict_changes`).
#[derive(Clone, Copy)]
enum InitDictChange<'t> {
    /// A call taking `dict`'s arguments after the first `usize` positional
    /// ones: `super().__init__(...)`, `dict.__init__(self, ...)`,
    /// `self.update(...)`.
    Init(Node<'t>, usize),
    /// `self[key] = value`: the key node (`item_store`) and the value.
    Store(Node<'t>, Node<'t>),
}

/// Entry `key` of the dict made of the pairs `items` (`dict(pairs)`): the
/// last pair with that key; unknown when an item is no pair of a known key.
fn pairs_lookup<'t>(items: &[Val<'t>], key: &Val<'t>) -> Lookup<'t> {
    let mut found = None;
    for item in items {
        match item {
            Val::Seq(_, pair) if pair.len() == 2 && is_key_constant(&pair[0]) => {
                if pair[0].same(key) {
                    found = Some(pair[1].clone());
                }
            }
            _ => return Lookup::Unknown,
        }
    }
    match found {
        Some(val) => Lookup::Found(vec![Alt::fixed(val)]),
        None => Lookup::Missing,
    }
}

/// The `*expr` and `**expr` arguments of `call`.
fn splat_arguments<'t>(call: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    let list = call
        .field("arguments")
        .filter(|l| l.kind_name() == "argument_list");
    list.into_iter().flat_map(|l| {
        let mut cursor = l.walk();
        l.named_children(&mut cursor)
            .filter(|a| matches!(a.kind_name(), "list_splat" | "dictionary_splat"))
            .collect::<Vec<_>>()
    })
}

/// The ways a binding runs: each way's choices, why it holds, and whether
/// the binding's statement runs on it (`Flow::run_table`).
type RunTable = Vec<(Vec<Choice>, Why, bool)>;

/// Two guards' tables as one: each pair of entries that agree, running
/// when both do.
fn conjoined(a: &RunTable, b: &RunTable) -> RunTable {
    let mut out = Vec::new();
    for (choices, why, runs) in a {
        for (other, other_why, other_runs) in b {
            if let Some(merged) = merge_choices(choices, other) {
                out.push((merged, why.and(other_why), *runs && *other_runs));
            }
        }
    }
    out
}

/// `ways` narrowed to those on which the guard `table` says `runs`: each
/// way merged with every entry of the table it agrees with.
fn constrained(
    ways: Vec<(Vec<Choice>, Why)>,
    table: &RunTable,
    runs: bool,
) -> Vec<(Vec<Choice>, Why)> {
    let mut out = Vec::new();
    for (choices, why) in ways {
        for (entry, entry_why, entry_runs) in table {
            if *entry_runs != runs {
                continue;
            }
            if let Some(merged) = merge_choices(&choices, entry) {
                out.push((merged, why.and(entry_why)));
            }
        }
    }
    out
}

/// Whether the dict that `before` and `after` (two straight-line stores
/// into it, `d[k] = v` or `d.update(...)`) change is named in the code
/// between them: passed on or read there, a reader may see the first
/// store's value (so the second does not simply replace it).
fn named_between(src: &str, before: Node<'_>, after: Node<'_>) -> bool {
    let receiver = |statement: Node<'_>| -> Option<String> {
        let mut node = statement;
        for _ in 0..4 {
            node = match node.kind_name() {
                "identifier" => return Some(text(node, src).to_owned()),
                "assignment" => node.field("left")?,
                "subscript" => node.field("value")?,
                "call" => node.field("function")?,
                "attribute" => node.field("object")?,
                "expression_statement" => node.named_child(0)?,
                _ => return None,
            };
        }
        None
    };
    let Some(name) = receiver(after) else {
        return true;
    };
    let Some(between) = src.get(before.end_byte()..after.start_byte()) else {
        return true;
    };
    let word = |c: char| c.is_alphanumeric() || c == '_';
    between.match_indices(name.as_str()).any(|(at, _)| {
        let start_ok = between[..at].chars().next_back().is_none_or(|c| !word(c));
        let end_ok = between[at + name.len()..]
            .chars()
            .next()
            .is_none_or(|c| !word(c));
        start_ok && end_ok
    })
}

//! Requirements (what only works on some platforms) and the call graph that
//! carries them to a lowering: `pallas_call(compiler_params=...)`, host
//! callbacks, device-requiring primitives, each with the guards on the path.

use super::flow::{self, Choice, Val, Why};
use super::names::{self, ParamsFamily};
use super::summary::Resolver;
use super::{Args, Binding, Module, ScopeId, ScopeKind};
use crate::syntax::Field;
use crate::syntax::KindName;
use crate::syntax::{text, unparenthesize, Span};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;
use tree_sitter::Node;

/// A condition under which code is traced.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Guard {
    /// A `lax.platform_dependent` branch. `keys` are the platforms it serves
    /// (empty for `default=`); `others` every platform key of that call.
    Branch {
        keys: Vec<String>,
        others: Vec<String>,
    },
    /// Traced only on some hosts (`if jax.default_backend() == "tpu":`):
    /// those hosts, when the test names them (`None`: not known).
    HostDependent(Option<Vec<String>>),
    /// In a branch that the caller's arguments decide (`if on_error ==
    /// "raise":` with `on_error` a parameter whose callers differ or are in
    /// other modules).
    CallerChoice,
    /// In a branch that runs with the default of run-time configuration
    /// (`if args.debug:` with a flag on by default): what it reaches holds
    /// for a plain run only. The note names the default.
    Configured(String),
    /// In a branch that runs for some call sites of a function of this
    /// module only (`if debug:` with `build(True)` and `build(False)`); the
    /// requirement or edge carries those calls as its choices. Holds on a
    /// path through one of those calls (the walk pinned the function's
    /// choice point, its node id), or one starting inside the call's
    /// function or the function holding the call (the byte it starts at);
    /// elsewhere it is a `CallerChoice`.
    CallSite(usize, usize),
}

impl Guard {
    /// Whether code under this guard is lowered when the module is lowered for
    /// `platforms`: `Some(true/false)`, or `None` when it depends on the host.
    /// In a multi-platform lowering every kept branch is lowered for all the
    /// platforms (facts, more #1), so one matching platform keeps it.
    pub fn keeps(&self, platforms: &[String]) -> Option<bool> {
        match self {
            Guard::HostDependent(_) | Guard::CallerChoice | Guard::CallSite(..) => None,
            Guard::Configured(_) => Some(true),
            Guard::Branch { keys, others } if keys.is_empty() => {
                Some(platforms.iter().any(|p| !others.contains(p)))
            }
            Guard::Branch { keys, .. } => Some(platforms.iter().any(|p| keys.contains(p))),
        }
    }
}

/// The branches of a scope that constant conditions decide.
#[derive(Debug, Default)]
pub struct Branches {
    /// Bodies that never run.
    pub dead: Vec<std::ops::Range<usize>>,
    /// Bodies whose branch the callers decide (see `Guard::CallerChoice`).
    pub by_caller: Vec<std::ops::Range<usize>>,
    /// Bodies that run whenever their `if` statement does.
    pub taken: Vec<std::ops::Range<usize>>,
    /// Bodies that run because of a default of run-time configuration, with
    /// the note naming it (`Guard::Configured`).
    pub by_default: Vec<(std::ops::Range<usize>, String)>,
    /// Bodies whose condition holds whenever their `if` runs, with the
    /// default of run-time configuration it holds by, if it is one.
    pub holds: Vec<(std::ops::Range<usize>, Option<String>)>,
    /// Bodies of `by_caller` that run for some of this module's call sites
    /// of the function only: the choices of each way they run.
    pub by_caller_when: Vec<(std::ops::Range<usize>, Vec<Vec<Choice>>)>,
    /// Bodies whose condition the host decides, with the hosts it holds on
    /// (`Guard::HostDependent`).
    pub by_host: Vec<(std::ops::Range<usize>, Vec<String>)>,
}

impl Branches {
    /// The hosts a body holding byte `at` runs on, if a condition the
    /// host decides says (the hosts every such body's condition holds on).
    pub fn host_at(&self, at: usize) -> Option<Vec<String>> {
        let mut out: Option<Vec<String>> = None;
        for (_, hosts) in self.by_host.iter().filter(|(r, _)| r.contains(&at)) {
            out = Some(match out {
                None => hosts.clone(),
                Some(h) => h.into_iter().filter(|x| hosts.contains(x)).collect(),
            });
        }
        out
    }

    /// The guards of byte `at` that a default or the host make.
    pub fn guards_at(&self, at: usize) -> Vec<Guard> {
        let mut out = Vec::new();
        if let Some(note) = self.default_at(at) {
            out.push(Guard::Configured(note.to_owned()));
        }
        if let Some(hosts) = self.host_at(at) {
            out.push(Guard::HostDependent(Some(hosts)));
        }
        out
    }

    /// The default a body holding byte `at` runs by, if it does.
    pub fn default_at(&self, at: usize) -> Option<&str> {
        self.by_default
            .iter()
            .find(|(r, _)| r.contains(&at))
            .map(|(_, note)| note.as_str())
    }
}

/// The branches of a function and of the closures it holds, decided for one
/// call of it: its parameters bound to that call's values (a caller in
/// another module). What the call cannot reach, and which bodies the
/// callers decide (`Guard::CallerChoice`) it makes run.
#[derive(Debug, Default)]
pub struct CallBranches {
    pub dead: Vec<std::ops::Range<usize>>,
    /// Bodies whose condition holds for the call, with the default of
    /// run-time configuration it holds by, if it is one.
    pub holds: Vec<(std::ops::Range<usize>, Option<String>)>,
    /// Call edges the call's values make, by the scope they leave: a
    /// callee or an argument passed on that is a parameter, or a field of
    /// the receiver, given a function by the call (`loss(x)` with
    /// `loss=host_loss`; `self.fn(x)` on an object made with it).
    pub edges: Vec<(ScopeId, Edge)>,
    /// Bodies whose condition the host decides for the call, with the
    /// hosts it holds on.
    pub by_host: Vec<(std::ops::Range<usize>, Vec<String>)>,
    /// For a method run on a known object: the `pallas_call` requirements
    /// (by scope) whose values that object decides (`self.params` of an
    /// object made with "gpu"), in place of the ones of the same call that
    /// every object of the class gives.
    pub object_reqs: Vec<(ScopeId, Requirement)>,
}

/// The steps of one value-flow question the walk asks (a callee, a
/// receiver, an edge's guard). A config parsed line by line, read in a
/// function given it, takes about 300 (`METERS[cfg["meter"]]()` with a
/// `try` coercing each value); 200 was too few, 500 costs the sweep about
/// 8% beside it.
const REACH_BUDGET: u32 = 500;

/// A function a walk starts inside: its choice point (def node id) and
/// its bytes.
pub(crate) type FunctionRun = (usize, std::ops::Range<usize>);

/// Where a walk (`Module::reach`) starts: the choices its seeds were
/// picked by (the factory call that made the lowered function), and the
/// functions around the lowering (`Module::functions_around`).
#[derive(Clone, Copy)]
pub struct WalkStart<'a> {
    pub choices: &'a [Choice],
    pub inside: &'a [FunctionRun],
}

/// The choice lists of the ways something runs (one list per way).
pub(crate) type Ways = Vec<Vec<Choice>>;

/// What a branch condition is, as far as the code shows.
#[derive(Debug)]
pub(crate) enum Truth {
    Known(bool),
    /// Decided by the default of run-time configuration (the note names it).
    KnownByDefault(bool, String),
    /// With, when every value comes from a call site of this module, the
    /// choices of each value that makes it hold, and of each that makes it
    /// fail.
    CallerDecides(Option<(Ways, Ways)>),
    /// Decided by the host alone (`local = target == jax.default_backend()`
    /// read later): the hosts on which it holds.
    HostDecides(Vec<String>),
    Unknown,
}

/// `interpret=` of a `pallas_call`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interpret {
    No,
    /// `interpret=True`: the interpreter path, valid on every platform.
    Yes,
    /// `InterpretParams()` / `InterpretGPUParams()`: built on `io_callback`.
    Callback,
    Unknown,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CompilerParams {
    /// No `compiler_params=` (or `None`).
    Absent,
    Class(ParamsFamily),
    /// A parameter of a module-level function with no caller in its module
    /// (`config.compiler_params` in a kernel library): what the caller in
    /// another module passes, and what applies when it passes nothing.
    Param(ParamSlot, Box<CompilerParams>),
    /// The legacy dict form, `{"mosaic": ...}`.
    Dict,
    Unknown,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ReqKind {
    PallasCall {
        params: CompilerParams,
        interpret: Interpret,
        /// When `interpret` is left to callers in other modules
        /// (`interpret=config.interpret`): where they supply it, and what
        /// applies when they pass nothing. `interpret` is `Unknown` then.
        interpret_from: Option<Box<(ParamSlot, Interpret)>>,
    },
    /// A host callback (`jax.pure_callback`, `io_callback`, `jax.debug.print`, ...).
    HostCallback { api: &'static str },
    /// A primitive that needs devices during lowering, other than callbacks.
    DevicePrimitive { api: String },
    /// `jax.experimental.buffer_callback.buffer_callback(...)`: cpu and cuda only.
    BufferCallback,
    /// `lax.platform_dependent(..., tpu=..., default=...)`: its branch keys.
    PlatformDependent {
        keys: Vec<String>,
        has_default: bool,
    },
    /// `pl.kernel(..., mesh=...)` / `plgpu.kernel(...)`: lowered through `mpmd_map`.
    PallasKernel { mesh: KernelMesh },
    /// An operation whose primitive has lowering rules only for JAX's known
    /// platforms (LAPACK-style linear algebra): an unknown platform name fails.
    PlatformSpecificOp { api: String },
    /// A call of a jit with shardings inside the computation (`inner(x)`
    /// with `inner = jax.jit(f, in_shardings=...)`): its shardings join the
    /// device assignment of the jit that traces the call
    /// (`dispatch.get_intermediate_shardings`). What its meshes are.
    InnerJitShardings {
        abstract_mesh: bool,
        concrete: bool,
        unknown: bool,
    },
    /// Code the project declares for some platforms only (`contract.rs`):
    /// a `# jax-lsp: platforms=` comment (`contract` None, its `platforms`),
    /// or a contract of pyproject.toml by code (its platforms are the
    /// contract's). `site` names the function or call.
    Restricted {
        contract: Option<String>,
        platforms: Vec<String>,
        site: String,
    },
}

/// The mesh a Pallas `kernel` runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KernelMesh {
    /// `pltpu.TensorCoreMesh(...)` / `pltpu.create_tensorcore_mesh(...)`
    Tpu,
    /// `plgpu.Mesh(...)`, `plgpu.WarpMesh(...)`, or `plgpu.kernel` itself.
    Gpu,
    Unknown,
}

impl ReqKind {
    /// True for primitives in `prim_requires_devices_during_lowering`.
    pub fn requires_devices(&self) -> bool {
        match self {
            ReqKind::HostCallback { api } => names::requires_devices(&canonical_callback(api)),
            ReqKind::DevicePrimitive { .. } => true,
            _ => false,
        }
    }
}

/// One way a value may be: the functions it runs, how sure it is, and the
/// choices it depends on (`flow_scenarios`).
pub(crate) type Scenario = (Vec<Target>, Why, Vec<flow::Choice>);

/// Calls that return a transformed version of their function argument.
pub(crate) fn makes_a_function(callee: &str) -> bool {
    callee == names::PARTIAL
        || matches!(
            callee,
            "jax.jit"
                | "jax.vmap"
                | "jax.pmap"
                | "jax.grad"
                | "jax.value_and_grad"
                | "jax.checkpoint"
                | "jax.remat"
                | "jax.named_call"
                | "jax.shard_map"
                | "jax.experimental.shard_map.shard_map"
        )
}

/// `object.attr` on an object of another module's class that holds no such
/// field: that class's method, named by its module's path (a class of this
/// module is not).
fn foreign_method(object: &Val<'_>, attr: &str) -> Option<Target> {
    let Val::Object(fields) = object else {
        return None;
    };
    if fields.iter().any(|(n, _)| n == attr) {
        return None;
    }
    let class = flow::object_class(fields).filter(|c| c.contains('.'))?;
    Some(Target::External(format!("{class}.{attr}")))
}

fn canonical_callback(api: &str) -> String {
    match api {
        "io_callback" => "jax.experimental.io_callback".to_owned(),
        other => other.to_owned(),
    }
}

/// Something in the code that only works on some platforms.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Requirement {
    pub kind: ReqKind,
    /// The file it is in, when not the module being checked.
    pub file: Option<Arc<Path>>,
    /// The call that makes it (`pl.pallas_call(...)`, `jax.pure_callback(...)`).
    pub span: Span,
    /// The `compiler_params=` value, for related information.
    pub detail: Option<Span>,
    pub guards: Vec<Guard>,
    /// How sure its values (params, interpret) are: one requirement per
    /// alternative when they take several.
    pub why: Why,
    /// The choices (call sites, loop elements) its values depend on.
    pub choices: Vec<Choice>,
}

impl Requirement {
    /// A requirement made by the call `node` in the module being built.
    pub(crate) fn at(node: Node<'_>, kind: ReqKind, guards: &[Guard]) -> Requirement {
        Requirement {
            kind,
            file: None,
            span: node.byte_range(),
            detail: None,
            guards: guards.to_vec(),
            why: Why::Fixed,
            choices: Vec::new(),
        }
    }

    /// Is it lowered when lowering for `platforms`? `None`: depends on the host.
    pub fn kept_for(&self, platforms: &[String]) -> Option<bool> {
        self.kept_on_hosts(platforms, &[])
    }

    /// The hosts on which it is lowered for `platforms` when only host
    /// tests keep it from being certain (`None`: another guard leaves it
    /// open, or it is dropped): the hosts every such test names.
    pub fn kept_only_on_hosts(&self, platforms: &[String]) -> Option<Vec<String>> {
        let others_keep = self.guards.iter().all(|g| {
            matches!(g, Guard::HostDependent(Some(_))) || g.keeps(platforms) == Some(true)
        });
        self.named_hosts().filter(|h| others_keep && !h.is_empty())
    }

    /// The hosts every host test around it names (`None`: no such test,
    /// or one naming no host).
    pub fn named_hosts(&self) -> Option<Vec<String>> {
        let mut hosts: Option<Vec<String>> = None;
        for guard in &self.guards {
            match guard {
                Guard::HostDependent(Some(on)) => {
                    hosts = Some(match hosts {
                        None => on.clone(),
                        Some(h) => h.into_iter().filter(|x| on.contains(x)).collect(),
                    });
                }
                Guard::HostDependent(None) => return None,
                _ => {}
            }
        }
        hosts
    }

    /// `kept_for` where the lowering runs on one of `hosts` (empty: not
    /// known): code behind a host test is traced there when the test
    /// holds on every such host, and not when it holds on none.
    pub fn kept_on_hosts(&self, platforms: &[String], hosts: &[String]) -> Option<bool> {
        let mut kept = true;
        for guard in &self.guards {
            let decided = match guard {
                Guard::HostDependent(Some(on)) if !hosts.is_empty() => {
                    if hosts.iter().all(|h| on.contains(h)) {
                        Some(true)
                    } else if hosts.iter().all(|h| !on.contains(h)) {
                        Some(false)
                    } else {
                        None
                    }
                }
                guard => guard.keeps(platforms),
            };
            match decided {
                Some(true) => {}
                Some(false) => kept = false,
                None => return if kept { None } else { Some(false) },
            }
        }
        Some(kept)
    }
}

/// Where a function's caller supplies a value: parameter `name` (at
/// `position` when passed by position) of `function`, then the attributes
/// in `path` (`config.compiler_params` -> `["compiler_params"]`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParamSlot {
    pub function: String,
    pub name: String,
    pub position: Option<usize>,
    pub path: Vec<String>,
}

/// An edge of the call graph.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Local(ScopeId),
    /// A method run on an instance of a known class (`Op()` called,
    /// `jax.jit(op)` of one): `self.m()` inside it dispatches on that class.
    Bound(ScopeId, ScopeId),
    /// A method run on one object of this module: (method, the object's
    /// class, the scope and node id of the call that constructed it).
    /// `self` in it is that object (`model.apply(x)` with `model =
    /// Model(debug=True)` reads `self.debug` as `True`, whatever other
    /// objects of the class hold), and so in the methods it calls on `self`.
    OnObject(ScopeId, ScopeId, ScopeId, usize),
    /// `self.name(...)` in a method of `class` that some subclass
    /// overrides: which `name` runs depends on the instance.
    SelfMethod(ScopeId, String),
    /// An imported name, as a dotted path (relative ones keep their dots).
    External(String),
}

#[derive(Debug, Default)]
pub struct ScopeFacts {
    pub reqs: Vec<Requirement>,
    /// Call edges with their guards and, for a direct call, the call node's
    /// id (which call site of the target this is).
    pub edges: Vec<Edge>,
}

/// A call edge of the call graph.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edge {
    pub target: Target,
    pub guards: Vec<Guard>,
    /// The call node's id for a direct call (which call site of the target
    /// this is).
    pub call: Option<usize>,
    /// The choices under which the callee is that target (`layer(x)` in
    /// `for layer in layers:` is each element's function, on that element's
    /// path).
    pub choices: Vec<flow::Choice>,
    /// Where the edge is made (the call, argument or returned value's first
    /// byte): branches decided for one call of the function are looked up
    /// by it.
    pub at: usize,
}

/// What a set of entry points reaches.
#[derive(Debug, Default)]
pub struct Reached {
    pub reqs: Vec<Requirement>,
    /// Imported names reached, not yet followed, with the file that imports them.
    pub externals: Vec<(String, Vec<Guard>, Vec<Choice>)>,
    /// The direct calls through which each imported name was reached (call
    /// node ids), for values its summary leaves to the caller.
    pub external_calls: Vec<(String, usize)>,
    /// The choice points of the edges followed that exist on some paths only.
    pub choice_points: HashSet<usize>,
    /// Imported names reached other than by a direct call (passed as a
    /// value, a seed): what they reach is not decided by a call's values.
    pub external_indirect: HashSet<String>,
    /// Of those, the names an edge passes as a value (not only seeds).
    pub indirect_by_edge: HashSet<String>,
}

const MAX_VISITS: usize = 4096;
/// The most calls of one imported function that answers of other modules
/// made which are asked of its module in turn (with more, its summary
/// answers for all).
const MAX_ASKED_CALLS: usize = 8;

/// The scope a `Target::OnObject` names when its object is the receiver of
/// the other module's call this model answers (`Module::foreign_receiver`).
pub(crate) const FOREIGN_OBJECT: ScopeId = usize::MAX;

/// The call id of such a `Target::OnObject` (no node has id 0).
const FOREIGN_CALL: usize = 0;

/// The head of `Module::local_ref` paths.
pub(crate) const LOCAL_REF: &str = "__jax_lsp_local__";

/// A def of the module reading an answer, as another module handed it back
/// (`OWN_REF.name`: the function a caller gave a factory of another module).
pub(crate) const OWN_REF: &str = "__jax_lsp_own__";

/// A short name of a file for `local_ref` paths (its path's hash).
pub(crate) fn file_tag(file: &Path) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    file.hash(&mut h);
    format!("f{:x}", h.finish())
}

/// Libraries whose functions never reach user kernels or callbacks.
pub(crate) fn is_library_path(path: &str) -> bool {
    let root = path.split('.').next().unwrap_or("");
    matches!(
        root,
        "jax"
            | "jaxlib"
            | "numpy"
            | "np"
            | "functools"
            | "math"
            | "os"
            | "sys"
            | "typing"
            | "dataclasses"
            | "collections"
            | "itertools"
            | "absl"
            | "flax"
            | "optax"
            | "scipy"
            | "ml_dtypes"
            | "einops"
            | "abc"
            | "enum"
            | "builtins"
    )
}

/// The name an expression is read from (`self` for `self.layers[0].apply`).
fn root_name<'s>(node: Node<'_>, src: &'s str) -> Option<&'s str> {
    let mut node = unparenthesize(node);
    loop {
        node = match node.kind_name() {
            "identifier" => return src.get(node.byte_range()),
            "attribute" => node.field("object")?,
            "subscript" => node.field("value")?,
            "call" => node.field("function")?,
            _ => return None,
        };
        node = unparenthesize(node);
    }
}

impl<'t> Module<'t> {
    /// The requirements and call edges of one scope (built on first use).
    pub(crate) fn facts_of(&self, id: ScopeId) -> &ScopeFacts {
        self.caches().scope_facts[id].get_or_init(|| self.build_scope_facts(id))
    }

    fn build_scope_facts(&self, id: ScopeId) -> ScopeFacts {
        let mut facts = ScopeFacts::default();
        let scope = &self.scopes[id];
        facts.reqs.extend(self.entry_requirements(id));
        // Decorators that make calling the def a requirement.
        for decorator in scope.decorators() {
            let outer = scope.parent.unwrap_or(0);
            if decorator.kind_name() == "call"
                && self.callee(decorator, outer).as_deref() == Some(names::PARTIAL)
            {
                let args = self.args_of(decorator);
                if let Some(first) = args.positional.first() {
                    let inner = self.canonical(*first, outer);
                    if inner.as_deref() == Some(names::PALLAS_CALL) {
                        facts.reqs.extend(self.pallas_requirement(
                            decorator,
                            &args,
                            outer,
                            Vec::new(),
                        ));
                    }
                    if let Some(path @ (names::PALLAS_KERNEL | names::MOSAIC_GPU_KERNEL)) =
                        inner.as_deref()
                    {
                        facts.reqs.push(self.kernel_requirement(
                            decorator,
                            &args,
                            outer,
                            path,
                            Vec::new(),
                        ));
                    }
                }
            }
            // `@pl.kernel(out_type=..., mesh=...)` / `@plgpu.kernel(...)` with keywords only.
            if decorator.kind_name() == "call" {
                if let Some(path @ (names::PALLAS_KERNEL | names::MOSAIC_GPU_KERNEL)) =
                    self.callee(decorator, outer).as_deref()
                {
                    let args = self.args_of(decorator);
                    facts.reqs.push(self.kernel_requirement(
                        decorator,
                        &args,
                        outer,
                        path,
                        Vec::new(),
                    ));
                }
            }
            if self.canonical(decorator, outer).as_deref() == Some(names::CUSTOM_PARTITIONING) {
                facts.reqs.push(Requirement::at(
                    decorator,
                    ReqKind::DevicePrimitive {
                        api: "custom_partitioning".to_owned(),
                    },
                    &[],
                ));
            }
        }
        // A `jax.custom_vjp` / `custom_jvp` function also runs the rules
        // registered with `f.defvjp(fwd, bwd)` / `f.defjvp(jvp)` when it is
        // differentiated: they are traced with it.
        let is_custom_rule_def = scope.decorators().iter().any(|d| {
            let t = text(*d, self.src);
            t.ends_with("custom_vjp")
                || t.ends_with("custom_jvp")
                || t.contains("custom_vjp(")
                || t.contains("custom_jvp(")
        });
        if is_custom_rule_def {
            for method in ["defvjp", "defjvp"] {
                for &i in self.calls_named(method) {
                    let site = self.calls[i];
                    let object = site.node.field("function").and_then(|f| f.field("object"));
                    if object.is_none_or(|o| text(o, self.src) != scope.name) {
                        continue;
                    }
                    let args = self.args_of(site.node);
                    for arg in &args.positional {
                        for target in self.resolve_ref(*arg, site.scope, 0) {
                            facts.edges.push(Edge {
                                target,
                                guards: Vec::new(),
                                call: None,
                                choices: Vec::new(),
                                at: arg.start_byte(),
                            });
                        }
                    }
                }
            }
        }
        let branches = self.branch_ranges(id);
        let is_dead = |node: Node<'t>| {
            let at = node.start_byte();
            branches
                .dead
                .iter()
                .any(|r| r.contains(&at) && node.end_byte() <= r.end)
        };
        let caller_decides = |node: Node<'t>| {
            let at = node.start_byte();
            branches.by_caller.iter().any(|r| r.contains(&at))
        };
        for &index in &scope.calls {
            let call = self.calls[index].node;
            if is_dead(call) {
                continue;
            }
            let callee = self.callee(call, id);
            let args = self.args_of(call);
            let mut guards = self.guards_of(call, id);
            if caller_decides(call) {
                guards.push(Guard::CallerChoice);
            }
            guards.extend(branches.guards_at(call.start_byte()));
            facts
                .reqs
                .extend(self.contract_call_requirements(call, callee.as_deref(), &guards));
            // `op = custom_partitioning(impl)` then `op(...)`: the call is the
            // custom_partitioning primitive, as a call of a decorated def is.
            if self.is_custom_partitioning_value(call, id) {
                facts.reqs.push(Requirement::at(
                    call,
                    ReqKind::DevicePrimitive {
                        api: "custom_partitioning".to_owned(),
                    },
                    &guards,
                ));
            }
            match callee.as_deref() {
                Some(names::PALLAS_CALL) => {
                    facts
                        .reqs
                        .extend(self.pallas_requirement(call, &args, id, guards.clone()));
                }
                Some(path) if names::host_callback(path).is_some() => {
                    let api = names::host_callback(path).unwrap_or("callback");
                    facts.reqs.push(Requirement::at(
                        call,
                        ReqKind::HostCallback { api },
                        &guards,
                    ));
                }
                Some(path) if names::requires_devices(path) => {
                    let kind = ReqKind::DevicePrimitive {
                        api: path.to_owned(),
                    };
                    facts.reqs.push(Requirement::at(call, kind, &guards));
                }
                Some(path) if names::is_platform_specific_op(path) => {
                    let kind = ReqKind::PlatformSpecificOp {
                        api: path.to_owned(),
                    };
                    facts.reqs.push(Requirement::at(call, kind, &guards));
                }
                Some(names::BUFFER_CALLBACK) => {
                    facts
                        .reqs
                        .push(Requirement::at(call, ReqKind::BufferCallback, &guards))
                }
                Some(names::PLATFORM_DEPENDENT) => {
                    let keys: Vec<String> = args
                        .keywords
                        .iter()
                        .map(|(n, _, _)| n.clone())
                        .filter(|n| n != "default")
                        .collect();
                    let has_default = args.keyword("default").is_some() || args.has_splat;
                    facts.reqs.push(Requirement::at(
                        call,
                        ReqKind::PlatformDependent { keys, has_default },
                        &guards,
                    ));
                }
                Some(path @ (names::PALLAS_KERNEL | names::MOSAIC_GPU_KERNEL)) => {
                    facts
                        .reqs
                        .push(self.kernel_requirement(call, &args, id, path, guards.clone()));
                }
                Some(names::PARTIAL) => {
                    // partial(pl.pallas_call / pl.kernel, ...) used as a value (decorators handled above).
                    if let Some(first) = args.positional.first() {
                        let inner = self.canonical(*first, id);
                        if let Some(path @ (names::PALLAS_KERNEL | names::MOSAIC_GPU_KERNEL)) =
                            inner.as_deref()
                        {
                            if !self.is_decorator(call) {
                                facts.reqs.push(self.kernel_requirement(
                                    call,
                                    &args,
                                    id,
                                    path,
                                    guards.clone(),
                                ));
                            }
                        }
                        // A partial bound to a name is a pallas_call where that
                        // name is called (`partial_pallas_call`), with the call's
                        // own arguments too.
                        if inner.as_deref() == Some(names::PALLAS_CALL)
                            && !self.is_decorator(call)
                            && !self.is_assigned_to_name(call)
                        {
                            facts.reqs.extend(self.pallas_requirement(
                                call,
                                &args,
                                id,
                                guards.clone(),
                            ));
                        }
                    }
                }
                _ => {
                    // A call of a name bound to `functools.partial(pl.pallas_call, ...)`:
                    // the stored keywords merge with the call's.
                    if let Some(req) = self.partial_pallas_call(call, &args, id, &guards) {
                        facts.reqs.extend(req);
                    }
                }
            }
            if let Some(func) = call.field("function") {
                // A name bound to what a factory returned (`model =
                // sequential(...)`; `model(x)`): not a call of the factory
                // itself, but on the path of the call that made it.
                let made_by = self.factory_call_choice(func, id);
                let direct = if made_by.is_empty() {
                    Some(call.id())
                } else {
                    None
                };
                // Through a default of run-time configuration
                // (`TABLE[os.environ.get("KIND", "host")]()`): reached in a
                // plain run, under that default (`Guard::Configured`); or
                // what the host picks (`Guard::HostDependent`), also beside
                // what certainly runs (`for layer in (picked, identity)`).
                let mut targets: Vec<(Target, Vec<flow::Choice>, Option<Guard>)> = self
                    .callee_targets(func, id)
                    .into_iter()
                    .map(|(t, c)| (t, c, None))
                    .collect();
                let certain = targets.len();
                for (target, choices, guard) in self.default_targets(func, id) {
                    let known = targets[..certain]
                        .iter()
                        .any(|(t, c, _)| *t == target && *c == choices);
                    if certain == 0 || !known {
                        targets.push((target, choices, guard));
                    }
                }
                let local_defs: Vec<ScopeId> = targets
                    .iter()
                    .filter_map(|(t, _, _)| match t {
                        Target::Local(def) => Some(*def),
                        _ => None,
                    })
                    .collect();
                // A factory reached through what a value holds (`self.fn(x)`
                // with the field given `sequential(...)`'s closure): not
                // called here, but on the path of the call that made the
                // value, which the flow's alternatives name.
                // A decorator of the def called is applied by its own call.
                let names_def = self.names_a_def(func, id);
                let mut factory_made: Vec<(Target, Vec<flow::Choice>, Option<Guard>)> = Vec::new();
                if made_by.is_empty() && !names_def {
                    targets.retain(|(target, choices, default)| {
                        let Target::Local(def) = target else {
                            return true;
                        };
                        match self.factory_calls_of_value(func, id, *def) {
                            Some(calls) => {
                                factory_made.extend(calls.into_iter().filter_map(|c| {
                                    Some((
                                        target.clone(),
                                        flow::merge_choices(choices, &[c])?,
                                        default.clone(),
                                    ))
                                }));
                                false
                            }
                            None => true,
                        }
                    });
                }
                // A jit with shardings called here (`inner(x)`): its meshes
                // are the computation's too.
                let sharded = targets.iter().chain(&factory_made).any(|(t, _, _)| {
                    matches!(t, Target::Local(def) if self.sharded_jit_defs().contains(def))
                });
                if sharded {
                    if let Some(kind) = self.inner_jit_shardings(func, id) {
                        facts.reqs.push(Requirement::at(call, kind, &guards));
                    }
                }
                let edges = targets
                    .into_iter()
                    .map(|t| (t, direct))
                    .chain(factory_made.into_iter().map(|t| (t, None)));
                for ((target, choices, default), direct) in edges {
                    let Some(choices) = flow::merge_choices(&choices, &made_by) else {
                        continue;
                    };
                    let guards = match default {
                        Some(guard) => concat(&guards, &[guard]),
                        None => guards.clone(),
                    };
                    // A name bound to what a call of it returned (`grad_fn =
                    // clipped_grad(loss, hook=h)`, then `grad_fn(x)`) reaches
                    // it as that call made it, with that call's values.
                    // What another module's decorator call (`@tools.instrument(False)`)
                    // made is applied to the def called, however it is called.
                    let decorated = match &target {
                        Target::External(path) => local_defs
                            .iter()
                            .find_map(|def| self.decorator_call_for(*def, path)),
                        _ => None,
                    };
                    let edge_call = match &target {
                        Target::External(_) if decorated.is_some() => decorated,
                        Target::External(_) if names_def => self.call_made_by(&target, func, id),
                        Target::External(_) => self.call_made_by(&target, func, id).or(direct),
                        _ => self.binding_call(&target, &choices, direct),
                    };
                    facts.edges.push(Edge {
                        call: edge_call,
                        target,
                        guards,
                        choices,
                        at: call.start_byte(),
                    });
                }
            }
            // A dataclass of this module only stores what it is given: a
            // function passed to its constructor runs where the field is
            // called (`settings.handler(...)`), which the value flow follows.
            let stores_only = call
                .field("function")
                .and_then(|f| match f.kind_name() {
                    "identifier" => match self.binding_at(id, text(f, self.src), f) {
                        Some(Binding::Def(class)) => Some(*class),
                        _ => None,
                    },
                    // `CLASSES["Interceptor"](...)`; `CLASSES[os.environ.get(K,
                    // "Interceptor")](...)`: the default's class, other keys
                    // a run-time choice; `holder.klass(...)`, a class kept in
                    // a field.
                    "subscript" | "attribute"
                        if f.kind_name() == "subscript"
                            || f.field("attribute")
                                .is_some_and(|a| self.may_hold_a_class(text(a, self.src))) =>
                    {
                        let values = self.flow_with_budget(REACH_BUDGET).eval(f, id);
                        let mut class = None;
                        let mut sure = false;
                        for a in &values {
                            match a.val {
                                Val::Class(c) if class.is_none_or(|k| k == c) => {
                                    class = Some(c);
                                    sure |= a.why.certain() || matches!(a.why, Why::Default(_));
                                }
                                // What other keys give: a run-time choice.
                                _ if a.why.is_choice() => {}
                                _ => {
                                    class = None;
                                    break;
                                }
                            }
                        }
                        class.filter(|_| sure)
                    }
                    _ => None,
                })
                .is_some_and(|class| {
                    self.scopes[class].kind == super::ScopeKind::Class
                        && ["__post_init__", "__new__"]
                            .iter()
                            .all(|m| self.method(class, m).is_none())
                        && match self.method(class, "__init__") {
                            None => self.is_dataclass_like(class),
                            Some(init) => self.init_only_stores(init),
                        }
                });
            // `functools.partial(f, ...)` only keeps `f`: it runs where the
            // partial is called or handed on, which its value (a
            // `Val::Partial`, or the call itself as an argument) reaches.
            let stores_only = stores_only
                || self
                    .callee(call, id)
                    .is_some_and(|c| c == super::names::PARTIAL);
            for arg in args
                .positional
                .iter()
                .chain(args.keywords.iter().map(|(_, v, _)| v))
                .filter(|_| !stores_only)
            {
                let mut arg_guards = self.guards_of(*arg, id);
                if caller_decides(*arg) {
                    arg_guards.push(Guard::CallerChoice);
                }
                arg_guards.extend(branches.guards_at(arg.start_byte()));
                // A partial handed on (`jax.jit(partial(inner, fn=g))`, by
                // name too) runs its def on the path of the partial that
                // binds what it stores (`through_partials`).
                let targets = self
                    .resolve_ref(*arg, id, 0)
                    .into_iter()
                    .map(|t| (t, Vec::new()))
                    .collect();
                for (target, choices) in self.through_partials(*arg, id, targets) {
                    facts.edges.push(Edge {
                        call: self.call_made_by(&target, *arg, id),
                        target,
                        guards: arg_guards.clone(),
                        choices,
                        at: arg.start_byte(),
                    });
                }
            }
        }
        facts.reqs.extend(self.query_site_requirements(id, &|node| {
            if is_dead(node) {
                return None;
            }
            let mut guards = self.guards_of(node, id);
            if caller_decides(node) {
                guards.push(Guard::CallerChoice);
            }
            Some(guards)
        }));
        for &value in &scope.returned {
            if is_dead(value) {
                continue;
            }
            let mut guards = self.guards_of(value, id);
            if caller_decides(value) {
                guards.push(Guard::CallerChoice);
            }
            if let Some(note) = branches.default_at(value.start_byte()) {
                guards.push(Guard::Configured(note.to_owned()));
            }
            let targets = self
                .resolve_ref(value, id, 0)
                .into_iter()
                .map(|t| (t, Vec::new()))
                .collect();
            for (target, choices) in self.through_partials(value, id, targets) {
                facts.edges.push(Edge {
                    call: self.call_made_by(&target, value, id),
                    target,
                    guards: guards.clone(),
                    choices,
                    at: value.start_byte(),
                });
            }
        }
        self.pin_to_call_sites(&mut facts, &branches);
        facts
    }

    /// Requirements and edges in bodies that run for some of this module's
    /// call sites only (`Branches::by_caller_when`): one copy per way they
    /// run, carrying its choices and `Guard::CallSite` in place of
    /// `CallerChoice`.
    fn pin_to_call_sites(&self, facts: &mut ScopeFacts, branches: &Branches) {
        if branches.by_caller_when.is_empty() {
            return;
        }
        // The choice lists under which byte `at` runs, when every body the
        // callers decide around it runs by call site.
        let ways = |at: usize| -> Option<Vec<Vec<Choice>>> {
            let mut ways: Vec<Vec<Choice>> = vec![Vec::new()];
            for body in branches.by_caller.iter().filter(|r| r.contains(&at)) {
                let (_, when) = branches.by_caller_when.iter().find(|(r, _)| r == body)?;
                let mut next = Vec::new();
                for way in &ways {
                    for choices in when {
                        if let Some(merged) = flow::merge_choices(way, choices) {
                            next.push(merged);
                        }
                    }
                }
                if next.len() > 16 {
                    return None;
                }
                ways = next;
            }
            Some(ways)
        };
        let pinned = |guards: &[Guard], way: &[Choice]| -> Vec<Guard> {
            let mut out: Vec<Guard> = guards
                .iter()
                .filter(|g| **g != Guard::CallerChoice)
                .cloned()
                .collect();
            // A loop's choice needs no call on the path: every element's
            // turn runs (what holds for some elements runs for those).
            out.extend(
                way.iter()
                    .filter(|(point, _)| self.scopes.iter().any(|s| s.node.id() == *point))
                    .map(|(point, call)| {
                        let at = self.calls.iter().find(|c| c.node.id() == *call);
                        Guard::CallSite(*point, at.map_or(usize::MAX, |c| c.node.start_byte()))
                    }),
            );
            out
        };
        // The (guards, choices) of each copy of an item made at `at`;
        // `None` to keep it as it is.
        let copies = |at: usize, guards: &[Guard], choices: &[Choice]| {
            if !guards.contains(&Guard::CallerChoice) {
                return None;
            }
            let ways = ways(at)?;
            Some(
                ways.iter()
                    .filter_map(|way| {
                        Some((pinned(guards, way), flow::merge_choices(choices, way)?))
                    })
                    .collect::<Vec<_>>(),
            )
        };
        let mut reqs = Vec::new();
        for req in std::mem::take(&mut facts.reqs) {
            match copies(req.span.start, &req.guards, &req.choices) {
                Some(copies) => {
                    reqs.extend(copies.into_iter().map(|(guards, choices)| Requirement {
                        guards,
                        choices,
                        ..req.clone()
                    }))
                }
                None => reqs.push(req),
            }
        }
        facts.reqs = reqs;
        let mut edges = Vec::new();
        for edge in std::mem::take(&mut facts.edges) {
            match copies(edge.at, &edge.guards, &edge.choices) {
                Some(copies) => edges.extend(copies.into_iter().map(|(guards, choices)| Edge {
                    guards,
                    choices,
                    ..edge.clone()
                })),
                None => edges.push(edge),
            }
        }
        facts.edges = edges;
    }

    /// The branches of `def` and its closures with its parameters bound to
    /// `given` (by position after the receiver; see `Flow::eval_given`).
    pub(crate) fn call_branches(
        &self,
        def: ScopeId,
        given: &[Vec<flow::Alt<'t>>],
        receiver: Option<flow::Alt<'t>>,
    ) -> CallBranches {
        let mut out = CallBranches::default();
        for (id, scope) in self.scopes.iter().enumerate() {
            if scope.kind != ScopeKind::Function || !self.scope_within(id, def) {
                continue;
            }
            let branches = self.build_branches_by(id, &|expr| {
                let flow = self.flow_for_conditions(200);
                flow.eval_given(def, given, receiver.clone(), expr, id)
            });
            out.dead.extend(branches.dead);
            out.holds.extend(branches.holds);
            out.by_host.extend(branches.by_host);
        }
        let edges = self.call_edges(def, given, receiver, &out.dead);
        out.edges = edges;
        out
    }

    /// The edges of `def` and its closures that only its parameters bound
    /// to `given` (and `receiver`) make: callees and arguments the module
    /// alone gives no target, evaluated with the call's values. Bodies in
    /// `dead` make none.
    pub(crate) fn call_edges(
        &self,
        def: ScopeId,
        given: &[Vec<flow::Alt<'t>>],
        receiver: Option<flow::Alt<'t>>,
        dead: &[std::ops::Range<usize>],
    ) -> Vec<(ScopeId, Edge)> {
        self.call_edges_within(def, given, receiver, dead, &[def])
    }

    /// `call_edges`, for the functions within any of `roots` (closures a
    /// function `def` calls made, as well as its own).
    pub(crate) fn call_edges_within(
        &self,
        def: ScopeId,
        given: &[Vec<flow::Alt<'t>>],
        receiver: Option<flow::Alt<'t>>,
        dead: &[std::ops::Range<usize>],
        roots: &[ScopeId],
    ) -> Vec<(ScopeId, Edge)> {
        let mut out = Vec::new();
        // Given nothing but the object, only what it holds can make an edge
        // the module alone does not: a callee (`layer.apply(x)` over
        // `self.layers`), or an argument read off the object (`vmap(self.fn)`);
        // a function the module passes without calling it (`Box(show)`)
        // stays no edge.
        let receiver_name = match (&receiver, given.iter().all(Vec::is_empty)) {
            (Some(_), true) => self.scopes[def].params().first().map(|(n, _)| n.as_str()),
            _ => None,
        };
        for (id, scope) in self.scopes.iter().enumerate() {
            if !matches!(scope.kind, ScopeKind::Function | ScopeKind::Lambda)
                || !roots.iter().any(|&root| self.scope_within(id, root))
            {
                continue;
            }
            let facts = self.facts_of(id);
            let branches = self.branch_ranges(id);
            for &index in &scope.calls {
                let call = self.calls[index].node;
                let Some(func) = call.field("function") else {
                    continue;
                };
                let args = self.args_of(call);
                let nodes = std::iter::once((func, call.start_byte(), Some(call.id()))).chain(
                    args.positional
                        .iter()
                        .chain(args.keywords.iter().map(|(_, v, _)| v))
                        .map(|a| (*a, a.start_byte(), None)),
                );
                for (node, at, direct) in nodes {
                    let node = unparenthesize(node);
                    if dead.iter().any(|r| r.contains(&at))
                        || !matches!(node.kind_name(), "identifier" | "attribute" | "subscript")
                        || (direct.is_none()
                            && receiver_name.is_some_and(|r| root_name(node, self.src) != Some(r)))
                        || self.is_library_ref(node, id)
                        || facts
                            .edges
                            .iter()
                            .any(|e| e.at == at && !self.partial_left_open(e))
                    {
                        continue;
                    }
                    let flow = self.flow_with_budget(REACH_BUDGET);
                    let values = flow.eval_given(def, given, receiver.clone(), node, id);
                    // A value run-time configuration's default gives (the
                    // call passed `op.apply` of the operator an environment
                    // default picks): an edge a plain run takes, noted.
                    // So does one the host picks, on that host.
                    let targets: Vec<(Target, Vec<Choice>, Option<Guard>)> = values
                        .iter()
                        .filter(|a| a.why.certain() || guard_of_why(&a.why).is_some())
                        .flat_map(|a| {
                            let guard = guard_of_why(&a.why);
                            // With the choices it was made on (the call
                            // of a factory that made a closure).
                            self.alt_targets(a)
                                .into_iter()
                                .map(move |(t, c)| (t, c, guard.clone()))
                        })
                        .collect();
                    // `obj.method(...)` on the one object of another module's
                    // class the call gave: that class's method.
                    let targets = match (targets.is_empty(), direct, node.field("object")) {
                        (true, Some(_), Some(object)) if node.kind_name() == "attribute" => {
                            let attr = node.field("attribute").map_or("", |a| text(a, self.src));
                            match flow
                                .eval_given(def, given, receiver.clone(), object, id)
                                .as_slice()
                            {
                                [one] if one.why.certain() => self
                                    .object_method(&one.val, attr)
                                    .map(|t| (t, one.choices.clone(), None))
                                    .into_iter()
                                    .collect(),
                                _ => targets,
                            }
                        }
                        _ => targets,
                    };
                    if targets.is_empty() {
                        continue;
                    }
                    let mut guards = self.guards_of(node, id);
                    if branches.by_caller.iter().any(|r| r.contains(&at)) {
                        guards.push(Guard::CallerChoice);
                    }
                    guards.extend(branches.guards_at(at));
                    for (target, choices, guard) in targets {
                        let mut guards = guards.clone();
                        guards.extend(guard);
                        let edge = Edge {
                            call: self.binding_call(&target, &choices, direct),
                            target,
                            guards,
                            choices,
                            at,
                        };
                        if !out.iter().any(|(s, e)| *s == id && *e == edge) {
                            out.push((id, edge));
                        }
                    }
                }
            }
        }
        out
    }

    /// An edge to a def that partials wrap, made without knowing which
    /// partial was called (`self.add(x)` with `add` given one partial per
    /// construction): the call's values may tell.
    fn partial_left_open(&self, edge: &Edge) -> bool {
        edge.choices.is_empty()
            && matches!(edge.target, Target::Local(def) if self
                .def_call_sites(def)
                .iter()
                .any(|s| matches!(s.kind, flow::SiteKind::Partial { .. })))
    }

    /// The call that binds an edge's target's parameters: not the call
    /// itself when the edge's choices name another call of that def (the
    /// partial that made the value called binds what it stores).
    fn binding_call(
        &self,
        target: &Target,
        choices: &[Choice],
        direct: Option<usize>,
    ) -> Option<usize> {
        match target {
            Target::Local(def)
                if choices
                    .iter()
                    .any(|(point, _)| *point == self.scopes[*def].node.id()) =>
            {
                None
            }
            _ => direct,
        }
    }

    /// `obj.attr(...)` on a detached object: another module's class's
    /// method (`foreign_method`), or, for an object of a class of this
    /// module handed back by another module (its class by the bare name
    /// `named_for` gave it), the method by this module's own dotted path,
    /// which the caller's reach asks this module about with the object as
    /// receiver.
    fn object_method(&self, object: &Val<'t>, attr: &str) -> Option<Target> {
        if let Some(target) = foreign_method(object, attr) {
            return Some(target);
        }
        let Val::Object(fields) = object else {
            return None;
        };
        if fields.iter().any(|(n, _)| n == attr) {
            return None;
        }
        let class = self.own_class_of_object(fields)?;
        self.method(class, attr)?;
        self.own_method_path(class, attr).map(Target::External)
    }

    /// Whether a subclass of `class` stores its own `attr` (its bindings
    /// other than `own`, `class`'s): `self.attr` then depends on the
    /// instance.
    pub(crate) fn stored_by_a_subclass(
        &self,
        class: ScopeId,
        attr: &str,
        own: &[Binding<'t>],
    ) -> bool {
        self.subclasses(class).iter().any(|c| {
            *c != class
                && self
                    .attribute(*c, attr)
                    .is_some_and(|b| !std::ptr::eq(b, own))
        })
    }

    /// Whether `func` names a def (or a class) of this module by its own
    /// name: a call of it is a call of that def.
    fn names_a_def(&self, func: Node<'t>, scope: ScopeId) -> bool {
        let func = unparenthesize(func);
        func.kind_name() == "identifier"
            && matches!(
                self.binding_at(scope, text(func, self.src), func),
                Some(Binding::Def(_))
            )
    }

    /// The calls of factory `def` that made what `func` holds, when the
    /// flow says `func` is a closure made inside `def` (never `def`
    /// itself): each such call's choice. `None` when the flow does not
    /// show it.
    fn factory_calls_of_value(
        &self,
        func: Node<'t>,
        scope: ScopeId,
        def: ScopeId,
    ) -> Option<Vec<flow::Choice>> {
        if self.scopes[def].kind != ScopeKind::Function {
            return None;
        }
        let point = self.scopes[def].node.id();
        let mut calls: Vec<flow::Choice> = Vec::new();
        for alt in self.flow_with_budget(REACH_BUDGET).eval(func, scope) {
            if !alt.why.certain() {
                continue;
            }
            match alt.val {
                Val::Function(f) | Val::Jitted(f, ..) if f == def => return None,
                Val::Function(f) | Val::Jitted(f, ..) if self.scope_within(f, def) => {
                    let &(_, call) = alt.choices.iter().find(|(p, _)| *p == point)?;
                    if !calls.contains(&(point, call)) {
                        calls.push((point, call));
                    }
                }
                _ => {}
            }
        }
        (!calls.is_empty()).then_some(calls)
    }

    /// The guards of a requirement or edge of scope `id` made at byte `at`,
    /// for the call `decided` was made for: `None` when the call does not
    /// reach it; without `CallerChoice` when every body the callers decide
    /// around it holds for the call.
    fn decided_guards(
        &self,
        decided: &CallBranches,
        id: ScopeId,
        at: usize,
        guards: &[Guard],
    ) -> Option<Vec<Guard>> {
        if decided.dead.iter().any(|r| r.contains(&at)) {
            return None;
        }
        if !guards.contains(&Guard::CallerChoice) {
            return Some(guards.to_vec());
        }
        let branches = self.branch_ranges(id);
        let mut notes = Vec::new();
        let mut hosts = Vec::new();
        for body in branches.by_caller.iter().filter(|r| r.contains(&at)) {
            match decided.holds.iter().find(|(r, _)| r == body) {
                Some((_, note)) => notes.extend(note.iter().cloned()),
                // What the call leaves to the host: on those hosts.
                None => match decided.by_host.iter().find(|(r, _)| r == body) {
                    Some((_, on)) => hosts.push(on.clone()),
                    None => return Some(guards.to_vec()),
                },
            }
        }
        let mut out: Vec<Guard> = guards
            .iter()
            .filter(|g| **g != Guard::CallerChoice)
            .cloned()
            .collect();
        out.extend(notes.into_iter().map(Guard::Configured));
        out.extend(hosts.into_iter().map(|on| Guard::HostDependent(Some(on))));
        Some(out)
    }

    /// For an imported function reached through a name bound to what a call
    /// of it returned (`x = helper(...)`, then `f(x)` or `return x`): that
    /// call's id, so the edge is a direct call with known arguments.
    /// Also the call itself (`jax.jit(Model(fn))`), and the decorator call
    /// of a def (`@factory(flag)` above `def step`): the def is what that
    /// call returned, applied to it.
    /// The decorator call of `def` whose callee is `path` (`@tools.instrument(
    /// False)` above it): what it made is what calling the def runs.
    pub(crate) fn decorator_call_for(&self, def: ScopeId, path: &str) -> Option<usize> {
        let outer = self.scopes[def].parent.unwrap_or(0);
        self.scopes[def]
            .decorators()
            .into_iter()
            .find(|d| d.kind_name() == "call" && self.callee(*d, outer).as_deref() == Some(path))
            .map(|d| d.id())
    }

    pub(crate) fn call_made_by(
        &self,
        target: &Target,
        node: Node<'t>,
        scope: ScopeId,
    ) -> Option<usize> {
        self.call_made_by_within(target, node, scope, 0)
    }

    /// `call_made_by`, `depth` partials or jits in (`f = partial(f, ...)`
    /// may name itself).
    fn call_made_by_within(
        &self,
        target: &Target,
        node: Node<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Option<usize> {
        let Target::External(path) = target else {
            return None;
        };
        // A call of it by its imported name, or through a value the flow
        // follows (`self.model.log_prob(u)` on another module's object).
        let calls_path = |call: Node<'t>, scope: ScopeId| {
            call.kind_name() == "call"
                && (self.callee(call, scope).as_deref() == Some(path.as_str())
                    || call.field("function").is_some_and(|f| {
                        self.callee(call, scope).is_none()
                            && self
                                .callee_targets(f, scope)
                                .iter()
                                .any(|(t, c)| t == target && c.is_empty())
                    }))
        };
        // `grad_fn(x)` with `grad_fn = clipped_grad(loss, hook=h)` is no
        // call of `clipped_grad`: the call that made `grad_fn` is.
        let maker = |call: Node<'t>, scope: ScopeId| {
            call.field("function")
                .filter(|f| f.kind_name() == "identifier")
                .and_then(|f| match self.binding_at(scope, text(f, self.src), f) {
                    Some(Binding::Value { value, scope, .. }) => {
                        let value = unparenthesize(*value);
                        calls_path(value, *scope).then(|| value.id())
                    }
                    _ => None,
                })
                .unwrap_or(call.id())
        };
        let node = unparenthesize(node);
        if calls_path(node, scope) {
            return Some(maker(node, scope));
        }
        // `functools.partial(step, ...)` / `jax.jit(step)` of a decorated
        // def: what the decorator call made, as for the def itself.
        let wrapped = |call: Node<'t>, scope: ScopeId| {
            let wraps = call.kind_name() == "call"
                && matches!(
                    self.callee(call, scope).as_deref(),
                    Some(names::PARTIAL | names::JIT)
                );
            let first = self.args_of(call).positional.first().copied()?;
            let first = unparenthesize(first);
            (wraps && first.kind_name() == "identifier").then_some(first)
        };
        if let Some(first) = wrapped(node, scope).filter(|_| depth < 4) {
            return self.call_made_by_within(target, first, scope, depth + 1);
        }
        if node.kind_name() != "identifier" {
            return None;
        }
        match self.binding_at(scope, text(node, self.src), node)? {
            Binding::Value { value, scope, .. } => {
                let value = unparenthesize(*value);
                if let Some(first) = wrapped(value, *scope).filter(|_| depth < 4) {
                    return self.call_made_by_within(target, first, *scope, depth + 1);
                }
                calls_path(value, *scope).then(|| maker(value, *scope))
            }
            Binding::Def(def) => {
                let outer = self.scopes[*def].parent.unwrap_or(0);
                self.scopes[*def]
                    .decorators()
                    .into_iter()
                    .find(|d| calls_path(*d, outer))
                    .map(|d| d.id())
            }
            _ => None,
        }
    }

    fn is_assigned_to_name(&self, node: Node<'t>) -> bool {
        self.parent_of(node).is_some_and(|p| {
            p.kind_name() == "assignment"
                && p.field("left")
                    .is_some_and(|l| l.kind_name() == "identifier")
        })
    }

    /// The defs of this module that a jit with shardings wraps
    /// (`jax.jit(f, in_shardings=...)`, `@partial(jax.jit,
    /// out_shardings=...)`): only a call reaching one of them may call
    /// such a jit (`inner_jit_shardings`).
    pub(crate) fn sharded_jit_defs(&self) -> &[ScopeId] {
        self.sharded_jit_defs.get_or_init(|| {
            let mut out = Vec::new();
            if !self.src.contains("_shardings") {
                return out;
            }
            let sharded = |jitted: &super::values::Jitted<'t>| {
                ["in_shardings", "out_shardings"]
                    .iter()
                    .any(|k| jitted.keyword(k).is_some())
            };
            // `jax.jit(f, in_shardings=...)`, `jit_fn(f)` of a name bound to
            // `partial(jax.jit, out_shardings=...)`, with `**jit_kwargs`.
            for site in &self.calls {
                let Some(func) = site.node.field("function") else {
                    continue;
                };
                // Read by the value flow only where the syntax names a jit:
                // `jax.jit` itself, or a name bound to an expression that
                // mentions one.
                let maybe_jit = match func.kind_name() {
                    "identifier" => match self.binding_at(site.scope, text(func, self.src), func) {
                        Some(Binding::Value { value, .. }) => {
                            text(*value, self.src).contains("jit")
                        }
                        _ => self.callee(site.node, site.scope).as_deref() == Some(names::JIT),
                    },
                    "attribute" => {
                        self.callee(site.node, site.scope).as_deref() == Some(names::JIT)
                    }
                    _ => false,
                };
                let Some(first) = self.args_of(site.node).positional.first().copied() else {
                    continue;
                };
                if !maybe_jit || self.is_decorator(site.node) {
                    continue;
                }
                let Some(jitted) = self.eval_jitted(site.node, site.scope) else {
                    continue;
                };
                if !sharded(&jitted) && !self.args_of(site.node).has_dict_splat {
                    continue;
                }
                for target in self.resolve_ref(first, site.scope, 0) {
                    if let Target::Local(def) = target {
                        if !out.contains(&def) {
                            out.push(def);
                        }
                    }
                }
            }
            // `@partial(jax.jit, out_shardings=...)` on a def.
            for (id, scope) in self.scopes.iter().enumerate() {
                if scope.kind != ScopeKind::Function || scope.decorators().is_empty() {
                    continue;
                }
                let outer = scope.parent.unwrap_or(0);
                let Some(name) = scope.node.field("name") else {
                    continue;
                };
                if self.eval_jitted(name, outer).is_some_and(|j| sharded(&j)) && !out.contains(&id)
                {
                    out.push(id);
                }
            }
            out
        })
    }

    /// What the meshes of the jit that `func` names are, when it is one with
    /// shardings (`None` otherwise, and for a plain call of its function).
    fn inner_jit_shardings(&self, func: Node<'t>, scope: ScopeId) -> Option<ReqKind> {
        let jitted = self.eval_jitted(func, scope)?;
        let mut use_ = super::values::ShardingUse::default();
        if let Some(foreign) = &jitted.foreign {
            use_.merge(foreign.shardings);
        }
        for key in ["in_shardings", "out_shardings"] {
            for (node, at) in self.jit_keyword(&jitted, key) {
                use_.merge(self.eval_sharding(node, at));
            }
        }
        let kind = ReqKind::InnerJitShardings {
            abstract_mesh: use_.abstract_mesh,
            concrete: use_.concrete_mesh,
            unknown: use_.unknown || use_.spec || use_.current_mesh,
        };
        (use_.abstract_mesh || use_.concrete_mesh || use_.unknown || use_.spec || use_.current_mesh)
            .then_some(kind)
    }

    fn is_decorator(&self, node: Node<'t>) -> bool {
        self.parent_of(node)
            .is_some_and(|p| p.kind_name() == "decorator")
    }

    /// The requirements of a `pallas_call`: one per alternative of its
    /// `compiler_params=` and `interpret=` values (a run-time choice
    /// among them is `Unknown`).
    fn pallas_requirement(
        &self,
        call: Node<'t>,
        args: &Args<'t>,
        scope: ScopeId,
        guards: Vec<Guard>,
    ) -> Vec<Requirement> {
        self.pallas_requirement_of_call(&self.flow(), call, args, scope, guards)
    }

    /// `pallas_requirement` evaluated by `flow` (one with a call bound).
    fn pallas_requirement_of_call(
        &self,
        flow: &flow::Flow<'_, 't>,
        call: Node<'t>,
        args: &Args<'t>,
        scope: ScopeId,
        guards: Vec<Guard>,
    ) -> Vec<Requirement> {
        let keywords = args
            .keywords
            .iter()
            .map(|(n, v, _)| (n.clone(), *v, scope))
            .collect();
        let splat_from = args.has_dict_splat.then_some((call, scope));
        self.pallas_requirement_in(flow, call, keywords, args.has_splat, splat_from, guards)
    }

    /// A `pallas_call` requirement from keyword arguments that may come from
    /// several places (a `functools.partial` and the call of it), each with
    /// the scope it is evaluated in; later ones win, as in Python.
    /// `splat_from`: a call (and its scope) whose `**kwargs` may carry the
    /// params the keywords lack (`pl.pallas_call(k, **kwargs)` in a wrapper:
    /// what each caller of the wrapper passes).
    fn pallas_requirement_in(
        &self,
        flow: &flow::Flow<'_, 't>,
        call: Node<'t>,
        keywords: Vec<(String, Node<'t>, ScopeId)>,
        has_splat: bool,
        splat_from: Option<(Node<'t>, ScopeId)>,
        guards: Vec<Guard>,
    ) -> Vec<Requirement> {
        let keyword = |name: &str| {
            keywords
                .iter()
                .rev()
                .find(|(n, _, _)| n == name)
                .map(|(_, v, s)| (*v, *s))
        };
        let mut params_at = keyword("compiler_params");
        // The params each alternative is (a run-time choice: not known).
        let params_of_alts = |alts: Vec<flow::Alt<'t>>| -> Vec<(CompilerParams, Why, Vec<Choice>)> {
            alts.into_iter()
                .map(|a| {
                    let value = match (&a.why, &a.val) {
                        (w, _) if w.is_choice() => CompilerParams::Unknown,
                        (_, Val::ParamRef(slot)) => self.param_slot(flow, slot),
                        (_, v) => params_of(v),
                    };
                    (value, a.why, a.choices)
                })
                .collect()
        };
        let eval_params =
            |node: Node<'t>, scope: ScopeId| -> Vec<(CompilerParams, Why, Vec<Choice>)> {
                // The dict form is read syntactically (JP013 fails on any dict).
                let syntactic = self.eval_compiler_params(node, scope);
                if syntactic == CompilerParams::Dict {
                    vec![(CompilerParams::Dict, Why::Fixed, Vec::new())]
                } else {
                    params_of_alts(flow.eval(node, scope))
                }
            };
        let params: Vec<(CompilerParams, Why, Vec<Choice>)> = match (params_at, splat_from) {
            (Some((node, scope)), _) => eval_params(node, scope),
            (None, Some((from, from_scope))) => {
                let mut out = Vec::new();
                for source in flow.keyword_sources(from, from_scope, "compiler_params") {
                    let alts = match source.passed {
                        flow::Passed::At { value, scope, .. } => {
                            params_at.get_or_insert((value, scope));
                            eval_params(value, scope)
                        }
                        flow::Passed::Absent => {
                            vec![(CompilerParams::Absent, Why::Fixed, Vec::new())]
                        }
                        flow::Passed::Values(alts) => params_of_alts(alts),
                        flow::Passed::Unknown => {
                            vec![(CompilerParams::Unknown, Why::Choice, Vec::new())]
                        }
                    };
                    for (value, why, choices) in alts {
                        // Unpacked from a dict the run chooses (`**extra`
                        // set in both branches of an `if`): not known.
                        let why = why.and(&source.why);
                        let value = if why.is_choice() {
                            CompilerParams::Unknown
                        } else {
                            value
                        };
                        if let Some(choices) = flow::merge_choices(&choices, &source.choices) {
                            out.push((value, why, choices));
                        }
                    }
                }
                out
            }
            (None, None) => vec![(CompilerParams::Absent, Why::Fixed, Vec::new())],
        };
        let params_node = params_at.map(|(n, _)| n);
        type InterpretAlt = (
            Interpret,
            Option<Box<(ParamSlot, Interpret)>>,
            Why,
            Vec<Choice>,
        );
        let eval_interpret = |node: Node<'t>, scope: ScopeId| -> Vec<InterpretAlt> {
            flow.eval(node, scope)
                .into_iter()
                .map(|a| {
                    if let Val::ParamRef(slot) = &a.val {
                        // Left to callers in other modules; its default for
                        // the rest.
                        let default = match flow.with_defaults(vec![a.clone()]).as_slice() {
                            [one] if one.why.certain() => interpret_of(&one.val),
                            _ => Interpret::Unknown,
                        };
                        let slot = self.slot_of(slot);
                        return (
                            Interpret::Unknown,
                            Some(Box::new((slot, default))),
                            a.why,
                            a.choices,
                        );
                    }
                    let value = match &a.why {
                        w if w.is_choice() => Interpret::Unknown,
                        _ => interpret_of(&a.val),
                    };
                    (value, None, a.why, a.choices)
                })
                .collect()
        };
        let interpret: Vec<InterpretAlt> = match (keyword("interpret"), splat_from) {
            (Some((node, scope)), _) => eval_interpret(node, scope),
            // Through `**kwargs`: what each caller passes.
            (None, Some((from, from_scope))) => {
                let mut out = Vec::new();
                for source in flow.keyword_sources(from, from_scope, "interpret") {
                    let alts = match source.passed {
                        flow::Passed::At { value, scope, .. } => eval_interpret(value, scope),
                        flow::Passed::Absent => vec![(Interpret::No, None, Why::Fixed, Vec::new())],
                        flow::Passed::Values(alts) => alts
                            .into_iter()
                            .map(|a| {
                                let value = match (&a.why, &a.val) {
                                    (w, _) if w.is_choice() => Interpret::Unknown,
                                    (_, Val::ParamRef(_)) => Interpret::Unknown,
                                    (_, v) => interpret_of(v),
                                };
                                (value, None, a.why, a.choices)
                            })
                            .collect(),
                        flow::Passed::Unknown => {
                            vec![(Interpret::Unknown, None, Why::Fixed, Vec::new())]
                        }
                    };
                    for (value, from, why, choices) in alts {
                        let why = why.and(&source.why);
                        let value = if why.is_choice() {
                            Interpret::Unknown
                        } else {
                            value
                        };
                        if let Some(choices) = flow::merge_choices(&choices, &source.choices) {
                            out.push((value, from, why, choices));
                        }
                    }
                }
                out
            }
            (None, None) if has_splat => vec![(Interpret::Unknown, None, Why::Fixed, Vec::new())],
            (None, None) => vec![(Interpret::No, None, Why::Fixed, Vec::new())],
        };
        let mut out: Vec<Requirement> = Vec::new();
        for (params, pwhy, pchoices) in &params {
            for (interpret, interpret_from, iwhy, ichoices) in &interpret {
                let Some(choices) = flow::merge_choices(pchoices, ichoices) else {
                    continue;
                };
                let req = Requirement {
                    kind: ReqKind::PallasCall {
                        params: params.clone(),
                        interpret: *interpret,
                        interpret_from: interpret_from.clone(),
                    },
                    file: None,
                    span: call.byte_range(),
                    detail: params_node.map(|n| unparenthesize(n).byte_range()),
                    guards: guards.clone(),
                    why: pwhy.and(iwhy),
                    choices,
                };
                if !out.contains(&req) {
                    out.push(req);
                }
            }
        }
        out
    }

    /// A caller-supplied params value: the slot, and its default projected
    /// through the same attributes.
    fn param_slot(
        &self,
        flow: &flow::Flow<'_, 't>,
        slot: &flow::ParamRefVal<'t>,
    ) -> CompilerParams {
        let def = &self.scopes[slot.def];
        let default = match def.params().get(slot.index).and_then(|(_, d)| *d) {
            Some(d) => {
                let alts = flow.project(flow.eval(d, def.parent.unwrap_or(0)), &slot.path);
                match alts.as_slice() {
                    [one] if one.why.certain() => params_of(&one.val),
                    _ => CompilerParams::Unknown,
                }
            }
            None => CompilerParams::Unknown,
        };
        CompilerParams::Param(self.slot_of(slot), Box::new(default))
    }

    fn slot_of(&self, slot: &flow::ParamRefVal<'t>) -> ParamSlot {
        ParamSlot {
            function: self.scopes[slot.def].name.clone(),
            name: slot.name.clone(),
            position: self.param_position(slot.def, slot.index, false),
            path: slot.path.clone(),
        }
    }

    fn partial_pallas_call(
        &self,
        call: Node<'t>,
        args: &Args<'t>,
        scope: ScopeId,
        guards: &[Guard],
    ) -> Option<Vec<Requirement>> {
        self.partial_pallas_call_in(&self.flow(), call, args, scope, guards)
    }

    /// `partial_pallas_call` evaluated by `flow` (one with a call bound).
    fn partial_pallas_call_in(
        &self,
        flow: &flow::Flow<'_, 't>,
        call: Node<'t>,
        args: &Args<'t>,
        scope: ScopeId,
        guards: &[Guard],
    ) -> Option<Vec<Requirement>> {
        let func = call.field("function")?;
        if !matches!(func.kind_name(), "identifier" | "attribute") {
            return None;
        }
        let (value, vscope) = self.follow_names(func, scope)?;
        if value.kind_name() != "call"
            || self.callee(value, vscope).as_deref() != Some(names::PARTIAL)
        {
            return None;
        }
        let stored = self.args_of(value);
        let first = stored.positional.first()?;
        if self.canonical(*first, vscope).as_deref() != Some(names::PALLAS_CALL) {
            return None;
        }
        let keywords = stored
            .keywords
            .iter()
            .map(|(n, v, _)| (n.clone(), *v, vscope))
            .chain(args.keywords.iter().map(|(n, v, _)| (n.clone(), *v, scope)))
            .collect();
        Some(self.pallas_requirement_in(
            flow,
            call,
            keywords,
            stored.has_splat || args.has_splat,
            None,
            guards.to_vec(),
        ))
    }

    fn kernel_requirement(
        &self,
        call: Node<'t>,
        args: &Args<'t>,
        scope: ScopeId,
        path: &str,
        guards: Vec<Guard>,
    ) -> Requirement {
        let mesh = if path == names::MOSAIC_GPU_KERNEL {
            KernelMesh::Gpu
        } else {
            match args.keyword("mesh") {
                Some(mesh) => self.kernel_mesh(mesh, scope),
                None => KernelMesh::Unknown,
            }
        };
        Requirement {
            kind: ReqKind::PallasKernel { mesh },
            file: None,
            span: call.byte_range(),
            detail: args.keyword("mesh").map(|m| m.byte_range()),
            guards,
            why: Why::Fixed,
            choices: Vec::new(),
        }
    }

    fn kernel_mesh(&self, node: Node<'t>, scope: ScopeId) -> KernelMesh {
        let flow = self.flow();
        let mut found = None;
        for alt in flow.with_defaults(flow.eval(node, scope)) {
            let Val::KernelMesh(mesh) = alt.val else {
                return KernelMesh::Unknown;
            };
            if found.is_some_and(|f| f != mesh) {
                return KernelMesh::Unknown;
            }
            found = Some(mesh);
        }
        found.unwrap_or(KernelMesh::Unknown)
    }

    pub(crate) fn eval_compiler_params(&self, node: Node<'t>, scope: ScopeId) -> CompilerParams {
        let mut current = (unparenthesize(node), scope);
        for _ in 0..12 {
            let (node, scope) = current;
            match node.kind_name() {
                "none" => return CompilerParams::Absent,
                "dictionary" => return CompilerParams::Dict,
                "call" => {
                    if let Some((def, [value])) = self.local_returns(node, scope) {
                        current = (unparenthesize(*value), def);
                        continue;
                    }
                    let callee = self.callee(node, scope);
                    return match callee.as_deref() {
                        Some("dict") | None
                            if node
                                .field("function")
                                .is_some_and(|f| text(f, self.src) == "dict") =>
                        {
                            CompilerParams::Dict
                        }
                        Some(path) => names::compiler_params_family(path)
                            .map(CompilerParams::Class)
                            .unwrap_or(CompilerParams::Unknown),
                        None => CompilerParams::Unknown,
                    };
                }
                "identifier" | "attribute" => match self.follow_value(node, scope) {
                    Some((value, vscope)) => current = (unparenthesize(value), vscope),
                    None => return CompilerParams::Unknown,
                },
                _ => return CompilerParams::Unknown,
            }
        }
        CompilerParams::Unknown
    }

    /// `call` calls a name bound to `custom_partitioning(f)`.
    fn is_custom_partitioning_value(&self, call: Node<'t>, scope: ScopeId) -> bool {
        let Some(func) = call
            .field("function")
            .filter(|f| f.kind_name() == "identifier")
        else {
            return false;
        };
        let Some(super::Binding::Value {
            value,
            scope: vscope,
            ..
        }) = self.binding_at(scope, text(func, self.src), func)
        else {
            return false;
        };
        value.kind_name() == "call"
            && value.field("function").is_some_and(|f| {
                self.canonical(f, *vscope).as_deref() == Some(names::CUSTOM_PARTITIONING)
            })
    }

    /// The byte ranges of a scope's code that cannot run: branches of an
    /// `if` whose condition has a constant value (`if DEBUG:` with
    /// `DEBUG = False`, a config field, a default). Only statements are
    /// walked, not expressions; nested defs are other scopes.
    /// Also the ranges whose branch the callers decide (see `Guard::CallerChoice`).
    #[allow(clippy::type_complexity)]
    pub(crate) fn branch_ranges(&self, scope: ScopeId) -> std::rc::Rc<Branches> {
        let caches = self.caches();
        // Built while the calls through values are being indexed, its
        // conditions lack those calls' arguments: kept only until the index
        // is built (as `Flow::def_call_sites` keeps nothing then).
        let kept = if caches.value_calls_building.get() {
            &caches.branches_provisional
        } else {
            &caches.branches
        };
        if let Some(found) = kept.borrow().get(&scope) {
            return found.clone();
        }
        // Conditions are decided without decided branches (`Flow::branch_aware`),
        // so building does not come back here; should another path do it,
        // the inner question gets no answer rather than recursing.
        let building = caches.branches_building.borrow().len();
        if building > 2 || !caches.branches_building.borrow_mut().insert(scope) {
            super::flow::cut();
            return std::rc::Rc::new(Branches::default());
        }
        let built = std::rc::Rc::new(self.build_branches(scope));
        caches.branches_building.borrow_mut().remove(&scope);
        kept.borrow_mut().insert(scope, built.clone());
        built
    }

    fn build_branches(&self, scope: ScopeId) -> Branches {
        self.build_branches_by(scope, &|expr| {
            self.flow_for_conditions(200).eval(expr, scope)
        })
    }

    /// The branches of `scope`, each expression's values (a condition, what
    /// a `try` body may raise on) given by `value_of`.
    pub(crate) fn build_branches_by(
        &self,
        scope: ScopeId,
        value_of: &dyn Fn(Node<'t>) -> Vec<flow::Alt<'t>>,
    ) -> Branches {
        // A dict a store certainly filled before the test is true there
        // (`if decoder_params:`), though its value is still the dict.
        let flow = self.flow();
        let truth = |condition: Node<'t>| {
            let mut alts = value_of(condition);
            for alt in &mut alts {
                if matches!(alt.val, Val::Dict(..))
                    && flow.truth_at(&alt.val, condition, scope, 0) == Some(true)
                {
                    alt.val = Val::Bool(true);
                }
            }
            truth_of(alts)
        };
        let truth_of: &dyn Fn(Node<'t>) -> Truth = &truth;
        let mut out = Vec::new();
        let mut holds = Vec::new();
        let mut by_caller_when = Vec::new();
        let mut by_caller = Vec::new();
        let mut taken_bodies = Vec::new();
        let mut by_default = Vec::new();
        let mut by_host = Vec::new();
        // Simple statements, for the branches inside them.
        let mut simple = Vec::new();
        let mut stack: Vec<Node<'t>> = if scope == super::MODULE_SCOPE {
            self.top_level_statements()
        } else {
            self.scopes[scope].node.field("body").into_iter().collect()
        };
        while let Some(node) = stack.pop() {
            match node.kind_name() {
                "if_statement" | "match_statement" => {
                    // A `match` is a chain of conditions too: each `case`
                    // clause is its own condition (see `Flow::eval_case`),
                    // the first that matches runs.
                    let mut branches: Vec<(Option<Node<'t>>, Option<Node<'t>>)> = Vec::new();
                    if node.kind_name() == "if_statement" {
                        branches.push((node.field("condition"), node.field("consequence")));
                        let mut cursor = node.walk();
                        for alt in node.children_by_field_name("alternative", &mut cursor) {
                            match alt.kind_name() {
                                "elif_clause" => branches
                                    .push((alt.field("condition"), alt.field("consequence"))),
                                _ => branches.push((None, alt.field("body"))),
                            }
                        }
                    } else if let Some(body) = node.field("body") {
                        let mut cursor = body.walk();
                        for case in body
                            .named_children(&mut cursor)
                            .filter(|c| c.kind_name() == "case_clause")
                        {
                            branches.push((Some(case), case.field("consequence")));
                        }
                    }
                    // Once a branch is certainly taken, the later ones are dead;
                    // an `else` after conditions all false is taken.
                    let mut taken = false;
                    let mut all_false = true;
                    let mut conditions = 0;
                    // `if records is None: out = x` then `else:`: the one
                    // test is the callers' choice and its body does no work,
                    // so the `else` runs by the same choice (the ways that
                    // make the test fail, when known). After a body that
                    // does work, the `else` is the other way to do it and is
                    // reached.
                    let mut else_by_choice: Option<Option<Ways>> = None;
                    for (condition, body) in branches {
                        let Some(body) = body else { continue };
                        if taken {
                            out.push(body.byte_range());
                            continue;
                        }
                        if condition.is_some() {
                            conditions += 1;
                            if conditions > 1 {
                                else_by_choice = None;
                            }
                        } else if let Some(fails) = else_by_choice.take() {
                            by_caller.push(body.byte_range());
                            if let Some(fails) = fails {
                                by_caller_when.push((body.byte_range(), fails));
                            }
                            stack.push(body);
                            continue;
                        }
                        // The logging level is the application's to set:
                        // a run-time choice, unless the test is this
                        // module's own code whose answer the flow knows
                        // (`self.vlog_is_on(1)` reading a level the object
                        // was made with).
                        let decide = |c: Node<'t>| {
                            if is_logging_level_test(text(c, self.src)) {
                                match truth_of(c) {
                                    Truth::Known(t) => Truth::Known(t),
                                    _ => Truth::CallerDecides(None),
                                }
                            } else {
                                truth_of(c)
                            }
                        };
                        // When the test is decided false: by a default (its
                        // note), or not.
                        let mut fails_by: Option<Option<String>> = None;
                        let truth = match condition.map(decide) {
                            // Decided by a default: as decided, and what a body
                            // that runs reaches holds for a plain run only.
                            Some(Truth::KnownByDefault(t, note)) => {
                                if t {
                                    holds.push((body.byte_range(), Some(note.clone())));
                                    by_default.push((body.byte_range(), note));
                                } else {
                                    fails_by = Some(Some(note));
                                }
                                Some(Truth::Known(t))
                            }
                            Some(Truth::Known(false)) => {
                                fails_by = Some(None);
                                Some(Truth::Known(false))
                            }
                            Some(Truth::Known(true)) => {
                                holds.push((body.byte_range(), None));
                                Some(Truth::Known(true))
                            }
                            None if all_false => Some(Truth::Known(true)),
                            other => other,
                        };
                        // Taken whenever the `if` runs only if every branch
                        // before it is certainly not.
                        let earlier_all_false = all_false;
                        if !matches!(truth, Some(Truth::Known(false))) {
                            all_false = false;
                        }
                        match truth {
                            Some(Truth::Known(false)) => {
                                out.push(body.byte_range());
                                // `if not enabled: return x` with `enabled`
                                // true: what follows holds whenever the `if`
                                // runs (the callers no longer decide it).
                                if earlier_all_false && always_exits(body) {
                                    if let Some(rest) = self.rest_of_block(node) {
                                        let note = fails_by.clone().flatten();
                                        if let Some(note) = &note {
                                            by_default.push((rest.clone(), note.clone()));
                                        }
                                        holds.push((rest, note));
                                    }
                                }
                            }
                            Some(Truth::Known(true)) => {
                                taken = true;
                                if earlier_all_false {
                                    taken_bodies.push(body.byte_range());
                                    // `if not DEBUG: return x`: what follows
                                    // the `if` in its block never runs.
                                    if self.block_exits(body, scope, truth_of, 0) {
                                        out.extend(self.rest_of_block(node));
                                    }
                                }
                                stack.push(body);
                            }
                            Some(Truth::CallerDecides(when)) => {
                                by_caller.push(body.byte_range());
                                if conditions == 1 && !calls_outside_raise(body) {
                                    else_by_choice =
                                        Some(when.as_ref().map(|(_, fails)| fails.clone()));
                                }
                                // `if records is None: return x`: what follows
                                // in its block runs when the test fails, by the
                                // same choice (as an `if records is not None:`
                                // body would). Not after a body that does work
                                // (`if vectorised: return pure_callback(f, ..)`
                                // then another `pure_callback`): what follows is
                                // then the other way to do it, reached as an
                                // `else` is.
                                if earlier_all_false && exits_without_calls(body) {
                                    if let Some(rest) = self.rest_of_block(node) {
                                        by_caller.push(rest.clone());
                                        if let Some((_, fails)) = &when {
                                            by_caller_when.push((rest, fails.clone()));
                                        }
                                    }
                                }
                                if let Some((holds, _)) = when {
                                    by_caller_when.push((body.byte_range(), holds));
                                }
                                stack.push(body);
                            }
                            Some(Truth::HostDecides(hosts)) => {
                                by_host.push((body.byte_range(), hosts));
                                stack.push(body);
                            }
                            // (`KnownByDefault` was mapped to `Known` above.)
                            Some(Truth::Unknown | Truth::KnownByDefault(..)) | None => {
                                stack.push(body)
                            }
                        }
                    }
                }
                "for_statement" => {
                    // `for frame in STACK: return frame[name]` over a
                    // sequence certainly not empty: the first iteration
                    // leaves the function, so what follows the loop in its
                    // block never runs (nor does an `else`).
                    if self.loop_exits(node, scope, truth_of) {
                        if let Some(block) =
                            self.parent_of(node).filter(|p| p.kind_name() == "block")
                        {
                            out.push(node.end_byte()..block.end_byte());
                        }
                        if let Some(otherwise) = node.field("alternative") {
                            out.push(otherwise.byte_range());
                        }
                    } else if self.loop_body_runs(node, scope, truth_of) {
                        // `made = None; for name in NAMES: made = f(name)`:
                        // the body's assignments are straight-line code (the
                        // last element's value is what follows reads).
                        if let Some(body) = node.field("body") {
                            taken_bodies.push(body.byte_range());
                        }
                    }
                    let mut cursor = node.walk();
                    stack.extend(
                        node.named_children(&mut cursor)
                            .filter(|c| c.kind_name() != "comment"),
                    );
                }
                "try_statement" => {
                    self.decide_try(node, scope, value_of, truth_of, &mut out, &mut taken_bodies);
                    let mut cursor = node.walk();
                    stack.extend(
                        node.named_children(&mut cursor)
                            .filter(|c| c.kind_name() != "comment"),
                    );
                }
                "block" | "while_statement" | "with_statement" | "except_clause"
                | "finally_clause" | "else_clause" => {
                    let mut cursor = node.walk();
                    stack.extend(
                        node.named_children(&mut cursor)
                            .filter(|c| c.kind_name() != "comment"),
                    );
                }
                "function_definition" | "class_definition" | "decorated_definition" => {}
                // A simple statement: its `a if c else b` and `c and a` /
                // `c or a` are branches too.
                _ => simple.push(node),
            }
        }
        let mut branches = Branches {
            dead: out,
            by_caller,
            taken: taken_bodies,
            by_default,
            holds,
            by_caller_when,
            by_host,
        };
        for statement in simple {
            self.expression_branches(statement, truth_of, &mut branches);
        }
        branches
    }

    /// A `try` decided by what its body's values do: when every statement
    /// of the body certainly completes (or certainly returns), its handlers
    /// never run; when one certainly raises an exception (`int("tpu")`)
    /// after the ones before it complete, the rest of the body and the
    /// `else` never run and the first handler naming the exception runs.
    /// Undecided (nothing added) when a statement may or may not raise, or
    /// no handler is known to catch what it raises.
    fn decide_try(
        &self,
        node: Node<'t>,
        scope: ScopeId,
        value_of: &dyn Fn(Node<'t>) -> Vec<flow::Alt<'t>>,
        truth_of: &dyn Fn(Node<'t>) -> Truth,
        dead: &mut Vec<std::ops::Range<usize>>,
        taken: &mut Vec<std::ops::Range<usize>>,
    ) {
        let Some(TryParts {
            body,
            handlers,
            otherwise,
            statements,
        }) = try_parts(node)
        else {
            return;
        };
        if handlers.is_empty() {
            return;
        }
        for statement in statements {
            match self.statement_outcome(statement, scope, value_of) {
                Outcome::Completes => {}
                Outcome::Returns => {
                    dead.extend(handlers.iter().map(|h| h.byte_range()));
                    dead.extend(otherwise.map(|o| o.byte_range()));
                    dead.extend(self.rest_of_block(node));
                    taken.push(body.byte_range());
                    return;
                }
                Outcome::Raises(exception) => {
                    let Some(handler) = catching_handler(&handlers, exception, self.src) else {
                        return;
                    };
                    dead.push(statement.start_byte()..body.end_byte());
                    dead.extend(otherwise.map(|o| o.byte_range()));
                    dead.extend(
                        handlers
                            .iter()
                            .filter(|h| h.id() != handler.id())
                            .map(|h| h.byte_range()),
                    );
                    taken.push(body.byte_range());
                    if let Some(block) = except_block(handler) {
                        taken.push(block.byte_range());
                        if self.block_exits(block, scope, truth_of, 0) {
                            dead.extend(self.rest_of_block(node));
                        }
                    }
                    return;
                }
                Outcome::Unknown => return,
            }
        }
        dead.extend(handlers.iter().map(|h| h.byte_range()));
        taken.push(body.byte_range());
        taken.extend(otherwise.map(|o| o.byte_range()));
    }

    /// What running `statement` certainly does, as far as a `try` around it
    /// is concerned: only simple statements whose every part is known
    /// (`v = int(v)`, `return float(s)`, `pass`) are decided.
    pub(crate) fn statement_outcome(
        &self,
        statement: Node<'t>,
        scope: ScopeId,
        value_of: &dyn Fn(Node<'t>) -> Vec<flow::Alt<'t>>,
    ) -> Outcome {
        match statement.kind_name() {
            "pass_statement" => Outcome::Completes,
            "return_statement" => match statement.named_child(0) {
                None => Outcome::Returns,
                Some(value) => match self.expression_outcome(value, scope, value_of) {
                    Outcome::Completes => Outcome::Returns,
                    other => other,
                },
            },
            "expression_statement" => {
                let Some(expr) = statement.named_child(0) else {
                    return Outcome::Unknown;
                };
                if statement.named_child_count() != 1 {
                    return Outcome::Unknown;
                }
                if expr.kind_name() != "assignment" {
                    return self.expression_outcome(expr, scope, value_of);
                }
                // A plain name bound: nothing but the value can raise.
                match (expr.field("left"), expr.field("right")) {
                    (Some(left), Some(right)) if left.kind_name() == "identifier" => {
                        self.expression_outcome(right, scope, value_of)
                    }
                    _ => Outcome::Unknown,
                }
            }
            _ => Outcome::Unknown,
        }
    }

    /// What evaluating `expr` certainly does: complete (a constant, a name
    /// with known values, `int(x)`/`float(x)` of values that all convert)
    /// or raise `ValueError` (`int(x)` of strings that all fail to).
    fn expression_outcome(
        &self,
        expr: Node<'t>,
        scope: ScopeId,
        value_of: &dyn Fn(Node<'t>) -> Vec<flow::Alt<'t>>,
    ) -> Outcome {
        let Some(table) = self.outcome_table(expr, scope, value_of) else {
            return Outcome::Unknown;
        };
        let mut outcomes = table.iter().map(|(_, _, o)| *o);
        match outcomes.next() {
            Some(first) if outcomes.all(|o| o == first) => first,
            _ => Outcome::Unknown,
        }
    }

    /// What evaluating `expr` does on each way its values are chosen (a
    /// loop's element, a call site: the choices of each): completes, or
    /// raises (`int(x)` of a string that does not convert). `None` when
    /// some way is not known. `a if c else b` is `a`'s on the ways `c`
    /// holds, `b`'s on the others.
    pub(crate) fn outcome_table(
        &self,
        expr: Node<'t>,
        scope: ScopeId,
        value_of: &dyn Fn(Node<'t>) -> Vec<flow::Alt<'t>>,
    ) -> Option<Vec<(Vec<Choice>, Why, Outcome)>> {
        let completes = || Some(vec![(Vec::new(), Why::Fixed, Outcome::Completes)]);
        let expr = unparenthesize(expr);
        match expr.kind_name() {
            // (An f-string's interpolations may raise.)
            "string" => {
                let mut cursor = expr.walk();
                let interpolates = expr
                    .named_children(&mut cursor)
                    .any(|c| c.kind_name() == "interpolation");
                if interpolates {
                    None
                } else {
                    completes()
                }
            }
            "integer" | "float" | "true" | "false" | "none" => completes(),
            // A name read completes when it is bound (its values known).
            "identifier" => {
                let alts = value_of(expr);
                if !alts.is_empty() && alts.iter().all(|a| !a.val.is_unknown()) {
                    completes()
                } else {
                    None
                }
            }
            "conditional_expression" => {
                let mut cursor = expr.walk();
                let parts: Vec<Node<'t>> = expr
                    .named_children(&mut cursor)
                    .filter(|c| c.kind_name() != "comment")
                    .collect();
                let [then, condition, otherwise] = parts[..] else {
                    return None;
                };
                let tables = [
                    self.outcome_table(otherwise, scope, value_of)?,
                    self.outcome_table(then, scope, value_of)?,
                ];
                let mut out = Vec::new();
                for test in value_of(condition) {
                    let holds = test.val.truthy()?;
                    for (choices, why, outcome) in &tables[usize::from(holds)] {
                        if let Some(choices) = flow::merge_choices(&test.choices, choices) {
                            out.push((choices, test.why.and(why), *outcome));
                        }
                    }
                }
                (!out.is_empty() && out.len() <= flow::MAX_ALTS).then_some(out)
            }
            "call" => {
                let (Some(function), Some(args)) =
                    (expr.field("function"), expr.field("arguments"))
                else {
                    return None;
                };
                let name = text(function, self.src);
                let converts = match name {
                    "int" => Conversion::Int,
                    "float" => Conversion::Float,
                    _ => return None,
                };
                // The builtin, not a name this module binds.
                if function.kind_name() != "identifier" || self.lookup(scope, name).is_some() {
                    return None;
                }
                let mut cursor = args.walk();
                let given: Vec<Node<'t>> = args
                    .named_children(&mut cursor)
                    .filter(|c| c.kind_name() != "comment")
                    .collect();
                let [argument] = given[..] else {
                    return None;
                };
                if matches!(
                    argument.kind_name(),
                    "keyword_argument" | "list_splat" | "dictionary_splat"
                ) || self.expression_outcome(argument, scope, value_of) != Outcome::Completes
                {
                    return None;
                }
                let out: Vec<_> = value_of(argument)
                    .into_iter()
                    .map(|a| {
                        let outcome = converts.outcome(&a.val);
                        (outcome != Outcome::Unknown).then_some((a.choices, a.why, outcome))
                    })
                    .collect::<Option<_>>()?;
                (!out.is_empty()).then_some(out)
            }
            _ => None,
        }
    }

    /// The branches inside one simple statement, decided as an `if`'s are:
    /// `a if c else b` runs `a` only when `c` holds and `b` only when it
    /// does not; `c and a` runs `a` only when `c` holds, `c or a` only when
    /// it does not. A part that never runs is `dead`; the part that runs
    /// when a condition the callers decide holds is `by_caller` (with the
    /// choices that run it), as an `if` body is (the other part, like an
    /// `else`, is reached); one that runs whenever the expression does
    /// `holds`. Not inside a lambda: its names are its own.
    fn expression_branches(
        &self,
        statement: Node<'t>,
        truth_of: &dyn Fn(Node<'t>) -> Truth,
        out: &mut Branches,
    ) {
        let Branches {
            dead,
            by_caller,
            by_caller_when,
            holds,
            by_default,
            ..
        } = out;
        // Most statements hold neither: skipped without a walk.
        let bytes = &self.src.as_bytes()[statement.byte_range()];
        let is_name_byte = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
        // The keyword as a word of its own (not `for`, `handle`, `elif`).
        let may_hold = |word: &[u8]| {
            memchr::memmem::find_iter(bytes, word).any(|at| {
                let before = at.checked_sub(1).and_then(|i| bytes.get(i));
                !before.is_some_and(is_name_byte)
                    && !bytes.get(at + word.len()).is_some_and(is_name_byte)
            })
        };
        if !(may_hold(b"if") && may_hold(b"else") || may_hold(b"and") || may_hold(b"or")) {
            return;
        }
        let mut stack = vec![statement];
        while let Some(node) = stack.pop() {
            // (branch that runs when the condition holds, condition, polarity)
            let branch = match node.kind_name() {
                "lambda" => continue,
                "conditional_expression" => {
                    match (
                        node.named_child(0),
                        node.named_child(1),
                        node.named_child(2),
                    ) {
                        (Some(then), Some(condition), Some(otherwise)) => {
                            Some((condition, Some(then), Some(otherwise)))
                        }
                        _ => None,
                    }
                }
                "boolean_operator" => match (node.field("left"), node.field("right")) {
                    (Some(left), Some(right)) => {
                        let is_or = node
                            .field("operator")
                            .is_some_and(|o| text(o, self.src) == "or");
                        if is_or {
                            Some((left, None, Some(right)))
                        } else {
                            Some((left, Some(right), None))
                        }
                    }
                    _ => None,
                },
                _ => None,
            };
            // Only an arm that may call something needs its condition
            // decided (reaching is by calls): `x or default` costs nothing.
            let calls_in = |arm: Option<Node<'t>>| {
                arm.is_some_and(|a| {
                    memchr::memchr(b'(', &self.src.as_bytes()[a.byte_range()]).is_some()
                })
            };
            if let Some((condition, when_true, when_false)) =
                branch.filter(|(_, t, f)| calls_in(*t) || calls_in(*f))
            {
                let runs_never = |t: bool| {
                    if t {
                        (when_true, when_false)
                    } else {
                        (when_false, when_true)
                    }
                };
                match truth_of(condition) {
                    Truth::Known(t) => {
                        let (runs, never) = runs_never(t);
                        dead.extend(never.map(|n| n.byte_range()));
                        holds.extend(runs.map(|r| (r.byte_range(), None)));
                    }
                    // Decided by a default: what runs holds for a plain run.
                    Truth::KnownByDefault(t, note) => {
                        let (runs, never) = runs_never(t);
                        dead.extend(never.map(|n| n.byte_range()));
                        if let Some(runs) = runs {
                            holds.push((runs.byte_range(), Some(note.clone())));
                            by_default.push((runs.byte_range(), note));
                        }
                    }
                    Truth::CallerDecides(when) => {
                        // As an `if`'s: the arm that runs when it holds is
                        // the callers' (pinned to the calls that make it
                        // hold); the other arm, like an `else`, is reached.
                        if let Some(part) = when_true {
                            by_caller.push(part.byte_range());
                            if let Some((holds, _)) = when {
                                by_caller_when.push((part.byte_range(), holds));
                            }
                        }
                    }
                    Truth::Unknown | Truth::HostDecides(_) => {}
                }
            }
            let mut cursor = node.walk();
            stack.extend(
                node.named_children(&mut cursor)
                    .filter(|c| c.kind_name() != "comment"),
            );
        }
    }

    /// The bytes after `statement` to the end of the block holding it: what
    /// runs after it in that block.
    fn rest_of_block(&self, statement: Node<'t>) -> Option<std::ops::Range<usize>> {
        let block = self
            .parent_of(statement)
            .filter(|p| p.kind_name() == "block")?;
        Some(statement.end_byte()..block.end_byte())
    }

    /// Whether running `block` certainly leaves the function: a statement
    /// of it that runs whenever the block does is a `return` or `raise`, an
    /// `if` whose every branch that may run leaves (the taken one, when a
    /// condition is decided; else all, `else` included), a `with` whose body
    /// leaves, or a loop whose first iteration leaves (`loop_exits`). Not
    /// when a `break` or `continue` may skip it.
    fn block_exits(
        &self,
        block: Node<'t>,
        scope: ScopeId,
        truth_of: &dyn Fn(Node<'t>) -> Truth,
        depth: u32,
    ) -> bool {
        if depth > 8 || flow::block_has_jump(block, &["break_statement", "continue_statement"]) {
            return false;
        }
        let mut cursor = block.walk();
        let statements: Vec<Node<'t>> = block
            .named_children(&mut cursor)
            .filter(|c| c.kind_name() != "comment")
            .collect();
        statements.iter().any(|s| match s.kind_name() {
            "return_statement" | "raise_statement" => true,
            "with_statement" => s
                .field("body")
                .is_some_and(|b| self.block_exits(b, scope, truth_of, depth + 1)),
            "for_statement" => self.loop_exits(*s, scope, truth_of),
            "if_statement" => {
                let mut branches: Vec<(Option<Node<'t>>, Option<Node<'t>>)> =
                    vec![(s.field("condition"), s.field("consequence"))];
                let mut cursor = s.walk();
                for alt in s.children_by_field_name("alternative", &mut cursor) {
                    match alt.kind_name() {
                        "elif_clause" => {
                            branches.push((alt.field("condition"), alt.field("consequence")))
                        }
                        _ => branches.push((None, alt.field("body"))),
                    }
                }
                for (condition, body) in branches {
                    let exits =
                        body.is_some_and(|b| self.block_exits(b, scope, truth_of, depth + 1));
                    match condition.map(truth_of) {
                        Some(Truth::Known(false)) => continue,
                        // Taken (or the `else` after conditions not all false).
                        Some(Truth::Known(true)) | None => return exits,
                        _ if !exits => return false,
                        _ => {}
                    }
                }
                // No branch certainly taken, and none of them is an `else`.
                false
            }
            _ => false,
        })
    }

    /// Whether the body of a `for` loop certainly runs, to its end, at
    /// least once: the collection is certainly not empty and no `break` or
    /// `continue` may cut an iteration short.
    fn loop_body_runs(
        &self,
        node: Node<'t>,
        scope: ScopeId,
        truth_of: &dyn Fn(Node<'t>) -> Truth,
    ) -> bool {
        node.kind_name() == "for_statement"
            && !flow::has_jump(node, &["break_statement", "continue_statement"])
            && node.field("right").is_some_and(|items| {
                !self.grown_in_another_scope(items, scope)
                    && matches!(truth_of(items), Truth::Known(true))
            })
    }

    /// `for frame in STACK: return frame[name]` over a sequence certainly
    /// not empty: its first iteration leaves the function (its body leaves
    /// for every element, and no `break`/`continue` of it skips that). So
    /// does `if name in frame: return frame[name]` when the condition is
    /// true for every element.
    fn loop_exits(
        &self,
        node: Node<'t>,
        scope: ScopeId,
        truth_of: &dyn Fn(Node<'t>) -> Truth,
    ) -> bool {
        self.loop_body_runs(node, scope, truth_of)
            && node
                .field("body")
                .is_some_and(|body| self.block_exits(body, scope, truth_of, 1))
    }

    /// Whether `items` (or `reversed(items)`, `list(items)`...) is a list
    /// another scope grows (`STACK = []` at module level, `STACK.append(f)`
    /// there): read in a function, it holds every add, but the function may
    /// run before they do, so it may be empty.
    fn grown_in_another_scope(&self, items: Node<'t>, scope: ScopeId) -> bool {
        let mut items = crate::syntax::unparenthesize(items);
        while items.kind_name() == "call" {
            let wraps = items.field("function").is_some_and(|f| {
                matches!(
                    text(f, self.src),
                    "reversed" | "list" | "tuple" | "sorted" | "iter"
                )
            });
            match self.args_of(items).positional.first() {
                Some(inner) if wraps => items = crate::syntax::unparenthesize(*inner),
                _ => return false,
            }
        }
        if items.kind_name() != "identifier" {
            return false;
        }
        match self.binding_at(scope, text(items, self.src), items) {
            Some(Binding::Value {
                value, scope: home, ..
            }) if *home != scope => {
                let mutations = self.list_mutations(*value);
                mutations.unknown || mutations.shrinks || !mutations.adds.is_empty()
            }
            _ => false,
        }
    }
}

/// The guard under which an alternative that is not certain still runs:
/// a default of run-time configuration (in a plain run), or a host's pick
/// (on those hosts).
fn guard_of_why(why: &Why) -> Option<Guard> {
    match why {
        Why::Default(note) => Some(Guard::Configured(note.clone())),
        Why::Host(hosts) => Some(Guard::HostDependent(Some(hosts.clone()))),
        _ => None,
    }
}

/// What the alternatives of a condition say of it: the truth value it has
/// on every path, if it has one; or that the callers decide it (a parameter
/// of a function only other modules call, or call sites that disagree).
pub(crate) fn truth_of(mut alts: Vec<flow::Alt<'_>>) -> Truth {
    if alts.iter().any(|a| matches!(a.val, Val::ParamRef(_))) {
        return Truth::CallerDecides(None);
    }
    // Run-time configuration with a default (`--debug` off unless given):
    // the branch is decided as a plain run decides it. What other
    // choices of it would run stays silent, like any run-time choice.
    let default_note = alts.iter().find_map(|a| match &a.why {
        Why::Default(note) => Some(note.clone()),
        _ => None,
    });
    if default_note.is_some() {
        alts.retain(|a| !a.why.is_choice());
    }
    let mut value = None;
    let mut differs = false;
    let mut unknown = false;
    let mut some_false = false;
    for alt in &alts {
        let Some(t) = alt.val.truthy() else {
            unknown = true;
            continue;
        };
        if value.is_some_and(|v| v != t) {
            differs = true;
        }
        // What a host skips is the host's matter (host tests guard it).
        some_false |= !t && !flow::host_picked(&alt.choices);
        value = Some(t);
    }
    // The host decides it: on the hosts whose values hold, when nothing
    // else does; else not known here.
    if differs && alts.iter().any(|a| flow::host_picked(&a.choices)) {
        if unknown || !alts.iter().all(|a| matches!(a.why, Why::Host(_))) {
            return Truth::Unknown;
        }
        let mut hosts: Vec<String> = Vec::new();
        for alt in alts.iter().filter(|a| a.val.truthy() == Some(true)) {
            if let Why::Host(on) = &alt.why {
                hosts.extend(
                    on.iter()
                        .filter(|h| !hosts.contains(h))
                        .cloned()
                        .collect::<Vec<_>>(),
                );
            }
        }
        return Truth::HostDecides(hosts);
    }
    // Some value we cannot read and one that skips the body (`progress =
    // None` on one path, an object on the other, then `if progress is not
    // None:`): the body does not run in every run.
    if unknown {
        return if some_false && !alts.is_empty() {
            Truth::CallerDecides(None)
        } else {
            Truth::Unknown
        };
    }
    match (value, default_note) {
        (Some(_), _) if differs => {
            // Each value from a call site of this module (not a run-time
            // choice): the body runs on the paths through those that hold.
            let by_site = alts
                .iter()
                .all(|a| !a.choices.is_empty() && matches!(a.why, Why::Each(_) | Why::Fixed));
            let when = |t: bool| -> Vec<Vec<Choice>> {
                alts.iter()
                    .filter(|a| a.val.truthy() == Some(t))
                    .map(|a| a.choices.clone())
                    .collect()
            };
            Truth::CallerDecides(by_site.then(|| (when(true), when(false))))
        }
        (Some(t), Some(note)) => Truth::KnownByDefault(t, note),
        (Some(t), None) => Truth::Known(t),
        (None, _) => Truth::Unknown,
    }
}

impl<'t> Module<'t> {
    /// The guards between `node` and the top of its scope. Answered for calls,
    /// call arguments and returned values (what the call graph is built from).
    pub fn guards_of(&self, node: Node<'t>, scope: ScopeId) -> Vec<Guard> {
        if !self.may_have_guards() {
            return Vec::new();
        }
        self.caches().guards[scope]
            .get_or_init(|| self.build_guards(scope))
            .get(&node.id())
            .cloned()
            .unwrap_or_default()
    }

    /// Whether any code of the model can hold a guard: the name
    /// `platform_dependent` (an alias of it is bound by text naming it, and
    /// canonical names keep the last name) or a host-platform test. Most
    /// modules have neither, and the walk of `build_guards` is then skipped.
    pub(crate) fn may_have_guards(&self) -> bool {
        *self.guard_text.get_or_init(|| {
            let holds =
                |text: &str| text.contains("platform_dependent") || is_host_platform_test(text);
            match &self.statements {
                Some(statements) => statements.iter().any(|s| holds(text(*s, self.src))),
                None => holds(self.src),
            }
        })
    }

    /// One walk over a scope's code, top-down, carrying the guards in force:
    /// the branches of `lax.platform_dependent` and host-platform tests.
    /// Nested def, class and lambda bodies are other scopes: not entered.
    fn build_guards(&self, scope: ScopeId) -> HashMap<usize, Vec<Guard>> {
        let mut out = HashMap::new();
        let none: Rc<Vec<Guard>> = Rc::new(Vec::new());
        let start = if scope == super::MODULE_SCOPE {
            self.top_level_statements()
        } else {
            self.scopes[scope].node.field("body").into_iter().collect()
        };
        // (node, guards in force, whether it is an operand: an argument or a returned value)
        let mut stack: Vec<(Node<'t>, Rc<Vec<Guard>>, bool)> = start
            .into_iter()
            .map(|n| (n, none.clone(), false))
            .collect();
        let mut cursor = self.root.walk();
        while let Some((node, guards, operand)) = stack.pop() {
            let kind = node.kind_name();
            let record = kind == "call" || operand;
            let operand_children = matches!(
                kind,
                "argument_list" | "keyword_argument" | "return_statement"
            );
            if record && !guards.is_empty() {
                out.insert(node.id(), guards.as_ref().clone());
            }
            // What each child inherits.
            let branch_call = kind == "call"
                && self.callee(node, self.scope_of_call(node)).as_deref()
                    == Some(names::PLATFORM_DEPENDENT);
            let host_test = match kind {
                "if_statement" | "elif_clause" | "while_statement" => node
                    .field("condition")
                    .is_some_and(|c| self.is_host_test(c)),
                "conditional_expression" => {
                    node.named_child(1).is_some_and(|c| self.is_host_test(c))
                }
                _ => false,
            };
            let host_elif = kind == "if_statement" && {
                let mut c = node.walk();
                let found = node
                    .children_by_field_name("alternative", &mut c)
                    .any(|alt| {
                        alt.kind_name() == "elif_clause"
                            && alt.field("condition").is_some_and(|c| self.is_host_test(c))
                    });
                found
            };
            let condition = match kind {
                "conditional_expression" => node.named_child(1),
                _ => node.field("condition"),
            };
            let body = matches!(kind, "function_definition" | "class_definition" | "lambda")
                .then(|| node.field("body"))
                .flatten();
            cursor.reset(node);
            let mut children = Vec::new();
            if cursor.goto_first_child() {
                loop {
                    children.push(cursor.node());
                    if !cursor.goto_next_sibling() {
                        break;
                    }
                }
            }
            for child in children.into_iter().rev() {
                let mut inherited = guards.clone();
                if body.is_some_and(|b| b.id() == child.id()) {
                    // Another scope's code.
                    continue;
                } else if (host_test || host_elif) && condition.is_none_or(|c| c.id() != child.id())
                {
                    let mut g = inherited.as_ref().clone();
                    let on = (host_test && !host_elif)
                        .then(|| self.branch_platforms(node, child))
                        .flatten();
                    let guard = Guard::HostDependent(on);
                    if !g.contains(&guard) {
                        g.push(guard);
                    }
                    inherited = Rc::new(g);
                } else if branch_call && child.kind_name() == "argument_list" {
                    // Keyword arguments get their branch guard below, one level down.
                    let args = Args::of(node, self.src);
                    let others: Vec<String> = args
                        .keywords
                        .iter()
                        .map(|(n, _, _)| n.clone())
                        .filter(|n| n != "default")
                        .collect();
                    let mut c2 = child.walk();
                    for arg in child.named_children(&mut c2) {
                        let mut g = guards.as_ref().clone();
                        if arg.kind_name() == "keyword_argument" {
                            let name = arg.field("name").map(|n| text(n, self.src)).unwrap_or("");
                            let keys = if name == "default" {
                                Vec::new()
                            } else {
                                vec![name.to_owned()]
                            };
                            g.push(Guard::Branch {
                                keys,
                                others: others.clone(),
                            });
                        }
                        stack.push((arg, Rc::new(g), true));
                    }
                    continue;
                }
                stack.push((child, inherited, operand_children));
            }
        }
        out
    }

    /// A condition that tests the host's platform. `.platform` alone is a
    /// device's only when the object is not a constant of the program: a
    /// config's `platform = "pallas"` (a kernel language) decides its
    /// branch like any constant.
    fn is_host_test(&self, condition: Node<'t>) -> bool {
        let condition_text = text(condition, self.src);
        match host_platform_test(condition_text) {
            // `backend = jax.default_backend()` earlier, then `backend == "gpu"`.
            None => {
                let condition = unparenthesize(condition);
                let condition = match condition.kind_name() {
                    "not_operator" => condition.field("argument").map(unparenthesize),
                    _ => Some(condition),
                };
                condition
                    .filter(|c| c.kind_name() == "comparison_operator")
                    .is_some_and(|c| {
                        let mut cursor = c.walk();
                        let probed = c
                            .named_children(&mut cursor)
                            .any(|side| self.is_host_probe_name(side));
                        probed
                    })
            }
            Some(HostTest::Call) => true,
            Some(HostTest::PlatformAttribute) => {
                let scope = self.scope_at(condition);
                !matches!(
                    truth_of(self.flow().eval(condition, scope)),
                    Truth::Known(_)
                )
            }
        }
    }

    /// The scope a call is evaluated in (for resolving its callee).
    fn scope_of_call(&self, call: Node<'t>) -> ScopeId {
        self.call_scope.get(&call.id()).copied().unwrap_or(0)
    }

    /// The call-graph targets an expression refers to: local defs, lambdas,
    /// methods via `self`, classes (their `__call__`/`__init__`), imported names.
    pub(crate) fn resolve_ref(&self, node: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Target> {
        if depth > 8 {
            return Vec::new();
        }
        let found = self.resolve_ref_by_syntax(node, scope, depth);
        if !found.is_empty() || depth > 4 {
            return found;
        }
        // What the syntax does not show (a registry entry picked by a config
        // field, a function kept in a field): the functions and callable
        // instances the value flow gives. A factory's call stays an edge to
        // the factory, which keeps the choice of the call it came through.
        match unparenthesize(node).kind_name() {
            "subscript" | "attribute" | "identifier" if !self.is_library_ref(node, scope) => {
                self.flow_targets(node, scope, depth)
            }
            _ => found,
        }
    }

    /// A name or attribute that names a library API (`jnp.tanh`).
    fn is_library_ref(&self, node: Node<'t>, scope: ScopeId) -> bool {
        let node = unparenthesize(node);
        matches!(node.kind_name(), "identifier" | "attribute")
            && self
                .canonical(node, scope)
                .is_some_and(|p| is_library_path(&p))
    }

    /// The local functions and callable instances a value certainly is,
    /// from the value flow; for `TABLE[key]` with a known key, what the
    /// entry's expression reaches (a factory's call: the factory). A run-time
    /// choice is no edge. An alternative that depends on a call site or loop
    /// element is one only when every alternative gives the same target:
    /// an edge carries no choice, and would be read for every path.
    fn flow_targets(&self, node: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Target> {
        self.chosen_targets(&self.flow_targets_with_choices(node, scope, depth))
    }

    /// The targets a called expression has (`resolve_ref`), and where those
    /// are none, every function the value flow gives with the choices it
    /// depends on (a loop element, a call site): an edge for each, followed
    /// only on a path that made the same choices. The flow is asked once.
    fn callee_targets(&self, func: Node<'t>, scope: ScopeId) -> Vec<(Target, Vec<flow::Choice>)> {
        let unchosen =
            |targets: Vec<Target>| targets.into_iter().map(|t| (t, Vec::new())).collect();
        let found = self.resolve_ref_by_syntax(func, scope, 0);
        let func = unparenthesize(func);
        let read_by_flow = self.callee_read_by_flow(func, scope);
        if !found.is_empty() || !read_by_flow {
            let found = if read_by_flow && found.iter().any(|t| self.made_in_a_function(t)) {
                self.factory_made_choices(func, scope, found)
            } else {
                unchosen(found)
            };
            return self.through_partials(func, scope, found);
        }
        // What `resolve_ref` would give (`flow_targets`), else each alternative.
        // A closure a factory made reads what the call that made it was
        // given (`sequential(layers)`'s `apply`): called, it is on that
        // call's path, one edge per call that made it.
        let all = self.flow_targets_with_choices(func, scope, 0);
        let closure_made = all
            .iter()
            .any(|(t, c)| !c.is_empty() && self.is_closure_target(t));
        let chosen = self.chosen_targets(&all);
        if !chosen.is_empty() && !closure_made {
            return self.through_partials(func, scope, unchosen(chosen));
        }
        let mut out: Vec<(Target, Vec<flow::Choice>)> = Vec::new();
        for (t, choices) in all {
            if !out.iter().any(|(u, c)| *u == t && *c == choices) {
                out.push((t, choices));
            }
        }
        self.through_partials(func, scope, out)
    }

    /// Whether `target` is a method run on an object constructed inside a
    /// function of this module (a factory's `return Block(backend)`).
    fn made_in_a_function(&self, target: &Target) -> bool {
        matches!(target, Target::OnObject(_, _, made_in, _)
            if *made_in != FOREIGN_OBJECT && self.scopes[*made_in].kind == ScopeKind::Function)
    }

    /// The syntax's targets, each method on an object a factory made with
    /// the choices of the factory's call that made it (its `made_here`),
    /// where the value flow says every value of the callee is that method
    /// certainly, on known calls: the edge is then on those calls' paths,
    /// so the object is read as those calls made it (`receiver_branches`).
    fn factory_made_choices(
        &self,
        func: Node<'t>,
        scope: ScopeId,
        found: Vec<Target>,
    ) -> Vec<(Target, Vec<flow::Choice>)> {
        let alts = self.flow_with_budget(REACH_BUDGET).eval(func, scope);
        let mut out = Vec::new();
        for target in found {
            let chosen: Vec<Vec<flow::Choice>> = alts
                .iter()
                .filter(|a| a.why.certain() && !a.choices.is_empty())
                .flat_map(|a| self.alt_targets(a))
                .filter(|(t, _)| *t == target)
                .map(|(_, choices)| choices)
                .collect();
            if self.made_in_a_function(&target) && !chosen.is_empty() && chosen.len() == alts.len()
            {
                for choices in chosen {
                    if !out.iter().any(|(t, c)| *t == target && *c == choices) {
                        out.push((target.clone(), choices));
                    }
                }
            } else {
                out.push((target, Vec::new()));
            }
        }
        out
    }

    /// Targets found without the partial that holds them (`RUNS["tpu"](x)`
    /// with the entry `functools.partial(run, params=P)`; `step = make()`
    /// with `make` returning such a name): where the value flow says the
    /// callee is certainly partials, an edge per partial, on the path of
    /// the partial call that binds what it stores (a factory that returned
    /// it has already run). Where it is partials of a def found and other
    /// things too, that def's edges only. Asked only in modules that make
    /// partials.
    fn through_partials(
        &self,
        func: Node<'t>,
        scope: ScopeId,
        found: Vec<(Target, Vec<flow::Choice>)>,
    ) -> Vec<(Target, Vec<flow::Choice>)> {
        if self.calls_named("partial").is_empty()
            || !found
                .iter()
                .any(|(t, c)| c.is_empty() && matches!(t, Target::Local(_)))
        {
            return found;
        }
        let alts = self.flow_with_budget(REACH_BUDGET).eval(func, scope);
        let is_partial = |a: &flow::Alt<'t>| matches!(a.val, Val::Partial { .. });
        let of_alts = |alts: &[&flow::Alt<'t>], out: &mut Vec<(Target, Vec<flow::Choice>)>| {
            for alt in alts {
                for (t, made_on) in self.alt_targets(alt) {
                    if !out.iter().any(|(u, c)| *u == t && *c == made_on) {
                        out.push((t, made_on));
                    }
                }
            }
        };
        if !alts.is_empty() && alts.iter().all(|a| a.why.certain() && is_partial(a)) {
            // (What the syntax found of other modules stays: a decorator
            // of the def, applied by its own call.)
            let mut out: Vec<_> = found
                .into_iter()
                .filter(|(t, _)| !matches!(t, Target::Local(_)))
                .collect();
            of_alts(&alts.iter().collect::<Vec<_>>(), &mut out);
            return out;
        }
        let mut out = Vec::new();
        for (target, choices) in found {
            let of_def: Vec<&flow::Alt<'t>> = alts
                .iter()
                .filter(|a| {
                    self.targets_of_value(&a.val)
                        .iter()
                        .any(|(t, _)| *t == target)
                })
                .collect();
            let only_partials = choices.is_empty()
                && !of_def.is_empty()
                && of_def.iter().all(|a| a.why.certain() && is_partial(a));
            if only_partials {
                of_alts(&of_def, &mut out);
            } else {
                out.push((target, choices));
            }
        }
        out
    }

    /// The targets an edge without choices may have (`flow_targets`): those
    /// that depend on no choice, or all of them when they are one target or
    /// all on one path (no two made by different choices at one point: a
    /// table entry read with the key of a function's one call site is both the
    /// factory call the entry names and the closure it made). Never a
    /// closure made on a choice: it reads what the call that made it was
    /// given, which an edge without that choice would not know (a
    /// `sequential(layers)` made twice would run every call's layers).
    fn chosen_targets(&self, found: &[(Target, Vec<flow::Choice>)]) -> Vec<Target> {
        let distinct: HashSet<&Target> = found.iter().map(|(t, _)| t).collect();
        let one_path = found
            .iter()
            .enumerate()
            .all(|(i, (_, a))| found[i + 1..].iter().all(|(_, b)| flow::compatible(a, b)));
        let keep_chosen = distinct.len() <= 1 || one_path;
        let mut out = Vec::new();
        for (t, choices) in found {
            let kept = choices.is_empty() || (keep_chosen && !self.is_closure_target(t));
            if kept && !out.contains(t) {
                out.push(t.clone());
            }
        }
        out
    }

    /// Whether a target is a def made inside a function (a closure).
    fn is_closure_target(&self, target: &Target) -> bool {
        match target {
            Target::Local(f) => self.scopes[*f]
                .parent
                .is_some_and(|p| self.scopes[p].kind == ScopeKind::Function),
            _ => false,
        }
    }

    /// What calling `func` runs when only a default of run-time
    /// configuration gives it (`Why::Default`), or the host picks it
    /// (`Why::Host`): each target with its choices and the guard it runs
    /// under (the default's note, the hosts).
    fn default_targets(
        &self,
        func: Node<'t>,
        scope: ScopeId,
    ) -> Vec<(Target, Vec<flow::Choice>, Option<Guard>)> {
        let func = unparenthesize(func);
        if !self.callee_read_by_flow(func, scope) {
            return Vec::new();
        }
        let mut out = Vec::new();
        let flow = self.flow_with_budget(REACH_BUDGET);
        // `meter.init()` on the object of another module's class a default
        // picks (`progress_meter(os.environ.get(K, "text"))`).
        if let (Some(object), Some(attr)) = (func.field("object"), func.field("attribute")) {
            let attr = text(attr, self.src);
            for alt in flow.eval(object, scope) {
                let Some(guard) = guard_of_why(&alt.why) else {
                    continue;
                };
                if let Some(target) = foreign_method(&alt.val, attr) {
                    out.push((target, alt.choices.clone(), Some(guard)));
                }
            }
        }
        for alt in flow.eval(func, scope) {
            let Some(guard) = guard_of_why(&alt.why) else {
                continue;
            };
            out.extend(
                self.alt_targets(&alt)
                    .into_iter()
                    .map(|(target, choices)| (target, choices, Some(guard.clone()))),
            );
        }
        out
    }

    /// Whether the value flow is asked what a callee expression calls (a
    /// name, attribute or subscript that is not a library's; the result of
    /// a call of one, `REGISTRY.get("pallas")(x)`, `pick(name)(x)`).
    fn callee_read_by_flow(&self, func: Node<'t>, scope: ScopeId) -> bool {
        let func = match func.kind_name() {
            "call" => match func.field("function") {
                Some(inner) => unparenthesize(inner),
                None => return false,
            },
            _ => func,
        };
        matches!(func.kind_name(), "subscript" | "attribute" | "identifier")
            && !self.is_library_ref(func, scope)
    }

    /// What calling the value of `alt` runs, each target with the choices
    /// of the alternative and of how it was made.
    pub(crate) fn alt_targets(&self, alt: &flow::Alt<'t>) -> Vec<(Target, Vec<flow::Choice>)> {
        self.targets_of_value(&alt.val)
            .into_iter()
            .filter_map(|(target, made_on)| {
                flow::merge_choices(&alt.choices, &made_on).map(|choices| (target, choices))
            })
            .collect()
    }

    /// What a value certainly is, one scenario per alternative that runs
    /// (each element of a loop, each call site): its targets, how sure it
    /// is, and the choices it depends on (alternatives giving the same
    /// choices are one scenario); and whether that is all of it (every
    /// alternative certain and something to call).
    pub(crate) fn flow_scenarios(&self, node: Node<'t>, scope: ScopeId) -> (Vec<Scenario>, bool) {
        let node = unparenthesize(node);
        if node.kind_name() != "call" && !self.callee_read_by_flow(node, scope) {
            return (Vec::new(), false);
        }
        let mut out: Vec<Scenario> = Vec::new();
        let mut complete = true;
        let alts = self.flow_with_budget(REACH_BUDGET).eval(node, scope);
        // What every host picks (`IMPLS[jax.default_backend()]` giving one
        // function for each backend) runs whatever the host.
        let mut host_picked: Vec<(Target, Vec<Choice>, HashSet<String>)> = Vec::new();
        for alt in &alts {
            let Why::Host(hosts) = &alt.why else {
                continue;
            };
            for (target, mut choices) in self.alt_targets(alt) {
                choices.retain(|(p, _)| *p != flow::HOST_POINT);
                match host_picked
                    .iter_mut()
                    .find(|(t, c, _)| *t == target && *c == choices)
                {
                    Some((_, _, on)) => on.extend(hosts.iter().cloned()),
                    None => host_picked.push((target, choices, hosts.iter().cloned().collect())),
                }
            }
        }
        let every_host = |on: &HashSet<String>| super::host::HOSTS.iter().all(|h| on.contains(*h));
        let mut settled = Vec::new();
        for (target, choices, on) in host_picked {
            if !every_host(&on) {
                continue;
            }
            settled.push(target.clone());
            match out.iter_mut().find(|(_, _, c)| *c == choices) {
                Some((targets, _, _)) if !targets.contains(&target) => targets.push(target),
                Some(_) => {}
                None => out.push((vec![target], Why::Fixed, choices)),
            }
        }
        for alt in alts {
            // `jit(None)` raises before anything lowers: no path to follow.
            if matches!(alt.val, Val::None) {
                continue;
            }
            // What only some hosts pick is a scenario of those hosts, with
            // the host's choice: the rules are run once per host and what
            // every host's scenario gives is certain (`analysis::run_rules`).
            if matches!(alt.why, Why::Host(_)) {
                let targets: Vec<_> = self
                    .alt_targets(&alt)
                    .into_iter()
                    .filter(|(t, _)| !settled.contains(t))
                    .collect();
                for (target, choices) in targets {
                    match out.iter_mut().find(|(_, _, c)| *c == choices) {
                        Some((targets, _, _)) if !targets.contains(&target) => targets.push(target),
                        Some(_) => {}
                        None => out.push((vec![target], alt.why.clone(), choices)),
                    }
                }
                continue;
            }
            // What the default of run-time configuration picks is a
            // scenario of a plain run (its findings name the default); other
            // run-time choices are none.
            if !alt.why.certain() {
                complete = false;
                if !matches!(alt.why, Why::Default(_)) {
                    continue;
                }
            }
            let targets = self.alt_targets(&alt);
            complete &= !targets.is_empty();
            for (target, choices) in targets {
                match out.iter_mut().find(|(_, _, c)| *c == choices) {
                    Some((targets, _, _)) if !targets.contains(&target) => targets.push(target),
                    Some(_) => {}
                    None => out.push((vec![target], alt.why.clone(), choices)),
                }
            }
        }
        complete &= !out.is_empty() && out.len() <= flow::MAX_ALTS;
        out.truncate(flow::MAX_ALTS);
        (out, complete)
    }

    /// `flow_targets` before choosing: each target with the choices its
    /// alternative depends on.
    fn flow_targets_with_choices(
        &self,
        node: Node<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Vec<(Target, Vec<flow::Choice>)> {
        let flow = self.flow_with_budget(REACH_BUDGET);
        let node = unparenthesize(node);
        let mut found: Vec<(Target, Vec<flow::Choice>)> = Vec::new();
        if node.kind_name() == "subscript" {
            if let Some(base) = node.field("value") {
                let keys = flow.eval_subscript_key(node, scope);
                for b in flow.eval(base, scope).iter().filter(|a| a.why.certain()) {
                    let super::flow::Val::Dict(dict, dict_scope) = b.val else {
                        continue;
                    };
                    for k in keys.iter().filter(|a| a.why.certain()) {
                        if let Some(Some(value)) = flow.dict_entry(dict, dict_scope, &k.val, 0) {
                            let Some(choices) = flow::merge_choices(&b.choices, &k.choices) else {
                                continue;
                            };
                            for t in self.value_targets(value, dict_scope, depth + 1) {
                                found.push((t, choices.clone()));
                            }
                        }
                    }
                }
            }
        }
        // `obj.method` on an object of another module's class: that
        // class's method (what the object holds is read first).
        if node.kind_name() == "attribute" {
            if let (Some(object), Some(attr)) = (node.field("object"), node.field("attribute")) {
                let attr = text(attr, self.src);
                for alt in flow.eval(object, scope) {
                    if !alt.why.certain() {
                        continue;
                    }
                    if let Some(target) = foreign_method(&alt.val, attr) {
                        found.push((target, alt.choices));
                    }
                }
                if !found.is_empty() {
                    return found;
                }
            }
        }
        for alt in flow.eval(node, scope) {
            if alt.why.certain() {
                found.extend(self.alt_targets(&alt));
            }
        }
        found
    }

    /// A function of this module passed to another module that cannot
    /// name it (a closure, a lambda, a method, a callable instance): a
    /// path no module resolves, naming this module's file and the target,
    /// read back by `local_target` when the callee's answer names it.
    /// `None` without a file (a summary, read by any importer).
    pub(crate) fn local_ref(&self, target: &Target, choices: &[Choice]) -> Option<String> {
        let file = self.file.borrow();
        let tag = file_tag(file.as_deref()?);
        let target = match target {
            Target::Local(id) => format!("L{id}"),
            Target::Bound(m, class) => format!("B{m}_{class}"),
            Target::OnObject(m, class, made_in, made_by) => {
                format!("O{m}_{class}_{made_in}_{made_by}")
            }
            _ => return None,
        };
        // The choices it was made on (which call of a factory made it).
        let choices: Vec<String> = choices.iter().map(|(p, c)| format!("{p}_{c}")).collect();
        let mut token = format!("{LOCAL_REF}.{tag}.{target}.{}", choices.join("_"));
        // Made for another module's call: that call binds its parameters.
        if let Some(call) = self.call_tag.borrow().as_deref() {
            token.push('.');
            token.push_str(call);
        }
        Some(token)
    }

    /// The tag of the call a `local_ref` was made for (`call_tag`), if any.
    pub(crate) fn local_ref_call_tag(path: &str) -> Option<&str> {
        path.strip_prefix(LOCAL_REF)?.split('.').nth(4)
    }

    /// The target a `local_ref` of this module names, with its choices.
    pub(crate) fn local_target(&self, path: &str) -> Option<(Target, Vec<Choice>)> {
        let rest = path.strip_prefix(LOCAL_REF)?.strip_prefix('.')?;
        let mut parts = rest.split('.');
        let (tag, target, choices) = (parts.next()?, parts.next()?, parts.next()?);
        let file = self.file.borrow();
        if tag != file_tag(file.as_deref()?) {
            return None;
        }
        let numbers = |text: &str| -> Option<Vec<usize>> {
            text.split('_')
                .filter(|t| !t.is_empty())
                .map(|t| t.parse().ok())
                .collect()
        };
        let choices = numbers(choices)?;
        if choices.len() % 2 != 0 {
            return None;
        }
        let choices: Vec<Choice> = choices.chunks(2).map(|c| (c[0], c[1])).collect();
        let scope_ok = |id: usize| id < self.scopes.len();
        let target = match target.split_at_checked(1)? {
            ("L", id) => {
                let id: usize = id.parse().ok()?;
                scope_ok(id).then_some(Target::Local(id))?
            }
            ("B", ids) => match numbers(ids)?.as_slice() {
                [m, class] if scope_ok(*m) && scope_ok(*class) => Target::Bound(*m, *class),
                _ => return None,
            },
            ("O", ids) => match numbers(ids)?.as_slice() {
                [m, class, made_in, made_by]
                    if scope_ok(*m) && scope_ok(*class) && scope_ok(*made_in) =>
                {
                    Target::OnObject(*m, *class, *made_in, *made_by)
                }
                _ => return None,
            },
            _ => return None,
        };
        Some((target, choices))
    }

    /// What calling a value runs: a function, a callable instance's
    /// `__call__`, a class's constructor (and `__call__`), or a def of
    /// another module kept as a value (an entry of its table of hooks).
    pub(crate) fn targets_of_value(&self, val: &Val<'t>) -> Vec<(Target, Vec<Choice>)> {
        let unchosen =
            |targets: Vec<Target>| targets.into_iter().map(|t| (t, Vec::new())).collect();
        match val {
            Val::Function(id) | Val::Jitted(id, ..) => unchosen(vec![Target::Local(*id)]),
            // On the path of the partial call, the call site of the def that
            // binds what it stores (a partial of a partial: the innermost).
            Val::Partial { def, site, on, .. } => {
                let target = match on {
                    Some((class, made)) => self.method_on(*def, *class, *made),
                    None => Target::Local(*def),
                };
                vec![(target, vec![(self.scopes[*def].node.id(), site.id())])]
            }
            Val::Method(method, class, made) => {
                unchosen(vec![self.method_on(*method, *class, *made)])
            }
            Val::Instance(class, made) => unchosen(
                self.method(*class, "__call__")
                    .map(|m| self.method_on(m, *class, *made))
                    .into_iter()
                    .collect(),
            ),
            // A bare name is this module's own def, handed back by another
            // module that was given it (`named_for`); so is `OWN_REF.name`.
            Val::Ref(path)
                if !path.contains('.')
                    || path
                        .strip_prefix(OWN_REF)
                        .is_some_and(|rest| rest.starts_with('.') && !rest[1..].contains('.')) =>
            {
                let name = path.rsplit('.').next().unwrap_or(path);
                match self.lookup(0, name) {
                    Some([Binding::Def(id)]) if self.scopes[*id].kind == ScopeKind::Class => {
                        unchosen(self.def_targets(*id))
                    }
                    Some([Binding::Def(id)]) => unchosen(vec![Target::Local(*id)]),
                    _ => Vec::new(),
                }
            }
            Val::Ref(path) => vec![self
                .local_target(path)
                .unwrap_or_else(|| (Target::External(path.to_string()), Vec::new()))],
            Val::Class(class) => unchosen(self.def_targets(*class)),
            // A jit another module made: its function.
            Val::ForeignJitted(jit) => self.targets_of_value(&jit.function.val()),
            // A detached object, called: its class's `__call__`.
            Val::Object(_) => unchosen(self.object_method(val, "__call__").into_iter().collect()),
            _ => Vec::new(),
        }
    }

    fn resolve_ref_by_syntax(&self, node: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Target> {
        let node = unparenthesize(node);
        match node.kind_name() {
            "lambda" => self
                .scope_of_def(node)
                .map(Target::Local)
                .into_iter()
                .collect(),
            // `jax.jit(partial(f, ...))`, `jax.jit(jax.vmap(f))`: a call that
            // makes a function from a function is that function, as for a
            // name bound to the call. Calls that run their function arguments
            // (`lax.platform_dependent`, `lax.cond`) are edges of the call
            // walk instead, with their guards.
            "call"
                if self
                    .callee(node, scope)
                    .is_some_and(|c| makes_a_function(&c)) =>
            {
                self.value_targets(node, scope, depth + 1)
            }
            // `REGISTRY[name](x)`: an instance looked up in a dict or list
            // of this module, called: its class's `__call__`.
            "subscript" => match self.instance_of(node, scope) {
                Some((class, made)) => self
                    .method(class, "__call__")
                    .map(|m| self.method_on(m, class, made))
                    .into_iter()
                    .collect(),
                None => Vec::new(),
            },
            "identifier" => {
                let Some(binding) = self.binding_at(scope, text(node, self.src), node) else {
                    return Vec::new();
                };
                match binding {
                    Binding::Def(id) => {
                        let mut out = self.def_targets(*id);
                        out.extend(self.decorator_targets(*id, depth));
                        out
                    }
                    Binding::Import(path) => {
                        let path = names::canonicalize(path);
                        if is_library_path(&path) {
                            Vec::new()
                        } else {
                            vec![Target::External(path.into_owned())]
                        }
                    }
                    Binding::Value { value, scope, .. } => {
                        self.value_targets(*value, *scope, depth + 1)
                    }
                    Binding::Param { .. } => {
                        // `self` in a method is an instance of the class, or of
                        // the one subclass of it that is constructed.
                        if let Some(class) = self.class_of_receiver(node, scope) {
                            return self
                                .def_targets(self.instance_class(node, scope).unwrap_or(class));
                        }
                        // A function passed in by this module's single call site.
                        match self.follow_value(node, scope) {
                            Some((value, vscope)) => self.value_targets(value, vscope, depth + 1),
                            None => Vec::new(),
                        }
                    }
                    _ => Vec::new(),
                }
            }
            "attribute" => {
                let (Some(object), Some(attr)) = (node.field("object"), node.field("attribute"))
                else {
                    return Vec::new();
                };
                let attr = text(attr, self.src);
                if let Some(class) = self.class_of_receiver(object, scope) {
                    let is_self = self
                        .enclosing_method_class(scope)
                        .is_some_and(|(c, s)| c == class && s == text(object, self.src));
                    if let Some(method) = self.method(class, attr) {
                        let overridden = is_self
                            && self
                                .subclasses(class)
                                .iter()
                                .any(|c| self.method(*c, attr).is_some_and(|m| m != method));
                        if overridden {
                            return vec![Target::SelfMethod(class, attr.to_owned())];
                        }
                        // A method a named class inherits (`FastGelu.handle`
                        // defined on its base): run with `cls`/`self` that
                        // class, so what it calls on them is that class's.
                        if !is_self
                            && self.scopes[method].class != Some(class)
                            && self.scopes[method].kind == ScopeKind::Function
                        {
                            return vec![Target::Bound(method, class)];
                        }
                        return self.def_targets(method);
                    }
                    // `cls.version_1(x)` in a classmethod of a base class that
                    // leaves the method to its subclasses: the subclass's,
                    // when the class it runs on is known. (An instance's
                    // `self.update(...)` is the value flow's: the object.)
                    if is_self
                        && self
                            .enclosing_method(scope)
                            .is_some_and(|m| self.is_class_method(m))
                        && self
                            .subclasses(class)
                            .iter()
                            .any(|c| self.method(*c, attr).is_some())
                    {
                        return vec![Target::SelfMethod(class, attr.to_owned())];
                    }
                    // A subclass storing its own value (its `__init__` not
                    // calling this one's) makes `self.attr` depend on the
                    // instance: for the value flow to say.
                    let own = self.attribute(class, attr);
                    if own.is_some_and(|own| self.stored_by_a_subclass(class, attr, own)) {
                        return Vec::new();
                    }
                    if let Some([Binding::Value { value, scope, .. }]) = own {
                        return self.value_targets(*value, *scope, depth + 1);
                    }
                    // Inherited from a class of another module.
                    if own.is_none() {
                        if let Some(path) = self.foreign_base_method(class, attr) {
                            return vec![Target::External(path)];
                        }
                    }
                    return Vec::new();
                }
                // `obj.method(...)` on an instance of a class of this module
                // (`_meter = Meter()` at module level, a constructed field):
                // followed when every value of `obj` is an instance of one class.
                if let Some((class, made)) = self.instance_of(object, scope) {
                    return match self.method(class, attr) {
                        Some(method) => vec![self.method_on(method, class, made)],
                        // Inherited from a class of another module.
                        None => self
                            .foreign_base_method(class, attr)
                            .map(Target::External)
                            .into_iter()
                            .collect(),
                    };
                }
                match self.canonical(node, scope) {
                    Some(path) if !is_library_path(&path) => vec![Target::External(path)],
                    _ => Vec::new(),
                }
            }
            _ => Vec::new(),
        }
    }

    /// Targets of a value a name is bound to: `k = partial(kernel, ...)`,
    /// `f = jax.jit(g)`, `fn = make_kernel(...)` (the factory), `g = f`.
    pub(crate) fn value_targets(&self, value: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Target> {
        let value = unparenthesize(value);
        match value.kind_name() {
            "call" => {
                let mut out = Vec::new();
                if let Some(func) = value.field("function") {
                    out.extend(self.resolve_ref(func, scope, depth + 1));
                }
                // `Model(debug=True)`: its methods run on the object this
                // call makes.
                if out.iter().any(|t| matches!(t, Target::Bound(..))) {
                    if let Some((class, made @ Some(_))) = self.instance_of(value, scope) {
                        for t in &mut out {
                            if let Target::Bound(m, c) = *t {
                                if c == class {
                                    *t = self.method_on(m, c, made);
                                }
                            }
                        }
                    }
                }
                // The arguments are functions only for function transformers
                // (`partial(kernel, ...)`, `jax.jit(f)`, `jax.vmap(f)`); for other
                // calls they are data, and following them would only multiply work
                // (chains of assignments) without reaching anything new.
                let transformer = self
                    .callee(value, scope)
                    .is_some_and(|c| c == names::PARTIAL || c.starts_with("jax."));
                if transformer {
                    let args = self.args_of(value);
                    for arg in args
                        .positional
                        .iter()
                        .chain(args.keywords.iter().map(|(_, v, _)| v))
                    {
                        out.extend(self.resolve_ref(*arg, scope, depth + 1));
                    }
                }
                out
            }
            _ => self.resolve_ref(value, scope, depth + 1),
        }
    }

    /// The one class of this module every value of `object` is an instance
    /// of; `None` when a value is unknown or the classes differ.
    fn instance_class(&self, object: Node<'t>, scope: ScopeId) -> Option<ScopeId> {
        self.instance_of(object, scope).map(|(class, _)| class)
    }

    /// `instance_class`, with the one construction every value certainly
    /// comes from, when there is one.
    fn instance_of(
        &self,
        object: Node<'t>,
        scope: ScopeId,
    ) -> Option<(ScopeId, Option<(Node<'t>, ScopeId)>)> {
        let values = self.flow_with_budget(REACH_BUDGET).eval(object, scope);
        let mut class = None;
        let mut made: Option<Option<(Node<'t>, ScopeId)>> = None;
        for alt in &values {
            match alt.val {
                Val::Instance(c, ctor) if class.is_none_or(|k| k == c) => {
                    class = Some(c);
                    let same = match (made, ctor) {
                        (None, _) => true,
                        (Some(Some((a, _))), Some((b, _))) => a.id() == b.id(),
                        _ => false,
                    };
                    made = Some(if same && alt.why.certain() {
                        ctor
                    } else {
                        None
                    });
                }
                _ => return None,
            }
        }
        class.map(|c| (c, made.flatten()))
    }

    /// The target of `method` run on an object of `class`: on that object
    /// when its construction is known.
    pub(crate) fn method_on(
        &self,
        method: ScopeId,
        class: ScopeId,
        made: Option<(Node<'t>, ScopeId)>,
    ) -> Target {
        match made {
            Some((call, scope))
                if !self.is_static_method(method) && !self.is_class_method(method) =>
            {
                Target::OnObject(method, class, scope, call.id())
            }
            _ => Target::Bound(method, class),
        }
    }

    /// The object whose method call made closure `id` on `path` (the path
    /// pins the enclosing method to a call `obj.method(...)`, `obj` one
    /// object of this module): its class and construction.
    fn receiver_on_path(&self, id: ScopeId, path: &[Choice]) -> Option<(ScopeId, ScopeId, usize)> {
        if path.is_empty() {
            return None;
        }
        let method = self.enclosing_method(id)?;
        if self.is_static_method(method) || self.is_class_method(method) {
            return None;
        }
        let point = self.scopes[method].node.id();
        let call_id = path.iter().find(|(p, _)| *p == point)?.1;
        let (object, scope) = self.method_call_receiver(call_id)?;
        let alts = self.flow_with_budget(REACH_BUDGET).eval(object, scope);
        match alts.as_slice() {
            [one] if one.why.certain() => match &one.val {
                Val::Instance(class, Some((made, made_in)))
                    if self.method(*class, &self.scopes[method].name) == Some(method) =>
                {
                    Some((*class, *made_in, made.id()))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether the call with node id `call` in method `method` calls a
    /// method of `self` (`self.m(...)`, `self` its first parameter).
    fn calls_on_self(&self, method: ScopeId, call: Option<usize>) -> bool {
        let Some(node) = call.and_then(|c| self.call_node(method, c)) else {
            return false;
        };
        // In a closure, the `self` of the method it is in.
        let owner = self.enclosing_method(method).unwrap_or(method);
        let Some((receiver, _)) = self.scopes[owner].params().first() else {
            return false;
        };
        node.field("function")
            .filter(|f| f.kind_name() == "attribute")
            .and_then(|f| f.field("object"))
            .is_some_and(|o| o.kind_name() == "identifier" && text(o, self.src) == receiver)
    }

    /// Whether the value at byte `at` of `method` (or a closure of it) is
    /// `self.name`, `name` the method `target`'s: a bound method passed on
    /// (`lax.while_loop(self._cond, self._body, init)`) runs on `self`.
    fn reads_self_method(&self, method: ScopeId, at: usize, target: ScopeId) -> bool {
        let owner = self.enclosing_method(method).unwrap_or(method);
        let Some((receiver, _)) = self.scopes[owner].params().first() else {
            return false;
        };
        let Some(mut node) = self.scopes[method].node.descendant_for_byte_range(at, at) else {
            return false;
        };
        while node.kind_name() != "attribute" || node.start_byte() != at {
            match self.parent_of(node) {
                Some(p) if p.start_byte() == at => node = p,
                _ => return false,
            }
        }
        node.field("object")
            .is_some_and(|o| o.kind_name() == "identifier" && text(o, self.src) == receiver)
            && node
                .field("attribute")
                .is_some_and(|a| text(a, self.src) == self.scopes[target].name)
    }

    /// Whether an `__init__` does nothing but store its parameters on
    /// `self` (`self.handler = handler`): a function it is given runs
    /// only where the field is called, which the value flow follows.
    fn init_only_stores(&self, init: ScopeId) -> bool {
        let params = self.scopes[init].params();
        let Some((receiver, _)) = params.first() else {
            return false;
        };
        let Some(body) = self.scopes[init].node.field("body") else {
            return false;
        };
        let mut cursor = body.walk();
        let statements: Vec<Node<'t>> = body.named_children(&mut cursor).collect();
        statements.iter().all(|statement| {
            let statement = *statement;
            match statement.kind_name() {
                "comment" | "pass_statement" => true,
                "expression_statement" => {
                    let Some(inner) = statement.named_child(0) else {
                        return false;
                    };
                    match inner.kind_name() {
                        // A docstring.
                        "string" => true,
                        "assignment" => {
                            let stored_on_self = inner
                                .field("left")
                                .filter(|l| l.kind_name() == "attribute")
                                .and_then(|l| l.field("object"))
                                .is_some_and(|o| text(o, self.src) == receiver);
                            let a_parameter = inner.field("right").is_some_and(|r| {
                                r.kind_name() == "identifier"
                                    && params.iter().skip(1).any(|(p, _)| p == text(r, self.src))
                            });
                            stored_on_self && a_parameter
                        }
                        _ => false,
                    }
                }
                _ => false,
            }
        })
    }

    /// Arguments for a method run on a known object with nothing else
    /// known (see `Flow::eval_given`): one empty value per parameter after
    /// `self`, read as unknown, not as the defaults an empty `given` (a
    /// call with no arguments) would give.
    pub(crate) fn unknown_arguments(&self, method: ScopeId) -> Vec<Vec<flow::Alt<'t>>> {
        let params = self.scopes[method].params().len().saturating_sub(1);
        vec![Vec::new(); params.max(1)]
    }

    /// The call node with id `id`, evaluated in `scope` (looked for among
    /// that scope's calls first).
    fn call_node(&self, scope: ScopeId, id: usize) -> Option<Node<'t>> {
        let own = self
            .scopes
            .get(scope)?
            .calls
            .iter()
            .map(|&i| self.calls[i].node);
        own.chain(self.calls.iter().map(|c| c.node))
            .find(|n| n.id() == id)
    }

    /// What `method` reaches run on the object `call` (in `scope`)
    /// constructed: its branches and call edges decided with `self` that
    /// object, its other parameters as the module gives them (not bound).
    /// Computed once per method and object.
    /// Makes `object` the receiver of the other module's call of `method`
    /// this model answers, `given` its arguments, and returns the target that
    /// runs `target` (the method or a closure of it) on that object.
    pub(crate) fn run_on_foreign_object(
        &self,
        target: ScopeId,
        class: ScopeId,
        object: flow::Alt<'t>,
        method: ScopeId,
        given: Vec<Vec<flow::Alt<'t>>>,
    ) -> Target {
        self.foreign_receiver.replace(Some(super::ForeignReceiver {
            object,
            method,
            given,
        }));
        self.receiver_branches
            .borrow_mut()
            .retain(|(_, call, _), _| *call != FOREIGN_CALL);
        Target::OnObject(target, class, FOREIGN_OBJECT, FOREIGN_CALL)
    }

    fn receiver_branches(
        &self,
        method: ScopeId,
        class: ScopeId,
        scope: ScopeId,
        call: usize,
        path: &[Choice],
    ) -> Option<std::rc::Rc<CallBranches>> {
        // An object a factory of this module made (`Block(backend)` in
        // `build(backend)`): the path's choice of that factory's call (its
        // `made_here`, see `factory_made_choices`) tells which call's
        // values made it.
        let made_on: Vec<Choice> = match scope {
            FOREIGN_OBJECT => Vec::new(),
            _ => path
                .iter()
                .filter(|(point, _)| {
                    let mut s = Some(scope);
                    while let Some(at) = s {
                        if self.scopes[at].kind == ScopeKind::Function
                            && self.scopes[at].node.id() == *point
                        {
                            return true;
                        }
                        s = self.scopes[at].parent;
                    }
                    false
                })
                .copied()
                .collect(),
        };
        let key = (method, call, made_on);
        // (Cached with `call` 0: `set_foreign_receiver` clears those.)
        if let Some(found) = self.receiver_branches.borrow().get(&key) {
            return Some(found.clone());
        }
        if scope == FOREIGN_OBJECT {
            let receiver = self.foreign_receiver.borrow().clone()?;
            let given = match receiver.method == method {
                true => receiver.given,
                false => self.unknown_arguments(method),
            };
            let branches =
                std::rc::Rc::new(self.call_branches(method, &given, Some(receiver.object)));
            self.receiver_branches
                .borrow_mut()
                .insert(key, branches.clone());
            return Some(branches);
        }
        let node = self.call_node(scope, call)?;
        let receiver = flow::Alt {
            choices: key.2.clone(),
            ..flow::Alt::fixed(Val::Instance(class, Some((node, scope))))
        };
        let given = self.unknown_arguments(method);
        let mut branches = self.call_branches(method, &given, Some(receiver.clone()));
        branches.object_reqs = self.pallas_requirements_on_object(method, &given, receiver);
        let branches = std::rc::Rc::new(branches);
        self.receiver_branches
            .borrow_mut()
            .insert(key, branches.clone());
        Some(branches)
    }

    /// The `pallas_call` requirements of `method` (and its closures) that
    /// are not known for every object of its class but are for `receiver`:
    /// each call's requirements evaluated with `self` bound to it, kept
    /// only when all of them are then certain and known.
    fn pallas_requirements_on_object(
        &self,
        method: ScopeId,
        given: &[Vec<flow::Alt<'t>>],
        receiver: flow::Alt<'t>,
    ) -> Vec<(ScopeId, Requirement)> {
        let mut out = Vec::new();
        for (id, scope) in self.scopes.iter().enumerate() {
            if scope.kind != ScopeKind::Function || !self.scope_within(id, method) {
                continue;
            }
            // Each call's guards, once per call with an unknown value.
            let mut unknown: Vec<(Span, Vec<Guard>)> = Vec::new();
            for req in &self.facts_of(id).reqs {
                if matches!(req.kind, ReqKind::PallasCall { .. })
                    && !pallas_requirement_known(req)
                    && !unknown.iter().any(|(span, _)| *span == req.span)
                {
                    unknown.push((req.span.clone(), req.guards.clone()));
                }
            }
            for (span, guards) in unknown {
                let Some(call) = scope
                    .calls
                    .iter()
                    .map(|&i| self.calls[i].node)
                    .find(|n| n.byte_range() == span)
                else {
                    continue;
                };
                let args = self.args_of(call);
                let flow = self.flow_with_budget(400);
                let reqs = flow.with_given(method, given, Some(receiver.clone()), || {
                    // `pl.pallas_call(...)`, or a call of a name bound to a
                    // `functools.partial` of it.
                    if self.callee(call, id).as_deref() == Some(names::PALLAS_CALL) {
                        self.pallas_requirement_of_call(&flow, call, &args, id, guards)
                    } else {
                        self.partial_pallas_call_in(&flow, call, &args, id, &guards)
                            .unwrap_or_default()
                    }
                });
                if !reqs.is_empty() && reqs.iter().all(pallas_requirement_known) {
                    out.extend(reqs.into_iter().map(|r| (id, r)));
                }
            }
        }
        out
    }

    /// A decorated def is called through what its decorators return: the
    /// decorators of this module (`@host_function(spec)`, `@traced`) are
    /// reached with it, and so the wrappers they return. Library decorators
    /// (`@jax.jit`, `@functools.partial(...)`) resolve to nothing here.
    fn decorator_targets(&self, id: ScopeId, depth: u32) -> Vec<Target> {
        let scope = &self.scopes[id];
        if scope.kind != ScopeKind::Function {
            return Vec::new();
        }
        let outer = scope.parent.unwrap_or(0);
        let mut out = Vec::new();
        for decorator in scope.decorators() {
            let maker = match decorator.kind_name() {
                "call" => match decorator.field("function") {
                    Some(f) => f,
                    None => continue,
                },
                _ => decorator,
            };
            if self.is_library_ref(maker, outer) {
                continue;
            }
            for t in self.resolve_ref(maker, outer, depth + 1) {
                if !out.contains(&t) {
                    out.push(t);
                }
            }
        }
        out
    }

    /// `scope` and the functions around it: code there runs on every call
    /// of each.
    pub(crate) fn functions_around(&self, scope: ScopeId) -> Vec<FunctionRun> {
        let mut out = Vec::new();
        let mut current = Some(scope);
        while let Some(id) = current {
            if matches!(
                self.scopes[id].kind,
                ScopeKind::Function | ScopeKind::Lambda
            ) {
                let node = self.scopes[id].node;
                out.push((node.id(), node.byte_range()));
            }
            current = self.scopes[id].parent;
        }
        out
    }

    fn def_targets(&self, id: ScopeId) -> Vec<Target> {
        if self.scopes[id].kind == ScopeKind::Class {
            ["__call__", "__init__"]
                .iter()
                .filter_map(|m| self.method(id, m))
                .map(|m| Target::Bound(m, id))
                .collect()
        } else {
            vec![Target::Local(id)]
        }
    }

    /// Everything reachable from `seeds` inside this module; imported names
    /// are returned unfollowed. A requirement whose values depend on which
    /// call of a function passed them is only reached through that call:
    /// when some reached requirement depends on such a choice, the walk is
    /// made again, following the calls taken on each path.
    pub fn reach_local(&self, seeds: Vec<(Target, Vec<Guard>)>) -> Reached {
        self.reach_local_for(seeds, &[], None, &[])
    }

    /// `reach_local`, with the branches one call decided (`CallBranches`).
    /// `start`: the choices the seeds were picked by (the call of a factory
    /// that made the lowered function), the walk's path at its start.
    /// `inside`: the functions whose body holds the walk's start, each run
    /// on every call of it (see `pin`).
    pub(crate) fn reach_local_for(
        &self,
        seeds: Vec<(Target, Vec<Guard>)>,
        start: &[Choice],
        decided: Option<&CallBranches>,
        inside: &[FunctionRun],
    ) -> Reached {
        let first = self.reach_walk(seeds.clone(), start, None, decided, inside);
        let points: HashSet<usize> = first
            .reqs
            .iter()
            .flat_map(|r| r.choices.iter().map(|c| c.0))
            .chain(first.choice_points.iter().copied())
            .collect();
        if points.is_empty() {
            return first;
        }
        self.reach_walk(seeds, start, Some(&points), decided, inside)
    }

    fn reach_walk(
        &self,
        seeds: Vec<(Target, Vec<Guard>)>,
        start: &[Choice],
        points: Option<&HashSet<usize>>,
        decided: Option<&CallBranches>,
        inside: &[FunctionRun],
    ) -> Reached {
        let mut reached = Reached::default();
        for (seed, _) in &seeds {
            if let Target::External(path) = seed {
                reached.external_indirect.insert(path.clone());
            }
        }
        type Item = (Target, Vec<Guard>, Vec<Choice>);
        let mut seen: HashSet<Item> = HashSet::new();
        let mut stack: Vec<Item> = seeds
            .into_iter()
            .map(|(t, g)| (t, g, start.to_vec()))
            .collect();
        while let Some((target, guards, path)) = stack.pop() {
            if seen.len() >= MAX_VISITS
                || !seen.insert((target.clone(), guards.clone(), path.clone()))
            {
                continue;
            }
            let mut object = None;
            let (id, self_class) = match target {
                // A closure a method call on a known object made (`body`
                // returned by `runner.predict_fn(3)`): its `self` is that
                // object.
                Target::Local(id) => match self.receiver_on_path(id, &path) {
                    Some((class, made_in, made_by)) => {
                        object = Some((made_in, made_by));
                        (id, Some(class))
                    }
                    None => (id, None),
                },
                Target::Bound(id, class) => (id, Some(class)),
                Target::OnObject(id, class, made_in, made_by) => {
                    object = Some((made_in, made_by));
                    (id, Some(class))
                }
                Target::SelfMethod(class, name) => {
                    // Reached without a known instance: the class's own method.
                    if let Some(m) = self.method(class, &name) {
                        stack.push((Target::Local(m), guards, path));
                    }
                    continue;
                }
                // With the choices of the path that reached it: what it
                // reaches holds on that path only.
                Target::External(name) => {
                    reached.externals.push((name, guards, path));
                    continue;
                }
            };
            // On a known object, what `self` holds decides branches and
            // calls, as a call's arguments do (`CallBranches`).
            // A closure reads the `self` of the method it is in.
            let receiver_method = self.enclosing_method(id).unwrap_or(id);
            let on_object = object.and_then(|(made_in, made_by)| {
                self.receiver_branches(receiver_method, self_class?, made_in, made_by, &path)
            });
            let decided = on_object.as_deref().or(decided);
            {
                {
                    // On a known object: the requirements it decides, in
                    // place of the class's.
                    let object_reqs: Vec<&Requirement> = on_object
                        .as_deref()
                        .into_iter()
                        .flat_map(|d| d.object_reqs.iter())
                        .filter(|(scope, _)| *scope == id)
                        .map(|(_, r)| r)
                        .collect();
                    let replaced =
                        |req: &Requirement| object_reqs.iter().any(|r| r.span == req.span);
                    let generic = self.facts_of(id).reqs.iter().filter(|r| !replaced(r));
                    for req in generic.chain(object_reqs.iter().copied()) {
                        let Some(choices) = flow::merge_choices(&req.choices, &path) else {
                            continue;
                        };
                        let own_guards = match decided {
                            Some(d) => {
                                match self.decided_guards(d, id, req.span.start, &req.guards) {
                                    Some(g) => g,
                                    None => continue,
                                }
                            }
                            None => req.guards.clone(),
                        };
                        let own_guards = pin(own_guards, &path, inside);
                        let mut req = req.clone();
                        req.guards = concat(&guards, &own_guards);
                        if points.is_some() {
                            req.choices = choices;
                        }
                        reached.reqs.push(req);
                    }
                    let decided_edges = decided
                        .into_iter()
                        .flat_map(|d| d.edges.iter())
                        .filter(|(scope, _)| *scope == id)
                        .map(|(_, edge)| edge);
                    for edge in self.facts_of(id).edges.iter().chain(decided_edges) {
                        let (next, call, edge_choices) = (&edge.target, &edge.call, &edge.choices);
                        let decided_guards;
                        let edge_guards = match decided {
                            Some(d) => match self.decided_guards(d, id, edge.at, &edge.guards) {
                                Some(g) => {
                                    decided_guards = g;
                                    &decided_guards
                                }
                                None => continue,
                            },
                            None => &edge.guards,
                        };
                        let pinned_guards = pin(edge_guards.clone(), &path, inside);
                        let edge_guards = &pinned_guards;
                        // An edge that exists on some paths only: not on one
                        // that chose otherwise; on the others, its choices
                        // are the path's from here.
                        let mut path = path.clone();
                        if !edge_choices.is_empty() {
                            reached
                                .choice_points
                                .extend(edge_choices.iter().map(|(p, _)| *p));
                            match flow::merge_choices(&path, edge_choices) {
                                Some(p) => path = p,
                                None => continue,
                            }
                        }
                        match (next, call) {
                            (Target::External(path), Some(call)) => {
                                reached.external_calls.push((path.clone(), *call))
                            }
                            (Target::External(path), None) => {
                                reached.external_indirect.insert(path.clone());
                                reached.indirect_by_edge.insert(path.clone());
                            }
                            _ => {}
                        }
                        // `self.m()` on a known instance: that class's `m`,
                        // still on the same instance.
                        let resolved;
                        let next = match (next, self_class) {
                            (Target::SelfMethod(_, name), Some(c)) => match self.method(c, name) {
                                Some(m) => {
                                    resolved = match object {
                                        Some((made_in, made_by)) => {
                                            Target::OnObject(m, c, made_in, made_by)
                                        }
                                        None => Target::Bound(m, c),
                                    };
                                    &resolved
                                }
                                None => continue,
                            },
                            // `self.m()` on a known object: `m` on it too
                            // (also when the module alone took `self` for
                            // another object: the only one it saw made).
                            (
                                Target::Local(m) | Target::Bound(m, _) | Target::OnObject(m, ..),
                                Some(c),
                            ) if object.is_some()
                                && self.method(c, &self.scopes[*m].name) == Some(*m)
                                && (self.calls_on_self(id, *call)
                                    || call.is_none()
                                        && self.reads_self_method(id, edge.at, *m))
                                && !self.is_static_method(*m)
                                && !self.is_class_method(*m) =>
                            {
                                let (made_in, made_by) = object.unwrap_or_default();
                                resolved = Target::OnObject(*m, c, made_in, made_by);
                                &resolved
                            }
                            // A closure of the same method, called or
                            // returned: it reads the same `self`.
                            (Target::Local(n), Some(c))
                                if object.is_some()
                                    && self.scopes[*n].class.is_none()
                                    && self.enclosing_method(*n) == Some(receiver_method) =>
                            {
                                let (made_in, made_by) = object.unwrap_or_default();
                                resolved = Target::OnObject(*n, c, made_in, made_by);
                                &resolved
                            }
                            _ => next,
                        };
                        let mut next_path = path.clone();
                        let next_local = match next {
                            Target::Local(n) | Target::Bound(n, _) | Target::OnObject(n, ..) => {
                                Some(*n)
                            }
                            _ => None,
                        };
                        if let (Some(points), Some(call), Some(next_id)) =
                            (points, call, next_local)
                        {
                            let next_id = &next_id;
                            let point = self.scopes[*next_id].node.id();
                            if points.contains(&point) {
                                match flow::merge_choices(&next_path, &[(point, *call)]) {
                                    Some(p) => next_path = p,
                                    // A recursive call made another way: already walked.
                                    None => continue,
                                }
                            }
                        }
                        stack.push((next.clone(), concat(&guards, edge_guards), next_path));
                    }
                }
            }
        }
        dedup(&mut reached.reqs);
        reached
    }

    /// Everything reachable from `seeds`, following imports through
    /// `resolver`; `start`, where the walk starts (see `WalkStart`).
    /// `seed_calls`: seeds of other modules made by a direct call here (`m
    /// = Model(fn)`, then `jax.jit(m)`), with that call's id: decided by
    /// its values as a direct call is. `seed_objects`: seeds that are
    /// methods of an object of another module, with the call tracing them
    /// makes (`Flow::traced_method_call`).
    pub fn reach(
        &self,
        seeds: Vec<(Target, Vec<Guard>)>,
        start: WalkStart<'_>,
        seed_calls: &[(String, usize)],
        seed_objects: &[(String, super::summary::ForeignCall)],
        file: &Path,
        resolver: Option<&dyn Resolver>,
    ) -> Vec<Requirement> {
        let mut local = self.reach_local_for(seeds, start.choices, None, start.inside);
        for (path, call) in seed_calls {
            local.external_calls.push((path.clone(), *call));
            if !local.indirect_by_edge.contains(path) {
                local.external_indirect.remove(path);
            }
        }
        let mut reqs = std::mem::take(&mut local.reqs);
        let Some(resolver) = resolver else {
            return reqs;
        };
        let file: Arc<Path> = Arc::from(file);
        let calls_in = |reached: &Reached, path: &str| -> Vec<super::CallSite<'t>> {
            let calls: Vec<super::CallSite<'t>> = reached
                .external_calls
                .iter()
                .filter(|(p, _)| p == path)
                .filter_map(|(_, id)| self.calls.iter().find(|c| c.node.id() == *id).copied())
                .collect();
            // With a decorator call of `path` among them (`@tools.instrument(
            // False)`), a call that names something else reached `path`
            // through what that decorator made (the def it wraps, called
            // through a partial or a field): its arguments are the def's, not
            // the factory's, and the decorator call already answers for it.
            if !calls.iter().any(|c| self.is_decorator(c.node)) {
                return calls;
            }
            calls
                .into_iter()
                .filter(|c| {
                    self.is_decorator(c.node)
                        || self.callee(c.node, c.scope).as_deref() == Some(path)
                })
                .collect()
        };
        let calls_of = |path: &str| calls_in(&local, path);
        // An imported function reached only by direct calls: what each call
        // reaches with its own values (branches on its parameters decided).
        type ByCall = HashMap<String, Vec<(usize, Arc<super::summary::FunctionSummary>)>>;
        let mut by_call: ByCall = HashMap::new();
        let decide_calls = |reached: &Reached, by_call: &mut ByCall| {
            for (path, _, _) in &reached.externals {
                if reached.external_indirect.contains(path) || by_call.contains_key(path) {
                    continue;
                }
                let calls = calls_in(reached, path);
                if calls.is_empty() || !self.resolves(path) {
                    continue;
                }
                let flow = self.flow();
                let reached: Option<Vec<_>> = calls
                    .iter()
                    .map(|call| {
                        // `obj.method(...)` on an object of that module's class:
                        // the method runs on it.
                        let receiver = flow.object_called_on(call.node, call.scope);
                        let args =
                            flow.foreign_args(receiver.as_ref(), call.node, call.scope, 0)?;
                        let reach = resolver.call_reach(&file, path, &args)?;
                        Some((call.node.id(), reach))
                    })
                    .collect();
                if let Some(reached) = reached {
                    by_call.insert(path.clone(), reached);
                }
            }
        };
        decide_calls(&local, &mut by_call);
        // A method lowered as a bound value of one known object: decided by
        // that object's fields, unless something else reaches it too.
        for (path, call) in seed_objects {
            if by_call.contains_key(path) || local.indirect_by_edge.contains(path) {
                continue;
            }
            if let Some(reach) = resolver.call_reach(&file, path, call) {
                by_call.insert(path.clone(), vec![(usize::MAX, reach)]);
            }
        }
        // What this module passes where an imported function's requirement
        // takes its params from its caller.
        for (path, guards, path_choices) in &local.externals {
            let Some((summary, name)) = resolver.resolve_function(&file, path) else {
                continue;
            };
            let Some(function) = summary.functions.get(&name) else {
                continue;
            };
            for call in &calls_of(path) {
                let call_reqs = by_call
                    .get(path)
                    .and_then(|r| r.iter().find(|(id, _)| *id == call.node.id()))
                    .map_or(&function.reqs, |(_, r)| &r.reqs);
                for req in call_reqs {
                    let ReqKind::PallasCall {
                        params,
                        interpret,
                        interpret_from,
                    } = &req.kind
                    else {
                        continue;
                    };
                    if !matches!(params, CompilerParams::Param(..)) && interpret_from.is_none() {
                        continue;
                    }
                    {
                        let params_alts = match params {
                            CompilerParams::Param(slot, default) => self.caller_slot(
                                call,
                                slot,
                                default.as_ref().clone(),
                                CompilerParams::Unknown,
                                params_of,
                            ),
                            other => vec![(other.clone(), Why::Fixed, Vec::new())],
                        };
                        let interpret_alts = match interpret_from {
                            Some(slot) => self.caller_slot(
                                call,
                                &slot.0,
                                slot.1,
                                Interpret::Unknown,
                                interpret_of,
                            ),
                            None => vec![(*interpret, Why::Fixed, Vec::new())],
                        };
                        for (params, pwhy, pchoices) in &params_alts {
                            for (interpret, iwhy, ichoices) in &interpret_alts {
                                let Some(choices) = flow::merge_choices(pchoices, ichoices)
                                    .and_then(|c| flow::merge_choices(&c, path_choices))
                                else {
                                    continue;
                                };
                                let mut req = req.clone();
                                req.kind = ReqKind::PallasCall {
                                    params: params.clone(),
                                    interpret: *interpret,
                                    interpret_from: None,
                                };
                                req.guards = concat(guards, &req.guards);
                                req.file = Some(summary.file.clone());
                                req.why = req.why.and(pwhy).and(iwhy);
                                req.choices = choices;
                                reqs.push(req);
                            }
                        }
                    }
                }
            }
        }
        // Each with the choices of the path in this module that reached it
        // (the requirements of another module hold on that path only; their
        // own choices name that module's nodes, meaningless here).
        type Work = (Arc<Path>, String, Vec<Guard>, Vec<Choice>);
        let mut work: Vec<Work> = local
            .externals
            .into_iter()
            .map(|(p, g, c)| (file.clone(), p, g, c))
            .collect();
        let mut seen = HashSet::new();
        // (`None`: more calls than are asked; the summary answers.)
        let mut asked: HashMap<(Arc<Path>, String), Option<Vec<super::summary::ForeignCall>>> =
            HashMap::new();
        while let Some(item) = work.pop() {
            if seen.len() > 256 || !seen.insert(item.clone()) {
                continue;
            }
            let (from, path, guards, choices) = item;
            // A function of this module another module called: with a token
            // of it, or by its path (it was given it by name). Walked here,
            // with this module's imports resolved (its summary follows none);
            // by path, its calls of imported functions decided per call.
            let token = self.local_target(&path);
            let resolved = match token {
                Some(_) => None,
                None => match resolver.resolve_function(&from, &path) {
                    Some(found) => Some(found),
                    None => continue,
                },
            };
            let own = match (token, &resolved) {
                (Some((target, made_on)), _) => Some((target, made_on, false)),
                (None, Some((summary, name))) if from != file && *summary.file == *file => {
                    match self.lookup(0, name) {
                        Some([Binding::Def(def)]) => Some((Target::Local(*def), Vec::new(), true)),
                        _ => None,
                    }
                }
                _ => None,
            };
            if let Some((target, made_on, by_path)) = own {
                let back = self.reach_local_for(vec![(target, Vec::new())], &made_on, None, &[]);
                if by_path {
                    decide_calls(&back, &mut by_call);
                }
                for mut req in back.reqs {
                    // This module's own: its choices (which loop element or
                    // call made the function the token names) hold here too.
                    let Some(merged) = flow::merge_choices(&choices, &req.choices) else {
                        continue;
                    };
                    req.guards = concat(&guards, &req.guards);
                    req.choices = merged;
                    reqs.push(req);
                }
                for (next, next_guards, _) in back.externals {
                    work.push((
                        file.clone(),
                        next,
                        concat(&guards, &next_guards),
                        choices.clone(),
                    ));
                }
                continue;
            }
            let Some((summary, name)) = resolved else {
                continue;
            };
            // Decided per call even when the function alone reaches nothing
            // (what it calls is what its callers give it).
            // Answered for the calls that reached it, with their values:
            // this module's direct calls (`by_call`), or the calls another
            // module's answer made (`asked`: `controller.step(x)` on the
            // object this module passed it).
            let answered: Option<Vec<Arc<super::summary::FunctionSummary>>> =
                match by_call.get(&path).filter(|_| from == file) {
                    Some(per_call) => Some(per_call.iter().map(|(_, r)| r.clone()).collect()),
                    None => asked.get(&(from.clone(), path.clone())).and_then(|calls| {
                        calls
                            .as_ref()?
                            .iter()
                            .map(|call| resolver.call_reach(&from, &path, call))
                            .collect()
                    }),
                };
            for answer in answered.iter().flatten() {
                for (next, call) in &answer.calls {
                    let calls = asked
                        .entry((summary.file.clone(), next.clone()))
                        .or_insert_with(|| Some(Vec::new()));
                    match calls {
                        Some(list) if list.len() < MAX_ASKED_CALLS => list.push(call.clone()),
                        _ => *calls = None,
                    }
                }
            }
            let (own_reqs, own_externals): (Vec<&Requirement>, Vec<&(String, Vec<Guard>)>) =
                match (&answered, summary.functions.get(&name)) {
                    (Some(answers), _) => (
                        answers.iter().flat_map(|r| &r.reqs).collect(),
                        answers.iter().flat_map(|r| &r.externals).collect(),
                    ),
                    (None, Some(function)) => (
                        function.reqs.iter().collect(),
                        function.externals.iter().collect(),
                    ),
                    (None, None) => continue,
                };
            for req in own_reqs {
                let mut req = req.clone();
                // Left to a caller: resolved above for this module's calls.
                if let ReqKind::PallasCall {
                    params,
                    interpret_from,
                    ..
                } = &mut req.kind
                {
                    if matches!(params, CompilerParams::Param(..)) {
                        *params = CompilerParams::Unknown;
                    }
                    *interpret_from = None;
                }
                req.guards = concat(&guards, &req.guards);
                req.file = Some(summary.file.clone());
                req.choices = choices.clone();
                reqs.push(req);
            }
            for (next, next_guards) in own_externals {
                work.push((
                    summary.file.clone(),
                    next.clone(),
                    concat(&guards, next_guards),
                    choices.clone(),
                ));
            }
        }
        dedup(&mut reqs);
        reqs
    }
}

impl<'t> Module<'t> {
    /// What a call passes into a slot of the called function, mapped by
    /// `meaning` (a run-time choice is `unknown`); `default` when the call
    /// passes nothing, `unknown` when it may pass it through `**kwargs`.
    fn caller_slot<T: Clone>(
        &self,
        call: &super::CallSite<'t>,
        slot: &ParamSlot,
        default: T,
        unknown: T,
        meaning: impl Fn(&Val<'t>) -> T,
    ) -> Vec<(T, Why, Vec<Choice>)> {
        let args = self.args_of(call.node);
        let arg = args
            .keyword(&slot.name)
            .or_else(|| slot.position.and_then(|p| args.positional.get(p).copied()));
        let Some(arg) = arg else {
            let value = if args.has_splat { unknown } else { default };
            return vec![(value, Why::Fixed, Vec::new())];
        };
        let flow = self.flow();
        flow.project(flow.eval(arg, call.scope), &slot.path)
            .into_iter()
            .map(|a| {
                let value = match &a.why {
                    w if w.is_choice() => unknown.clone(),
                    _ => meaning(&a.val),
                };
                (value, a.why, a.choices)
            })
            .collect()
    }
}

/// What an `interpret=` value means.
fn interpret_of(v: &Val<'_>) -> Interpret {
    match v {
        Val::InterpretParams => Interpret::Callback,
        v => match v.truthy() {
            Some(true) => Interpret::Yes,
            Some(false) => Interpret::No,
            None => Interpret::Unknown,
        },
    }
}

/// The params a value is (`pltpu.CompilerParams(...)`, `None`, a dict).
fn params_of(v: &Val<'_>) -> CompilerParams {
    match v {
        Val::None => CompilerParams::Absent,
        Val::Params(f) => CompilerParams::Class(*f),
        Val::Dict(..) | Val::Entries(_) | Val::KwArgs { .. } => CompilerParams::Dict,
        _ => CompilerParams::Unknown,
    }
}

/// `Guard::CallSite`s resolved on a walk's path: gone where the path went
/// through a call of that function (its choices then agreed with the
/// path's), or where the walk started inside it or inside the function
/// holding the call (`inside`: a lowering in `save(mk)` runs on each of its
/// calls, so what holds for the calls that pass `mk` holds for those
/// lowerings, as for a `mk()` that `save` makes); a `CallerChoice`
/// elsewhere.
fn pin(mut guards: Vec<Guard>, path: &[Choice], inside: &[FunctionRun]) -> Vec<Guard> {
    if !guards.iter().any(|g| matches!(g, Guard::CallSite(..))) {
        return guards;
    }
    let mut unpinned = false;
    guards.retain(|g| match g {
        Guard::CallSite(point, at) => {
            unpinned |= !path.iter().any(|(p, _)| p == point)
                && !inside
                    .iter()
                    .any(|(p, body)| p == point || body.contains(at));
            false
        }
        _ => true,
    });
    if unpinned && !guards.contains(&Guard::CallerChoice) {
        guards.push(Guard::CallerChoice);
    }
    guards
}

fn concat(a: &[Guard], b: &[Guard]) -> Vec<Guard> {
    let mut out = a.to_vec();
    for g in b {
        if !out.contains(g) {
            out.push(g.clone());
        }
    }
    out
}

fn dedup(reqs: &mut Vec<Requirement>) {
    let mut seen = HashSet::new();
    reqs.retain(|r| seen.insert(r.clone()));
}

/// Does a condition test the host's platform (which makes both branches
/// host-dependent)?
#[derive(Clone, Copy, PartialEq, Eq)]
enum HostTest {
    /// A call or name that only the host answers (`default_backend()`).
    Call,
    /// Only an attribute named `platform`: a device's, or a config's.
    PlatformAttribute,
}

fn host_platform_test(condition: &str) -> Option<HostTest> {
    if !is_host_platform_test(condition) {
        return None;
    }
    let without = condition.replace(".platform", "");
    Some(if is_host_platform_test(&without) {
        HostTest::Call
    } else {
        HostTest::PlatformAttribute
    })
}

/// A condition on the logging level (`logger.isEnabledFor(logging.DEBUG)`,
/// absl's `vlog_is_on(2)`): set by whoever runs the program.
fn is_logging_level_test(condition: &str) -> bool {
    [
        "isEnabledFor(",
        "getEffectiveLevel(",
        "vlog_is_on(",
        "level_debug(",
    ]
    .iter()
    .any(|needle| condition.contains(needle))
}

fn is_host_platform_test(condition: &str) -> bool {
    // Searchers built once: building one costs more than searching a
    // statement, and every unit's model asks of each of its statements.
    static FINDERS: std::sync::OnceLock<Vec<memchr::memmem::Finder<'static>>> =
        std::sync::OnceLock::new();
    FINDERS
        .get_or_init(|| {
            [
                "default_backend",
                "test_device_matches",
                "device_under_test",
                ".platform",
                "jax.devices(",
                "get_backend(",
                "is_tpu",
                "is_gpu",
                "on_tpu",
                "on_gpu",
            ]
            .iter()
            .map(memchr::memmem::Finder::new)
            .collect()
        })
        .iter()
        .any(|finder| finder.find(condition.as_bytes()).is_some())
}

/// Whether `block` always leaves the function and calls nothing on the way
/// (`return x`, `return`, `raise ValueError(...)`: a raise's own call makes
/// the error, not work).
fn exits_without_calls(block: Node<'_>) -> bool {
    always_exits(block) && !calls_outside_raise(block)
}

/// Whether `node` calls anything outside a `raise` statement.
fn calls_outside_raise(node: Node<'_>) -> bool {
    if node.kind_name() == "raise_statement" {
        return false;
    }
    if node.kind_name() == "call" {
        return true;
    }
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
    children.into_iter().any(calls_outside_raise)
}

/// A block whose last statement leaves the function (`return`, `raise`).
fn always_exits(block: Node<'_>) -> bool {
    let mut cursor = block.walk();
    let last = block
        .named_children(&mut cursor)
        .filter(|c| c.kind_name() != "comment")
        .last();
    last.is_some_and(|s| matches!(s.kind_name(), "return_statement" | "raise_statement"))
}

/// Whether a `pallas_call` requirement's values are certain and known.
fn pallas_requirement_known(req: &Requirement) -> bool {
    match &req.kind {
        ReqKind::PallasCall {
            params, interpret, ..
        } => {
            req.why.certain()
                && *params != CompilerParams::Unknown
                && *interpret != Interpret::Unknown
        }
        _ => true,
    }
}

/// A `try` statement's parts, as deciding it needs them.
pub(crate) struct TryParts<'t> {
    pub body: Node<'t>,
    /// Its `except` clauses, in order.
    pub handlers: Vec<Node<'t>>,
    /// The body of its `else`.
    pub otherwise: Option<Node<'t>>,
    /// The body's statements (not comments).
    pub statements: Vec<Node<'t>>,
}

/// `node`'s parts; `None` for an `except*` (exception groups) or any
/// clause not known here.
pub(crate) fn try_parts(node: Node<'_>) -> Option<TryParts<'_>> {
    let body = node.field("body")?;
    let mut handlers = Vec::new();
    let mut otherwise = None;
    let mut cursor = node.walk();
    for clause in node.named_children(&mut cursor) {
        match clause.kind_name() {
            "except_clause" if clause.child(1).is_some_and(|t| t.kind() == "*") => return None,
            "except_clause" => handlers.push(clause),
            "else_clause" => otherwise = clause.field("body"),
            "finally_clause" | "block" | "comment" => {}
            _ => return None,
        }
    }
    let mut cursor = body.walk();
    let statements = body
        .named_children(&mut cursor)
        .filter(|c| c.kind_name() != "comment")
        .collect();
    Some(TryParts {
        body,
        handlers,
        otherwise,
        statements,
    })
}

/// The body of an `except` clause (its only block).
pub(crate) fn except_block(clause: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = clause.walk();
    let block = clause
        .named_children(&mut cursor)
        .find(|c| c.kind_name() == "block");
    block
}

/// What a statement of a `try` body certainly does (`Module::decide_try`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    Completes,
    /// A `return` whose value completes: the function leaves.
    Returns,
    /// Raises the builtin exception named.
    Raises(&'static str),
    Unknown,
}

/// A builtin conversion whose failure a `try` catches.
#[derive(Clone, Copy)]
enum Conversion {
    Int,
    Float,
}

impl Conversion {
    /// `int(value)` / `float(value)`: completes, raises `ValueError`, or
    /// not known. Text is decided by Python's grammar for the two (ASCII
    /// text only; blanks around, a sign, `_` between digits).
    fn outcome(self, value: &Val<'_>) -> Outcome {
        match value {
            Val::Int(_) | Val::Bool(_) | Val::AnyInt => Outcome::Completes,
            Val::Float(f) => match self {
                Conversion::Float => Outcome::Completes,
                Conversion::Int if f.is_finite() => Outcome::Completes,
                Conversion::Int => Outcome::Unknown,
            },
            Val::Str(text) => {
                // Python strips more than ASCII blanks (`\x1c`..`\x1f`, and
                // Unicode spaces and digits count): not decided here.
                if !text.is_ascii() || text.bytes().any(|b| (0x1c..=0x1f).contains(&b)) {
                    return Outcome::Unknown;
                }
                let t = text.trim_matches(|c: char| c.is_ascii_whitespace() || c == '\x0b');
                let unsigned = t.strip_prefix(['+', '-']).unwrap_or(t);
                let converts = match self {
                    Conversion::Int => is_digit_run(unsigned),
                    Conversion::Float => is_float_text(unsigned),
                };
                if converts {
                    Outcome::Completes
                } else {
                    Outcome::Raises("ValueError")
                }
            }
            _ => Outcome::Unknown,
        }
    }
}

/// Digits with single `_` between them (`1_000`), as `int()` reads them.
fn is_digit_run(text: &str) -> bool {
    !text.is_empty()
        && text
            .split('_')
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
}

/// An unsigned float as `float()` reads it: `inf`, `infinity`, `nan` in
/// any case, or digits with an optional fraction and exponent (`1.`,
/// `.5`, `2e-3`).
fn is_float_text(text: &str) -> bool {
    if ["inf", "infinity", "nan"]
        .iter()
        .any(|w| text.eq_ignore_ascii_case(w))
    {
        return true;
    }
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let mantissa_ok = match mantissa.split_once('.') {
        Some((whole, fraction)) => {
            (!whole.is_empty() || !fraction.is_empty())
                && (whole.is_empty() || is_digit_run(whole))
                && (fraction.is_empty() || is_digit_run(fraction))
        }
        None => is_digit_run(mantissa),
    };
    let exponent_ok =
        exponent.is_none_or(|e| is_digit_run(e.strip_prefix(['+', '-']).unwrap_or(e)));
    mantissa_ok && exponent_ok
}

/// The first of `handlers` that catches the builtin `exception`: `None`
/// when one before it may catch it too, or none is known to.
pub(crate) fn catching_handler<'t>(
    handlers: &[Node<'t>],
    exception: &str,
    src: &str,
) -> Option<Node<'t>> {
    // The builtin classes `exception` is an instance of.
    let catches = |name: &str| match exception {
        "ValueError" => matches!(name, "ValueError" | "Exception" | "BaseException"),
        _ => false,
    };
    // Builtin classes that certainly do not catch it.
    let misses = |name: &str| {
        matches!(
            name,
            "KeyError"
                | "IndexError"
                | "LookupError"
                | "TypeError"
                | "AttributeError"
                | "ImportError"
                | "ModuleNotFoundError"
                | "NameError"
                | "OSError"
                | "IOError"
                | "FileNotFoundError"
                | "RuntimeError"
                | "NotImplementedError"
                | "AssertionError"
                | "ZeroDivisionError"
                | "ArithmeticError"
                | "OverflowError"
                | "StopIteration"
                | "KeyboardInterrupt"
                | "SystemExit"
                | "UnicodeError"
                | "UnicodeDecodeError"
                | "UnicodeEncodeError"
        )
    };
    for handler in handlers {
        let mut cursor = handler.walk();
        let types: Vec<Node<'t>> = handler
            .children_by_field_name("value", &mut cursor)
            .collect();
        // A bare `except:` catches everything.
        let first = match types[..] {
            [] => return Some(*handler),
            [one] => one,
            // `except A, B:` (not Python 3).
            _ => return None,
        };
        // `except (A, B) as e` / `except A as e` (an `as_pattern`): each
        // class named.
        let mut first = unparenthesize(first);
        if first.kind_name() == "as_pattern" {
            match first.named_child(0) {
                Some(class) => first = unparenthesize(class),
                None => return None,
            }
        }
        let names: Vec<Node<'t>> = match first.kind_name() {
            "tuple" => {
                let mut c = first.walk();
                first.named_children(&mut c).collect()
            }
            _ => vec![first],
        };
        let mut caught = false;
        for name in names {
            if name.kind_name() != "identifier" {
                return None;
            }
            let name = text(name, src);
            if catches(name) {
                caught = true;
            } else if !misses(name) {
                return None;
            }
        }
        if caught {
            return Some(*handler);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{Conversion, Outcome, Val};

    /// Each text with what Python 3.12 does for `int(text)` and
    /// `float(text)` (true: converts; false: `ValueError`), run there.
    #[test]
    fn conversions_follow_python() {
        let cases: &[(&str, bool, bool)] = &[
            ("3", true, true),
            (" 3 ", true, true),
            ("+3", true, true),
            ("-3", true, true),
            ("1_000", true, true),
            ("1__0", false, false),
            ("_1", false, false),
            ("1_", false, false),
            ("3.0", false, true),
            ("", false, false),
            ("  ", false, false),
            ("tpu", false, false),
            ("v0", false, false),
            ("0x10", false, false),
            ("1e3", false, true),
            ("1.", false, true),
            (".", false, false),
            (".5", false, true),
            ("5.", false, true),
            ("1e", false, false),
            ("1e+5", false, true),
            ("1.5e-3", false, true),
            ("inf", false, true),
            ("-Infinity", false, true),
            ("nan", false, true),
            ("NaN", false, true),
            ("in", false, false),
            ("1_0.5", false, true),
            ("1._5", false, false),
            ("e5", false, false),
            ("12a", false, false),
            ("\t7\n", true, true),
            ("\x0b8", true, true),
        ];
        let expect = |converts: bool| {
            if converts {
                Outcome::Completes
            } else {
                Outcome::Raises("ValueError")
            }
        };
        for (text, int, float) in cases {
            let value = Val::Str((*text).to_owned());
            assert_eq!(
                Conversion::Int.outcome(&value),
                expect(*int),
                "int({text:?})"
            );
            assert_eq!(
                Conversion::Float.outcome(&value),
                expect(*float),
                "float({text:?})"
            );
        }
        // Not ASCII: Python reads other digits and spaces; not decided.
        let value = Val::Str("٣".to_owned());
        assert_eq!(Conversion::Int.outcome(&value), Outcome::Unknown);
    }
}

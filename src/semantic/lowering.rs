//! Lowering sites: where a module lowers or exports a jitted computation, for
//! which platforms, under which context mesh, and what the computation reaches.

use super::flow::{self, Choice, Passed, SeqKind, Val, Why};
use super::names;
use super::reach::{Requirement, Target};
use super::summary::Resolver;
use super::values::{AbstractMeshInfo, Jitted, MeshValue, PlatformsValue, ShardingUse};
use super::{Args, Binding, Module, ScopeId};
use crate::syntax::Field;
use crate::syntax::KindName;
use crate::syntax::{text, unparenthesize, Span};
use std::path::Path;
use tree_sitter::Node;

/// Names and fields followed, one holding the next, to the call that
/// made a function value.
const MAX_ALIAS_HOPS: usize = 4;

/// The values a platforms argument may take: one scenario each, with how
/// sure it is and the choices it depends on.
type PlatformsScenarios = Vec<(PlatformsValue, Why, Vec<Choice>)>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoweringKind {
    /// `jit(f).trace(*args).lower(lowering_platforms=...)`
    TracedLower,
    /// `jit(f).lower(*args)`: the shortcut, which has no `lowering_platforms`.
    JitLower,
    /// `jax.export.export(jit(f), platforms=...)`
    Export,
}

/// The mesh set by an enclosing `with` at the lowering call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContextMesh {
    None,
    Abstract(AbstractMeshInfo),
    Concrete,
    Unknown,
}

/// One mesh a context may set, how sure it is, and the choices it made.
pub type ContextScenario = (ContextMesh, Why, Vec<Choice>);

/// The context manager a call enters by hand, as a `with` would:
/// `stack.enter_context(cm)` and `cm.__enter__()` enter `cm`.
pub(crate) fn entered_by_hand<'t>(call: Node<'t>, src: &str) -> Option<Node<'t>> {
    let func = call.field("function")?;
    if func.kind_name() != "attribute" {
        return None;
    }
    match text(func.field("attribute")?, src) {
        "enter_context" => {
            let args = call.field("arguments")?;
            let mut cursor = args.walk();
            let first = args
                .named_children(&mut cursor)
                .find(|a| a.kind_name() != "comment");
            first.filter(|a| a.kind_name() != "keyword_argument")
        }
        "__enter__" => func.field("object"),
        _ => None,
    }
}

/// What a statement enters by hand, read from its syntax only: the
/// argument of `stack.enter_context(cm)` or the receiver of `cm.__enter__()`
/// called as the statement, assigned (`ctx = ...`) or returned.
pub(crate) fn statement_entering<'t>(statement: Node<'t>, src: &str) -> Option<Node<'t>> {
    let mut expr = statement;
    loop {
        expr = match expr.kind_name() {
            "expression_statement" | "return_statement" => expr.named_child(0)?,
            "assignment" => expr.field("right")?,
            _ => break,
        };
    }
    let expr = unparenthesize(expr);
    if expr.kind_name() != "call" {
        return None;
    }
    entered_by_hand(expr, src)
}

/// An object entered as a context manager: the `with` item (or decorator)
/// that gives it, that item's scope, and its value.
type EnteredObject<'t> = (Node<'t>, ScopeId, flow::Alt<'t>);

/// The context a mesh sets when entered.
fn context_of(mesh: MeshValue) -> ContextMesh {
    match mesh {
        MeshValue::Abstract(info) => ContextMesh::Abstract(info),
        MeshValue::Concrete => ContextMesh::Concrete,
        MeshValue::Unknown => ContextMesh::Unknown,
    }
}

/// One context standing for all a `with` may set: the same one, abstract
/// meshes joined (`AbstractMeshInfo::join`), else `Unknown`.
fn join_contexts(meshes: Vec<ContextScenario>) -> ContextMesh {
    let mut found: Option<ContextMesh> = None;
    for (mesh, _, _) in meshes {
        found = Some(match (found, mesh) {
            (None, mesh) => mesh,
            (Some(ContextMesh::Abstract(a)), ContextMesh::Abstract(b)) => {
                ContextMesh::Abstract(a.join(&b))
            }
            (Some(a), b) if a == b => a,
            _ => return ContextMesh::Unknown,
        });
    }
    found.unwrap_or(ContextMesh::None)
}

#[derive(Clone)]
pub struct Lowering<'t> {
    pub kind: LoweringKind,
    pub call: Node<'t>,
    pub scope: ScopeId,
    /// The `lower` / `export` name: where findings about the lowering point.
    pub anchor: Span,
    /// The `lowering_platforms=` / `platforms=` keyword argument and its value.
    pub platforms_arg: Option<(Node<'t>, Node<'t>)>,
    pub platforms: PlatformsValue,
    pub jitted: Option<Jitted<'t>>,
    pub trace_args: Vec<Node<'t>>,
    /// The call whose arguments those are (`.trace(...)`, `.lower(...)`, the
    /// call of `export(...)`), and the scope they are evaluated in.
    pub trace_call: Option<Node<'t>>,
    pub trace_scope: ScopeId,
    pub context: ContextMesh,
    /// What the lowered computation reaches (transitively, across files when
    /// a resolver is given).
    pub reqs: Vec<Requirement>,
    /// How sure this scenario is to run: a lowering whose platforms or
    /// lowered function take several values is one `Lowering` per value.
    pub why: Why,
    /// The choices (call sites, loop elements) this scenario made.
    pub choices: Vec<Choice>,
}

/// The part of a lowering that its receiver decides (one per way the
/// receiver was traced).
struct Head<'t> {
    kind: LoweringKind,
    anchor: Span,
    jitted: Option<Jitted<'t>>,
    receiver: Option<(Node<'t>, ScopeId)>,
    trace_args: Vec<Node<'t>>,
    trace_call: Option<Node<'t>>,
    trace_scope: ScopeId,
    key: &'static str,
    choices: Vec<Choice>,
    why: Why,
}

impl Lowering<'_> {
    /// The platforms JAX lowers for, when the code fixes them: an explicit
    /// sequence, or the platform of the context mesh's abstract device.
    /// `None` when they come from the host or cannot be known, and for values
    /// JAX mangles (a bare string) or rejects (a list in `Traced.lower`).
    pub fn platforms(&self) -> Option<Vec<String>> {
        match (&self.platforms, self.kind) {
            (PlatformsValue::Tuple(v), LoweringKind::TracedLower | LoweringKind::Export)
                if !v.is_empty() =>
            {
                Some(v.clone())
            }
            (PlatformsValue::List(v), LoweringKind::Export) if !v.is_empty() => Some(v.clone()),
            (PlatformsValue::Default, LoweringKind::TracedLower | LoweringKind::JitLower) => {
                self.context_platform().map(|p| vec![p])
            }
            _ => None,
        }
    }

    /// True when JAX picks the host's default backend as the platform.
    pub fn uses_host_platform(&self) -> bool {
        let defaulted = match &self.platforms {
            PlatformsValue::Default => true,
            PlatformsValue::Tuple(v) | PlatformsValue::List(v) => v.is_empty(),
            _ => false,
        };
        defaulted && (self.kind == LoweringKind::Export || !self.context_has_device())
    }

    /// `Traced.lower` infers `(abstract_device.platform,)` from the context mesh.
    fn context_platform(&self) -> Option<String> {
        if self.kind == LoweringKind::Export {
            return None;
        }
        match &self.context {
            ContextMesh::Abstract(AbstractMeshInfo {
                device_platform: Some(p),
                ..
            }) if !p.is_empty() => Some(p.clone()),
            _ => None,
        }
    }

    /// True if the context mesh has an abstract device, from which
    /// `Traced.lower` takes the platform (E3 is then impossible).
    pub fn context_has_device(&self) -> bool {
        matches!(
            self.context,
            ContextMesh::Abstract(AbstractMeshInfo {
                device_platform: Some(_),
                ..
            })
        )
    }

    /// True if no `lowering_platforms` reaches `lower_sharding_computation`
    /// (`None`, absent, or the shortcut), so E3 is possible.
    pub fn platforms_missing(&self) -> bool {
        match self.kind {
            LoweringKind::Export => false,
            LoweringKind::JitLower => true,
            LoweringKind::TracedLower => self.platforms == PlatformsValue::Default,
        }
    }
}

/// The evidence that a computation's shardings only use an `AbstractMesh`.
#[derive(Clone, Debug, Default)]
pub struct MeshUse {
    pub abstract_mesh: bool,
    /// Something concrete (a device mesh, a committed array) gives devices.
    pub concrete: bool,
    pub unknown: bool,
}

/// A lowering a function of another module makes when called (a lowering
/// helper: `export_for(step, spec, "cuda")`), as its module evaluates it
/// with the call's values bound (`Module::lowerings_for_call`): checked at
/// the call, in the caller's module, where the lowered function is.
#[derive(Clone, Debug)]
pub struct ForeignLowering {
    pub kind: LoweringKind,
    /// One scenario per value the platforms take for the call.
    pub platforms: Vec<(PlatformsValue, Why)>,
    /// The functions lowered that the caller gave (its tokens); empty when
    /// the call gives only the platforms.
    pub lowered: Vec<flow::ConstAlt>,
    /// The helper's parameter the platforms are (position when it may be
    /// passed by position, name): the caller's argument for it is where a
    /// finding about them points.
    pub platforms_param: Option<(Option<usize>, String)>,
    /// The helper's parameter that is what it lowers (a function, a jitted
    /// function, a traced stage): the caller's argument for it is lowered
    /// as if the caller lowered it there.
    pub lowered_param: Option<(Option<usize>, String)>,
    /// The helper traces what it lowers with its `*args` (`.trace(*specs)`,
    /// `jit(fn).lower(*specs)`): the caller's positional arguments from this
    /// position on are the specs.
    pub specs_from: Option<usize>,
    /// The helper jits with its `**kwargs` (`jax.jit(fn, **jit_kwargs)`):
    /// the caller's keywords that name none of these parameters are the
    /// jit's keywords (`in_shardings=`, `backend=`).
    pub jit_keywords_besides: Option<Vec<String>>,
}

impl<'t> Module<'t> {
    /// The lowerings the module-level function `name` makes for `call`
    /// (from another module): each lowering site in it or its closures,
    /// its platforms and the function it lowers evaluated with the
    /// parameters bound to the call's values. Only lowerings of something
    /// the call gives or decides: a lowering with nothing of the call in it
    /// is this module's to report. `None` when there are none.
    pub fn lowerings_for_call(
        &self,
        name: &str,
        call: &super::summary::ForeignCall,
    ) -> Option<Vec<ForeignLowering>> {
        let (def, takes_receiver, bound_receiver) = self.answered_function(name, call)?;
        let file = self.file.borrow().clone()?;
        let flow = self.flow();
        let given = self.bind_call(&flow, def, takes_receiver, call)?;
        // Parameters as the caller passes them: after the receiver.
        let skip = usize::from(takes_receiver);
        let mut out: Vec<ForeignLowering> = Vec::new();
        let mut seen: Vec<(Option<usize>, Option<usize>)> = Vec::new();
        // A parameter of the helper itself, by position and name.
        let param_of = |node: Node<'t>, in_scope: ScopeId| {
            let node = unparenthesize(node);
            if node.kind_name() != "identifier" || in_scope != def {
                return None;
            }
            let name = text(node, self.src);
            let params = self.scopes[def].params();
            let params = &params[skip.min(params.len())..];
            let at = params.iter().position(|(p, _)| p == name)?;
            let by_position = !params[..at].iter().any(|(p, _)| p.starts_with('*'));
            Some((by_position.then_some(at), name.to_owned()))
        };
        for site in self.call_sites_named(&["lower", "export"]) {
            if !self.scope_within(site.scope, def) {
                continue;
            }
            let lowerings = self
                .lowering_at(site.node, site.scope, &file, None)
                .unwrap_or_default();
            // `stage.lower()` of a parameter the module cannot tell a stage
            // from a jitted function by: the caller's argument says.
            if lowerings.is_empty() {
                let args = self.args_of(site.node);
                let receiver = site
                    .node
                    .field("function")
                    .filter(|f| {
                        f.field("attribute")
                            .is_some_and(|a| text(a, self.src) == "lower")
                    })
                    .and_then(|f| f.field("object"));
                if let Some(lowered_param) = receiver.and_then(|r| param_of(r, site.scope)) {
                    let (platforms, platforms_param) = match args.keyword("lowering_platforms") {
                        Some(value) => (
                            self.scenarios_of(flow.with_defaults(flow.eval_given(
                                def,
                                &given,
                                bound_receiver.clone(),
                                value,
                                site.scope,
                            )))
                            .into_iter()
                            .map(|(v, w, _)| (v, w))
                            .collect(),
                            param_of(value, site.scope),
                        ),
                        None => (vec![(PlatformsValue::Default, Why::Fixed)], None),
                    };
                    out.push(ForeignLowering {
                        // (A stage's `.lower`, when the caller gives a stage.)
                        kind: LoweringKind::JitLower,
                        platforms,
                        lowered: Vec::new(),
                        platforms_param,
                        lowered_param: Some(lowered_param),
                        specs_from: None,
                        jit_keywords_besides: None,
                    });
                }
                continue;
            }
            for lowering in lowerings {
                // The lowered function: the jitted one, else what the
                // caller jitted itself (`export(fn, ...)`, `fn.lower(...)`
                // with `fn` a parameter).
                let lowered_node = match lowering.jitted.as_ref() {
                    Some(jitted) => jitted.target.map(|t| (t, jitted.scope)),
                    None => match lowering.kind {
                        LoweringKind::Export => {
                            let args = self.args_of(lowering.call);
                            args.positional
                                .first()
                                .copied()
                                .or_else(|| args.keyword("fun_jit"))
                                .map(|t| (t, lowering.scope))
                        }
                        LoweringKind::JitLower => lowering
                            .call
                            .field("function")
                            .and_then(|f| f.field("object"))
                            .map(|t| (t, lowering.scope)),
                        // `J.trace(*specs).lower(...)`: J; else the stage.
                        LoweringKind::TracedLower => lowering
                            .trace_call
                            .and_then(|c| c.field("function")?.field("object"))
                            .map(|t| (t, lowering.trace_scope))
                            .or_else(|| {
                                lowering
                                    .call
                                    .field("function")
                                    .and_then(|f| f.field("object"))
                                    .map(|t| (t, lowering.scope))
                            }),
                    },
                };
                let lowered_node =
                    lowered_node.filter(|(t, _)| t.kind_name() != "function_definition");
                let key = (
                    lowering.platforms_arg.map(|(_, v)| v.id()),
                    lowered_node.map(|(t, _)| t.id()),
                );
                if seen.contains(&key) {
                    continue;
                }
                seen.push(key);
                // What the caller gave to lower (its functions' tokens).
                let lowered: Vec<flow::ConstAlt> = match lowered_node {
                    Some((target, target_scope)) => flow
                        .detach_passing(&flow.eval_given(def, &given, bound_receiver.clone(), target, target_scope))
                        .into_iter()
                        .filter(|a| matches!(&a.val, flow::Const::Ref(r) if r.starts_with(super::reach::LOCAL_REF)))
                        .collect(),
                    None => Vec::new(),
                };
                let platforms = match lowering.platforms_arg {
                    Some((_, value)) => {
                        let alts = flow.eval_given(
                            def,
                            &given,
                            bound_receiver.clone(),
                            value,
                            lowering.scope,
                        );
                        self.scenarios_of(flow.with_defaults(alts))
                            .into_iter()
                            .map(|(v, w, _)| (v, w))
                            .collect()
                    }
                    None => vec![(lowering.platforms.clone(), Why::Fixed)],
                };
                // Platforms only the call gives (this module's own analysis
                // of the site knows none): checked at the call even when
                // what is lowered is not the caller's (JP005, JP006).
                let platforms_from_call = lowering.platforms == PlatformsValue::Unknown
                    && platforms.iter().any(|(v, _)| *v != PlatformsValue::Unknown);
                // A note names a line of this module, read in the caller's.
                let file_name = file
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let platforms = platforms
                    .into_iter()
                    .map(|(v, why)| {
                        let why = match why {
                            Why::Each(note) => Why::Each(format!("{note} of {file_name}")),
                            Why::Default(note) => Why::Default(format!("{note} of {file_name}")),
                            other => other,
                        };
                        (v, why)
                    })
                    .collect();
                let platforms_param = lowering
                    .platforms_arg
                    .and_then(|(_, value)| param_of(value, lowering.scope));
                let lowered_param = lowered_node.and_then(|(node, s)| param_of(node, s));
                let (star, double_star) = self.splat_params(def);
                // The call whose positionals are the specs: `.trace(...)`,
                // or `jit(fn).lower(...)` itself.
                let specs_call = match lowering.kind {
                    LoweringKind::TracedLower => lowering.trace_call,
                    LoweringKind::JitLower => Some(lowering.call),
                    // `export(fn, platforms=...)(*specs)`: the applying call.
                    LoweringKind::Export => self.parent_of(lowering.call).filter(|p| {
                        p.kind_name() == "call"
                            && p.field("function")
                                .is_some_and(|f| f.id() == lowering.call.id())
                    }),
                };
                let specs_from = star
                    .filter(|_| lowering.trace_scope == def)
                    .filter(|name| {
                        specs_call.is_some_and(|c| self.only_splat_of(c, "list_splat", name))
                    })
                    .map(|_| {
                        self.scopes[def]
                            .params()
                            .iter()
                            .skip(skip)
                            .take_while(|(p, _)| p != "*")
                            .filter(|(p, _)| p != "/")
                            .count()
                    });
                let jit_keywords_besides = double_star
                    .zip(lowering.jitted.as_ref())
                    .filter(|(name, jitted)| {
                        jitted.scope == def
                            && self.only_splat_of(jitted.site, "dictionary_splat", name)
                    })
                    .map(|_| {
                        self.scopes[def]
                            .params()
                            .iter()
                            .map(|(p, _)| p.clone())
                            .filter(|p| p != "*" && p != "/")
                            .collect()
                    });
                if lowered.is_empty() && !platforms_from_call && lowered_param.is_none() {
                    continue;
                }
                out.push(ForeignLowering {
                    kind: lowering.kind,
                    platforms,
                    lowered,
                    platforms_param,
                    lowered_param,
                    specs_from,
                    jit_keywords_besides,
                });
            }
        }
        (!out.is_empty()).then_some(out)
    }

    /// Every lowering site in the module.
    pub fn lowerings(&self, file: &Path, resolver: Option<&'t dyn Resolver>) -> Vec<Lowering<'t>> {
        let mut out = Vec::new();
        // Only `.lower(...)` and `export(...)` calls can be lowering sites.
        if let Some(resolver) = resolver {
            self.use_resolver(file, resolver);
        }
        // Names bound to `functools.partial(<...>.lower / export, ...)` lower too.
        let mut lowering_names: Vec<&str> = vec!["lower", "export"];
        for (name, first, _) in self.names_bound_to_partials() {
            let t = text(first, self.src);
            if (t.ends_with(".lower") || t.ends_with("export")) && !lowering_names.contains(&name) {
                lowering_names.push(name);
            }
        }
        for site in self.call_sites_named(&lowering_names) {
            if let Some(lowerings) = self.lowering_at(site.node, site.scope, file, resolver) {
                // A lowering in a body that never runs (`if DRY_RUN:` ...
                // `else: traced.lower()` with the flag set) lowers nothing.
                // (Asked last: deciding a scope's branches costs more than
                // telling `str.lower()` from a lowering.)
                if !self.never_runs(site.node, site.scope) {
                    out.extend(lowerings);
                }
            }
        }
        if let Some(resolver) = resolver {
            out.extend(self.foreign_lowerings(file, resolver));
        }
        out
    }

    /// `obj.method(...)` with `obj` one object of another module's class
    /// whose `method` lowers (`methods`: the names of such methods the
    /// modules this one imports define): the method's path and the object.
    fn foreign_method_call(
        &self,
        call: Node<'t>,
        scope: ScopeId,
        methods: &[&str],
    ) -> Option<(String, Option<flow::Val<'t>>)> {
        let func = call.field("function")?;
        let method = text(func.field("attribute")?, self.src);
        if !methods.contains(&method) {
            return None;
        }
        let alts = self.flow().eval(func.field("object")?, scope);
        let [one] = alts.as_slice() else {
            return None;
        };
        let flow::Val::Object(fields) = &one.val else {
            return None;
        };
        let class = flow::object_class(fields).filter(|c| c.contains('.'))?;
        Some((format!("{class}.{method}"), Some(one.val.clone())))
    }

    /// Calls of other modules' lowering helpers (`export_for(step, spec,
    /// "cuda")` with `export_for` in `util.py`): each lowering the helper
    /// makes for the call (`Resolver::call_lowerings`), checked here at the
    /// call, with what the function it lowers reaches in this module.
    fn foreign_lowerings(&self, file: &Path, resolver: &dyn Resolver) -> Vec<Lowering<'t>> {
        let mut out = Vec::new();
        // Methods of other modules' classes that lower (`.write_out`).
        let methods: Vec<&str> = self
            .imported_helpers
            .get_or_init(|| resolver.imported_lowering_helpers(file, self.src))
            .iter()
            .filter_map(|h| h.strip_prefix('.'))
            .collect();
        for site in &self.calls {
            let (call, scope) = (site.node, site.scope);
            // Only functions the text of their module shows to be lowering
            // helpers are asked about (each asks for a parse there).
            let workspace = |path: &str| {
                !(path.starts_with("jax.") || path.starts_with("numpy.") || !path.contains('.'))
            };
            let (path, receiver) = match self.callee(call, scope) {
                Some(path) if workspace(&path) && resolver.is_lowering_helper(file, &path) => {
                    (path, None)
                }
                _ => match self.foreign_method_call(call, scope, &methods) {
                    Some(found)
                        if workspace(&found.0) && resolver.is_lowering_helper(file, &found.0) =>
                    {
                        found
                    }
                    _ => continue,
                },
            };
            let args = self.args_of(call);
            // Positions past a `*splat` are not known.
            let fixed = Args::positional_before_list_splat(call).unwrap_or(args.positional.len());
            if args.has_dict_splat || fixed == 0 && args.keywords.is_empty() {
                continue;
            }
            if !self.resolves(&path) {
                continue;
            }
            // The call's values, and the state of other modules it passes
            // on, under the state its statement runs in (`with
            // restrict_backends(allowed=...):` of the helper's module).
            // Arguments on different choices (`lower_for(f, (platform,))` in
            // a loop over platforms) are passed once per way of choosing
            // them: each way's lowerings keep its choices, so that only
            // what that element made is lowered for that element's
            // platforms. (When a way gets no answer, the call as one.)
            let foreign = self.under_state_at(call, scope, || {
                self.flow()
                    .foreign_args_by_way(receiver.as_ref(), call, scope, 0, true)
            });
            let Some((whole, ways)) = foreign else {
                continue;
            };
            let per_way: Option<Vec<_>> = ways
                .iter()
                .map(|(way, foreign)| {
                    let lowerings = resolver.call_lowerings(file, &path, foreign)?;
                    Some((way.clone(), lowerings))
                })
                .collect();
            let per_way = match per_way.filter(|w| !w.is_empty()) {
                Some(per_way) => per_way,
                None => match resolver.call_lowerings(file, &path, &whole) {
                    Some(lowerings) => vec![(Vec::new(), lowerings)],
                    None => continue,
                },
            };
            if self.never_runs(call, scope) {
                continue;
            }
            let Some(func) = call.field("function") else {
                continue;
            };
            let anchor = match func.field("attribute") {
                Some(name) => name.byte_range(),
                None => func.byte_range(),
            };
            for (way, lowering) in per_way
                .iter()
                .flat_map(|(way, lowerings)| lowerings.iter().map(move |l| (way, l)))
            {
                // The argument the platforms come from, if the call writes it.
                let argument = |param: &Option<(Option<usize>, String)>| {
                    let (at, name) = param.as_ref()?;
                    match args.keyword_arg(name).zip(args.keyword(name)) {
                        Some(found) => Some(found),
                        None => at
                            .filter(|&i| i < fixed)
                            .and_then(|i| args.positional.get(i).copied())
                            .map(|v| (v, v)),
                    }
                };
                let platforms_arg = argument(&lowering.platforms_param);
                // What it lowers is an argument of this call: lowered as if
                // this call were the lowering (its jit, trace and specs).
                if let Some((_, lowered)) = argument(&lowering.lowered_param) {
                    let sources = vec![(
                        platforms_arg,
                        lowering
                            .platforms
                            .iter()
                            .map(|(v, w)| (v.clone(), w.clone(), way.clone()))
                            .collect(),
                    )];
                    for mut head in
                        self.heads_of_argument(lowering.kind, anchor.clone(), lowered, scope)
                    {
                        // What the helper adds of the call's own arguments:
                        // the specs it traces with, the keywords it jits with.
                        if head.trace_call.is_none() && head.trace_args.is_empty() {
                            if let Some(from) = lowering.specs_from.filter(|&f| f <= fixed) {
                                head.trace_args = args.positional[from..fixed].to_vec();
                                head.trace_scope = scope;
                            }
                        }
                        if let (Some(besides), Some(jitted)) =
                            (&lowering.jit_keywords_besides, head.jitted.as_mut())
                        {
                            jitted.keywords.extend(
                                args.keywords
                                    .iter()
                                    .filter(|(name, _, _)| !besides.contains(name))
                                    .map(|(name, value, _)| (name.clone(), *value, scope)),
                            );
                        }
                        out.extend(self.lowerings_of_head(
                            &head,
                            &sources,
                            call,
                            scope,
                            file,
                            Some(resolver),
                        ));
                    }
                    continue;
                }
                // One lowering per context mesh the call may run under, with
                // what the lowered function reaches in this scenario.
                let scenarios = |platforms: &PlatformsValue,
                                 why: &Why,
                                 reqs: &[Requirement],
                                 choices: &[Choice]| {
                    self.context_through_calls(call, scope, choices, 0)
                        .into_iter()
                        .map(|(context, context_why, choices)| Lowering {
                            kind: lowering.kind,
                            call,
                            scope,
                            anchor: anchor.clone(),
                            platforms_arg,
                            platforms: platforms.clone(),
                            jitted: None,
                            trace_args: Vec::new(),
                            trace_call: None,
                            trace_scope: scope,
                            context,
                            reqs: reqs
                                .iter()
                                .filter(|r| flow::compatible(&choices, &r.choices))
                                .cloned()
                                .collect(),
                            why: why.and(&context_why),
                            choices,
                        })
                        .collect::<Vec<_>>()
                };
                if lowering.lowered.is_empty() {
                    for (platforms, why) in &lowering.platforms {
                        out.extend(scenarios(platforms, why, &[], way));
                    }
                }
                for lowered in flow::from_consts(&lowering.lowered) {
                    for (target, choices) in self.targets_of_value(&lowered.val) {
                        let Some(choices) = flow::merge_choices(&choices, way) else {
                            continue;
                        };
                        // Only this module's own functions: what the helper
                        // lowers of its own module is for its module to check.
                        if !matches!(
                            target,
                            Target::Local(_) | Target::Bound(..) | Target::OnObject(..)
                        ) {
                            continue;
                        }
                        let start = super::reach::WalkStart {
                            choices: &choices,
                            inside: &[],
                        };
                        let reqs = self.reach(
                            vec![(target, Vec::new())],
                            start,
                            &[],
                            &[],
                            file,
                            Some(resolver),
                        );
                        for (platforms, why) in &lowering.platforms {
                            out.extend(scenarios(
                                platforms,
                                &why.and(&lowered.why),
                                &reqs,
                                &choices,
                            ));
                        }
                    }
                }
            }
        }
        out
    }

    fn lowering_at(
        &self,
        call: Node<'t>,
        scope: ScopeId,
        file: &Path,
        resolver: Option<&dyn Resolver>,
    ) -> Option<Vec<Lowering<'t>>> {
        let (func, _, callee_scope) = self.lowering_callee(call, scope)?;
        let lowers = (func.kind_name() == "attribute"
            && func.field("attribute").map(|a| text(a, self.src)) == Some("lower"))
            || self.canonical(func, callee_scope).as_deref() == Some(names::EXPORT);
        if !lowers {
            return None;
        }
        // Under the module-level state the site runs in (`overlay.rs`):
        // `with kernel_target("gpu"):` around it, a setter called before.
        self.under_state_at(call, scope, || {
            self.lowering_at_in_state(call, scope, file, resolver)
        })
    }

    fn lowering_at_in_state(
        &self,
        call: Node<'t>,
        scope: ScopeId,
        file: &Path,
        resolver: Option<&dyn Resolver>,
    ) -> Option<Vec<Lowering<'t>>> {
        let (func, args, scope) = self.lowering_callee(call, scope)?;
        let mut heads: Vec<Head<'t>> = Vec::new();
        if func.kind_name() == "attribute"
            && func.field("attribute").map(|a| text(a, self.src)) == Some("lower")
        {
            let anchor = func.field("attribute")?.byte_range();
            let receiver = func.field("object")?;
            // `obj.lower(...)` on an instance of a class of this module that
            // defines `lower` is that method, not JAX's.
            let alts = self.eval_alts(receiver, scope);
            let own_method = !alts.is_empty()
                && alts.iter().all(|a| {
                    matches!(a.val, Val::Instance(class, _) if self.method(class, "lower").is_some())
                });
            if own_method {
                return None;
            }
            // The stages the receiver may be: `J.trace(args)` reached through
            // whatever the value flow follows (names, fields, parameters,
            // returns), each with the choices and why of its alternative.
            let traced: Vec<_> = alts
                .iter()
                .filter_map(|a| match a.val {
                    Val::Traced(call, trace_scope) => {
                        let object = call.field("function")?.field("object")?;
                        Some((object, call, trace_scope, a.choices.clone(), a.why.clone()))
                    }
                    _ => None,
                })
                .collect();
            if !traced.is_empty() {
                for (jit_expr, trace_call, trace_scope, choices, why) in traced {
                    let (jitted, jitted_why) = self.eval_jitted_or_default(jit_expr, trace_scope);
                    heads.push(Head {
                        kind: LoweringKind::TracedLower,
                        anchor: anchor.clone(),
                        jitted,
                        receiver: Some((jit_expr, trace_scope)),
                        trace_args: self.args_of(trace_call).positional,
                        trace_call: Some(trace_call),
                        trace_scope,
                        key: "lowering_platforms",
                        choices,
                        why: why.and(&jitted_why),
                    });
                }
            } else {
                let (jitted, jitted_why) = self.eval_jitted_or_default(receiver, scope);
                match jitted {
                    Some(jitted) => heads.push(Head {
                        kind: LoweringKind::JitLower,
                        anchor,
                        jitted: Some(jitted),
                        receiver: Some((receiver, scope)),
                        trace_args: args.positional.clone(),
                        trace_call: Some(call),
                        trace_scope: scope,
                        key: "",
                        choices: Vec::new(),
                        why: jitted_why,
                    }),
                    // `Traced.lower` is the only `.lower` taking this keyword.
                    None if args.keyword("lowering_platforms").is_some() => heads.push(Head {
                        kind: LoweringKind::TracedLower,
                        anchor,
                        jitted: None,
                        receiver: None,
                        trace_args: Vec::new(),
                        trace_call: None,
                        trace_scope: scope,
                        key: "lowering_platforms",
                        choices: Vec::new(),
                        why: Why::Fixed,
                    }),
                    None => return None,
                }
            }
        } else if self.canonical(func, scope).as_deref() == Some(names::EXPORT) {
            let anchor = match func.kind_name() {
                "attribute" => func.field("attribute")?.byte_range(),
                _ => func.byte_range(),
            };
            let target = args
                .positional
                .first()
                .copied()
                .or_else(|| args.keyword("fun_jit"));
            let (jitted, jitted_why) = match target {
                Some(t) => self.eval_jitted_or_default(t, scope),
                None => (None, Why::Fixed),
            };
            let outer = self.parent_of(call).filter(|p| p.kind_name() == "call");
            let trace_args = outer
                .map(|outer| self.args_of(outer).positional)
                .unwrap_or_default();
            heads.push(Head {
                kind: LoweringKind::Export,
                anchor,
                jitted,
                receiver: target.map(|t| (t, scope)),
                trace_args,
                trace_call: outer,
                trace_scope: scope,
                key: "platforms",
                choices: Vec::new(),
                why: jitted_why,
            });
        } else {
            return None;
        }

        let mut out = Vec::new();
        for head in heads {
            // Where the platforms come from: this call's keyword, or for
            // `.lower(**lower_kwargs)` each caller's (one scenario each,
            // reported where the value is written).
            let sources: Vec<(Option<(Node<'t>, Node<'t>)>, PlatformsScenarios)> = match (
                head.key.is_empty(),
                args.keyword_arg(head.key).zip(args.keyword(head.key)),
            ) {
                (true, _) => vec![(
                    None,
                    vec![(PlatformsValue::Default, Why::Fixed, Vec::new())],
                )],
                (false, Some((arg, value))) => {
                    vec![(Some((arg, value)), self.platform_scenarios(value, scope))]
                }
                (false, None) if args.has_dict_splat => self
                    .flow()
                    .keyword_sources(call, scope, head.key)
                    .into_iter()
                    .map(|source| {
                        let (arg, scenarios) = match source.passed {
                            Passed::At {
                                holder,
                                value,
                                scope,
                            } => (Some((holder, value)), self.platform_scenarios(value, scope)),
                            Passed::Values(alts) => {
                                let flow = self.flow();
                                (None, self.scenarios_of(flow.with_defaults(alts)))
                            }
                            Passed::Absent => (
                                None,
                                vec![(PlatformsValue::Default, Why::Fixed, Vec::new())],
                            ),
                            Passed::Unknown => (
                                None,
                                vec![(PlatformsValue::Unknown, Why::Choice, Vec::new())],
                            ),
                        };
                        let scenarios = scenarios
                            .into_iter()
                            .filter_map(|(v, w, c): (PlatformsValue, Why, Vec<Choice>)| {
                                let c = flow::merge_choices(&c, &source.choices)?;
                                Some((v, w.and(&source.why), c))
                            })
                            .collect();
                        (arg, scenarios)
                    })
                    .collect(),
                (false, None) => vec![(
                    None,
                    vec![(PlatformsValue::Default, Why::Fixed, Vec::new())],
                )],
            };
            out.extend(self.lowerings_of_head(&head, &sources, call, scope, file, resolver));
        }
        Some(out)
    }

    /// The ways `node` (an argument given to another module's lowering
    /// helper) was made, as lowering heads: a traced stage (`J.trace(args)`:
    /// its jit, receiver and specs), else a function or jitted function.
    fn heads_of_argument(
        &self,
        kind: LoweringKind,
        anchor: Span,
        node: Node<'t>,
        scope: ScopeId,
    ) -> Vec<Head<'t>> {
        let alts = self.eval_alts(node, scope);
        let traced: Vec<Head<'t>> = alts
            .iter()
            .filter_map(|a| match a.val {
                Val::Traced(trace_call, trace_scope) => {
                    let object = trace_call.field("function")?.field("object")?;
                    Some(Head {
                        // `.lower()` of a stage, not of a jitted function.
                        kind: match kind {
                            LoweringKind::JitLower => LoweringKind::TracedLower,
                            other => other,
                        },
                        anchor: anchor.clone(),
                        jitted: self.eval_jitted(object, trace_scope),
                        receiver: Some((object, trace_scope)),
                        trace_args: self.args_of(trace_call).positional,
                        trace_call: Some(trace_call),
                        trace_scope,
                        key: "",
                        choices: a.choices.clone(),
                        why: a.why.clone(),
                    })
                }
                _ => None,
            })
            .collect();
        if !traced.is_empty() {
            return traced;
        }
        // Only what can be lowered: a jitted function, or a function the
        // helper jits itself (not a string whose `.lower()` it calls).
        let jitted = self.eval_jitted(node, scope);
        let callable = jitted.is_some()
            || alts
                .iter()
                .any(|a| !self.targets_of_value(&a.val).is_empty())
            || !self.resolve_ref(node, scope, 0).is_empty();
        if !callable {
            return Vec::new();
        }
        // One the helper jits: as if jitted here (its targets, with the
        // factory call that made it as a choice).
        let jitted = jitted.or(Some(Jitted {
            target: Some(node),
            scope,
            keywords: Vec::new(),
            site: node,
            foreign: None,
        }));
        vec![Head {
            kind,
            anchor,
            jitted,
            receiver: Some((node, scope)),
            trace_args: Vec::new(),
            trace_call: None,
            trace_scope: scope,
            key: "",
            choices: Vec::new(),
            why: Why::Fixed,
        }]
    }

    /// The lowerings of one way a lowering call's receiver was made
    /// (`head`), one per scenario of what it lowers and of its platforms
    /// (`sources`: the argument they are written in, and their values).
    fn lowerings_of_head(
        &self,
        head: &Head<'t>,
        sources: &[(Option<(Node<'t>, Node<'t>)>, PlatformsScenarios)],
        call: Node<'t>,
        scope: ScopeId,
        file: &Path,
        resolver: Option<&dyn Resolver>,
    ) -> Vec<Lowering<'t>> {
        let mut out = Vec::new();
        for (seeds, seed_why, seed_choices) in
            self.lowering_seeds(head.jitted.as_ref(), head.receiver)
        {
            let Some(seed_choices) = flow::merge_choices(&seed_choices, &head.choices) else {
                continue;
            };
            let seed_why = seed_why.and(&head.why);
            let lowered = match head.jitted.as_ref() {
                Some(j) => j.target.map(|t| (t, j.scope)),
                None => head.receiver,
            };
            let seed_calls = self.seed_calls(lowered, &seeds);
            let seed_objects = self.seed_objects(lowered, &seeds);
            let inside = self.functions_around(scope);
            let start = super::reach::WalkStart {
                choices: &seed_choices,
                inside: &inside,
            };
            let mut reqs = self.reach(seeds, start, &seed_calls, &seed_objects, file, resolver);
            // Reached through a branch that runs by a default of run-time
            // configuration: it holds for a plain run (a warning naming
            // the default, see `analysis::split_default_requirements`).
            for req in &mut reqs {
                let notes: Vec<String> = req
                    .guards
                    .iter()
                    .filter_map(|g| match g {
                        super::reach::Guard::Configured(note) => Some(note.clone()),
                        _ => None,
                    })
                    .collect();
                for note in notes {
                    req.why = req.why.and(&Why::Default(note));
                }
            }
            for (platforms_arg, value, why, choices) in sources
                .iter()
                .flat_map(|(arg, scenarios)| scenarios.iter().map(move |(v, w, c)| (*arg, v, w, c)))
            {
                let Some(choices) = flow::merge_choices(choices, &seed_choices) else {
                    continue;
                };
                for (context, context_why, choices) in
                    self.context_through_calls(call, scope, &choices, 0)
                {
                    // Only what this scenario's choices reach.
                    let reqs = reqs
                        .iter()
                        .filter(|r| flow::compatible(&choices, &r.choices))
                        .cloned()
                        .collect();
                    out.push(Lowering {
                        kind: head.kind,
                        call,
                        scope,
                        anchor: head.anchor.clone(),
                        platforms_arg,
                        platforms: value.clone(),
                        jitted: head.jitted.clone(),
                        trace_args: head.trace_args.clone(),
                        trace_call: head.trace_call,
                        trace_scope: head.trace_scope,
                        context,
                        reqs,
                        why: why.and(&seed_why).and(&context_why),
                        choices,
                    });
                }
            }
        }
        out
    }

    /// The values a lowering's platforms argument may take, one scenario
    /// each. A run-time choice is `Unknown` (rules stay silent on it);
    /// when every alternative is a `str`, the type alone is certain (JAX
    /// iterates whatever string it is), so that is one certain scenario.
    fn platform_scenarios(&self, value: Node<'t>, scope: ScopeId) -> PlatformsScenarios {
        let flow = self.flow();
        self.scenarios_of(flow.with_defaults(flow.eval(value, scope)))
    }

    fn scenarios_of(&self, alts: Vec<flow::Alt<'t>>) -> PlatformsScenarios {
        let all_str = !alts.is_empty()
            && alts
                .iter()
                .all(|a| matches!(a.val, Val::Str(_) | Val::AnyStr));
        if all_str {
            let shown = alts.iter().find_map(|a| match &a.val {
                Val::Str(s) => Some(s.clone()),
                _ => None,
            });
            let value = match shown {
                Some(s) => PlatformsValue::Str(s),
                None => PlatformsValue::Text,
            };
            return vec![(value, Why::Fixed, Vec::new())];
        }
        // Every alternative a list, some with items not known: the type
        // alone is certain (what `Traced.lower` rejects).
        let is_list = |v: &Val<'_>| match v {
            Val::Seq(SeqKind::List, _) | Val::Members(SeqKind::List, _) => true,
            Val::Comprehension(node, _) => node.kind_name() == "list_comprehension",
            _ => false,
        };
        if !alts.is_empty()
            && alts.iter().all(|a| is_list(&a.val))
            && alts.iter().any(|a| a.val.strings().is_none())
        {
            // And the lists that are known, as they are: what a plain run
            // passes (`os.environ.get(K, "cuda").split(",")`) still lowers
            // for those platforms where lists are taken (`export`).
            let mut out = vec![(PlatformsValue::SomeList, Why::Fixed, Vec::new())];
            for alt in alts {
                if let (Some((SeqKind::List, items)), false) =
                    (alt.val.strings(), alt.why.is_choice())
                {
                    out.push((PlatformsValue::List(items), alt.why, alt.choices));
                }
            }
            return out;
        }
        // Every alternative a non-empty tuple with items not known
        // (`(FLAGS.platform,)`): platforms are supplied, whichever they are
        // (JAX takes `(None,)` or `(3,)` as supplied too, and fails on them
        // later or not at all). So whichever alternative runs, also when a
        // run-time choice picks it (a flags object of a class chosen by
        // name): an alternative not known at all is `Unknown`, no tuple.
        // A parameter's value (`(platform,)` in a helper) is left to its
        // callers.
        let some_tuple = |v: &Val<'_>| {
            matches!(v, Val::Seq(SeqKind::Tuple, items)
                if !items.is_empty() && !items.iter().any(|i| matches!(i, Val::ParamRef(_))))
        };
        if !alts.is_empty()
            && alts
                .iter()
                .all(|a| some_tuple(&a.val) && a.val.strings().is_none())
        {
            // A plain run's alternative is named when there is one.
            let why = alts
                .iter()
                .find(|a| !a.why.certain() && a.why.note().is_some())
                .map_or(Why::Fixed, |a| a.why.clone());
            return vec![(PlatformsValue::SomeTuple, why, Vec::new())];
        }
        let mut out: Vec<(PlatformsValue, Why, Vec<Choice>)> = Vec::new();
        for alt in alts {
            let value = if !alt.why.is_choice() {
                match &alt.val {
                    Val::Str(s) => PlatformsValue::Str(s.clone()),
                    Val::Split(s) => PlatformsValue::Split(s.clone()),
                    Val::AnyStr => PlatformsValue::Text,
                    Val::None => PlatformsValue::Default,
                    v => match v.strings() {
                        Some((SeqKind::Tuple, items)) => PlatformsValue::Tuple(items),
                        Some((SeqKind::List, items)) => PlatformsValue::List(items),
                        None => PlatformsValue::Unknown,
                    },
                }
            } else {
                PlatformsValue::Unknown
            };
            let (why, choices) = if value == PlatformsValue::Unknown {
                (Why::Choice, Vec::new())
            } else {
                (alt.why, alt.choices)
            };
            if !out
                .iter()
                .any(|(v, w, c)| *v == value && *w == why && *c == choices)
            {
                out.push((value, why, choices));
            }
        }
        if out.is_empty() {
            out.push((PlatformsValue::Unknown, Why::Choice, Vec::new()));
        }
        out
    }

    /// The function a call calls, with its arguments and their scope. A call
    /// of a name bound to `functools.partial(X, ...)` calls X with the stored
    /// arguments first (`lower = partial(traced.lower, lowering_platforms=P)`).
    fn lowering_callee(
        &self,
        call: Node<'t>,
        scope: ScopeId,
    ) -> Option<(Node<'t>, Args<'t>, ScopeId)> {
        let func = call.field("function")?;
        let own = self.args_of(call);
        if func.kind_name() != "identifier" {
            return Some((func, own, scope));
        }
        let partial = self.follow_names(func, scope).filter(|(v, s)| {
            v.kind_name() == "call" && self.callee(*v, *s).as_deref() == Some(names::PARTIAL)
        });
        let Some((partial, pscope)) = partial else {
            return Some((func, own, scope));
        };
        let stored = self.args_of(partial);
        let &target = stored.positional.first()?;
        // Arguments of two scopes are only combined when they are one scope.
        if pscope != scope && !(own.positional.is_empty() && own.keywords.is_empty()) {
            return None;
        }
        Some((target, flow::through_partial(&stored, &own), pscope))
    }

    /// What the lowering lowers, as call-graph seeds: one scenario, or one
    /// per call site when the lowered function is a parameter of the
    /// enclosing function (a lowering helper: each caller's function).
    #[allow(clippy::type_complexity)]
    fn lowering_seeds(
        &self,
        jitted: Option<&Jitted<'t>>,
        receiver: Option<(Node<'t>, ScopeId)>,
    ) -> Vec<(Vec<(Target, Vec<super::Guard>)>, Why, Vec<Choice>)> {
        let seeds = |targets: Vec<Target>| targets.into_iter().map(|t| (t, Vec::new())).collect();
        let fixed = |targets: Vec<Target>| vec![(seeds(targets), Why::Fixed, Vec::new())];
        match jitted {
            Some(j) => match j.target {
                Some(t) if matches!(t.kind_name(), "function_definition") => fixed(
                    self.scope_of_def(t)
                        .map(Target::Local)
                        .into_iter()
                        .collect(),
                ),
                Some(t) => {
                    if let Some(per_call) = self.param_seeds(t, j.scope) {
                        return per_call
                            .into_iter()
                            .map(|(targets, why, choices)| (seeds(targets), why, choices))
                            .collect();
                    }
                    let targets = self.value_targets(t, j.scope, 0);
                    if let Some(per_alt) = self.flow_seeds(t, j.scope, &targets) {
                        return per_alt
                            .into_iter()
                            .map(|(targets, why, choices)| (seeds(targets), why, choices))
                            .collect();
                    }
                    vec![(
                        seeds(targets),
                        Why::Fixed,
                        self.factory_call_choice(t, j.scope),
                    )]
                }
                // A jit another module made: its function there (a closure
                // with the choices that made it: which factory call).
                None => {
                    let mut out: Vec<(Vec<(Target, Vec<super::Guard>)>, Why, Vec<Choice>)> =
                        Vec::new();
                    let found = j
                        .foreign
                        .iter()
                        .flat_map(|f| self.targets_of_value(&f.function.val()));
                    for (target, choices) in found {
                        match out.iter_mut().find(|(_, _, c)| *c == choices) {
                            Some((seeds, _, _)) => seeds.push((target, Vec::new())),
                            None => out.push((vec![(target, Vec::new())], Why::Fixed, choices)),
                        }
                    }
                    if out.is_empty() {
                        out = fixed(Vec::new());
                    }
                    out
                }
            },
            // An imported jitted function: follow the name.
            None => fixed(
                receiver
                    .map(|(r, s)| self.resolve_ref(r, s, 0))
                    .unwrap_or_default(),
            ),
        }
    }

    /// The seeds of other modules the lowered function was made by a
    /// direct call of: `m = Model(fn)` (or `Model(fn)` itself) lowered as
    /// `jax.jit(m)`, a def decorated by `@factory(flag)`, with that call.
    fn seed_calls(
        &self,
        lowered: Option<(Node<'t>, ScopeId)>,
        seeds: &[(Target, Vec<super::Guard>)],
    ) -> Vec<(String, usize)> {
        // The decorator calls of the defs lowered (`@tools.instrument(False)`
        // above one): what each made is applied to its def, whatever way the
        // def came to be lowered (a partial of it, a parameter given it).
        let decorator_call = |path: &str| {
            seeds.iter().find_map(|(target, _)| match target {
                Target::Local(def) => self.decorator_call_for(*def, path),
                _ => None,
            })
        };
        seeds
            .iter()
            .filter_map(|(target, _)| {
                let Target::External(path) = target else {
                    return None;
                };
                lowered
                    .and_then(|(lowered, scope)| self.call_made_by(target, lowered, scope))
                    .or_else(|| decorator_call(path))
                    .map(|call| (path.clone(), call))
            })
            .collect()
    }

    /// The seeds that are methods of one object of another module, taken
    /// as a value (`jax.jit(runner.run)` with `runner = Runner()` built
    /// from an imported class): the call tracing makes, with `self` that
    /// object, so its fields decide the method's branches.
    fn seed_objects(
        &self,
        lowered: Option<(Node<'t>, ScopeId)>,
        seeds: &[(Target, Vec<super::Guard>)],
    ) -> Vec<(String, super::summary::ForeignCall)> {
        let Some((lowered, scope)) = lowered else {
            return Vec::new();
        };
        let node = unparenthesize(lowered);
        if node.kind_name() != "attribute" {
            return Vec::new();
        }
        let (Some(object), Some(method)) = (node.field("object"), node.field("attribute")) else {
            return Vec::new();
        };
        let method = text(method, self.src);
        let flow = self.flow();
        let object = match flow.eval(object, scope).as_slice() {
            [one] if one.why.certain() && matches!(one.val, Val::Object(_)) => one.val.clone(),
            _ => return Vec::new(),
        };
        seeds
            .iter()
            .filter_map(|(target, _)| match target {
                Target::External(path) if path.rsplit('.').next() == Some(method) => {
                    Some((path.clone(), flow.traced_method_call(&object)))
                }
                _ => None,
            })
            .collect()
    }

    /// A lowered function made by a call of a factory of this module
    /// (`step = sequential(layers)`, `jax.jit(make_step(cfg))`): that call
    /// of the factory, as a choice, so that what the factory's parameters
    /// hold is what this call passes.
    pub(crate) fn factory_call_choice(&self, target: Node<'t>, scope: ScopeId) -> Vec<Choice> {
        let mut node = unparenthesize(target);
        let mut value_scope = scope;
        // Through names and fields that hold it (`step = TPU_STEP`, then
        // `step(x)`), to the call that made it.
        for _ in 0..MAX_ALIAS_HOPS {
            let (value, scope) = match node.kind_name() {
                "identifier" => match self.binding_at(value_scope, text(node, self.src), node) {
                    Some(Binding::Value { value, scope, .. }) => (*value, *scope),
                    _ => return Vec::new(),
                },
                // `self.norm(x)` with `self.norm = create("gpu")` the one
                // store of that field (no subclass storing its own): on the
                // path of that call, as a name bound to it is.
                "attribute" => match self.field_value_of_receiver(node, value_scope) {
                    Some(found) => found,
                    None => return Vec::new(),
                },
                _ => break,
            };
            node = unparenthesize(value);
            value_scope = scope;
        }
        if node.kind_name() != "call" {
            return Vec::new();
        }
        let Some(func) = node.field("function") else {
            return Vec::new();
        };
        // `g = functools.partial(f, backend="x")`: a call of `g` is on the
        // path of the partial call, the call site that binds what it stores.
        if self.callee(node, value_scope).as_deref() == Some(names::PARTIAL) {
            // A partial of a partial: the one that wraps the def is its call site.
            for _ in 0..MAX_ALIAS_HOPS {
                let inner = self
                    .args_of(node)
                    .positional
                    .first()
                    .and_then(|f| self.follow_names(*f, value_scope))
                    .filter(|(v, s)| {
                        v.kind_name() == "call"
                            && self.callee(*v, *s).as_deref() == Some(names::PARTIAL)
                    });
                let Some((inner, inner_scope)) = inner else {
                    break;
                };
                node = inner;
                value_scope = inner_scope;
            }
            let first = self.args_of(node).positional.first().copied();
            // (A def another module's decorator wraps is still the def the
            // partial's arguments bind.)
            let defs: Vec<usize> = first
                .map(|f| self.resolve_ref(f, value_scope, 0))
                .unwrap_or_default()
                .into_iter()
                .filter_map(|t| match t {
                    Target::Local(def) if self.scopes[def].kind == super::ScopeKind::Function => {
                        Some(def)
                    }
                    _ => None,
                })
                .collect();
            return match defs[..] {
                [def] => vec![(self.scopes[def].node.id(), node.id())],
                _ => Vec::new(),
            };
        }
        match self.resolve_ref(func, value_scope, 0).as_slice() {
            [Target::Local(def)] if self.scopes[*def].kind == super::ScopeKind::Function => {
                vec![(self.scopes[*def].node.id(), node.id())]
            }
            _ => Vec::new(),
        }
    }

    /// `self.attr` in a method, when the class has no method of that name
    /// and one store of it that no subclass replaces: that stored value
    /// and its scope.
    fn field_value_of_receiver(
        &self,
        node: Node<'t>,
        scope: ScopeId,
    ) -> Option<(Node<'t>, ScopeId)> {
        let (object, attr) = (node.field("object")?, node.field("attribute")?);
        let attr = text(attr, self.src);
        let class = self.class_of_receiver(object, scope)?;
        if self.method(class, attr).is_some() {
            return None;
        }
        let own = self.attribute(class, attr)?;
        match own {
            [Binding::Value { value, scope, .. }]
                if !self.stored_by_a_subclass(class, attr, own) =>
            {
                Some((*value, *scope))
            }
            _ => None,
        }
    }

    /// The lowered function as the value flow gives it, one scenario per
    /// alternative with the choices it was made by, where that replaces
    /// what the syntax found (`syntax`): where the syntax finds nothing (a
    /// closure made per element of a loop), and for what a call returns
    /// when the flow knows all of it and it is this module's functions made
    /// by choices (`jit(wrap(make(x)))`: the closure `make` made for that
    /// `x`, not every closure of `make`; a call of another module's factory
    /// keeps the syntax's answer, which carries the call).
    fn flow_seeds(
        &self,
        node: Node<'t>,
        scope: ScopeId,
        syntax: &[Target],
    ) -> Option<Vec<super::reach::Scenario>> {
        let is_call = unparenthesize(node).kind_name() == "call";
        // A name holding partials (`good = partial(inner, fn=double)`): the
        // flow's partials say which partial call binds what the def is
        // given (a partial of a partial carries its own choice), which the
        // syntax cannot.
        let partials =
            !syntax.is_empty() && !is_call && !self.calls_named("partial").is_empty() && {
                let alts = self.flow_with_budget(200).eval(node, scope);
                !alts.is_empty()
                    && alts
                        .iter()
                        .all(|a| a.why.certain() && matches!(a.val, Val::Partial { .. }))
            };
        if !syntax.is_empty() && !is_call && !partials {
            return None;
        }
        let (mut per_alt, complete) = self.flow_scenarios(node, scope);
        if partials {
            // What the syntax found of other modules stays (a decorator of
            // the def, applied by its own call), as `through_partials` keeps it.
            for (targets, _, _) in &mut per_alt {
                for t in syntax {
                    if !matches!(t, Target::Local(_)) && !targets.contains(t) {
                        targets.push(t.clone());
                    }
                }
            }
            return complete.then_some(per_alt);
        }
        let made_here = || {
            per_alt.iter().any(|(_, _, choices)| !choices.is_empty())
                && per_alt.iter().all(|(targets, _, _)| {
                    targets.iter().all(|t| !matches!(t, Target::External(_)))
                })
        };
        let replaces = if syntax.is_empty() {
            !per_alt.is_empty()
        } else {
            complete && made_here()
        };
        replaces.then_some(per_alt)
    }

    /// For a lowered function that is a parameter (`def lower_for(fn, ...)`):
    /// what each call site passes, as its own scenario.
    #[allow(clippy::type_complexity)]
    fn param_seeds(
        &self,
        target: Node<'t>,
        scope: ScopeId,
    ) -> Option<Vec<(Vec<Target>, Why, Vec<Choice>)>> {
        let target = unparenthesize(target);
        if target.kind_name() != "identifier" {
            return None;
        }
        let name = text(target, self.src);
        let Binding::Param {
            scope: def, index, ..
        } = self.binding_at(scope, name, target)?
        else {
            return None;
        };
        if self.scopes[*def].class.is_some() && *index == 0 {
            return None;
        }
        let calls = self.param_call_sites(*def, *index, name)?;
        if calls.is_empty() {
            return None;
        }
        let several = calls.len() > 1;
        let point = self.scopes[*def].node.id();
        Some(
            calls
                .into_iter()
                .take(flow::MAX_ALTS)
                .flat_map(|(call, call_scope, source)| {
                    let line = call.start_position().row + 1;
                    let why = if several {
                        Why::Each(format!("for the call at line {line}"))
                    } else {
                        Why::Fixed
                    };
                    let site = [(point, call.id())];
                    let (targets, made_by) = match source {
                        flow::ParamSource::Arg(a) => {
                            let targets = self.value_targets(a, call_scope, 0);
                            // Only where the syntax finds nothing.
                            let per_alt = targets
                                .is_empty()
                                .then(|| self.flow_seeds(a, call_scope, &targets))
                                .flatten();
                            if let Some(per_alt) = per_alt {
                                return per_alt
                                    .into_iter()
                                    .filter_map(|(targets, alt_why, choices)| {
                                        let choices = flow::merge_choices(&site, &choices)?;
                                        Some((targets, why.and(&alt_why), choices))
                                    })
                                    .collect::<Vec<_>>();
                            }
                            (targets, self.factory_call_choice(a, call_scope))
                        }
                        // `aot(*args)` forwarding its caller's arguments: the
                        // function each alternative of that item holds.
                        flow::ParamSource::Spread(rest, index) => {
                            let flow = self.flow_with_budget(200);
                            return flow
                                .spread_values(rest, call_scope, index)
                                .into_iter()
                                .filter(|alt| alt.why.certain())
                                .flat_map(|alt| {
                                    self.alt_targets(&alt)
                                        .into_iter()
                                        .filter_map(|(target, choices)| {
                                            let choices = flow::merge_choices(&site, &choices)?;
                                            Some((vec![target], why.and(&alt.why), choices))
                                        })
                                        .collect::<Vec<_>>()
                                })
                                .collect::<Vec<_>>();
                        }
                        _ => (Vec::new(), Vec::new()),
                    };
                    flow::merge_choices(&site, &made_by)
                        .map(|choices| (targets, why, choices))
                        .into_iter()
                        .collect()
                })
                .collect(),
        )
    }

    /// The context mesh at `node`: an enclosing `with` in its scope, else,
    /// in a function, the context at the call this scenario came through
    /// (`with use_abstract_mesh(m): helper()` sets it for `helper`'s body),
    /// or at the function's only call.
    /// One scenario per mesh the context may be (`for mesh in MESHES: with
    /// use_abstract_mesh(mesh):`), each with how sure it is and the choices
    /// it made, merged with `choices` (a context that contradicts them is
    /// not this scenario's).
    pub fn context_through_calls(
        &self,
        node: Node<'t>,
        scope: ScopeId,
        choices: &[Choice],
        depth: u32,
    ) -> Vec<ContextScenario> {
        let here = self.context_meshes(node, scope);
        let is_none = matches!(here.as_slice(), [(ContextMesh::None, _, _)]);
        if !is_none || depth > 3 {
            let kept: Vec<ContextScenario> = here
                .iter()
                .filter_map(|(mesh, why, made)| {
                    Some((
                        mesh.clone(),
                        why.clone(),
                        flow::merge_choices(choices, made)?,
                    ))
                })
                .collect();
            if kept.is_empty() {
                // Every mesh contradicts the scenario's choices: keep what
                // one mesh standing for them all says.
                return vec![(join_contexts(here), Why::Fixed, choices.to_vec())];
            }
            return kept;
        }
        match self.call_came_through(scope, choices) {
            Some((call, call_scope)) => {
                self.context_through_calls(call, call_scope, choices, depth + 1)
            }
            None => vec![(ContextMesh::None, Why::Fixed, choices.to_vec())],
        }
    }

    /// The host platforms at `node`, as the code says (see `host_platforms`),
    /// also through the call a helper came through (this scenario's, or the
    /// helper's only call): a test's `if default_backend() != "cpu": return`
    /// restricts the helper it calls.
    pub fn host_platforms_through_calls(
        &self,
        node: Node<'t>,
        scope: ScopeId,
        choices: &[Choice],
        depth: u32,
    ) -> Option<Vec<String>> {
        if let Some(found) = self.host_platforms(node, scope) {
            return Some(found);
        }
        if depth > 3 {
            return None;
        }
        let (call, call_scope) = self.call_came_through(scope, choices)?;
        self.host_platforms_through_calls(call, call_scope, choices, depth + 1)
    }

    /// The call through which the function holding `scope` was reached in a
    /// scenario: the one its choices name, else the function's only call.
    pub(crate) fn call_came_through(
        &self,
        scope: ScopeId,
        choices: &[Choice],
    ) -> Option<(Node<'t>, ScopeId)> {
        let def = self.function_scope(scope)?;
        let point = self.scopes[def].node.id();
        let chosen = choices
            .iter()
            .find(|(p, _)| *p == point)
            .and_then(|(_, call)| self.calls.iter().find(|c| c.node.id() == *call))
            .map(|c| (c.node, c.scope));
        chosen.or_else(|| self.wrapper_call_of(def)).or_else(|| {
            match self.param_call_sites(def, 0, "")?.as_slice() {
                [(call, call_scope, _)] => Some((*call, *call_scope)),
                _ => None,
            }
        })
    }

    /// Where a def decorated by a wrapping decorator of this module runs:
    /// the one call of the wrapped function inside the wrapper
    /// (`@under_topology(dp=4)` whose `inner` does `with topology(): return
    /// fn(*args)`). Calls of the decorated name call the wrapper instead.
    fn wrapper_call_of(&self, def: ScopeId) -> Option<(Node<'t>, ScopeId)> {
        let home = self.scopes[def].parent.unwrap_or(super::MODULE_SCOPE);
        let mut found = None;
        for decorator in self.scopes[def].decorators() {
            // `@wrap` or `@outer(...)` returning a def.
            let (named, through_call) = match decorator.kind_name() {
                "identifier" => (decorator, false),
                "call" => (decorator.field("function")?, true),
                _ => continue,
            };
            if named.kind_name() != "identifier" {
                continue;
            }
            let Some(Binding::Def(target)) = self.binding_at(home, text(named, self.src), named)
            else {
                continue;
            };
            let wrapper = if through_call {
                let returned = self.scopes[*target].returned.first().copied()?;
                match self.binding_at(*target, text(returned, self.src), returned) {
                    Some(Binding::Def(id)) if returned.kind_name() == "identifier" => *id,
                    _ => continue,
                }
            } else {
                *target
            };
            if self.scopes[wrapper].kind != super::ScopeKind::Function {
                continue;
            }
            let (param, _) = self.scopes[wrapper].params().first()?.clone();
            // Calls of that parameter by name, in the wrapper or nested in it.
            let calls: Vec<(Node<'t>, ScopeId)> = self
                .calls_named(&param)
                .iter()
                .map(|&i| &self.calls[i])
                .filter(|c| {
                    self.scope_within(c.scope, wrapper)
                        && c.node.field("function").is_some_and(|f| {
                            f.kind_name() == "identifier"
                                && matches!(self.binding_at(c.scope, &param, f), Some(Binding::Param { scope, .. }) if *scope == wrapper)
                        })
                })
                .map(|c| (c.node, c.scope))
                .collect();
            match calls.as_slice() {
                [one] if found.is_none() => found = Some(*one),
                [] => {}
                _ => return None,
            }
        }
        found
    }

    /// The function (not lambda or class) whose body holds `scope`.
    pub(crate) fn function_scope(&self, scope: ScopeId) -> Option<ScopeId> {
        let mut current = Some(scope);
        while let Some(id) = current {
            match self.scopes[id].kind {
                super::ScopeKind::Function => return Some(id),
                super::ScopeKind::Lambda => current = self.scopes[id].parent,
                _ => return None,
            }
        }
        None
    }

    /// The mesh of the innermost enclosing `with` in the same scope, one
    /// mesh standing for all it may be.
    pub fn context_mesh(&self, node: Node<'t>, scope: ScopeId) -> ContextMesh {
        join_contexts(self.context_meshes(node, scope))
    }

    /// The meshes the innermost enclosing `with` in the same scope may set,
    /// each with how sure it is and the choices it made.
    pub fn context_meshes(&self, node: Node<'t>, scope: ScopeId) -> Vec<ContextScenario> {
        let none = || vec![(ContextMesh::None, Why::Fixed, Vec::new())];
        // Only a `with` item, a context manager entered by hand or a
        // decorator sets one (and most models have none).
        let enclosing = if self.with_items.is_empty() && !self.enters_by_hand {
            Vec::new()
        } else {
            crate::syntax::ancestors_below(node, self.scopes[scope].node)
        };
        for parent in enclosing {
            // `stack.enter_context(use_abstract_mesh(m))`, `cm.__enter__()`:
            // entered by a statement before `node` in a block holding it.
            if self.enters_by_hand && matches!(parent.kind_name(), "block" | "module") {
                let mut cursor = parent.walk();
                let before: Vec<Node<'t>> = parent
                    .named_children(&mut cursor)
                    .take_while(|s| s.end_byte() <= node.start_byte())
                    .collect();
                for statement in before.into_iter().rev() {
                    if let Some(meshes) = self
                        .statement_enters(statement, scope)
                        .and_then(|item| self.with_item_meshes(item, scope))
                    {
                        return meshes;
                    }
                }
            }
            let body = parent.field("body");
            if parent.kind_name() == "with_statement"
                && body.is_some_and(|b| b.start_byte() <= node.start_byte())
            {
                // Its own items: a `with` nested in its body sets its mesh
                // only for that body, not for the statements before it.
                let body_start = body.map_or(parent.end_byte(), |b| b.start_byte());
                for (item, _) in self
                    .with_items
                    .iter()
                    .filter(|(item, _)| {
                        item.start_byte() >= parent.start_byte() && item.end_byte() <= body_start
                    })
                    .rev()
                {
                    if let Some(meshes) = self.with_item_meshes(*item, scope) {
                        return meshes;
                    }
                }
            }
        }
        self.decorator_context_meshes(scope).unwrap_or_else(none)
    }

    /// A def decorated with a context manager runs its body inside it:
    /// `@mesh_context(m)` of a `@contextmanager` generator (a
    /// `ContextDecorator`), or of a class whose `__call__` wraps the function
    /// in `with self:`. The decorator nearest the def is entered last.
    fn decorator_context_meshes(&self, scope: ScopeId) -> Option<Vec<ContextScenario>> {
        let def = &self.scopes[scope];
        if def.kind != super::ScopeKind::Function {
            return None;
        }
        let outer = def.parent?;
        def.decorators().into_iter().rev().find_map(|decorator| {
            let decorator = unparenthesize(decorator);
            (decorator.kind_name() == "call")
                .then(|| self.context_manager_mesh(decorator, outer, true))
                .flatten()
                .map(|mesh| vec![(mesh, Why::Fixed, Vec::new())])
        })
    }

    /// The context manager a statement enters by hand, as a `with` would:
    /// `stack.enter_context(cm)`, `cm.__enter__()`, `ctx = cm.__enter__()`,
    /// `return cm.__enter__()`. A name or field entered is read back to the
    /// value assigned to it before, in the same scope (`self._ctx =
    /// use_abstract_mesh(m); self._ctx.__enter__()`); else it is the object
    /// entered (`stack.enter_context(plan)`).
    pub(crate) fn statement_enters(&self, statement: Node<'t>, scope: ScopeId) -> Option<Node<'t>> {
        let entered = unparenthesize(statement_entering(statement, self.src)?);
        match entered.kind_name() {
            "identifier" | "attribute" => self
                .assigned_before(scope, text(entered, self.src), statement.start_byte())
                .or(Some(entered)),
            _ => Some(entered),
        }
    }

    /// The value last assigned to `target` (a name, `self._ctx`) by
    /// `scope`'s own statements (not those of nested defs) before `before`.
    fn assigned_before(&self, scope: ScopeId, target: &str, before: usize) -> Option<Node<'t>> {
        let root = self.scopes[scope].node;
        let mut stack = vec![root.field("body").unwrap_or(root)];
        let mut found: Option<Node<'t>> = None;
        while let Some(node) = stack.pop() {
            if node.start_byte() >= before {
                continue;
            }
            match node.kind_name() {
                "function_definition" | "class_definition" | "lambda" => continue,
                "assignment" if node.end_byte() <= before => {
                    let right = node.field("right").filter(|_| {
                        node.field("left")
                            .is_some_and(|l| text(l, self.src) == target)
                    });
                    if let Some(right) = right {
                        if found.is_none_or(|f| f.start_byte() < right.start_byte()) {
                            found = Some(right);
                        }
                    }
                }
                _ => {}
            }
            let mut cursor = node.walk();
            stack.extend(node.named_children(&mut cursor));
        }
        found.map(unparenthesize)
    }

    /// A context manager that enters itself (or one that enters it).
    fn context_manager_open(&self, def: ScopeId) -> bool {
        let open = self.context_managers_open.borrow();
        let cut_short = open.contains(&def) || open.len() > 4;
        if cut_short {
            super::flow::cut();
        }
        cut_short
    }

    /// The mesh an object of `class` sets when entered (or, `as_decorator`,
    /// when it decorates a def).
    pub(crate) fn entered_mesh_of_class(
        &self,
        class: ScopeId,
        as_decorator: bool,
        instance: Option<EnteredObject<'t>>,
    ) -> Option<ContextMesh> {
        if (as_decorator && !self.is_context_decorator(class)) || self.context_manager_open(class) {
            return None;
        }
        self.context_managers_open.borrow_mut().push(class);
        let found = self.class_entered_mesh(class, instance);
        self.context_managers_open.borrow_mut().pop();
        found
    }

    /// `with Plan(dp=4):` where `Plan.__enter__` enters a mesh context
    /// manager by hand (`self._stack.enter_context(use_abstract_mesh(m))`,
    /// `self._ctx.__enter__()`): the mesh the last such statement sets.
    ///
    /// With the object known (`instance`: the `with` item, its scope and
    /// value), a `use_abstract_mesh(m)` there reads `m` with `self` bound to
    /// it (`AbstractMesh((self.dp,), ...)` of `Plan(dp=4)`).
    fn class_entered_mesh(
        &self,
        class: ScopeId,
        instance: Option<EnteredObject<'t>>,
    ) -> Option<ContextMesh> {
        let enter = self.method(class, "__enter__")?;
        let body = self.scopes[enter].node.field("body")?;
        let mut cursor = body.walk();
        let statements: Vec<Node<'t>> = body.named_children(&mut cursor).collect();
        statements
            .into_iter()
            .filter_map(|statement| self.statement_enters(statement, enter))
            .filter_map(|item| {
                instance
                    .as_ref()
                    .and_then(|object| self.bound_abstract_mesh(item, enter, object))
                    .or_else(|| self.with_item_mesh(item, enter))
            })
            .last()
    }

    /// `use_abstract_mesh(m)` in method `method`, `m` read with `self` bound
    /// to `object`: the mesh when every alternative is a known one.
    fn bound_abstract_mesh(
        &self,
        item: Node<'t>,
        method: ScopeId,
        (with_item, scope, object): &EnteredObject<'t>,
    ) -> Option<ContextMesh> {
        let mesh = self.abstract_mesh_entered(item, method)?;
        let frame = (method, *with_item, *scope, Some(object.clone()));
        let meshes: Vec<ContextScenario> = self
            .flow()
            .eval_in_frames(&[frame], mesh)
            .into_iter()
            .map(|alt| match alt.val {
                Val::Mesh(mesh) if mesh != MeshValue::Unknown => {
                    Some((context_of(mesh), alt.why, alt.choices))
                }
                _ => None,
            })
            .collect::<Option<_>>()?;
        (!meshes.is_empty()).then(|| join_contexts(meshes))
    }

    /// `use_abstract_mesh(m)`: the mesh argument `m`, when `item` is such a
    /// call and has one.
    fn abstract_mesh_entered(&self, item: Node<'t>, scope: ScopeId) -> Option<Node<'t>> {
        if item.kind_name() != "call"
            || self.callee(item, scope).as_deref() != Some(names::USE_ABSTRACT_MESH)
        {
            return None;
        }
        let args = self.args_of(item);
        args.positional
            .first()
            .copied()
            .or_else(|| args.keyword("mesh"))
    }

    /// A class whose instances decorate: a `contextlib.ContextDecorator`,
    /// or one whose `__call__` wraps the function in `with self:`.
    fn is_context_decorator(&self, class: ScopeId) -> bool {
        let bases = self.scopes[class]
            .node
            .field("superclasses")
            .map_or("", |b| text(b, self.src));
        bases.contains("ContextDecorator")
            || self.method(class, "__call__").is_some_and(|call| {
                // `with self:` in `__call__` or in the wrapper it defines.
                self.with_items.iter().any(|(item, scope)| {
                    text(*item, self.src) == "self"
                        && std::iter::successors(Some(*scope), |s| self.scopes[*s].parent)
                            .any(|s| s == call)
                })
            })
    }

    /// Whether `jax.set_mesh(...)` at `call` is given an AbstractMesh (JAX's
    /// ValueError, JP009): `Some(None)` when every mesh it may be is
    /// abstract, `Some(Some(note))` when one that certainly runs (in a loop)
    /// or runs by a default is, with that note; `None` otherwise.
    pub fn set_mesh_given_abstract(
        &self,
        call: Node<'t>,
        scope: ScopeId,
    ) -> Option<Option<String>> {
        let args = self.args_of(call);
        let mesh = args
            .positional
            .first()
            .copied()
            .or_else(|| args.keyword("mesh"))?;
        // Every mesh it may be is abstract, or one that certainly runs
        // is (an element of a loop over meshes).
        let meshes = self.eval_mesh_alts(mesh, scope);
        let all_abstract = !meshes.is_empty()
            && meshes
                .iter()
                .all(|(m, _, _)| matches!(m, MeshValue::Abstract(_)));
        if all_abstract {
            return Some(None);
        }
        meshes
            .iter()
            .find(|(m, why, _)| matches!(m, MeshValue::Abstract(_)) && why.certain())
            .map(|(_, why, _)| why.note().map(str::to_owned))
    }

    /// The calls of this module written as a call of a lowering helper it
    /// imports (`activated(...)`, `runtime.install(...)`:
    /// `Resolver::imported_lowering_helpers`, read from the text as the
    /// prefilter reads it); none without a resolver.
    pub fn imported_helper_calls(&self) -> Vec<&super::CallSite<'t>> {
        let (Some(resolver), Some(file)) = (self.resolver.get(), self.file.borrow().clone()) else {
            return Vec::new();
        };
        let helpers = self
            .imported_helpers
            .get_or_init(|| resolver.imported_lowering_helpers(&file, self.src));
        if helpers.is_empty() {
            return Vec::new();
        }
        self.calls
            .iter()
            .filter(|site| {
                site.node
                    .field("function")
                    .is_some_and(|f| helpers.iter().any(|h| h == text(f, self.src)))
            })
            .collect()
    }

    /// Whether `call`, of a function of another module of the workspace,
    /// gives the `jax.set_mesh` in that function's body an AbstractMesh
    /// (`with planning.entered(mesh):`): that module is asked with the
    /// call's values (`Resolver::call_set_mesh_abstract`). The callee's
    /// path as written here, and the note as `set_mesh_given_abstract`.
    pub fn foreign_set_mesh_abstract(
        &self,
        call: Node<'t>,
        scope: ScopeId,
    ) -> Option<(String, Option<String>)> {
        let resolver = self.resolver.get()?;
        let file = self.file.borrow().clone()?;
        let path = self.callee(call, scope)?;
        // The call's values under the state its statement runs in (`with
        // Settings(mesh):` around it).
        let args = self.under_state_at(call, scope, || {
            self.flow().foreign_args(None, call, scope, 0)
        })?;
        let note = resolver.call_set_mesh_abstract(&file, &path, &args)?;
        Some((path, note))
    }

    /// The calls of `jax.set_mesh` in the body of def `def` (not in the
    /// defs it holds).
    pub fn set_mesh_calls_in(&self, def: ScopeId) -> Vec<Node<'t>> {
        self.scopes[def]
            .calls
            .iter()
            .map(|&i| self.calls[i].node)
            .filter(|&call| self.callee(call, def).as_deref() == Some(names::SET_MESH))
            .collect()
    }

    /// The mesh a `with` item sets, if it is a mesh context manager: one
    /// mesh standing for all it may be.
    pub fn with_item_mesh(&self, item: Node<'t>, scope: ScopeId) -> Option<ContextMesh> {
        self.with_item_meshes(item, scope).map(join_contexts)
    }

    /// The meshes a `with` item may set, if it is a mesh context manager:
    /// `use_abstract_mesh(m)` sets each mesh `m` may be.
    fn with_item_meshes(&self, item: Node<'t>, scope: ScopeId) -> Option<Vec<ContextScenario>> {
        let item = unparenthesize(item);
        if item.kind_name() == "call"
            && self.callee(item, scope).as_deref() == Some(names::USE_ABSTRACT_MESH)
        {
            let mesh = self.abstract_mesh_entered(item, scope)?;
            let meshes: Vec<ContextScenario> = self
                .eval_mesh_alts(mesh, scope)
                .into_iter()
                .map(|(mesh, why, choices)| (context_of(mesh), why, choices))
                .collect();
            if meshes.is_empty() {
                return Some(vec![(ContextMesh::Unknown, Why::Fixed, Vec::new())]);
            }
            return Some(meshes);
        }
        if let Some(mesh) = self.with_item_single_mesh(item, scope) {
            return Some(vec![(mesh, Why::Fixed, Vec::new())]);
        }
        match item.kind_name() {
            "identifier" | "attribute" | "subscript" => self.entered_object_meshes(item, scope),
            _ => None,
        }
    }

    /// The mesh a `with` item other than `use_abstract_mesh(m)` sets.
    fn with_item_single_mesh(&self, item: Node<'t>, scope: ScopeId) -> Option<ContextMesh> {
        if item.kind_name() == "call" {
            match self.callee(item, scope).as_deref() {
                Some(names::SET_MESH) => return Some(ContextMesh::Concrete),
                Some(path) if path.starts_with("jax.sharding.") && path.ends_with("mesh") => {
                    return Some(ContextMesh::Unknown)
                }
                _ => return self.context_manager_mesh(item, scope, false),
            }
        }
        // `with mesh:` on a concrete mesh.
        match self.eval_mesh(item, scope) {
            MeshValue::Concrete => Some(ContextMesh::Concrete),
            _ => None,
        }
    }

    /// `with plan:` an object of a class of this module whose `__enter__`
    /// enters a mesh: the mesh of each object it may be (`Unknown` for what
    /// else it may be); `None` when none enters one.
    fn entered_object_meshes(
        &self,
        item: Node<'t>,
        scope: ScopeId,
    ) -> Option<Vec<ContextScenario>> {
        let alts = self.flow().eval(item, scope);
        let mut entered = false;
        let meshes: Vec<ContextScenario> = alts
            .into_iter()
            .map(|alt| {
                let mesh = match alt.val {
                    Val::Instance(class, _) => {
                        self.entered_mesh_of_class(class, false, Some((item, scope, alt.clone())))
                    }
                    _ => None,
                };
                entered |= mesh.is_some();
                (mesh.unwrap_or(ContextMesh::Unknown), alt.why, alt.choices)
            })
            .collect();
        entered.then_some(meshes)
    }

    /// `with topology():` where `topology` is a generator of this module
    /// made a context manager (`@contextlib.contextmanager`): the mesh in
    /// force at its `yield`, when every `yield` has the same one.
    fn context_manager_mesh(
        &self,
        call: Node<'t>,
        scope: ScopeId,
        as_decorator: bool,
    ) -> Option<ContextMesh> {
        let func = call.field("function")?;
        // `with Plan(dp=4):` a class of this module (the call constructs it).
        let class = match &self.flow().eval(func, scope)[..] {
            [one] if one.why.certain() => match one.val {
                Val::Class(class) => Some(class),
                _ => None,
            },
            _ => None,
        };
        let targets = match class {
            Some(_) => Vec::new(),
            None => self.resolve_ref(func, scope, 0),
        };
        let def = class.or_else(|| {
            targets.iter().find_map(|t| match *t {
                // `with self.mesh_context():` a method of the instance.
                super::reach::Target::Local(id)
                | super::reach::Target::Bound(id, _)
                | super::reach::Target::OnObject(id, ..) => Some(id),
                _ => None,
            })
        });
        let Some(def) = def else {
            // Another module's context manager: asked of that module with
            // the call's values.
            let [super::reach::Target::External(path)] = targets.as_slice() else {
                return None;
            };
            let (Some(resolver), Some(file)) = (self.resolver.get(), self.file.borrow().clone())
            else {
                return None;
            };
            let args = self.under_state_at(call, scope, || {
                self.flow().foreign_args(None, call, scope, 0)
            })?;
            return resolver.call_context_mesh(&file, path, &args, as_decorator);
        };
        if self.scopes[def].kind == super::ScopeKind::Class {
            let instance = match &self.flow().eval(call, scope)[..] {
                [one] if matches!(one.val, Val::Instance(..)) => Some((call, scope, one.clone())),
                _ => None,
            };
            return self.entered_mesh_of_class(def, as_decorator, instance);
        }
        self.def_context_mesh(def, as_decorator)
    }

    /// What entering what function `def` returns sets: the mesh at the
    /// `yield`s of a `@contextmanager`, or of the context manager a helper
    /// returns; `None` when a decorator may wrap it otherwise.
    pub(crate) fn def_context_mesh(&self, def: ScopeId, as_decorator: bool) -> Option<ContextMesh> {
        let node = self.scopes[def].node;
        let is_context_manager = self.is_context_manager(def);
        // Another decorator may wrap what it returns; a function decorates
        // as a context manager only when it is a `@contextmanager`.
        let decorated = !self.scopes[def].decorators().is_empty();
        if (decorated || as_decorator) && !is_context_manager {
            return None;
        }
        if self.context_manager_open(def) {
            return None;
        }
        self.context_managers_open.borrow_mut().push(def);
        let found = if is_context_manager {
            self.mesh_at_yields(node, def)
        } else {
            self.returned_context_mesh(def)
        };
        self.context_managers_open.borrow_mut().pop();
        found
    }

    /// A helper that returns a context manager (`def mesh_context(mesh):
    /// return jax.sharding.use_abstract_mesh(mesh)`): the mesh each returned
    /// one sets, when they agree; `Unknown` when they differ (one branch sets
    /// an abstract mesh, another a concrete one).
    fn returned_context_mesh(&self, def: ScopeId) -> Option<ContextMesh> {
        let meshes: Vec<Option<ContextMesh>> = super::flow::returned_values(self, def)
            .into_iter()
            .map(|r| r.and_then(|r| self.with_item_mesh(r, def)))
            .collect();
        let first = meshes.first()?.clone()?;
        if meshes.iter().all(|m| m.as_ref() == Some(&first)) {
            Some(first)
        } else if meshes.iter().any(|m| m.is_some()) {
            Some(ContextMesh::Unknown)
        } else {
            None
        }
    }

    /// The mesh in force at every `yield` of the generator `node` (scope
    /// `def`) that may run (`if isinstance(mesh, AbstractMesh): with
    /// use_abstract_mesh(mesh): yield` / `else: with set_mesh(mesh): yield`
    /// given an AbstractMesh yields under the first only).
    fn mesh_at_yields(&self, node: Node<'t>, def: ScopeId) -> Option<ContextMesh> {
        let yields = self.yields_of(node);
        let several = yields.len() > 1;
        let meshes: Vec<ContextMesh> = yields
            .into_iter()
            .filter(|y| !several || !self.never_runs(*y, def) && !self.guarded_off(*y, def))
            .map(|y| self.context_mesh(y, def))
            .collect();
        let first = meshes.first()?.clone();
        (first != ContextMesh::None && meshes.iter().all(|m| *m == first)).then_some(first)
    }

    /// A jit keyword's values: written at the jit, or, through a
    /// `jax.jit(fn, **kwargs)` of the enclosing function's `**kwargs`,
    /// passed by that function's callers.
    pub fn jit_keyword(&self, jitted: &Jitted<'t>, key: &str) -> Vec<(Node<'t>, ScopeId)> {
        if let Some(found) = jitted.keyword(key) {
            return vec![found];
        }
        // `jax.jit(fn, **jit_kwargs)`: where the callers write it.
        self.flow()
            .keyword_sources(unparenthesize(jitted.site), jitted.scope, key)
            .into_iter()
            .filter_map(|source| match source.passed {
                Passed::At { value, scope, .. } => Some((value, scope)),
                _ => None,
            })
            .collect()
    }

    /// What the lowered computation's shardings and arguments use.
    pub fn mesh_use(&self, lowering: &Lowering<'t>) -> MeshUse {
        let mut use_ = ShardingUse::default();
        if let Some(foreign) = lowering.jitted.as_ref().and_then(|j| j.foreign.as_ref()) {
            use_.merge(foreign.shardings);
            use_.concrete_mesh |= foreign.placed;
        }
        if let Some(jitted) = &lowering.jitted {
            for key in ["in_shardings", "out_shardings"] {
                for (node, scope) in self.jit_keyword(jitted, key) {
                    let s = self.eval_sharding(node, scope);
                    use_.merge(s);
                }
            }
            if !self.jit_keyword(jitted, "backend").is_empty()
                || !self.jit_keyword(jitted, "device").is_empty()
            {
                use_.concrete_mesh = true;
            }
        }
        let mut out = MeshUse {
            abstract_mesh: use_.abstract_mesh,
            concrete: use_.concrete_mesh,
            unknown: use_.unknown,
        };
        let flow = self.flow();
        for (arg, scope) in self.trace_arguments(lowering) {
            for alt in flow.eval(arg, scope) {
                let arg_use = flow.argument_use(&alt.val, 0);
                if arg_use.abstract_value {
                    let s = arg_use.sharding;
                    out.abstract_mesh |= s.abstract_mesh;
                    out.concrete |= s.concrete_mesh;
                    out.unknown |= s.unknown;
                    use_.spec |= s.spec;
                    use_.current_mesh |= s.current_mesh;
                }
                out.concrete |= arg_use.concrete;
            }
        }
        // Jits with shardings called inside: a concrete mesh there gives
        // devices wherever it is; an abstract one counts where the call
        // certainly runs.
        for req in &lowering.reqs {
            if let super::ReqKind::InnerJitShardings {
                abstract_mesh,
                concrete,
                unknown,
            } = req.kind
            {
                out.concrete |= concrete;
                let certain = req.guards.is_empty() && req.why.certain();
                out.abstract_mesh |= abstract_mesh && certain;
                out.unknown |= unknown;
            }
        }
        match &lowering.context {
            ContextMesh::Abstract(_) => out.abstract_mesh = true,
            ContextMesh::Concrete => out.concrete = true,
            ContextMesh::Unknown => out.unknown = true,
            ContextMesh::None => {
                // A bare PartitionSpec without a context mesh: another error.
                // `get_abstract_mesh()` where no context mesh is seen: the
                // caller's, abstract or concrete.
                if use_.spec || use_.current_mesh {
                    out.unknown = true;
                }
            }
        }
        out
    }

    /// `return jax.export.export(f, ...)` in a helper (`forward_export`):
    /// the exported function is called where the helper's result is,
    /// `forward_export(f, platforms=...)(x)`; those calls' arguments.
    fn returned_export_arguments(
        &self,
        export: Node<'t>,
        scope: ScopeId,
    ) -> Vec<(Node<'t>, ScopeId)> {
        let mut out = Vec::new();
        let returned = self
            .parent_of(export)
            .is_some_and(|p| p.kind_name() == "return_statement");
        if !returned || self.scopes[scope].kind != super::ScopeKind::Function {
            return out;
        }
        for site in self.def_call_sites(scope).iter() {
            let applied = self.parent_of(site.call).filter(|p| {
                p.kind_name() == "call"
                    && p.field("function")
                        .is_some_and(|f| f.id() == site.call.id())
            });
            if let Some(applied) = applied {
                out.extend(
                    self.args_of(applied)
                        .positional
                        .iter()
                        .map(|a| (*a, site.scope)),
                );
            }
        }
        out
    }

    /// The arguments a lowered function is traced with, each with its
    /// scope: the trace call's positionals, and for `*args` forwarded from
    /// the enclosing function's `*args` parameter, what its callers pass there.
    pub fn trace_arguments(&self, lowering: &Lowering<'t>) -> Vec<(Node<'t>, ScopeId)> {
        let mut out: Vec<(Node<'t>, ScopeId)> = lowering
            .trace_args
            .iter()
            .map(|a| (*a, lowering.trace_scope))
            .collect();
        if lowering.kind == LoweringKind::Export && lowering.trace_call.is_none() {
            out.extend(self.returned_export_arguments(lowering.call, lowering.scope));
        }
        let Some(list) = lowering.trace_call.and_then(|c| c.field("arguments")) else {
            return out;
        };
        let mut cursor = list.walk();
        let splats: Vec<Node<'t>> = list
            .named_children(&mut cursor)
            .filter(|a| a.kind_name() == "list_splat")
            .filter_map(|a| a.named_child(0))
            .collect();
        for splat in splats {
            if splat.kind_name() != "identifier" {
                out.push((splat, lowering.trace_scope));
                continue;
            }
            let name = text(splat, self.src);
            // `def f(fn, *args)`: the parameters before `*args` are filled
            // first; the rest of each call's positionals are `args`. Any
            // other sequence is evaluated whole (a tuple of specs).
            let star = matches!(
                self.binding_at(lowering.trace_scope, name, splat),
                Some(Binding::Opaque(_)) | None
            );
            let Some(def) = star
                .then(|| self.enclosing_def_with_star(lowering.trace_scope, name))
                .flatten()
            else {
                out.push((splat, lowering.trace_scope));
                continue;
            };
            let mut before = self.scopes[def]
                .params()
                .iter()
                .take_while(|(p, _)| p != "*")
                .count();
            if self.scopes[def].class.is_some() {
                // `self` is not among a method call's positionals.
                before = before.saturating_sub(1);
            }
            for (call, call_scope, _) in self.param_call_sites(def, 0, "").unwrap_or_default() {
                let positional = self.args_of(call).positional;
                out.extend(positional.iter().skip(before).map(|a| (*a, call_scope)));
            }
        }
        out
    }

    /// The names of `def`'s `*args` and `**kwargs` parameters.
    fn splat_params(&self, def: ScopeId) -> (Option<&'t str>, Option<&'t str>) {
        let (mut star, mut double_star) = (None, None);
        let Some(params) = crate::syntax::Field::field(&self.scopes[def].node, "parameters") else {
            return (None, None);
        };
        let mut cursor = params.walk();
        for p in params.named_children(&mut cursor) {
            let name = p.named_child(0).map(|n| text(n, self.src));
            match p.kind_name() {
                "list_splat_pattern" => star = name,
                "dictionary_splat_pattern" => double_star = name,
                _ => {}
            }
        }
        (star, double_star)
    }

    /// Whether `call`'s only argument of kind `splat` (`list_splat`,
    /// `dictionary_splat`) is `*name` / `**name`.
    fn only_splat_of(&self, call: Node<'t>, splat: &str, name: &str) -> bool {
        let Some(list) = call.field("arguments") else {
            return false;
        };
        let mut cursor = list.walk();
        let children: Vec<Node<'t>> = list.named_children(&mut cursor).collect();
        // The specs are the splat's alone: no positional beside it.
        if splat == "list_splat"
            && children.iter().any(|a| {
                !matches!(
                    a.kind_name(),
                    "list_splat" | "keyword_argument" | "dictionary_splat" | "comment"
                )
            })
        {
            return false;
        }
        let splats: Vec<&Node<'t>> = children.iter().filter(|a| a.kind_name() == splat).collect();
        matches!(&splats[..], [one] if one.named_child(0).is_some_and(|n| n.kind_name() == "identifier" && text(n, self.src) == name))
    }

    /// The function scope (this one or an enclosing one) whose `*name`
    /// parameter binds `name`.
    fn enclosing_def_with_star(&self, scope: ScopeId, name: &str) -> Option<ScopeId> {
        let mut current = Some(scope);
        while let Some(id) = current {
            let s = &self.scopes[id];
            if s.kind == super::ScopeKind::Function {
                let params = crate::syntax::Field::field(&s.node, "parameters")?;
                let mut cursor = params.walk();
                let has = params.named_children(&mut cursor).any(|p| {
                    p.kind_name() == "list_splat_pattern"
                        && p.named_child(0).is_some_and(|n| text(n, self.src) == name)
                });
                return has.then_some(id);
            }
            current = s.parent;
        }
        None
    }
}

/// Array constructors that run eagerly (and so need devices) outside a trace.
const EAGER_OPS: &[&str] = &[
    "zeros",
    "ones",
    "full",
    "empty",
    "arange",
    "linspace",
    "eye",
    "identity",
    "array",
    "asarray",
    "zeros_like",
    "ones_like",
    "full_like",
    "empty_like",
];

impl<'t> Module<'t> {
    /// Eager array constructors among the sites of rule `rule` inside
    /// `with use_abstract_mesh(am):` where `am` has an Explicit axis and no
    /// abstract device (E3 from `apply_primitive`).
    pub fn eager_ops_under_abstract_mesh(&self, rule: usize) -> Vec<(Node<'t>, ContextMesh)> {
        let mut out = Vec::new();
        if self.with_items.is_empty() {
            return out;
        }
        let mut traced: Option<std::collections::HashSet<ScopeId>> = None;
        for site in self.sites_named(rule, &self.callee_names(EAGER_OPS)) {
            let Some(callee) = self.callee(site.node, site.scope) else {
                continue;
            };
            let Some(op) = callee.strip_prefix("jax.numpy.") else {
                continue;
            };
            if !EAGER_OPS.contains(&op) {
                continue;
            }
            let context = self.eager_context(
                site.node,
                site.scope,
                0,
                &mut std::collections::HashSet::new(),
            );
            let ContextMesh::Abstract(info) = &context else {
                continue;
            };
            // Eager dispatch does not take the platform from an abstract
            // device (only `Traced.lower` does): any Explicit axis raises.
            if !info.has_explicit_axis {
                continue;
            }
            let traced = traced.get_or_insert_with(|| self.traced_scopes());
            if traced.contains(&site.scope)
                || self.may_have_outer_concrete_mesh(site.node, site.scope)
            {
                continue;
            }
            out.push((site.node, context));
        }
        out
    }

    /// Whether `node` is a name bound to the result of a call that does not
    /// make a function (`state = init_state(shapes)`).
    fn is_call_result(&self, node: Node<'t>, scope: ScopeId) -> bool {
        if node.kind_name() != "identifier" {
            return false;
        }
        match self.binding_at(scope, text(node, self.src), node) {
            Some(super::Binding::Value { value, scope, .. }) => {
                let value = unparenthesize(*value);
                value.kind_name() == "call"
                    && !self
                        .callee(value, *scope)
                        .is_some_and(|c| super::reach::makes_a_function(&c))
            }
            _ => false,
        }
    }

    /// The context mesh an eager operation at `node` runs under: an enclosing
    /// `with` in its scope, else, in a function, the context at any direct
    /// call of it (each call runs it: one under an abstract mesh is enough),
    /// a few calls deep. `adam_init(shapes)` under `use_abstract_mesh`, whose
    /// helper calls `jnp.zeros`, dispatches `zeros` under that mesh.
    fn eager_context(
        &self,
        node: Node<'t>,
        scope: ScopeId,
        depth: u32,
        seen: &mut std::collections::HashSet<ScopeId>,
    ) -> ContextMesh {
        let meshes = self.context_meshes(node, scope);
        // A mesh that certainly runs (one element of a loop over meshes) is
        // enough: the operation dispatches under it.
        let certain_abstract = meshes
            .iter()
            .find(|(mesh, why, _)| matches!(mesh, ContextMesh::Abstract(_)) && why.certain());
        if let Some((mesh, _, _)) = certain_abstract {
            return mesh.clone();
        }
        let here = join_contexts(meshes);
        if here != ContextMesh::None || depth > 3 {
            return here;
        }
        // Each function's callers are looked at once per question.
        let Some(def) = self.function_scope(scope).filter(|def| seen.insert(*def)) else {
            return here;
        };
        // A wrapping decorator's call of it runs it too, inside the
        // wrapper's contexts.
        let wrapped = self.wrapper_call_of(def);
        let direct = self.def_call_sites(def);
        let calls = wrapped.into_iter().chain(
            direct
                .iter()
                .filter(|site| matches!(site.kind, super::flow::SiteKind::Direct { .. }))
                .map(|site| (site.call, site.scope)),
        );
        for (call, call_scope) in calls {
            if self.may_have_outer_concrete_mesh(call, call_scope) {
                continue;
            }
            let found = self.eager_context(call, call_scope, depth + 1, seen);
            if matches!(found, ContextMesh::Abstract(_)) {
                return found;
            }
        }
        here
    }

    /// True if a concrete mesh may be set around `node`: an enclosing `with` in
    /// its scope sets one, or an enclosing def or class has a decorator naming a
    /// mesh (`@jtu.with_explicit_mesh(...)`), which sets one for the whole call.
    fn may_have_outer_concrete_mesh(&self, node: Node<'t>, scope: ScopeId) -> bool {
        // Only a `with` item sets one (and most models have none).
        let ancestors = if self.with_items.is_empty() {
            Vec::new()
        } else {
            crate::syntax::ancestors_below(node, self.scopes[scope].node)
        };
        for parent in ancestors {
            if parent.kind_name() == "with_statement" {
                // A concrete mesh, or only meshes not known; not a loop
                // over meshes of which one is an abstract mesh that runs.
                let concrete = self.with_items.iter().any(|(item, item_scope)| {
                    item.start_byte() >= parent.start_byte()
                        && item.end_byte() <= parent.end_byte()
                        && self
                            .with_item_meshes(*item, *item_scope)
                            .is_some_and(|meshes| {
                                meshes.iter().any(|(m, _, _)| *m == ContextMesh::Concrete)
                                    || meshes.iter().all(|(m, _, _)| *m == ContextMesh::Unknown)
                            })
                });
                if concrete {
                    return true;
                }
            }
        }
        let mut scope = Some(scope);
        while let Some(id) = scope {
            if self.scopes[id]
                .decorators()
                .iter()
                .any(|d| text(*d, self.src).contains("mesh"))
            {
                return true;
            }
            scope = self.scopes[id].parent;
        }
        false
    }

    /// Scopes that may run under a JAX trace: jitted defs, functions passed to
    /// any `jax.*` API (jit, vmap, lax control flow, ...), and what they reach.
    fn traced_scopes(&self) -> std::collections::HashSet<ScopeId> {
        let mut seeds = Vec::new();
        for (id, _) in self.scopes.iter().enumerate() {
            if self.jitted_def(id).is_some() {
                seeds.push(Target::Local(id));
            }
        }
        for site in &self.calls {
            let Some(callee) = self
                .callee(site.node, site.scope)
                .filter(|c| c.starts_with("jax."))
            else {
                continue;
            };
            // `jax.jit(make_step(cfg))` traces what the factory returns; but
            // APIs that only walk or move data (`jax.tree.map(f, state)` with
            // `state = init(shapes)`, `jax.device_put(state)`) do not trace a
            // name bound to a call's result, nor run it.
            let data_api = callee.starts_with("jax.tree")
                || matches!(
                    callee.as_str(),
                    "jax.device_put" | "jax.device_get" | "jax.block_until_ready"
                );
            let args = self.args_of(site.node);
            for arg in args
                .positional
                .iter()
                .chain(args.keywords.iter().map(|(_, v, _)| v))
            {
                if data_api && self.is_call_result(*arg, site.scope) {
                    continue;
                }
                seeds.extend(self.resolve_ref(*arg, site.scope, 0));
            }
        }
        let mut seen = std::collections::HashSet::new();
        while let Some(target) = seeds.pop() {
            let local = match target {
                Target::Local(id) | Target::Bound(id, _) | Target::OnObject(id, ..) => Some(id),
                Target::SelfMethod(class, ref name) => self.method(class, name),
                Target::External(_) => None,
            };
            if let Some(id) = local {
                if seen.insert(id) {
                    seeds.extend(self.facts_of(id).edges.iter().map(|e| e.target.clone()));
                    // Nested defs and lambdas run inside their parent's trace.
                    seeds.extend(
                        self.scopes
                            .iter()
                            .enumerate()
                            .filter(|(_, s)| {
                                s.parent == Some(id) && s.kind != super::ScopeKind::Class
                            })
                            .map(|(child, _)| Target::Local(child)),
                    );
                }
            }
        }
        seen
    }
}

impl<'t> Lowering<'t> {
    /// The platform names given literally, each with the node to point at:
    /// the string itself inside a tuple/list literal, else the argument.
    pub fn platform_literals(&self, src: &str) -> Vec<(String, Node<'t>)> {
        let Some((_, value)) = self.platforms_arg else {
            // Passed with `**` from entries written elsewhere: the names,
            // at the unpacking.
            let splat = Args::first_dict_splat(self.call);
            return match splat {
                Some(splat) => self
                    .platforms
                    .platforms()
                    .unwrap_or_default()
                    .iter()
                    .map(|p| (p.clone(), splat))
                    .collect(),
                None => Vec::new(),
            };
        };
        let inner = unparenthesize(value);
        if matches!(inner.kind_name(), "tuple" | "list") {
            let mut cursor = inner.walk();
            let items: Vec<Node<'t>> = inner
                .named_children(&mut cursor)
                .filter(|c| c.kind_name() != "comment")
                .collect();
            let names = self.platforms.platforms().unwrap_or_default();
            if names.len() == items.len() {
                return names.iter().cloned().zip(items).collect();
            }
            return items
                .into_iter()
                .filter_map(|item| crate::syntax::string_value(item, src).map(|s| (s, item)))
                .collect();
        }
        self.platforms
            .platforms()
            .unwrap_or_default()
            .iter()
            .map(|p| (p.clone(), value))
            .collect()
    }

    /// Every platform JAX lowers for, including a bare string's characters
    /// (for rules about multi-platform lowering).
    pub fn lowered_platforms(&self) -> Option<Vec<String>> {
        match &self.platforms {
            PlatformsValue::Str(s) | PlatformsValue::Split(s)
                if self.kind != LoweringKind::JitLower =>
            {
                Some(s.chars().map(String::from).collect())
            }
            _ => self.platforms(),
        }
    }
}

impl<'t> Module<'t> {
    /// `.compile(...)` calls on a lowering's result: `....lower(...).compile()`
    /// or `lowered = ....lower(...)` then `lowered.compile()`, among the
    /// sites of rule `rule`. Returns the lowering's index and the compile
    /// call.
    pub fn compile_calls(&self, lowerings: &[Lowering<'t>], rule: usize) -> Vec<(usize, Node<'t>)> {
        let mut out = Vec::new();
        if lowerings.is_empty() {
            return out;
        }
        for site in self.sites_named(rule, &self.callee_names(&["compile"])) {
            let Some(func) = site.node.field("function") else {
                continue;
            };
            if func.kind_name() != "attribute"
                || func.field("attribute").map(|a| text(a, self.src)) != Some("compile")
            {
                continue;
            }
            let Some(receiver) = func.field("object").map(unparenthesize) else {
                continue;
            };
            let target = match receiver.kind_name() {
                "call" => Some(receiver),
                "identifier" => {
                    match self.binding_at(site.scope, text(receiver, self.src), receiver) {
                        Some(Binding::Value { value, .. }) => Some(unparenthesize(*value)),
                        _ => None,
                    }
                }
                _ => None,
            };
            let Some(target) = target else { continue };
            // `lowered = self.lower(...)` where the method returns the lowering.
            let returned: Vec<Node<'t>> = match self.local_returns(target, site.scope) {
                Some((_, values)) if lowerings.iter().all(|l| l.call.id() != target.id()) => {
                    values.iter().map(|v| unparenthesize(*v)).collect()
                }
                _ => vec![target],
            };
            if let Some(index) = lowerings
                .iter()
                .position(|l| returned.iter().any(|t| l.call.id() == t.id()))
            {
                out.push((index, site.node));
                continue;
            }
            // Through helpers the syntax does not follow: the lowerings the
            // value flow says the receiver is, when they agree on how many
            // platforms they lower for (which caller's scenario it is, the
            // flow does not keep).
            let alts = self.flow_with_budget(200).eval(receiver, site.scope);
            let mut matching = Vec::new();
            for alt in &alts {
                let flow::Val::Lowered(call) = alt.val else {
                    matching.clear();
                    break;
                };
                matching.extend(
                    lowerings
                        .iter()
                        .enumerate()
                        .filter(|(_, l)| l.call.id() == call.id())
                        .map(|(i, l)| (i, l.lowered_platforms().map(|p| p.len()))),
                );
            }
            if let Some(&(first, count)) = matching.first() {
                if matching.iter().all(|(_, c)| *c == count) {
                    out.push((first, site.node));
                }
            }
        }
        out
    }
}

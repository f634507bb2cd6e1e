//! Per-module summaries for analysis across files: for each top-level name,
//! what calling it reaches. Summaries hold no syntax trees, so an index of a
//! whole workspace stays small, and they are computed from one module alone
//! (imports stay as names), so computing one never waits on another.

use super::flow::{Const, ConstAlt};
use super::reach::{Guard, Requirement, Target};
use super::{Binding, Module, ScopeId, ScopeKind, MODULE_SCOPE};
use crate::syntax::text;
use crate::syntax::Field;
use crate::syntax::KindName;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tree_sitter::Node;

#[derive(Debug, Default)]
pub struct FunctionSummary {
    pub reqs: Vec<Requirement>,
    /// Imported names this function reaches, relative to the module's file.
    pub externals: Vec<(String, Vec<Guard>)>,
    /// For an answer to one call (`Module::reach_for_call`): the calls it
    /// makes of other modules' functions, with the values that call gave
    /// them (`controller.step(x)` on the object its caller passed), for the
    /// caller's reach to ask those modules in turn. Empty in a summary.
    pub calls: Vec<(String, ForeignCall)>,
}

#[derive(Debug)]
pub struct ModuleSummary {
    pub file: Arc<Path>,
    pub functions: HashMap<String, FunctionSummary>,
    /// Values of module-level names (`PLATFORMS = ("tpu",)`, a config
    /// object's fields), for the modules that import them.
    pub constants: HashMap<String, Vec<ConstAlt>>,
    /// What module-level functions return, where it is known whatever the
    /// arguments (a mesh, a sharding, params of a backend).
    pub returns: HashMap<String, Vec<ConstAlt>>,
    /// What a module-level function returns for each key of a module-level
    /// table it is given (`get_topology("v5e-8")`, a registry read with its
    /// parameter): (key, values), for the keys whose result is known.
    pub keyed_returns: HashMap<String, Vec<(String, Vec<ConstAlt>)>>,
    /// Names this module imports at module level, by the path imported
    /// (`from .configs import KernelConfig` in a package's `__init__.py`):
    /// constants and returns are looked up through them.
    pub reexports: HashMap<String, String>,
    /// Module-level functions that store into a module-level dict of this
    /// module (`_RULES[op] = rule`), in their body or in a def they return
    /// (a registering decorator): calling one from another module registers
    /// something (`Resolver::call_stores`).
    pub registrars: std::collections::HashSet<String>,
    /// Module-level functions and classes whose call (or, for a class or a
    /// `@contextmanager`, entering it in a `with`) sets this module's state:
    /// a global, an attribute of a module-level object (`overlay.rs`), with
    /// the names at the root of what they may set. An importer that calls
    /// one before a lowering passes what it set (`Resolver::call_state`).
    pub state_writers: HashMap<String, Vec<String>>,
    /// Module-level functions whose body calls `jax.set_mesh`: an importer
    /// asks whether its call gives it an AbstractMesh
    /// (`Resolver::call_set_mesh_abstract`, JP009).
    pub mesh_setters: std::collections::HashSet<String>,
    /// Methods (`Class.method`) that store each keyword of their call on
    /// `self` (`set(**kw)` with `setattr`, `Module::keyword_setters`): an
    /// importer's `cfg.set(platforms=p)` stores `cfg.platforms`.
    pub keyword_setters: std::collections::HashSet<String>,
    /// The arguments of the argparse parsers this module makes, each with
    /// its default (`Module::argparse_arguments`): an importer parsing a
    /// parser a function of this module returns reads them.
    pub arguments: Vec<(String, Vec<ConstAlt>)>,
}

/// Gives the parsers (and parsed namespaces) a summary's model made, which
/// it could not name (`Flow::detach_one`), the file `own`.
fn name_own_parsers(alts: &mut [ConstAlt], own: &str) {
    for alt in alts {
        match &mut alt.val {
            Const::ArgParser(file) | Const::ArgNamespace(file) if file.is_empty() => {
                *file = own.to_owned();
            }
            Const::Seq(_, items) => {
                for item in items {
                    if let Const::ArgParser(file) | Const::ArgNamespace(file) = item {
                        if file.is_empty() {
                            *file = own.to_owned();
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

impl FunctionSummary {
    /// What `reached` (from a function of module `file`) holds, for importers.
    fn of(reached: super::reach::Reached, file: &Arc<Path>) -> FunctionSummary {
        FunctionSummary {
            reqs: reached
                .reqs
                .into_iter()
                .map(|mut r| {
                    r.file = Some(file.clone());
                    r
                })
                .collect(),
            externals: reached
                .externals
                .into_iter()
                .map(|(p, g, _)| (p, g))
                .collect(),
            calls: Vec::new(),
        }
    }
}

impl ModuleSummary {
    /// A summary of `file` that knows nothing yet.
    pub fn empty(file: Arc<Path>) -> ModuleSummary {
        ModuleSummary {
            file,
            functions: HashMap::new(),
            constants: HashMap::new(),
            returns: HashMap::new(),
            keyed_returns: HashMap::new(),
            reexports: HashMap::new(),
            registrars: Default::default(),
            state_writers: HashMap::new(),
            mesh_setters: Default::default(),
            keyword_setters: Default::default(),
            arguments: Vec::new(),
        }
    }

    /// `OBJ.method` where module-level `OBJ` is an object of one class of
    /// this module (`DEFAULT = Meter()`): `Meter.method` (what a call of it
    /// reaches is computed per call, with the object as receiver).
    pub fn method_of_object(&self, name: &str) -> Option<String> {
        let (object, method) = name.split_once('.')?;
        let alts = self.constants.get(object)?;
        let mut classes = alts.iter().map(|a| match &a.val {
            super::flow::Const::Object(fields) => super::flow::object_class(fields),
            _ => None,
        });
        let class = classes.next()??;
        if !classes.all(|c| c == Some(class)) || class.contains('.') {
            return None;
        }
        Some(format!("{class}.{method}"))
    }

    pub fn build(module: &Module<'_>, file: &Path) -> ModuleSummary {
        let mut functions = HashMap::new();
        let file: Arc<Path> = Arc::from(file);
        let names: Vec<(String, Binding<'_>)> = module
            .module_bindings()
            .filter_map(|(name, bindings)| bindings.last().map(|b| (name.to_owned(), b.clone())))
            .collect();
        let mut constants = HashMap::new();
        let mut returns = HashMap::new();
        let mut keyed_returns = HashMap::new();
        let mut reexports = HashMap::new();
        for (name, binding) in names {
            if let Binding::Import(path) = &binding {
                reexports.insert(name.clone(), path.clone());
            }
            // A module-level value's alternatives: its constant, and the
            // functions a host picks (seeds below).
            let mut value_alts = Vec::new();
            if let Binding::Value { value, scope, .. } = &binding {
                let flow = module.flow();
                value_alts = flow.eval(*value, *scope);
                if value_alts.iter().any(|a| !a.val.is_unknown()) {
                    constants.insert(name.clone(), flow.detach(&value_alts, 0));
                }
            }
            if let Binding::Def(id) = &binding {
                // Functions, and the methods of classes (`Class.method`).
                let mut defs = vec![(name.clone(), *id)];
                if module.scopes[*id].kind == ScopeKind::Class {
                    defs.extend(
                        module
                            .scopes
                            .iter()
                            .enumerate()
                            .filter(|(_, s)| s.class == Some(*id))
                            .map(|(m, s)| (format!("{name}.{}", s.name), m)),
                    );
                }
                for (key, def) in defs {
                    if let Some(alts) = known_returns(module, def) {
                        returns.insert(key, alts);
                    } else if module.scopes[def].class.is_none() {
                        let table = keyed_returns_of(module, def);
                        if !table.is_empty() {
                            keyed_returns.insert(key, table);
                        }
                    }
                }
                // `Class.NAME` read by an importer: its class-body constants.
                if module.scopes[*id].kind == ScopeKind::Class {
                    let qualified = format!("{}::{name}", file.display());
                    for (attr, alts) in module.flow().class_constants(*id, &qualified) {
                        constants.insert(format!("{name}.{attr}"), alts);
                    }
                }
                // A class called: an object of its fields' defaults (the
                // caller's keywords replace them; see `flow`).
                // Only dataclass-like classes: their fields' defaults are
                // what a constructor call without those keywords gives.
                if module.scopes[*id].kind == ScopeKind::Class
                    && module.is_dataclass_like(*id)
                    && module.method(*id, "__init__").is_none()
                {
                    let flow = module.flow();
                    let instance = vec![super::flow::Alt::fixed(super::flow::Val::Instance(
                        *id, None,
                    ))];
                    let object = flow.detach(&instance, 0);
                    let has_fields = matches!(
                        object.first().map(|a| &a.val),
                        Some(super::flow::Const::Object(fields)) if !fields.is_empty()
                    );
                    if has_fields {
                        returns.insert(name.clone(), object);
                    }
                }
            }
            let unguarded = |targets: Vec<Target>| -> Vec<(Target, Vec<Guard>)> {
                targets.into_iter().map(|t| (t, Vec::new())).collect()
            };
            let seeds: Vec<(Target, Vec<Guard>)> = match &binding {
                Binding::Def(id) if module.scopes[*id].kind == ScopeKind::Class => unguarded(
                    ["__call__", "__init__"]
                        .iter()
                        .filter_map(|m| module.method(*id, m))
                        .map(Target::Local)
                        .collect(),
                ),
                Binding::Def(id) => unguarded(vec![Target::Local(*id)]),
                Binding::Value { value, scope, .. } => {
                    let mut seeds = unguarded(module.value_targets(*value, *scope, 0));
                    // A function the host picks (`SOLVERS[jax.default_backend()]`):
                    // what it reaches, on those hosts.
                    for alt in &value_alts {
                        let super::flow::Why::Host(hosts) = &alt.why else {
                            continue;
                        };
                        for (target, _) in module.alt_targets(alt) {
                            seeds.push((target, vec![Guard::HostDependent(Some(hosts.clone()))]));
                        }
                    }
                    seeds
                }
                // Re-exports (`from .kernels import matmul` in `__init__.py`).
                Binding::Import(path) => unguarded(vec![Target::External(path.clone())]),
                _ => continue,
            };
            let mut entries = vec![(name.clone(), seeds)];
            // A class's methods too (`Class.method`): an importer may pass
            // one of an object on as a value (`jax.jit(env.step)`).
            if let Binding::Def(id) = &binding {
                if module.scopes[*id].kind == ScopeKind::Class {
                    entries.extend(
                        module
                            .scopes
                            .iter()
                            .enumerate()
                            .filter(|(_, s)| s.class == Some(*id) && s.kind == ScopeKind::Function)
                            .map(|(m, s)| {
                                (
                                    format!("{name}.{}", s.name),
                                    vec![(Target::Bound(m, *id), Vec::new())],
                                )
                            }),
                    );
                }
            }
            for (key, seeds) in entries {
                if seeds.is_empty() || functions.contains_key(&key) {
                    continue;
                }
                let reached = module.reach_local(seeds);
                if reached.reqs.is_empty() && reached.externals.is_empty() {
                    continue;
                }
                functions.insert(key, FunctionSummary::of(reached, &file));
            }
        }
        let registrars = module
            .module_bindings()
            .filter_map(|(name, bindings)| match bindings.last() {
                Some(Binding::Def(id))
                    if module.scopes[*id].kind == ScopeKind::Function
                        && module
                            .registering_scopes(*id)
                            .iter()
                            .any(|s| !module.module_dict_stores(*s).is_empty()) =>
                {
                    Some(name.to_owned())
                }
                _ => None,
            })
            .collect();
        let state_writers = module.state_writer_roots();
        // By the class an importer calls it on: one a class inherits from
        // a base of this module counts for it too (`SpmdTrainerConfig.set`
        // of `ConfigBase.set`).
        let setters = module.keyword_setters();
        let keyword_setters = if setters.methods.is_empty() {
            Default::default()
        } else {
            module
                .module_bindings()
                .filter_map(|(_, bindings)| match bindings.last() {
                    Some(Binding::Def(id)) if module.scopes[*id].kind == ScopeKind::Class => {
                        Some(*id)
                    }
                    _ => None,
                })
                .flat_map(|class| {
                    setters.names.iter().filter_map(move |name| {
                        let method = module.method(class, name)?;
                        if !setters.methods.contains(&method) {
                            return None;
                        }
                        let class_name = module.module_def_name(class)?;
                        Some(format!("{class_name}.{name}"))
                    })
                })
                .collect()
        };
        // (Every summary is built: the callee of each call is resolved only
        // in a module whose text names `set_mesh`.)
        let names_set_mesh = module.src.contains("set_mesh");
        let mesh_setters = module
            .module_bindings()
            .filter(|_| names_set_mesh)
            .filter_map(|(name, bindings)| match bindings.last() {
                Some(Binding::Def(id))
                    if module.scopes[*id].kind == ScopeKind::Function
                        && !module.set_mesh_calls_in(*id).is_empty() =>
                {
                    Some(name.to_owned())
                }
                _ => None,
            })
            .collect();
        let arguments = if module.has_argparse_arguments() {
            let place = file.file_name().map(|n| n.to_string_lossy().into_owned());
            module.argparse_arguments(place.as_deref())
        } else {
            Vec::new()
        };
        // A parser made here (and what it parsed) is this file's.
        let own = file.to_string_lossy().into_owned();
        for alts in constants.values_mut().chain(returns.values_mut()) {
            name_own_parsers(alts, &own);
        }
        ModuleSummary {
            arguments,
            file,
            functions,
            constants,
            returns,
            keyed_returns,
            reexports,
            registrars,
            state_writers,
            mesh_setters,
            keyword_setters,
        }
    }
}

impl Module<'_> {
    /// What the function a `local_ref` of this module names reaches (a
    /// closure this module's factory made for the choices it names), as a
    /// summary entry; `None` if it names no function of this module.
    pub fn local_ref_function(&self, path: &str, file: &Path) -> Option<FunctionSummary> {
        let (target, made_on) = self.local_target(path)?;
        let reached = self.reach_local_for(vec![(target, Vec::new())], &made_on, None, &[]);
        Some(FunctionSummary::of(reached, &Arc::from(file)))
    }
}

impl<'t> Module<'t> {
    /// What entering the object another module's call of `name` makes sets
    /// (`Resolver::call_context_mesh`): for a `@contextmanager` or a helper
    /// returning a context manager, evaluated with its parameters bound to
    /// the call's values for the whole model (a fresh one answers each call);
    /// for a class, what its `__enter__` enters.
    pub fn context_mesh_for_call(
        &self,
        name: &str,
        call: &ForeignCall,
        as_decorator: bool,
    ) -> Option<super::lowering::ContextMesh> {
        let def = self.answered_def(name, call)?;
        match self.scopes[def].kind {
            ScopeKind::Class => self.entered_mesh_of_class(def, as_decorator, None),
            ScopeKind::Function => {
                self.answer_call_of(def, call, false)?;
                self.def_context_mesh(def, as_decorator)
            }
            _ => None,
        }
    }

    /// Whether another module's call of function `name` gives the
    /// `jax.set_mesh` in its body an AbstractMesh
    /// (`Resolver::call_set_mesh_abstract`): evaluated with its parameters
    /// bound to the call's values; as `set_mesh_given_abstract`.
    pub fn set_mesh_abstract_for_call(
        &self,
        name: &str,
        call: &ForeignCall,
    ) -> Option<Option<String>> {
        let def = self.answered_def(name, call)?;
        if self.scopes[def].kind != ScopeKind::Function {
            return None;
        }
        self.answer_call_of(def, call, false)?;
        let own = self
            .set_mesh_calls_in(def)
            .into_iter()
            .find_map(|site| self.set_mesh_given_abstract(site, def));
        if own.is_some() {
            return own;
        }
        // A call of another module's setter in its body (`with
        // activated(mesh, verbose=True): yield`), asked of that module
        // with the values bound here (when this model follows imports).
        self.imported_helper_calls()
            .into_iter()
            .filter(|site| self.scope_within(site.scope, def))
            .find_map(|site| {
                self.foreign_set_mesh_abstract(site.node, site.scope)
                    .map(|(_, note)| note)
            })
    }

    /// The module-level def or class `name` that another module's `call`
    /// calls, the call accepted (`accept_call`: what it registered and set
    /// holds here).
    pub(crate) fn answered_def(&self, name: &str, call: &ForeignCall) -> Option<ScopeId> {
        self.accept_call(call);
        match self.lookup(MODULE_SCOPE, name).and_then(|b| b.last()) {
            Some(Binding::Def(def)) => Some(*def),
            _ => None,
        }
    }

    /// The function another module's `call` of `name` runs: a module-level
    /// def, or a method (`Class.method`, called on an object of the class),
    /// with whether it takes a receiver and the receiver: the call's object
    /// when it is one known object, else unknown (`cls` for a classmethod).
    pub(crate) fn answered_function(
        &self,
        name: &str,
        call: &ForeignCall,
    ) -> Option<(ScopeId, bool, Option<super::flow::Alt<'t>>)> {
        use super::flow::{from_consts, Alt, Val};
        let (head, method) = match name.split_once('.') {
            Some((class, method)) => (class, Some(method)),
            None => (name, None),
        };
        let id = self.answered_def(head, call)?;
        let Some(method) = method else {
            return (self.scopes[id].kind == ScopeKind::Function).then_some((id, false, None));
        };
        if self.scopes[id].kind != ScopeKind::Class {
            return None;
        }
        let def = self.method(id, method)?;
        if self.is_static_method(def) {
            return Some((def, false, None));
        }
        let receiver = if self.is_class_method(def) {
            Alt::fixed(Val::Class(id))
        } else {
            match call.receiver.as_deref().map(from_consts).as_deref() {
                Some([one]) => one.clone(),
                _ => Alt::fixed(Val::Unknown),
            }
        };
        Some((def, true, Some(receiver)))
    }

    /// Makes this model answer `call` of function `def` from another
    /// module: its parameters bound to the call's values in every
    /// evaluation from now on (`Module::answering`). Right only because the
    /// resolver reads a fresh model for each answer. The values bound;
    /// `None` when the call passes more than `def` takes.
    fn answer_call_of(
        &self,
        def: ScopeId,
        call: &ForeignCall,
        takes_receiver: bool,
    ) -> Option<Vec<Vec<super::flow::Alt<'t>>>> {
        let given = {
            let flow = self.flow();
            self.bind_call(&flow, def, takes_receiver, call)?
        };
        self.answering.replace(Some((def, given.clone())));
        Some(given)
    }

    /// `local_ref_function` for a token made while another module's call
    /// of function `name` was evaluated (`Module::call_tag`): the closure's
    /// calls of what that call passed (`fn(*args)` in the `step` a
    /// `make_steps(train_step)` returns in a tuple) reach it.
    pub fn local_ref_function_for_call(
        &self,
        path: &str,
        file: &Path,
        name: &str,
        call: &ForeignCall,
    ) -> Option<FunctionSummary> {
        let (target, made_on) = self.local_target(path)?;
        // `Class.method` called on an object (`runner.predict_fn()`): the
        // closure it returns reads the object as `self`.
        let (head, method) = match name.split_once('.') {
            Some((class, method)) => (class, Some(method)),
            None => (name, None),
        };
        let Some(Binding::Def(named)) = self.lookup(MODULE_SCOPE, head).and_then(|b| b.last())
        else {
            return self.local_ref_function(path, file);
        };
        let (def, class) = match (method, self.scopes[*named].kind) {
            (None, ScopeKind::Function) => (*named, None),
            (Some(method), ScopeKind::Class) => match self.method(*named, method) {
                Some(def) => (def, Some(*named)),
                None => return self.local_ref_function(path, file),
            },
            _ => return self.local_ref_function(path, file),
        };
        let on_object =
            class.is_some() && !self.is_static_method(def) && !self.is_class_method(def);
        let receiver = match (&call.receiver, on_object) {
            (Some(r), true) => match super::flow::from_consts(r).as_slice() {
                [one] if !one.val.is_unknown() => Some(one.clone()),
                _ => None,
            },
            _ => None,
        };
        if class.is_some() && receiver.is_none() {
            return self.local_ref_function(path, file);
        }
        // Every evaluation sees the call's values, the value flow's indexes
        // too (`BUILDERS[format](fn)` called with the call's `format` is a
        // call site of the builder it names).
        let Some(given) = self.answer_call_of(def, call, receiver.is_some()) else {
            return self.local_ref_function(path, file);
        };
        let mut decided = self.call_branches(def, &given, receiver.clone());
        // The closure (or the method) then runs on the object: its calls
        // of `self.m()` too (`reach::FOREIGN_OBJECT`).
        let target = match (target, class, receiver) {
            (Target::Local(id), Some(class), Some(object))
                if self.enclosing_method(id) == Some(def) =>
            {
                self.run_on_foreign_object(id, class, object, def, given.clone())
            }
            (target, ..) => target,
        };
        // A closure of a function the called one calls (`make_steps` calling
        // `make_step_pair(fn)`): its calls too, with the call's values.
        if let Target::Local(closure) = target {
            if !self.scope_within(closure, def) {
                let edges = self.call_edges_within(def, &given, None, &decided.dead, &[closure]);
                decided.edges.extend(edges);
            }
        }
        let reached =
            self.reach_local_for(vec![(target, Vec::new())], &made_on, Some(&decided), &[]);
        Some(FunctionSummary::of(reached, &Arc::from(file)))
    }
}

/// What a function returns, when it is a kind of value that does not hang
/// on its arguments (a mesh, a sharding, a spec, params of a backend).
fn known_returns(module: &Module<'_>, def: usize) -> Option<Vec<ConstAlt>> {
    use super::flow::Why;
    let scope = &module.scopes[def];
    if scope.kind != ScopeKind::Function || scope.returned.is_empty() {
        return None;
    }
    // A method that reads its receiver returns what the object holds: not
    // known whatever the arguments (a call of it is evaluated with the
    // object, `Module::returns_for_call`).
    if scope.class.is_some() && !module.is_static_method(def) {
        let receiver = scope.params().first().map(|(n, _)| n.as_str());
        let body = scope
            .node
            .field("body")
            .map(|b| &module.src[b.byte_range()]);
        if let (Some(receiver), Some(body)) = (receiver, body) {
            if mentions_word(body, receiver) {
                return None;
            }
        }
    }
    let flow = module.flow();
    let several = scope.returned.len() > 1;
    let mut alts = Vec::new();
    for value in &scope.returned {
        alts.extend(flow.eval(*value, def).into_iter().map(|mut a| {
            if several {
                a.why = Why::Choice;
            }
            a
        }));
    }
    if alts.is_empty() || alts.iter().any(|a| a.val.is_unknown()) {
        return None;
    }
    // Whatever the arguments: values that hold no parameter of the call.
    let detached = flow.detach(&alts, 0);
    detached
        .iter()
        .all(|a| a.val.is_plain_known())
        .then_some(detached)
}

/// `keyed_returns`: the function's returns with its first parameter given
/// each string key of the module-level dict displays its body names (at
/// most 64 keys); the keys whose every value is known.
fn keyed_returns_of(module: &Module<'_>, def: usize) -> Vec<(String, Vec<ConstAlt>)> {
    let scope = &module.scopes[def];
    if scope.kind != ScopeKind::Function || scope.returned.is_empty() || scope.params().is_empty() {
        return Vec::new();
    }
    let Some(body) = scope.node.field("body") else {
        return Vec::new();
    };
    let body_text = &module.src[body.byte_range()];
    let mut keys: Vec<String> = Vec::new();
    for (name, bindings) in module.module_bindings() {
        let [Binding::Value { value, .. }] = bindings else {
            continue;
        };
        if value.kind_name() != "dictionary" || !mentions_word(body_text, name) {
            continue;
        }
        let mut cursor = value.walk();
        for pair in value.named_children(&mut cursor) {
            let key = pair
                .field("key")
                .and_then(|k| crate::syntax::string_value(k, module.src));
            if let Some(key) = key {
                if keys.len() < 64 && !keys.contains(&key) {
                    keys.push(key);
                }
            }
        }
    }
    let flow = module.flow();
    let mut table = Vec::new();
    for key in keys {
        let alts = flow.returns_given(
            def,
            vec![vec![super::flow::Alt::fixed(super::flow::Val::Str(
                key.clone(),
            ))]],
        );
        if alts.is_empty() || alts.iter().any(|a| a.val.is_unknown()) {
            continue;
        }
        let detached = flow.detach(&alts, 0);
        if detached.iter().all(|a| !a.val.is_unknown()) {
            table.push((key, detached));
        }
    }
    table
}

/// `word` occurs in `text` as a whole identifier.
fn mentions_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

impl<'t> Module<'t> {
    /// A method read as an attribute: `@property`, `@functools.cached_property`.
    pub(crate) fn is_property(&self, method: usize) -> bool {
        self.scopes[method].decorators().iter().any(|d| {
            let name = crate::syntax::text(*d, self.src);
            name == "property" || name.ends_with("cached_property")
        })
    }

    /// The module-level name bound to `def` (a function or class defined at
    /// the top of the module, not rebound), for naming it to other modules.
    pub(crate) fn module_def_name(&self, def: usize) -> Option<&str> {
        let scope = self.scopes.get(def)?;
        if scope.parent != Some(MODULE_SCOPE) {
            return None;
        }
        let name = scope.name.as_str();
        match self.lookup(MODULE_SCOPE, name).and_then(|b| b.last()) {
            Some(Binding::Def(id)) if *id == def => Some(name),
            _ => None,
        }
    }

    pub(crate) fn module_bindings(&self) -> impl Iterator<Item = (&str, &[Binding<'t>])> {
        self.bindings
            .iter()
            .filter(|((scope, _), _)| *scope == MODULE_SCOPE)
            .map(|((_, name), b)| (name.as_str(), b.as_slice()))
    }
}

/// Finds the module an import names and its summary. Every question about
/// another module is required (no default answer): a wrapper such as the
/// server's recording resolver must pass each one on.
pub trait Resolver: Sync {
    /// For `path` as imported in `from_file` (`pkg.kernels.matmul`, or
    /// `.kernels.matmul` for a relative import): the defining module's summary
    /// and the name inside it.
    fn resolve(&self, from_file: &Path, path: &str) -> Option<(Arc<ModuleSummary>, String)>;

    /// `resolve`, and for a method (`pkg.mod.Class.method`) the module
    /// defining the class with the name `Class.method`.
    fn resolve_function(
        &self,
        from_file: &Path,
        path: &str,
    ) -> Option<(Arc<ModuleSummary>, String)> {
        let (summary, name) = self.resolve(from_file, path).or_else(|| {
            let (prefix, last) = path.rsplit_once('.')?;
            let (summary, class) = self.resolve(from_file, prefix)?;
            Some((summary, format!("{class}.{last}")))
        })?;
        // `DEFAULT.update` of a module-level object: its class's method.
        let name = match summary.functions.contains_key(&name) {
            true => name,
            false => summary.method_of_object(&name).unwrap_or(name),
        };
        Some((summary, name))
    }

    /// What function `path` (`pkg.mod.f`, `pkg.mod.Class.method`, as
    /// imported in `from_file`) returns for `call`, evaluated in its own
    /// module with its parameters bound. `None` when nothing is known.
    fn call_returns(
        &self,
        from_file: &Path,
        path: &str,
        call: &ForeignCall,
    ) -> Option<Vec<ConstAlt>>;

    /// The lowering helpers of other modules the module in `from_file`
    /// (text `text`) imports, as it names them in calls (`f`, `mod.f`):
    /// a statement calling one is analysed though the prefilter finds no
    /// needle in it.
    fn imported_lowering_helpers(&self, from_file: &Path, text: &str) -> Vec<String>;

    /// Whether function `path` (as imported in `from_file`) is one of its
    /// module's lowering helpers, by that module's text.
    fn is_lowering_helper(&self, from_file: &Path, path: &str) -> bool;

    /// What function `path` (as imported in `from_file`) reaches for
    /// `call`: its summary with its branches decided by the call's values
    /// (`Module::reach_for_call`), requirements in its own file. `None`
    /// when nothing better than the summary is known.
    fn call_reach(&self, from_file: &Path, path: &str, call: &ForeignCall) -> CallReach;

    /// The lowerings function `path` (as imported in `from_file`) makes
    /// for `call` (`Module::lowerings_for_call`). `None` when it makes none
    /// that the call decides.
    fn call_lowerings(&self, from_file: &Path, path: &str, call: &ForeignCall) -> CallLowerings;

    /// What calling function or class `path` (as imported in `from_file`)
    /// sets of its module's state, or entering what the call makes with
    /// `entering` (`Module::state_for_call`).
    fn call_state(
        &self,
        from_file: &Path,
        path: &str,
        call: &ForeignCall,
        entering: bool,
    ) -> Arc<Vec<StateSet>>;

    /// The module-level context managers of module file `file` that set
    /// the state of another module when entered (`with targeting(...):
    /// yield` around another module's manager,
    /// `Module::foreign_state_managers`): they write state as that
    /// module's managers do, though `ModuleSummary::state_writers` (its own
    /// state) does not list them.
    fn chained_state_managers(&self, _file: &Path) -> Arc<Vec<String>> {
        Arc::default()
    }

    /// The summary of the module of `file` (a parser that module made
    /// reached this one as a value: `Val::ArgParser`).
    fn summary_of(&self, _file: &Path) -> Option<Arc<ModuleSummary>> {
        None
    }

    /// The mesh entering what a call of function or class `path` (as
    /// imported in `from_file`) makes sets (`Module::context_mesh_for_call`):
    /// another module's `@contextmanager` or context-manager class; with
    /// `as_decorator`, the call's result decorating a def. `None` when it
    /// sets none.
    fn call_context_mesh(
        &self,
        from_file: &Path,
        path: &str,
        call: &ForeignCall,
        as_decorator: bool,
    ) -> Option<super::lowering::ContextMesh>;

    /// Whether a call of function `path` (as imported in `from_file`) gives
    /// the `jax.set_mesh` of its body an AbstractMesh
    /// (`Module::set_mesh_abstract_for_call`): `Some(note)` as
    /// `Module::set_mesh_given_abstract`.
    fn call_set_mesh_abstract(
        &self,
        from_file: &Path,
        path: &str,
        call: &ForeignCall,
    ) -> Option<Option<String>>;

    /// What a call of function `path` (as imported in `from_file`) stores
    /// into its module's module-level dicts (`Module::stores_for_call`);
    /// `applied_to`, the def the call's result decorates.
    fn call_stores(
        &self,
        from_file: &Path,
        path: &str,
        call: &ForeignCall,
        applied_to: Option<&[ConstAlt]>,
    ) -> Vec<Registration>;

    /// What the modules `from_file` imports registered into the dicts of
    /// module file `into` when they ran (`Module::registrations` of each:
    /// its decorators and calls of registrars, `import experiments` for its
    /// `@register` classes), the defs they register named as `from_file`
    /// reaches them.
    fn imported_registrations_into(&self, from_file: &Path, into: &Path) -> Vec<Registration>;
}

/// What function `path` lowers for `call`: see `Resolver::call_lowerings`.
pub type CallLowerings = Option<Arc<Vec<super::lowering::ForeignLowering>>>;

/// What function `path` reaches for `call`: see `Resolver::call_reach`.
pub type CallReach = Option<Arc<FunctionSummary>>;

/// A call of a function of another module, its arguments' values detached
/// from this module's tree (what crosses the module boundary).
#[derive(Clone, Debug, Default)]
pub struct ForeignCall {
    /// The object a method is called on.
    pub receiver: Option<Vec<ConstAlt>>,
    pub positional: Vec<Vec<ConstAlt>>,
    /// A `*splat` follows `positional` (`lower_for(fn, *specs, platforms=p)`):
    /// the parameters past them get unknown values, not their defaults.
    pub open_positional: bool,
    pub keywords: Vec<(String, Vec<ConstAlt>)>,
    /// Read as an attribute (`obj.platform`), not called: only a property
    /// (`@property`, `@functools.cached_property`) answers.
    pub attribute: bool,
    /// Environment variables the calling module sets itself
    /// (`os.environ.setdefault("K", ...)`): the callee's reads of them do
    /// not see their defaults.
    pub env_set: Vec<String>,
    /// What the calling module registered into module-level dicts of other
    /// modules when it was imported (`@register("matmul")` on its defs):
    /// the callee reads the ones into its own dicts.
    pub registered: Arc<Vec<Registration>>,
    /// State of other modules the caller set before the call (a setter of
    /// that module called, its context manager entered): the callee reads
    /// the entries of its own module (`overlay.rs`).
    pub state: Arc<Vec<StateSet>>,
}

/// A piece of a module's state set by an importer (`with Manager(...):`,
/// `config.set_target("tpu")` of that module), its values as that module
/// reads them.
#[derive(Clone, Debug)]
pub struct StateSet {
    /// The module holding the state.
    pub file: Arc<Path>,
    pub key: super::overlay::Key,
    pub values: Vec<ConstAlt>,
}

/// An entry stored into a module-level dict of another module when a
/// module is imported: `@register("matmul")` over a def, or a statement
/// `register_export("name", platforms=...)`, whose function stores
/// `_RULES[op] = rule`. Values are as the dict's module sees them.
#[derive(Clone, Debug)]
pub struct Registration {
    /// The module holding the dict.
    pub file: Arc<Path>,
    pub dict: String,
    pub key: super::flow::Const,
    pub values: Vec<ConstAlt>,
}

impl<'t> Module<'t> {
    /// The scopes whose stores a call of module-level function `def` runs
    /// when it is a registering decorator: its body, and the body of the
    /// one def it returns (applied to the decorated def).
    pub(crate) fn registering_scopes(&self, def: usize) -> Vec<usize> {
        let mut out = vec![def];
        out.extend(self.returned_defs(def));
        out
    }

    /// The defs nested in `def` that it returns by name (`return decorator`).
    pub(crate) fn returned_defs(&self, def: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for value in &self.scopes[def].returned {
            if value.kind_name() != "identifier" {
                continue;
            }
            if let Some(Binding::Def(id)) = self.binding_at(def, text(*value, self.src), *value) {
                if self.scopes[*id].parent == Some(def) && !out.contains(id) {
                    out.push(*id);
                }
            }
        }
        out
    }

    /// The stores `D[key] = value` that run whenever `scope` runs (statements
    /// of its body itself, not nested) into a dict `D` bound at module level
    /// to a literal or `dict()`: (name, key, value).
    pub(crate) fn module_dict_stores(&self, scope: usize) -> Vec<(&'t str, Node<'t>, Node<'t>)> {
        let Some(body) = self.scopes[scope].node.field("body") else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut cursor = body.walk();
        for stmt in body.named_children(&mut cursor) {
            let Some(assignment) = super::statement_assignment(stmt) else {
                continue;
            };
            let (Some(left), Some(value)) = (assignment.field("left"), assignment.field("right"))
            else {
                continue;
            };
            let (Some(dict), Some(key)) = (
                left.field("value")
                    .filter(|_| left.kind_name() == "subscript"),
                crate::syntax::single_index(left),
            ) else {
                continue;
            };
            if dict.kind_name() != "identifier" {
                continue;
            }
            let name = text(dict, self.src);
            let module_dict = matches!(
                self.binding_at(scope, name, dict),
                Some(Binding::Value { value, scope: MODULE_SCOPE, .. })
                    if value.kind_name() == "dictionary"
                        || (value.kind_name() == "call"
                            && value.field("function").is_some_and(|f| text(f, self.src) == "dict"))
            );
            if module_dict {
                out.push((name, key, value));
            }
        }
        out
    }

    /// What a call of module-level function `name` from another module
    /// stores into this module's module-level dicts (`Registration`s, less
    /// the file): its own stores with its parameters bound to the call's
    /// values, and, when `applied_to` is the def it decorates, those of
    /// the def it returns with that def as its argument. A key must be
    /// one known constant.
    pub fn stores_for_call(
        &self,
        name: &str,
        call: &ForeignCall,
        applied_to: Option<&[ConstAlt]>,
    ) -> Vec<(String, super::flow::Const, Vec<ConstAlt>)> {
        use super::flow::{Const, Frame, Val};
        let Some(Binding::Def(f)) = self.lookup(MODULE_SCOPE, name).and_then(|b| b.last()) else {
            return Vec::new();
        };
        let f = *f;
        if self.scopes[f].kind != ScopeKind::Function {
            return Vec::new();
        }
        let flow = self.flow();
        let Some(given) = self.bind_call(&flow, f, false, call) else {
            return Vec::new();
        };
        let mut frames = vec![Frame {
            def: f,
            given,
            kwargs: Arc::new(self.extra_keywords(f, call)),
            receiver: None,
        }];
        let mut scopes = vec![f];
        if let Some(applied) = applied_to {
            let [inner] = self.returned_defs(f)[..] else {
                return Vec::new();
            };
            let applied_call = ForeignCall {
                positional: vec![applied.to_vec()],
                ..ForeignCall::default()
            };
            let Some(inner_given) = self.bind_call(&flow, inner, false, &applied_call) else {
                return Vec::new();
            };
            frames.push(Frame {
                def: inner,
                given: inner_given,
                kwargs: Arc::default(),
                receiver: None,
            });
            scopes.push(inner);
        }
        let mut out = Vec::new();
        for scope in scopes {
            for (dict, key, value) in self.module_dict_stores(scope) {
                // Detached while bound: a dict literal stored reads them.
                let stored = flow.with_frames(&frames, || {
                    let key = match flow.eval(key, scope).as_slice() {
                        [k] if k.why.certain() => match &k.val {
                            Val::Str(s) => Const::Str(s.clone()),
                            Val::Int(i) => Const::Int(*i),
                            Val::Bool(b) => Const::Bool(*b),
                            _ => return None,
                        },
                        _ => return None,
                    };
                    Some((key, flow.detach_passing(&flow.eval(value, scope))))
                });
                if let Some((key, values)) = stored {
                    out.push((dict.to_owned(), key, values));
                }
            }
        }
        out
    }

    /// What the module-level function or `Class.method` named `name`
    /// returns for `call` (from another module), its parameters bound to
    /// the call's values; parameters it does not pass take their defaults.
    /// This module's own imports are not followed (one module deep).
    pub fn returns_for_call(&self, name: &str, call: &ForeignCall) -> Option<Vec<ConstAlt>> {
        self.accept_call(call);
        use super::flow::from_consts;
        let (head, method) = match name.split_once('.') {
            Some((class, method)) => (class, Some(method)),
            None => (name, None),
        };
        let Some(Binding::Def(id)) = self.lookup(MODULE_SCOPE, head).and_then(|b| b.last()) else {
            return None;
        };
        let def = match method {
            Some(method) => {
                if self.scopes[*id].kind != ScopeKind::Class {
                    return None;
                }
                match self.method(*id, method) {
                    Some(def) => def,
                    // Inherited from a base of another module: that module
                    // answers, on the same receiver.
                    None => {
                        let inherited = self.foreign_base_method(*id, method)?;
                        return self.foreign_returns(&inherited, call);
                    }
                }
            }
            // A class called: the object it makes.
            None if self.scopes[*id].kind == ScopeKind::Class => {
                return self.construct_for_call(*id, call)
            }
            None => *id,
        };
        if self.scopes[def].kind != ScopeKind::Function || self.scopes[def].returned.is_empty() {
            return None;
        }
        if call.attribute && !self.is_property(def) {
            return None;
        }
        let takes_receiver = method.is_some() && !self.is_static_method(def);
        // A classmethod (`Placement.planned()`, also on an object): `cls` is
        // the class, so `return cls(...)` makes one of its objects.
        let class_receiver = (takes_receiver && self.is_class_method(def))
            .then(|| super::flow::Alt::fixed(super::flow::Val::Class(*id)));
        let receiver = match (&call.receiver, takes_receiver) {
            _ if class_receiver.is_some() => class_receiver,
            (Some(r), true) => match from_consts(r).as_slice() {
                [one] => Some(one.clone()),
                _ => None,
            },
            (None, true) => return None,
            (_, false) => None,
        };
        let flow = self.flow();
        let given = self.bind_call(&flow, def, takes_receiver, call)?;
        // Detached while the call's values are bound: an object it makes
        // (`return cls(value)`) has fields that read its parameters. A
        // closure it returns crosses as this module's token, followed here
        // when the caller passes it back (`Model(prior, make_fn())`).
        let (alts, detached) = flow.returns_bound_detached(def, receiver, given);
        if alts.is_empty() || alts.iter().all(|a| a.val.is_unknown()) {
            return None;
        }
        Some(detached)
    }

    /// What calling the module-level function or `Class.method` named
    /// `name` reaches for `call` (from another module): its summary, with
    /// the branches of it and its closures decided by the call's values
    /// (`Module::call_branches`): a callback behind `if verbose:` is reached
    /// when the caller passes `verbose=True`, not when it passes `False`.
    /// `None` for a class, or a call that cannot be bound.
    pub fn reach_for_call(&self, name: &str, call: &ForeignCall) -> Option<FunctionSummary> {
        self.accept_call(call);
        use super::flow::from_consts;
        let (head, method) = match name.split_once('.') {
            Some((class, method)) => (class, Some(method)),
            None => (name, None),
        };
        let Some(Binding::Def(id)) = self.lookup(MODULE_SCOPE, head).and_then(|b| b.last()) else {
            return None;
        };
        // A class called runs its `__init__` on the new object; what its
        // `__call__` reaches stays as the summary has it.
        let (def, method, also) = match method {
            Some(method) if self.scopes[*id].kind == ScopeKind::Class => {
                (self.method(*id, method)?, Some(method), None)
            }
            None if self.scopes[*id].kind == ScopeKind::Function => (*id, None, None),
            None if self.scopes[*id].kind == ScopeKind::Class => (
                self.method(*id, "__init__")?,
                Some("__init__"),
                self.method(*id, "__call__"),
            ),
            _ => return None,
        };
        if self.scopes[def].kind != ScopeKind::Function {
            return None;
        }
        let takes_receiver = method.is_some() && !self.is_static_method(def);
        if takes_receiver && self.is_class_method(def) {
            return None;
        }
        let receiver = match (&call.receiver, takes_receiver) {
            (Some(r), true) => match from_consts(r).as_slice() {
                [one] => Some(one.clone()),
                _ => None,
            },
            // The object `__init__` is making, or one not known (a subclass
            // of the caller's inherits the method): not known.
            (None, true) => None,
            (_, false) => None,
        };
        let flow = self.flow();
        let given = self.bind_call(&flow, def, takes_receiver, call)?;
        // Nothing the call gives decides anything: its summary answers
        // (a summary has no methods: those are reached here).
        if given.iter().all(|g| g.is_empty())
            && receiver.is_none()
            && !takes_receiver
            && !self.state_in_force()
        {
            return None;
        }
        let receiver = match (receiver, takes_receiver) {
            (Some(r), _) => Some(r),
            (None, true) => Some(super::flow::Alt::fixed(super::flow::Val::Unknown)),
            (None, false) => None,
        };
        // The object the methods run on: the receiver, or the one a class
        // called makes (its fields from this call's arguments).
        let class = self.scopes[def].class;
        let object = match (&receiver, class) {
            (Some(r), _) if !r.val.is_unknown() => Some(r.clone()),
            (_, Some(class)) if method == Some("__init__") => self
                .construct_for_call(class, call)
                .and_then(|o| from_consts(&o).into_iter().next()),
            _ => None,
        };
        let mut decided = self.call_branches(def, &given, receiver.clone());
        // `self.fn(x)` in its other methods calls what the object holds.
        if let (Some(object), Some(class)) = (object, class) {
            let methods: Vec<usize> = (0..self.scopes.len())
                .filter(|m| *m != def && self.scopes[*m].class == Some(class))
                .collect();
            for m in methods {
                let edges = self.call_edges(m, &[], Some(object.clone()), &decided.dead);
                decided.edges.extend(edges);
            }
        }
        // A method run on a known object: `self.m()` in it, and in the
        // closures it makes, runs `m` on the same object
        // (`reach::FOREIGN_OBJECT`).
        let first = match (&receiver, class) {
            (Some(object), Some(class)) if !object.val.is_unknown() && takes_receiver => {
                self.run_on_foreign_object(def, class, object.clone(), def, given.clone())
            }
            _ => Target::Local(def),
        };
        let mut seeds = vec![(first, Vec::new())];
        seeds.extend(also.map(|m| (Target::Local(m), Vec::new())));
        let reached = self.reach_local_for(seeds, &[], Some(&decided), &[]);
        // Its direct calls of other modules' functions, read with this
        // call's values: what the caller's reach asks those modules next.
        let mut calls = Vec::new();
        for (path, call_id) in &reached.external_calls {
            if reached.external_indirect.contains(path) {
                continue;
            }
            let Some(site) = self.calls.iter().find(|c| c.node.id() == *call_id) else {
                continue;
            };
            if let Some(foreign) =
                flow.foreign_call_given(def, &given, receiver.clone(), site.node, site.scope)
            {
                calls.push((path.clone(), foreign));
            }
        }
        Some(FunctionSummary {
            reqs: reached.reqs,
            externals: reached
                .externals
                .into_iter()
                .map(|(p, g, _)| (p, g))
                .collect(),
            calls,
        })
    }

    /// The values of `def`'s parameters (after the receiver) for `call`:
    /// its positional values, then its keywords, then the defaults. `None`
    /// when the call passes more than the parameters take.
    pub(crate) fn bind_call<'m>(
        &'m self,
        flow: &super::flow::Flow<'m, 't>,
        def: usize,
        takes_receiver: bool,
        call: &ForeignCall,
    ) -> Option<Vec<Vec<super::flow::Alt<'t>>>> {
        use super::flow::from_consts;
        let params = self.scopes[def].params();
        let params = &params[usize::from(takes_receiver).min(params.len())..];
        let mut given = Vec::new();
        let mut positional = call.positional.iter();
        let mut keyword_only = false;
        for (pname, default) in params {
            match pname.as_str() {
                "*" => {
                    keyword_only = true;
                    given.push(Vec::new());
                    continue;
                }
                "/" => {
                    given.push(Vec::new());
                    continue;
                }
                _ => {}
            }
            let passed = if keyword_only {
                None
            } else {
                positional.next()
            };
            let passed = passed.or_else(|| {
                call.keywords
                    .iter()
                    .find(|(k, _)| k == pname)
                    .map(|(_, v)| v)
            });
            given.push(match (passed, default) {
                (Some(values), _) => from_consts(values),
                // Filled by the caller's `*splat`, or not: unknown.
                (None, _) if call.open_positional && !keyword_only => {
                    vec![super::flow::Alt::unknown()]
                }
                (None, Some(default)) => {
                    flow.eval(*default, self.scopes[def].parent.unwrap_or(MODULE_SCOPE))
                }
                (None, None) => Vec::new(),
            });
        }
        // More than it takes: into `*args`/`**kwargs` when it has them (their
        // values are not followed), else a call Python would refuse.
        let splats = |kind: &str| {
            self.scopes[def].node.field("parameters").is_some_and(|p| {
                let mut cursor = p.walk();
                let found = p.named_children(&mut cursor).any(|c| {
                    c.kind_name() == kind || c.named_child(0).is_some_and(|n| n.kind_name() == kind)
                });
                found
            })
        };
        let extra_positional = positional.next().is_some();
        let extra_keyword = call
            .keywords
            .iter()
            .any(|(k, _)| !params.iter().any(|(p, _)| p == k));
        let refused = (extra_positional && !splats("list_splat_pattern"))
            || (extra_keyword && !splats("dictionary_splat_pattern"));
        (!refused).then_some(given)
    }

    /// The keywords of `call` that no named parameter of `def` takes: what
    /// its `**kwargs` holds, as entries.
    pub(crate) fn extra_keywords(&self, def: usize, call: &ForeignCall) -> super::flow::Entries {
        let params = self.scopes[def].params();
        call.keywords
            .iter()
            .filter(|(k, _)| !params.iter().any(|(p, _)| p == k))
            .map(|(k, v)| (super::flow::Const::Str(k.clone()), v.clone()))
            .collect()
    }

    /// The object `Class(...)` makes for `call` (from another module): its
    /// class-body values, then a dataclass's fields in order (positional,
    /// keyword, default) or what `__init__` stores into `self` with its
    /// parameters bound; `__class__` names the class in this module.
    pub(crate) fn construct_for_call(
        &self,
        class: usize,
        call: &ForeignCall,
    ) -> Option<Vec<ConstAlt>> {
        use super::flow::{Const, Why};
        let flow = self.flow();
        let mut fields: Vec<(String, Vec<ConstAlt>)> = Vec::new();
        let put = |fields: &mut Vec<(String, Vec<ConstAlt>)>, name: &str, alts: Vec<ConstAlt>| {
            fields.retain(|(n, _)| n != name);
            fields.push((name.to_owned(), alts));
        };
        // Values written in the class body (defaults), its own over those
        // its bases of this module write (in the order Python looks them
        // up for a single-inheritance chain: the class, then each base
        // depth first).
        let mut body_values: Vec<(String, Node<'t>, usize)> = Vec::new();
        for owner in self.class_and_bases(class) {
            for name in self.attribute_names(owner) {
                if body_values.iter().any(|(n, _, _)| *n == name) {
                    continue;
                }
                if let Some(Binding::Value { value, scope, .. }) =
                    self.attributes.get(&(owner, name.clone())).and_then(|b| {
                        b.iter()
                            .rev()
                            .find(|b| matches!(b, Binding::Value { scope, .. } if *scope == owner))
                    })
                {
                    body_values.push((name.clone(), *value, *scope));
                }
            }
        }
        // (Applied base first, so what the class writes wins.)
        body_values.reverse();
        for (name, value, scope) in &body_values {
            put(
                &mut fields,
                name,
                flow.detach(&flow.eval(*value, *scope), 0),
            );
        }
        match self.method(class, "__init__") {
            None if self.is_dataclass_like(class) => {
                let mut order: Vec<(usize, String)> = self
                    .attribute_names(class)
                    .into_iter()
                    .filter_map(|n| self.dataclass_field_position(class, &n).map(|p| (p, n)))
                    .collect();
                order.sort();
                if call.positional.len() > order.len() {
                    return None;
                }
                for (position, name) in &order {
                    let passed = call.positional.get(*position).or_else(|| {
                        call.keywords
                            .iter()
                            .find(|(k, _)| k == name)
                            .map(|(_, v)| v)
                    });
                    if let Some(values) = passed {
                        put(&mut fields, name, values.clone());
                    } else if call.open_positional || !fields.iter().any(|(n, _)| n == name) {
                        put(
                            &mut fields,
                            name,
                            vec![ConstAlt {
                                val: Const::Unknown,
                                why: Why::Fixed,
                            }],
                        );
                    }
                }
                if call
                    .keywords
                    .iter()
                    .any(|(k, _)| !order.iter().any(|(_, n)| n == k))
                {
                    return None;
                }
            }
            None => {
                if let Some(base_fields) = self.foreign_base_construct(class, call) {
                    // What the base's `__init__` stored is the object's own
                    // (it shadows the class bodies), except a class-body
                    // value of the base that this class's body overrides.
                    for (name, alts) in base_fields {
                        if fields.iter().any(|(n, _)| *n == name) {
                            continue;
                        }
                        put(&mut fields, &name, alts);
                    }
                } else if !call.positional.is_empty()
                    || call.open_positional
                    || !call.keywords.is_empty()
                {
                    return None;
                }
            }
            Some(init) => {
                let given = self.bind_call(&flow, init, true, call)?;
                // `__init__`'s branches decided by the call's values: a store
                // in a dead body is not made; one in a body that may run
                // joins the stores before it, one that certainly runs
                // replaces them (`if devices is not None: self.mesh = Mesh(...)
                // else: self.mesh = AbstractMesh(...)`).
                let branches = self.build_branches_by(init, &|expr| {
                    flow.eval_given(init, &given, Some(super::flow::Alt::unknown()), expr, init)
                });
                let init_node = self.scopes[init].node;
                // The stores of the `__init__` that runs: an inherited one's
                // are its own class's (`class LDC(Case)` made with `Case`'s).
                let init_owner = self.scopes[init].class.unwrap_or(class);
                let mut stores: Vec<(String, tree_sitter::Node<'t>, tree_sitter::Node<'t>)> = self
                    .attributes
                    .iter()
                    .filter(|((c, _), _)| *c == init_owner)
                    .flat_map(|((_, name), bindings)| {
                        bindings.iter().filter_map(move |b| match b {
                            Binding::Value {
                                value,
                                scope,
                                target,
                            } if *scope == init => Some((name.clone(), *target, *value)),
                            _ => None,
                        })
                    })
                    .filter(|(_, target, _)| {
                        !branches
                            .dead
                            .iter()
                            .any(|d| d.contains(&target.start_byte()))
                    })
                    .collect();
                stores.sort_by_key(|(_, target, _)| target.start_byte());
                let mut joined: Vec<(String, Vec<ConstAlt>)> = Vec::new();
                for (name, target, value) in &stores {
                    // `self` is the object made so far: a store reads the
                    // fields stored before it (`self.sharding =
                    // NamedSharding(self.mesh, ...)`).
                    let mut so_far = fields.clone();
                    for (n, alts) in &joined {
                        put(&mut so_far, n, alts.clone());
                    }
                    let receiver =
                        super::flow::Alt::fixed(super::flow::Val::Object(Arc::new(so_far)));
                    let alts = flow
                        .eval_bound_on(init, given.clone(), receiver, vec![*value])
                        .pop()
                        .unwrap_or_default();
                    let alts = flow.detach(&alts, 0);
                    let certain = self.runs_before(*target, init, init_node, &branches.taken);
                    match joined.iter_mut().find(|(n, _)| n == name) {
                        Some((_, earlier)) if !certain => {
                            earlier.extend(alts);
                            for alt in earlier.iter_mut() {
                                alt.why = Why::Choice;
                            }
                        }
                        Some((_, earlier)) => *earlier = alts,
                        // Else the class body's value, if it has one, stays.
                        None if !certain => {
                            let default = fields
                                .iter()
                                .find(|(n, _)| n == name)
                                .map(|(_, d)| d.clone())
                                .unwrap_or_default();
                            joined.push((
                                name.clone(),
                                default
                                    .into_iter()
                                    .chain(alts)
                                    .map(|a| ConstAlt {
                                        why: Why::Choice,
                                        ..a
                                    })
                                    .collect(),
                            ))
                        }
                        None => joined.push((name.clone(), alts)),
                    }
                }
                for (name, alts) in joined {
                    put(&mut fields, &name, alts);
                }
            }
        }
        fields.push(super::flow::class_field(&self.scopes[class].name));
        Some(vec![ConstAlt {
            val: Const::Object(Arc::new(fields)),
            why: Why::Fixed,
        }])
    }
}

/// Whether two lists of values hold the same values, whatever why.
pub(crate) fn same_values(a: &[ConstAlt], b: &[ConstAlt]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| format!("{:?}", x.val) == format!("{:?}", y.val))
}

impl<'t> Module<'t> {
    /// The fields an object of `class` gets from the `__init__` of a base
    /// of another module it inherits (`class Leaf(base.Base)` with no
    /// `__init__` of its own) for `call`: that module's answer, with the
    /// base's class-body values this class's body may override left out
    /// (`None` when the answer is not one object).
    fn foreign_base_construct(
        &self,
        class: usize,
        call: &ForeignCall,
    ) -> Option<Vec<(String, Vec<ConstAlt>)>> {
        use super::flow::Const;
        let init = self.foreign_base_method(class, "__init__")?;
        let base = init.strip_suffix(".__init__")?;
        let alts = self.foreign_returns(base, call)?;
        let [ConstAlt {
            val: Const::Object(fields),
            ..
        }] = alts.as_slice()
        else {
            return None;
        };
        Some(self.stored_by_foreign_init(base, fields))
    }
}

/// The files that could hold module `path` imported from `from_file`, with
/// the name inside the module: for `a.b.c` the module `a.b` (name `c`) in
/// every ancestor directory of the importing file; for `..a.c` relative to
/// the package of the importing file.
pub fn candidate_files(from_file: &Path, path: &str) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let dots = path.chars().take_while(|c| *c == '.').count();
    let rest = &path[dots..];
    let Some((module, name)) =
        rest.rsplit_once('.')
            .or(if dots > 0 { Some(("", rest)) } else { None })
    else {
        return out;
    };
    let module_rel: PathBuf = module.split('.').filter(|p| !p.is_empty()).collect();
    let push = |base: &Path, out: &mut Vec<(PathBuf, String)>| {
        if module_rel.as_os_str().is_empty() {
            out.push((base.join("__init__.py"), name.to_owned()));
        } else {
            out.push((base.join(&module_rel).with_extension("py"), name.to_owned()));
            out.push((base.join(&module_rel).join("__init__.py"), name.to_owned()));
        }
    };
    let Some(dir) = from_file.parent() else {
        return out;
    };
    if dots > 0 {
        let mut base = dir.to_path_buf();
        for _ in 1..dots {
            base = base.parent().map(Path::to_path_buf).unwrap_or(base);
        }
        push(&base, &mut out);
    } else {
        // `./main.py` (checked as `check .`): its ancestors are `.` and then
        // the empty path, which names the same directory again; a module
        // found there would be this file under another name.
        let relative_to_current = dir.starts_with(".");
        for base in dir.ancestors().take(12) {
            if relative_to_current && base.as_os_str().is_empty() {
                continue;
            }
            push(base, &mut out);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_cover_absolute_and_relative_imports() {
        let from = Path::new("/w/pkg/model/run.py");
        let abs = candidate_files(from, "pkg.kernels.matmul");
        assert!(abs.contains(&(PathBuf::from("/w/pkg/kernels.py"), "matmul".to_owned())));
        assert!(abs.contains(&(
            PathBuf::from("/w/pkg/kernels/__init__.py"),
            "matmul".to_owned()
        )));
        let rel = candidate_files(from, "..kernels.matmul");
        assert_eq!(
            rel[0],
            (PathBuf::from("/w/pkg/kernels.py"), "matmul".to_owned())
        );
        let sibling = candidate_files(from, ".ops.k");
        assert_eq!(
            sibling[0],
            (PathBuf::from("/w/pkg/model/ops.py"), "k".to_owned())
        );
    }

    #[test]
    fn a_file_under_the_current_directory_is_not_found_again_without_it() {
        // `check .` names files `./main.py`; `main.py` would be the same
        // file taken for another module.
        let found = candidate_files(Path::new("./main.py"), "main.Config");
        assert!(found.contains(&(PathBuf::from("./main.py"), "Config".to_owned())));
        assert!(
            !found.iter().any(|(f, _)| f == Path::new("main.py")),
            "{found:?}"
        );
        let bare = candidate_files(Path::new("main.py"), "cfg.X");
        assert!(bare.contains(&(PathBuf::from("cfg.py"), "X".to_owned())));
    }
}

//! Module-level state a lowering runs under.
//!
//! Libraries switch settings around a lowering: a `@contextmanager` that
//! rebinds a global or stores a settings object's attribute before it yields
//! (`with kernel_target("gpu"): lower(...)`), a class whose `__enter__` does
//! it, a setter called before (`set_backend("tpu")`). Read anywhere, such a
//! global is any of its values (a run-time choice); read while *this*
//! lowering traces, it is the value the enclosing `with` or the last setter
//! call gave it. That state (an `Overlay`) is found from the lowering site
//! up: the statements before it in each block, the `with` statements around
//! it, then the same at the call its function came through.
//!
//! Answers that values decide (requirements, branches, call sites found by
//! value flow) are cached per module; under an overlay they are built again
//! in a cache set of its own (`Layer`), so a lowering under one state never
//! sees answers made for another.

use super::flow::{Alt, AskedAs, Flow, Kept, Val, Why};
use super::lowering::statement_entering;
use super::summary::StateSet;
use super::{reach, Binding, Module, ScopeId, ScopeKind, MODULE_SCOPE};
use crate::syntax::{text, unparenthesize, Field, KindName};
use std::cell::{Cell, OnceCell, RefCell};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;
use tree_sitter::Node;

/// Distinct states one module's lowerings may run under; a lowering under
/// another state is analysed as the module reads (its state unknown).
pub(crate) const MAX_OVERLAYS: usize = 4;

/// Calls of its function followed up from a lowering site.
const MAX_CALL_DEPTH: usize = 3;

/// Setters called by setters followed (a recursive one ends there).
const MAX_SETTER_DEPTH: u32 = 2;

/// What values decide, built on first use (see the module doc).
pub(crate) struct ValueCaches<'t> {
    /// Per-scope requirements and call edges.
    pub(crate) scope_facts: Vec<OnceCell<reach::ScopeFacts>>,
    /// Guards of calls, arguments and returned values, per scope.
    pub(crate) guards: Vec<OnceCell<HashMap<usize, Vec<reach::Guard>>>>,
    /// Each scope's branches decided by constant conditions
    /// (`branch_ranges`); a scope being built is in `branches_building`.
    pub(crate) branches: RefCell<HashMap<ScopeId, Rc<reach::Branches>>>,
    pub(crate) branches_building: RefCell<HashSet<ScopeId>>,
    /// `branches` built while `value_calls_building`, dropped after it.
    pub(crate) branches_provisional: RefCell<HashMap<ScopeId, Rc<reach::Branches>>>,
    /// Call sites of each def, as value flow finds them.
    pub(crate) def_sites: RefCell<HashMap<ScopeId, Rc<Vec<super::flow::CallSiteOf<'t>>>>>,
    /// Calls constructing a class through a value (`OPS[k]()`), by class,
    /// and calls of a function through a registry (`SAMPLERS["rmh"](f)`), by
    /// def (`None` until built; `value_calls_building` while being built);
    /// each call says whether the callee certainly is that def (else it is
    /// one alternative of a run-time choice: `OPS[args.op]()`).
    #[allow(clippy::type_complexity)]
    pub(crate) value_calls: RefCell<Option<Rc<HashMap<ScopeId, Vec<(Node<'t>, ScopeId, bool)>>>>>,
    pub(crate) value_calls_building: Cell<bool>,
    /// How many times the index was asked for while being built.
    pub(crate) value_calls_reentered: Cell<u32>,
    /// The values of a parameter read outside any call being evaluated
    /// (from every call site of its def), by (def, index, how asked), and
    /// of an expression, by (node id, scope, how asked): kept only when
    /// found with no answer cut short (`Flow::remembered`), so the same
    /// whoever asks. Without them each condition reading `config.x`
    /// walked the chain of callers again.
    pub(crate) param_values: RefCell<HashMap<(ScopeId, usize, AskedAs), Kept<'t>>>,
    pub(crate) expr_values: RefCell<HashMap<(usize, ScopeId, AskedAs), Kept<'t>>>,
}

impl ValueCaches<'_> {
    pub(crate) fn new(scopes: usize) -> Self {
        ValueCaches {
            scope_facts: (0..scopes).map(|_| OnceCell::new()).collect(),
            guards: (0..scopes).map(|_| OnceCell::new()).collect(),
            branches: RefCell::default(),
            branches_building: RefCell::default(),
            branches_provisional: RefCell::default(),
            def_sites: RefCell::default(),
            value_calls: RefCell::new(None),
            value_calls_building: Cell::new(false),
            value_calls_reentered: Cell::new(0),
            param_values: RefCell::default(),
            expr_values: RefCell::default(),
        }
    }
}

/// The methods of a list that change its items (`Key::Top`).
const LIST_MUTATORS: &[&str] = &[
    "append",
    "pop",
    "extend",
    "insert",
    "remove",
    "clear",
    "reverse",
    "sort",
    "__setitem__",
    "__delitem__",
];

/// A piece of module-level state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Key {
    /// A module global (`global G; G = v`).
    Name(String),
    /// An attribute path of a module-level object (`SETTINGS.checks = v`,
    /// `setattr(SETTINGS, "checks", v)`).
    Path(String),
    /// A `contextvars.ContextVar`, by its constructor call's start byte (the
    /// same in every model of the module's text, so another module can
    /// name it).
    Var(usize),
    /// The last item of a module-level list, a global or an attribute path
    /// (`_STACK`, `_state.stack`), that code grows with `append`: a
    /// context stack (`_STACK.append(frame)` entering a manager, popped on
    /// leaving), read as `_STACK[-1]`. The rest of the list stays as the
    /// module reads it.
    Top(String),
}

/// The state a lowering runs under: values of some keys.
#[derive(Default)]
pub(crate) struct Overlay<'t> {
    entries: Vec<(Key, Vec<Alt<'t>>)>,
    /// Keys already decided nearer the lowering (set, or left as the
    /// module reads them): what sets them further out does not hold.
    settled: Vec<Key>,
    /// Roots of which any attribute is settled (`setattr(ROOT, name, v)`
    /// with a name not known).
    settled_roots: Vec<String>,
    /// The state of other modules set (passed with calls into them), and
    /// what of it is settled: (module, key), (module, root).
    foreign: Arc<Vec<StateSet>>,
    foreign_settled: Vec<(Arc<Path>, Key)>,
    foreign_settled_roots: Vec<(Arc<Path>, String)>,
    /// The `with` items and calls it comes from (node ids): equal
    /// overlays share a cache set.
    sources: Vec<usize>,
}

impl<'t> Overlay<'t> {
    fn set(&mut self, key: Key, alts: Vec<Alt<'t>>, source: usize) {
        if self.settled.contains(&key) || self.settled_roots.iter().any(|r| *r == key_root(&key)) {
            return;
        }
        self.settled.push(key.clone());
        // A list and its last item are one piece of state: a push nearer
        // the lowering leaves the whole list as the module reads it (its
        // length is not known), a rebinding nearer leaves no pushed top.
        for coupled in coupled_keys(&key) {
            if !self.settled.contains(&coupled) {
                self.settled.push(coupled);
            }
        }
        // A value the analysis cannot tell leaves the key as the module
        // reads it (a run-time choice), not unknown.
        if alts.is_empty() || alts.iter().any(|a| a.val.is_unknown()) {
            return;
        }
        if !self.sources.contains(&source) {
            self.sources.push(source);
        }
        self.entries.push((key, alts));
    }

    /// `set` for a key of another module: an empty value settles it.
    fn set_foreign(&mut self, set: StateSet, source: usize) {
        let root = key_root(&set.key);
        if self
            .foreign_settled
            .iter()
            .any(|(f, k)| *f == set.file && *k == set.key)
            || self
                .foreign_settled_roots
                .iter()
                .any(|(f, r)| *f == set.file && *r == root)
        {
            return;
        }
        self.foreign_settled
            .push((set.file.clone(), set.key.clone()));
        for coupled in coupled_keys(&set.key) {
            self.foreign_settled.push((set.file.clone(), coupled));
        }
        if set.values.is_empty() {
            return;
        }
        if !self.sources.contains(&source) {
            self.sources.push(source);
        }
        Arc::make_mut(&mut self.foreign).push(set);
    }

    /// Leaves what `key` names as the module reads it, further out.
    fn settle_target(&mut self, key: StoreKey<'t>) {
        match key {
            StoreKey::Key(key) => {
                for key in coupled_keys(&key).into_iter().chain([key]) {
                    if !self.settled.contains(&key) {
                        self.settled.push(key);
                    }
                }
            }
            StoreKey::Named { root, .. } => self.settled_roots.push(root),
            StoreKey::Foreign(file, root) => self.foreign_settled_roots.push((file, root)),
            StoreKey::Entered(_) => {}
        }
    }

    fn get(&self, key: &Key) -> Option<Vec<Alt<'t>>> {
        self.entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, alts)| alts.clone())
    }

    fn is_empty(&self) -> bool {
        self.entries.is_empty() && self.foreign.is_empty()
    }
}

/// The module-level name a key is stored under (`_STATE` of
/// `_STATE.manager`).
fn key_root(key: &Key) -> String {
    match key {
        Key::Name(name) => name.clone(),
        Key::Path(path) | Key::Top(path) => path.split('.').next().unwrap_or(path).to_owned(),
        Key::Var(id) => format!("#{id}"),
    }
}

/// The keys that name the same list as `key`: the list itself and its
/// pushed last item (`Key::Top`).
fn coupled_keys(key: &Key) -> Vec<Key> {
    match key {
        Key::Top(path) => vec![Key::Name(path.clone()), Key::Path(path.clone())],
        Key::Name(path) | Key::Path(path) => vec![Key::Top(path.clone())],
        Key::Var(_) => Vec::new(),
    }
}

/// A cache set for one overlay.
pub(crate) struct Layer<'t> {
    overlay: Overlay<'t>,
    caches: ValueCaches<'t>,
}

/// A store to a piece of state in a function's straight-line code: the
/// value stored with the calls to bind to read it (outermost first),
/// `None` when it cannot be told (`G += 1`, `a, G = f()`).
/// A store: its key, and the value it sets (read inside the calls that
/// bind it), with how sure the store is to run (a default of run-time
/// configuration picking the manager that makes it: `Why::Default`).
type Store<'t> = (StoreKey<'t>, Option<(Node<'t>, Vec<BoundCall<'t>>, Why)>);

/// `Module::keys_settled_by`.
pub(crate) type SettledKeys<'t> = RefCell<HashMap<(usize, ScopeId), Rc<[StoreKey<'t>]>>>;

/// The state of other modules a foreign manager sets (`StoreKey::Entered`);
/// equal only to itself.
#[derive(Clone, Debug)]
pub(crate) struct EnteredForeign(Rc<Vec<StateSet>>);

impl PartialEq for EnteredForeign {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for EnteredForeign {}

/// What a store sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum StoreKey<'t> {
    Key(Key),
    /// `setattr(ROOT, name, v)` with a name read when the store is applied
    /// (a parameter of the setter).
    Named {
        root: String,
        name: Node<'t>,
    },
    /// Some attribute of module-level `ROOT` of another module (a call of
    /// its setter that is not followed): only settled.
    Foreign(Arc<Path>, String),
    /// What entering another module's manager sets of its state, asked of
    /// that module when a manager of this one enters it (`with
    /// targeting(platforms): yield` in a local `@contextmanager`).
    Entered(EnteredForeign),
}

/// A call bound while a stored value is read: the def, the call, the scope
/// the call is in, the receiver of a method.
pub(crate) type BoundCall<'t> = (ScopeId, Node<'t>, ScopeId, Option<Alt<'t>>);

impl<'t> Module<'t> {
    /// The caches for the state in force.
    pub(crate) fn caches(&self) -> &ValueCaches<'t> {
        self.active_layer()
            .map(|layer| &layer.caches)
            .unwrap_or(&self.caches)
    }

    fn active_layer(&self) -> Option<&Layer<'t>> {
        let active = self.active_overlay.get();
        if active == 0 {
            return None;
        }
        self.overlays.get(active - 1)?.get().map(|b| &**b)
    }

    /// The value the state in force gives the module global `name` read in
    /// `scope` (`None`: none, or `name` there is another variable).
    pub(crate) fn overlay_name(&self, scope: ScopeId, name: &str) -> Option<Vec<Alt<'t>>> {
        let layer = self.active_layer()?;
        let alts = layer.overlay.get(&Key::Name(name.to_owned()))?;
        self.is_module_name(scope, name).then_some(alts)
    }

    /// The value the state in force gives the attribute path `path` of a
    /// module-level object, read in `scope`.
    pub(crate) fn overlay_path(&self, scope: ScopeId, path: &str) -> Option<Vec<Alt<'t>>> {
        self.overlay_rooted(scope, Key::Path(path.to_owned()))
    }

    /// The last item the state in force pushed on the module-level list
    /// `path` (a global or an attribute path), read in `scope` as
    /// `path[-1]`.
    pub(crate) fn overlay_top(&self, scope: ScopeId, path: &str) -> Option<Vec<Alt<'t>>> {
        self.overlay_rooted(scope, Key::Top(path.to_owned()))
    }

    /// The value the state in force gives `key`, when its root read in
    /// `scope` is the module-level variable.
    fn overlay_rooted(&self, scope: ScopeId, key: Key) -> Option<Vec<Alt<'t>>> {
        let alts = self.active_layer()?.overlay.get(&key)?;
        self.is_module_name(scope, &key_root(&key)).then_some(alts)
    }

    /// The value the state in force gives the context variable made by the
    /// constructor call `ctor`.
    pub(crate) fn overlay_var(&self, ctor: Node<'t>) -> Option<Vec<Alt<'t>>> {
        self.active_layer()?
            .overlay
            .get(&Key::Var(ctor.start_byte()))
    }

    /// True if `name` read in `scope` is the module-level variable.
    pub(crate) fn is_module_name(&self, scope: ScopeId, name: &str) -> bool {
        match (
            self.lookup(scope, name),
            self.bindings_in(MODULE_SCOPE, name),
        ) {
            (Some(found), Some(module)) => std::ptr::eq(found, module),
            _ => false,
        }
    }

    /// `f()` under the state the lowering at `node` runs under (see the
    /// module doc); plainly when there is none.
    pub(crate) fn under_state_at<R>(
        &self,
        node: Node<'t>,
        scope: ScopeId,
        f: impl FnOnce() -> R,
    ) -> R {
        // (Finding a state evaluates values: those answers are plain.)
        if !self.may_set_state() || self.state_in_force() || self.finding_state.get() {
            return f();
        }
        // The state is the same for every node of one statement (what runs
        // before it and the `with`s around it): found once per statement.
        let statement = self.enclosing_statement(node);
        let known = self.state_slots.borrow().get(&statement.id()).copied();
        let slot = match known {
            Some(slot) => slot,
            None => {
                self.finding_state.set(true);
                let overlay = if self.may_have_state(statement, scope) {
                    self.state_at(statement, scope)
                } else {
                    Overlay::default()
                };
                self.finding_state.set(false);
                let slot = self.layer_for(overlay);
                self.state_slots.borrow_mut().insert(statement.id(), slot);
                slot
            }
        };
        if slot == 0 {
            return f();
        }
        let previous = self.active_overlay.replace(slot);
        let out = f();
        self.active_overlay.set(previous);
        out
    }

    /// True while answers are given under some state.
    pub(crate) fn state_in_force(&self) -> bool {
        self.active_overlay.get() != 0
    }

    /// The layer (1-based; 0 for none) for `overlay`: the one of an equal
    /// overlay, else a new one while there is room.
    fn layer_for(&self, overlay: Overlay<'t>) -> usize {
        if overlay.is_empty() {
            return 0;
        }
        let slot = (0..MAX_OVERLAYS)
            .find(|&i| {
                self.overlays[i]
                    .get()
                    .is_some_and(|l| l.overlay.sources == overlay.sources)
            })
            .or_else(|| (0..MAX_OVERLAYS).find(|&i| self.overlays[i].get().is_none()));
        let Some(slot) = slot else {
            return 0;
        };
        let scopes = self.scopes.len();
        self.overlays[slot].get_or_init(|| {
            Box::new(Layer {
                overlay,
                caches: ValueCaches::new(scopes),
            })
        });
        slot + 1
    }

    /// Whether any code may set state (most modules: none, and nothing is
    /// looked for).
    fn may_set_state(&self) -> bool {
        self.own_state_code() || self.imports_workspace_names()
    }

    /// Whether this module's own code may set its state.
    fn own_state_code(&self) -> bool {
        *self.state_text.get_or_init(|| {
            // In the model's own statements: a unit of the server's
            // analysis holds the defs its statements name, and searching
            // the whole text per unit would cost a scan of it each.
            let names_state = || {
                self.top_level_statements().iter().any(|statement| {
                    let code = text(*statement, self.src);
                    code.contains("contextmanager")
                        || code.contains("__enter__")
                        || code.contains("ContextVar")
                })
            };
            self.has_global
                || self
                    .path_stores
                    .values()
                    .flatten()
                    .any(|(s, _, _)| *s != MODULE_SCOPE)
                || self
                    .call_sites_named(&["setattr"])
                    .iter()
                    .any(|site| site.scope != MODULE_SCOPE)
                || self.state_list_growers().next().is_some()
                || names_state()
        })
    }

    /// `ModuleSummary::state_writers`: the module-level functions and
    /// classes (by their `__enter__`) whose code may set this module's
    /// state, with the roots of what they may set.
    pub(crate) fn state_writer_roots(&self) -> HashMap<String, Vec<String>> {
        let mut out = HashMap::new();
        if !self.own_state_code() {
            return out;
        }
        for (name, bindings) in self.module_bindings() {
            let Some(Binding::Def(id)) = bindings.last() else {
                continue;
            };
            let scope = match self.scopes[*id].kind {
                ScopeKind::Function => *id,
                ScopeKind::Class => match self.method(*id, "__enter__") {
                    Some(enter) => enter,
                    None => continue,
                },
                _ => continue,
            };
            let Some(body) = self.scopes[scope].node.field("body") else {
                continue;
            };
            let mut roots: Vec<String> = Vec::new();
            for key in self.keys_set_within(body, scope, 0) {
                let root = match key {
                    StoreKey::Foreign(..) | StoreKey::Entered(_) => continue,
                    StoreKey::Key(key) => key_root(&key),
                    StoreKey::Named { root, .. } => root,
                };
                if !roots.contains(&root) {
                    roots.push(root);
                }
            }
            if !roots.is_empty() {
                out.insert(name.to_owned(), roots);
            }
        }
        out
    }

    /// The module-level context managers (a `@contextmanager` def, a
    /// helper returning a manager's call, a class's `__enter__`) whose
    /// entering sets state of another module of the workspace (`with
    /// targeting(platforms): yield`, `targeting` imported): asked of a
    /// model with a resolver.
    pub(crate) fn foreign_state_managers(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.imports_workspace_names() {
            return out;
        }
        for (name, bindings) in self.module_bindings() {
            let Some(Binding::Def(id)) = bindings.last() else {
                continue;
            };
            let keys: Vec<StoreKey<'t>> = match self.scopes[*id].kind {
                // A `@contextmanager`, or a helper returning a manager's call.
                ScopeKind::Function => {
                    let flow = self.flow_with_budget(200);
                    self.function_entered_stores(&flow, *id, &[], 0)
                        .unwrap_or_default()
                        .into_iter()
                        .map(|(key, _)| key)
                        .collect()
                }
                ScopeKind::Class => {
                    let Some(enter) = self.method(*id, "__enter__") else {
                        continue;
                    };
                    let Some(body) = self.scopes[enter].node.field("body") else {
                        continue;
                    };
                    self.keys_set_within(body, enter, 0)
                }
                _ => continue,
            };
            let sets_foreign = keys
                .iter()
                .any(|key| matches!(key, StoreKey::Foreign(..) | StoreKey::Entered(_)));
            if sets_foreign {
                out.push(name.to_owned());
            }
        }
        out
    }

    /// A quick look for what could set state before `node` runs (a `with`
    /// of a context manager of this module around it, a call of a function
    /// that writes state before it, the same at the call its function came
    /// through); `state_at` is asked only then.
    fn may_have_state(&self, node: Node<'t>, scope: ScopeId) -> bool {
        self.call_chain(node, scope)
            .into_iter()
            .any(|(node, scope)| {
                !self.context_decorator_calls(scope).is_empty()
                    || self
                        .steps_up(node, self.scopes[scope].node)
                        .into_iter()
                        .any(|(parent, child)| match parent.kind_name() {
                            "block" | "module" => {
                                self.writer_calls_in(parent)
                                    .iter()
                                    .any(|&start| start < child.start_byte())
                                    || self.enters_by_hand_before(parent, child)
                            }
                            "with_statement" => with_item_calls(parent)
                                .into_iter()
                                .any(|call| self.may_enter_own(call, scope)),
                            _ => false,
                        })
            })
    }

    /// Whether a statement of `block` before `child` enters a context
    /// manager by hand (`stack.enter_context(cm)`), by its syntax.
    fn enters_by_hand_before(&self, block: Node<'t>, child: Node<'t>) -> bool {
        if !self.enters_by_hand {
            return false;
        }
        let mut c = block.walk();
        let found = block
            .named_children(&mut c)
            .take_while(|s| s.end_byte() <= child.start_byte())
            .any(|s| statement_entering(s, self.src).is_some());
        found
    }

    /// `node` in `scope`, then the call its function came through, and so
    /// on, `MAX_CALL_DEPTH` calls up.
    fn call_chain(&self, node: Node<'t>, scope: ScopeId) -> Vec<(Node<'t>, ScopeId)> {
        let mut chain = vec![(node, scope)];
        while chain.len() <= MAX_CALL_DEPTH {
            let (_, last) = chain[chain.len() - 1];
            match self.call_came_through(last, &[]) {
                Some(call) => chain.push(call),
                None => break,
            }
        }
        chain
    }

    /// Whether the context manager `call` enters may be of this module: a
    /// name bound here (not imported), a method of an object made here, a
    /// registry's entry (`with jax.set_mesh(m):`, `with open(p):` are not).
    fn may_enter_own(&self, call: Node<'t>, scope: ScopeId) -> bool {
        if self.foreign_writer(call, scope).is_some() {
            return true;
        }
        let Some(mut root) = call.field("function") else {
            return false;
        };
        while root.kind_name() == "attribute" {
            match root.field("object") {
                Some(object) => root = object,
                None => return false,
            }
        }
        if root.kind_name() != "identifier" {
            return true;
        }
        matches!(
            self.binding_at(scope, text(root, self.src), root),
            Some(Binding::Def(_) | Binding::Value { .. } | Binding::Param { .. })
        )
    }

    /// Where the statements of `block` that call a function of this module
    /// writing state (`global`, stores into module-level objects, `.set`)
    /// start.
    fn writer_calls_in(&self, block: Node<'t>) -> Rc<Vec<usize>> {
        if let Some(found) = self.writer_calls.borrow().get(&block.id()) {
            return found.clone();
        }
        let writers = self.state_writers();
        let scope = self.innermost_scope_at(block.start_byte());
        let mut starts = Vec::new();
        let mut c = block.walk();
        for statement in block.named_children(&mut c) {
            if statement.kind_name() != "expression_statement" {
                continue;
            }
            let call = statement.named_child(0).filter(|e| e.kind_name() == "call");
            let writes = call
                .and_then(|call| call.field("function"))
                .filter(|f| f.kind_name() == "identifier")
                .is_some_and(|f| {
                    matches!(self.binding_at(scope, text(f, self.src), f), Some(Binding::Def(d)) if writers.contains(d))
                })
                || call.is_some_and(|call| self.foreign_writer(call, scope).is_some());
            if writes {
                starts.push(statement.start_byte());
            }
        }
        let starts = Rc::new(starts);
        self.writer_calls
            .borrow_mut()
            .insert(block.id(), starts.clone());
        starts
    }

    /// The functions whose own code writes state: declares a global it
    /// assigns, stores an attribute path of another object, calls `.set`.
    fn state_writers(&self) -> &HashSet<ScopeId> {
        self.state_writer_scopes.get_or_init(|| {
            let mut out: HashSet<ScopeId> = self
                .globals_declared
                .iter()
                .filter(|(_, names)| !names.is_empty())
                .map(|(scope, _)| *scope)
                .collect();
            out.extend(
                self.path_stores
                    .values()
                    .flatten()
                    .map(|(scope, _, _)| *scope)
                    .filter(|s| *s != MODULE_SCOPE),
            );
            out.extend(
                self.call_sites_named(&["set", "setattr"])
                    .into_iter()
                    .map(|site| site.scope)
                    .filter(|s| *s != MODULE_SCOPE),
            );
            out.extend(self.state_list_growers());
            // A function calling a writer writes through it (`set_target(p)`
            // calling `set_global("target", p)`), as many levels as setters
            // are followed.
            for _ in 0..MAX_SETTER_DEPTH {
                let callers: Vec<ScopeId> = self
                    .calls
                    .iter()
                    .filter(|site| site.scope != MODULE_SCOPE && !out.contains(&site.scope))
                    .filter(|site| {
                        site.node
                            .field("function")
                            .filter(|f| f.kind_name() == "identifier")
                            .is_some_and(|f| {
                                matches!(self.binding_at(site.scope, text(f, self.src), f),
                                    Some(Binding::Def(d)) if out.contains(d))
                            })
                    })
                    .map(|site| site.scope)
                    .collect();
                if callers.is_empty() {
                    break;
                }
                out.extend(callers);
            }
            out
        })
    }

    /// The functions that push onto a module-level list (`_STACK.append(x)`,
    /// see `Key::Top`).
    fn state_list_growers(&self) -> impl Iterator<Item = ScopeId> + use<'_, 't> {
        self.call_sites_named(&["append"])
            .into_iter()
            .filter(|site| site.scope != MODULE_SCOPE)
            .filter(|site| {
                site.node
                    .field("function")
                    .filter(|f| f.kind_name() == "attribute")
                    .and_then(|f| f.field("object"))
                    .and_then(|object| self.state_list(object, site.scope))
                    .is_some()
            })
            .map(|site| site.scope)
    }

    /// The steps from `node` up to `top` (the node of its scope) where state
    /// may be set before it: (a block or the module, the statement in it on
    /// the way), (a `with`, its body).
    fn steps_up(&self, node: Node<'t>, top: Node<'t>) -> Vec<(Node<'t>, Node<'t>)> {
        let mut steps = Vec::new();
        let mut child = node;
        while let Some(parent) = self.parent_of(child) {
            let is_body = || parent.field("body").is_some_and(|b| b.id() == child.id());
            match parent.kind_name() {
                "block" | "module" => steps.push((parent, child)),
                "with_statement" if is_body() => steps.push((parent, child)),
                _ => {}
            }
            if parent.id() == top.id() {
                break;
            }
            child = parent;
        }
        steps
    }

    fn state_at(&self, node: Node<'t>, scope: ScopeId) -> Overlay<'t> {
        let mut overlay = Overlay::default();
        let flow = self.flow();
        for (node, scope) in self.call_chain(node, scope) {
            // Nearest first: the statements before it in each enclosing
            // block, the context managers of each enclosing `with`.
            for (parent, child) in self.steps_up(node, self.scopes[scope].node) {
                if parent.kind_name() == "with_statement" {
                    for item in with_item_calls(parent).into_iter().rev() {
                        self.entered_state(&flow, item, scope, &mut overlay);
                    }
                    continue;
                }
                // (One pass over the block: `prev_named_sibling` scans the
                // parent's children each time.)
                let mut c = parent.walk();
                let before: Vec<Node<'t>> = parent
                    .named_children(&mut c)
                    .take_while(|s| s.id() != child.id())
                    .collect();
                for statement in before.into_iter().rev() {
                    self.statement_state(&flow, statement, scope, &mut overlay);
                }
            }
            // `@settings(flag=False) def step(): ...`: the body runs inside
            // the decorator's context manager (the one nearest the def last).
            if let Some(outer) = self.scopes[scope].parent {
                for decorator in self.context_decorator_calls(scope) {
                    self.entered_state(&flow, decorator, outer, &mut overlay);
                }
            }
        }
        overlay
    }

    /// The call decorators of def `scope`, nearest the def first, that may
    /// enter a context manager of this module (`@settings(flag=False)`).
    fn context_decorator_calls(&self, scope: ScopeId) -> Vec<Node<'t>> {
        let Some(outer) = self.scopes[scope].parent else {
            return Vec::new();
        };
        if self.scopes[scope].kind != ScopeKind::Function {
            return Vec::new();
        }
        let mut out: Vec<Node<'t>> = self.scopes[scope]
            .decorators()
            .into_iter()
            .map(unparenthesize)
            .filter(|d| d.kind_name() == "call" && self.may_enter_own(*d, outer))
            .collect();
        out.reverse();
        out
    }

    /// What a statement before the lowering sets: a setter's stores when it
    /// is a call of one (of this module, or of another module of the
    /// workspace); else every key it may set is settled as the module reads
    /// it.
    fn statement_state(
        &self,
        flow: &Flow<'_, 't>,
        statement: Node<'t>,
        scope: ScopeId,
        overlay: &mut Overlay<'t>,
    ) {
        match statement.kind_name() {
            "function_definition"
            | "class_definition"
            | "decorated_definition"
            | "import_statement"
            | "import_from_statement"
            | "future_import_statement"
            | "pass_statement"
            | "global_statement"
            | "nonlocal_statement"
            | "comment" => {}
            _ if self.enters_by_hand && statement_entering(statement, self.src).is_some() => {
                if let Some(item) = self.statement_enters(statement, scope) {
                    self.entered_state(flow, item, scope, overlay);
                }
            }
            "expression_statement" => {
                let call = statement.named_child(0).filter(|e| e.kind_name() == "call");
                if let Some((call, (def, stores))) =
                    call.and_then(|call| Some((call, self.setter_stores(call, scope, 0)?)))
                {
                    let frame = (def, call, scope, None);
                    apply_stores(flow, within_frames(stores, &[frame]), call, overlay);
                } else if let Some((call, writer)) =
                    call.and_then(|call| Some((call, self.foreign_writer(call, scope)?)))
                {
                    self.foreign_state(flow, call, scope, &writer, false, overlay);
                } else {
                    self.settle_within(statement, scope, overlay);
                }
            }
            _ => self.settle_within(statement, scope, overlay),
        }
    }

    /// Settles every key code in `node` may set.
    fn settle_within(&self, node: Node<'t>, scope: ScopeId, overlay: &mut Overlay<'t>) {
        let cached = self
            .keys_settled_by
            .borrow()
            .get(&(node.id(), scope))
            .cloned();
        let keys = cached.unwrap_or_else(|| {
            let keys: Rc<[StoreKey<'t>]> = self.keys_set_within(node, scope, 0).into();
            self.keys_settled_by
                .borrow_mut()
                .insert((node.id(), scope), keys.clone());
            keys
        });
        for key in keys.iter() {
            overlay.settle_target(key.clone());
        }
    }

    /// What entering the context manager `call` sets: a `@contextmanager`
    /// generator's stores before its `yield` (and those of the context
    /// managers it enters around the `yield`), a class's `__enter__`'s; also
    /// through a helper that returns such a call (`with scope():`); also
    /// one of another module of the workspace (`with Manager(...):`).
    fn entered_state(
        &self,
        flow: &Flow<'_, 't>,
        call: Node<'t>,
        scope: ScopeId,
        overlay: &mut Overlay<'t>,
    ) {
        if let Some(stores) = self.entered_stores(flow, call, scope, &[], 0) {
            apply_stores(flow, stores, call, overlay);
        } else if let Some(writer) = self.foreign_writer(call, scope) {
            self.foreign_state(flow, call, scope, &writer, true, overlay);
        }
    }

    /// The stores entering `call` (made in `scope`, inside the calls
    /// `frames` binds) makes, each value with the calls to bind to read it.
    fn entered_stores(
        &self,
        flow: &Flow<'_, 't>,
        call: Node<'t>,
        scope: ScopeId,
        frames: &[BoundCall<'t>],
        depth: u32,
    ) -> Option<Vec<Store<'t>>> {
        if depth > MAX_SETTER_DEPTH {
            return None;
        }
        let Some((def, receiver)) = self.callee_of(flow, call, scope) else {
            if let Some(stores) = self.foreign_entered_stores(flow, call, scope, frames) {
                return Some(stores);
            }
            // `with MANAGERS[os.environ.get(K, "scope")](...)`: what a plain
            // run enters, each value it sets naming the default.
            let (def, receiver, why) = self.default_callee_of(flow, call, scope)?;
            let stores = self.stores_entering(flow, call, scope, def, receiver, frames, depth)?;
            return Some(stores_noted(stores, &why));
        };
        self.stores_entering(flow, call, scope, def, receiver, frames, depth)
    }

    /// The stores entering `call` makes when it calls `def` (a
    /// `@contextmanager` function, a helper returning one, or a class).
    #[allow(clippy::too_many_arguments)]
    fn stores_entering(
        &self,
        flow: &Flow<'_, 't>,
        call: Node<'t>,
        scope: ScopeId,
        def: ScopeId,
        receiver: Option<Alt<'t>>,
        frames: &[BoundCall<'t>],
        depth: u32,
    ) -> Option<Vec<Store<'t>>> {
        let mut inner: Vec<BoundCall<'t>> = frames.to_vec();
        match self.scopes[def].kind {
            ScopeKind::Function => {
                inner.push((def, call, scope, receiver));
                self.function_entered_stores(flow, def, &inner, depth)
            }
            ScopeKind::Class => {
                let enter = self.method(def, "__enter__")?;
                // The object made: the one alternative, or the one of this
                // class a default picks.
                let made: Vec<Alt<'t>> = flow
                    .eval(call, scope)
                    .into_iter()
                    .filter(|a| matches!(a.val, Val::Instance(class, _) if class == def))
                    .collect();
                let instance = match &made[..] {
                    [one] => one.clone(),
                    _ => return None,
                };
                inner.push((enter, call, scope, Some(instance)));
                self.enter_stores(flow, enter, &inner, depth)
            }
            _ => None,
        }
    }

    /// The def a call calls in a plain run when only a default of run-time
    /// configuration picks it (`MANAGERS[os.environ.get(K, "scope")](...)`,
    /// the others run-time choices), with that default's `Why`.
    fn default_callee_of(
        &self,
        flow: &Flow<'_, 't>,
        call: Node<'t>,
        scope: ScopeId,
    ) -> Option<(ScopeId, Option<Alt<'t>>, Why)> {
        let func = call.field("function")?;
        if !matches!(func.kind_name(), "subscript" | "call" | "identifier") {
            return None;
        }
        let alts = flow.eval(func, scope);
        if alts.iter().any(|a| a.why.certain()) {
            return None;
        }
        let mut picked = alts.iter().filter_map(|a| match (&a.why, &a.val) {
            (Why::Default(_), Val::Function(def) | Val::Class(def)) => Some((*def, &a.why)),
            _ => None,
        });
        let (def, why) = picked.next()?;
        picked
            .all(|(other, _)| other == def)
            .then(|| (def, None, why.clone()))
    }

    /// The stores entering what a call of another module's manager makes
    /// (`targeting(platforms)` in a local manager, its parameters bound by
    /// `frames`): the state that module says it sets, then its roots
    /// settled (as `foreign_state`).
    fn foreign_entered_stores(
        &self,
        flow: &Flow<'_, 't>,
        call: Node<'t>,
        scope: ScopeId,
        frames: &[BoundCall<'t>],
    ) -> Option<Vec<Store<'t>>> {
        let writer = self.foreign_writer(call, scope)?;
        let mut out: Vec<Store<'t>> = writer
            .roots
            .iter()
            .map(|root| (StoreKey::Foreign(writer.file.clone(), root.clone()), None))
            .collect();
        let (Some(resolver), Some(file)) = (self.resolver.get(), self.file.borrow().clone()) else {
            return Some(out);
        };
        let args = match frames {
            [] => flow.foreign_args(None, call, scope, 0),
            _ => flow
                .in_frames(frames, &|| flow.foreign_args(None, call, scope, 0))
                .flatten(),
        };
        if let Some(args) = args {
            let sets = resolver.call_state(&file, &writer.path, &args, true);
            // Applied last to first: the sets before the roots settle.
            out.push((
                StoreKey::Entered(EnteredForeign(Rc::new(sets.to_vec()))),
                None,
            ));
        }
        Some(out)
    }

    /// The stores entering what a call of function `def` returns makes
    /// (`frames` binds the call; none when the caller binds it): a
    /// `@contextmanager`'s before its `yield`, or, for a helper returning
    /// such a call, that call's.
    fn function_entered_stores(
        &self,
        flow: &Flow<'_, 't>,
        def: ScopeId,
        frames: &[BoundCall<'t>],
        depth: u32,
    ) -> Option<Vec<Store<'t>>> {
        let def_node = self.scopes[def].node;
        if !self.is_context_manager(def) {
            // `def scope(): return kernel_target("gpu")`.
            let [returned] = self.scopes[def].returned[..] else {
                return None;
            };
            let returned = unparenthesize(returned);
            if returned.kind_name() != "call" || !self.yields_of(def_node).is_empty() {
                return None;
            }
            return self.entered_stores(flow, returned, def, frames, depth + 1);
        }
        let [only_yield] = self.yields_of(def_node)[..] else {
            return None;
        };
        let (before, withs) = statements_before(def_node.field("body")?, only_yield.start_byte())?;
        let mut out = within_frames(self.stores_in(def, &before, depth + 1), frames);
        // `with kernel_target("gpu"): yield`: entered after those.
        for with in withs {
            for item in with_item_calls(with) {
                for (key, value) in self
                    .entered_stores(flow, item, def, frames, depth + 1)
                    .unwrap_or_default()
                {
                    out.retain(|(k, _)| *k != key);
                    out.push((key, value));
                }
            }
        }
        Some(out)
    }

    /// The stores of a class's `__enter__` (`frames` binds it, the object
    /// its receiver; none when the caller binds it).
    fn enter_stores(
        &self,
        flow: &Flow<'_, 't>,
        enter: ScopeId,
        frames: &[BoundCall<'t>],
        depth: u32,
    ) -> Option<Vec<Store<'t>>> {
        let body = self.scopes[enter].node.field("body")?;
        let statements = until_return(body);
        let mut out = within_frames(self.stores_in(enter, &statements, depth + 1), frames);
        // `self._stack.enter_context(kernel_target("gpu"))`, `return
        // self._ctx.__enter__()`: what those managers set, after its own.
        let mut c = body.walk();
        let entering: Vec<Node<'t>> = body
            .named_children(&mut c)
            .filter_map(|statement| self.statement_enters(statement, enter))
            .collect();
        for item in entering {
            for (key, value) in self
                .entered_stores(flow, item, enter, frames, depth + 1)
                .unwrap_or_default()
            {
                out.retain(|(k, _)| *k != key);
                out.push((key, value));
            }
        }
        Some(out)
    }

    /// The def or class `call` calls, by value (`cm(...)`, `CLASSES[k](...)`,
    /// `obj.method(...)` with the object as the receiver).
    fn callee_of(
        &self,
        flow: &Flow<'_, 't>,
        call: Node<'t>,
        scope: ScopeId,
    ) -> Option<(ScopeId, Option<Alt<'t>>)> {
        let func = call.field("function")?;
        if func.kind_name() == "identifier" {
            if let Some(Binding::Def(def)) = self.binding_at(scope, text(func, self.src), func) {
                return Some((*def, None));
            }
        }
        if func.kind_name() == "attribute" {
            let object = func.field("object")?;
            let name = text(func.field("attribute")?, self.src);
            return match &flow.eval(object, scope)[..] {
                [one] if one.why.certain() => match one.val {
                    Val::Instance(class, _) => Some((self.method(class, name)?, Some(one.clone()))),
                    _ => None,
                },
                _ => None,
            };
        }
        match &flow.eval(func, scope)[..] {
            [one] if one.why.certain() => match one.val {
                Val::Function(def) | Val::Class(def) => Some((def, None)),
                _ => None,
            },
            _ => None,
        }
    }

    /// A call of a setter: a plain function of this module (no decorator,
    /// not a generator) whose straight-line code stores state. Each store's
    /// frames are those past the setter's own (a setter it calls).
    fn setter_stores(
        &self,
        call: Node<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Option<(ScopeId, Vec<Store<'t>>)> {
        if depth > MAX_SETTER_DEPTH {
            return None;
        }
        let func = call
            .field("function")
            .filter(|f| f.kind_name() == "identifier")?;
        let Some(Binding::Def(def)) = self.binding_at(scope, text(func, self.src), func) else {
            return None;
        };
        let def = *def;
        let stores = self.plain_setter_stores(def, depth)?;
        (!stores.is_empty()).then_some((def, stores))
    }

    /// The stores of `def` when it is a plain function (no decorator, not
    /// a generator), in its straight-line code.
    fn plain_setter_stores(&self, def: ScopeId, depth: u32) -> Option<Vec<Store<'t>>> {
        let node = self.scopes[def].node;
        if self.scopes[def].kind != ScopeKind::Function
            || !self.scopes[def].decorators().is_empty()
            || !self.yields_of(node).is_empty()
        {
            return None;
        }
        Some(self.stores_in(def, &until_return(node.field("body")?), depth + 1))
    }

    /// The stores of state among `statements` of `def`, in order (a later
    /// store of a key wins when they are applied in turn). A store inside a
    /// compound statement is not certain to run: its key is `None`-valued.
    /// A setter `def` calls adds its stores, read with that call bound.
    fn stores_in(&self, def: ScopeId, statements: &[Node<'t>], depth: u32) -> Vec<Store<'t>> {
        let mut out: Vec<Store<'t>> = Vec::new();
        let put = |out: &mut Vec<Store<'t>>, key: StoreKey<'t>, value: Option<Node<'t>>| {
            out.retain(|(k, _)| *k != key);
            out.push((key, value.map(|v| (v, Vec::new(), Why::Fixed))));
        };
        for &statement in statements {
            let expr = match statement.kind_name() {
                "expression_statement" => statement.named_child(0),
                _ => {
                    for key in self.keys_set_within(statement, def, depth) {
                        put(&mut out, key, None);
                    }
                    continue;
                }
            };
            let Some(expr) = expr else { continue };
            match expr.kind_name() {
                "assignment" => {
                    let (Some(left), right) = (expr.field("left"), expr.field("right")) else {
                        continue;
                    };
                    // `_state.allowed, _state.forbidden = allowed, forbidden`:
                    // each target gets the value in its place.
                    let pairs = match paired_targets(left, right) {
                        Some(pairs) => pairs,
                        None => vec![(left, right.map(unparenthesize))],
                    };
                    for (target, value) in pairs {
                        if let Some(key) = self.state_key(target, def) {
                            put(&mut out, StoreKey::Key(key), value);
                        } else {
                            for key in self.keys_set_within(target, def, depth) {
                                put(&mut out, key, None);
                            }
                        }
                    }
                    if let Some((key, value)) = right.and_then(|r| self.keyed_store(r, def)) {
                        put(&mut out, key, value);
                    }
                }
                "call" => {
                    if let Some((key, value)) = self.keyed_store(expr, def) {
                        put(&mut out, key, value);
                    } else if let Some((setter, stores)) = self.setter_stores(expr, def, depth) {
                        let frame = (setter, expr, def, None);
                        for (key, value) in within_frames(stores, &[frame]) {
                            out.retain(|(k, _)| *k != key);
                            out.push((key, value));
                        }
                    } else {
                        for key in self.keys_set_within(expr, def, depth) {
                            put(&mut out, key, None);
                        }
                    }
                }
                _ => {
                    for key in self.keys_set_within(expr, def, depth) {
                        put(&mut out, key, None);
                    }
                }
            }
        }
        out
    }

    /// The key an assignment target of `def` stores: a global it declares,
    /// an attribute of a module-level object.
    fn state_key(&self, target: Node<'t>, def: ScopeId) -> Option<Key> {
        match target.kind_name() {
            "identifier" => {
                let name = text(target, self.src);
                let global = def == MODULE_SCOPE
                    || self
                        .globals_declared
                        .get(&def)
                        .is_some_and(|names| names.iter().any(|n| n == name));
                global.then(|| Key::Name(name.to_owned()))
            }
            "attribute" => {
                let mut root = target;
                while root.kind_name() == "attribute" {
                    root = root.field("object")?;
                }
                (root.kind_name() == "identifier" && self.is_module_name(def, text(root, self.src)))
                    .then(|| Key::Path(text(target, self.src).to_owned()))
            }
            _ => None,
        }
    }

    /// `setattr(OBJ, "attr", v)` on a module-level object (the name may be
    /// a parameter: `setattr(_STATE, name, value)`, read with the call
    /// bound), `VAR.set(v)` on a context variable.
    fn keyed_store(
        &self,
        call: Node<'t>,
        def: ScopeId,
    ) -> Option<(StoreKey<'t>, Option<Node<'t>>)> {
        if call.kind_name() != "call" {
            return None;
        }
        let func = call.field("function")?;
        let args = self.args_of(call);
        match func.kind_name() {
            "identifier" if text(func, self.src) == "setattr" => {
                let [object, name, value] = args.positional[..] else {
                    return None;
                };
                if object.kind_name() != "identifier"
                    || !self.is_module_name(def, text(object, self.src))
                {
                    return None;
                }
                let root = text(object, self.src);
                let key = match crate::syntax::string_value(name, self.src) {
                    Some(attr) => StoreKey::Key(Key::Path(format!("{root}.{attr}"))),
                    None => StoreKey::Named {
                        root: root.to_owned(),
                        name,
                    },
                };
                Some((key, Some(value)))
            }
            "attribute" if let Some(store) = self.list_store(func, &args, def) => Some(store),
            "attribute" if func.field("attribute").map(|a| text(a, self.src)) == Some("set") => {
                let object = func.field("object")?;
                let value = *args.positional.first()?;
                let vars = self.flow_with_budget(200).eval(object, def);
                match vars[..] {
                    [Alt {
                        val: Val::ContextVar(ctor, _),
                        ..
                    }] => Some((StoreKey::Key(Key::Var(ctor.start_byte())), Some(value))),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `_STACK.append(frame)` (`func` of a call with `args`, in `def`): the
    /// list's last item is `frame`; any other change of its items leaves
    /// that not known.
    fn list_store(
        &self,
        func: Node<'t>,
        args: &super::Args<'t>,
        def: ScopeId,
    ) -> Option<(StoreKey<'t>, Option<Node<'t>>)> {
        let method = text(func.field("attribute")?, self.src);
        if !LIST_MUTATORS.contains(&method) {
            return None;
        }
        let path = self.state_list(func.field("object")?, def)?;
        let value = match (method, &args.positional[..]) {
            ("append", [value]) if args.keywords.is_empty() && !args.has_splat => Some(*value),
            _ => None,
        };
        Some((StoreKey::Key(Key::Top(path)), value))
    }

    /// The path of a module-level list `object` names in `def` (`_STACK`,
    /// `_state.stack`): a module-level name, or an attribute path rooted at
    /// one.
    fn state_list(&self, object: Node<'t>, def: ScopeId) -> Option<String> {
        let root = super::attribute_root(object)?;
        if !self.is_module_name(def, text(root, self.src)) {
            return None;
        }
        // The module's own variables, not an imported module's
        // (`sys.path.append(p)`).
        let own = self
            .bindings_in(MODULE_SCOPE, text(root, self.src))?
            .iter()
            .all(|b| !matches!(b, Binding::Import(_)));
        own.then(|| text(object, self.src).to_owned())
    }

    /// Every key code in `node` may set (values not read): assignment
    /// targets, setters called, context managers entered, also those of
    /// other modules.
    fn keys_set_within(&self, node: Node<'t>, scope: ScopeId, depth: u32) -> Vec<StoreKey<'t>> {
        let mut out = Vec::new();
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            match n.kind_name() {
                "function_definition" | "class_definition" | "lambda" => continue,
                "assignment" | "augmented_assignment" | "for_statement" => {
                    let target = n.field("left");
                    let mut targets: Vec<Node<'t>> = target.into_iter().collect();
                    while let Some(t) = targets.pop() {
                        match self.state_key(t, scope) {
                            Some(key) => out.push(StoreKey::Key(key)),
                            None => {
                                let mut c = t.walk();
                                targets.extend(t.named_children(&mut c).filter(|c| {
                                    matches!(
                                        c.kind_name(),
                                        "identifier"
                                            | "attribute"
                                            | "pattern_list"
                                            | "tuple_pattern"
                                            | "list_pattern"
                                    )
                                }));
                            }
                        }
                    }
                }
                "call" => {
                    if let Some((_, stores)) = self.setter_stores(n, scope, depth) {
                        out.extend(stores.into_iter().map(|(k, _)| k));
                    }
                    if let Some((key, _)) = self.keyed_store(n, scope) {
                        out.push(key);
                    }
                    out.extend(self.foreign_roots(n, scope));
                }
                "with_statement" => {
                    for call in with_item_calls(n) {
                        let flow = self.flow_with_budget(200);
                        if let Some(stores) = self.entered_stores(&flow, call, scope, &[], depth) {
                            out.extend(stores.into_iter().map(|(k, _)| k));
                        }
                    }
                }
                _ => {}
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        out
    }

    /// Whether this module imports a name that may come from another module
    /// of the workspace (not a library's), and a resolver can look it up.
    /// Read from the imports alone: which of those modules set state is
    /// asked per call (`foreign_writer`), so only the modules whose
    /// functions are called where state matters are summarised, not every
    /// module imported (that doubled a directory check's time).
    fn imports_workspace_names(&self) -> bool {
        *self.foreign_writers_imported.get_or_init(|| {
            self.resolver.get().is_some()
                && self.file.borrow().is_some()
                && self.module_bindings().any(|(_, bindings)| {
                    bindings.iter().any(
                        |b| matches!(b, Binding::Import(path) if !reach::is_library_path(path)),
                    )
                })
        })
    }

    /// The function or class of another module of the workspace that
    /// `call` calls, when calling (or entering) it sets that module's
    /// state: its path as named here, its module, the roots of what it
    /// may set.
    fn foreign_writer(&self, call: Node<'t>, scope: ScopeId) -> Option<ForeignWriter> {
        if !self.imports_workspace_names() {
            return None;
        }
        // (Asked of each call before every statement after it: remembered.)
        if let Some(known) = self.foreign_writers.borrow().get(&call.id()) {
            return known.clone();
        }
        let found = self.find_foreign_writer(call, scope);
        self.foreign_writers
            .borrow_mut()
            .insert(call.id(), found.clone());
        found
    }

    fn find_foreign_writer(&self, call: Node<'t>, scope: ScopeId) -> Option<ForeignWriter> {
        let resolver = self.resolver.get()?;
        let file = self.file.borrow().clone()?;
        let path = self.callee(call, scope)?;
        if reach::is_library_path(&path) || !path.contains('.') {
            return None;
        }
        let (summary, name) = resolver.resolve_function(&file, &path)?;
        if *summary.file == *file {
            return None;
        }
        let roots = match summary.state_writers.get(&name) {
            Some(roots) => roots.clone(),
            // A manager of that module wrapping a third module's: the
            // state it sets is the third module's, told by `call_state`.
            None if resolver
                .chained_state_managers(&summary.file)
                .contains(&name) =>
            {
                Vec::new()
            }
            None => return None,
        };
        Some(ForeignWriter {
            path,
            file: summary.file.clone(),
            roots,
        })
    }

    /// The roots of the state of another module a call may set, to be
    /// settled (`StoreKey::Foreign`).
    fn foreign_roots(&self, call: Node<'t>, scope: ScopeId) -> Vec<StoreKey<'t>> {
        match self.foreign_writer(call, scope) {
            Some(writer) => writer
                .roots
                .iter()
                .map(|root| StoreKey::Foreign(writer.file.clone(), root.clone()))
                .collect(),
            None => Vec::new(),
        }
    }

    /// What `call` of another module's writer (or entering what it makes)
    /// sets, asked of that module with the call's values.
    fn foreign_state(
        &self,
        flow: &Flow<'_, 't>,
        call: Node<'t>,
        scope: ScopeId,
        writer: &ForeignWriter,
        entering: bool,
        overlay: &mut Overlay<'t>,
    ) {
        let settle_all = |overlay: &mut Overlay<'t>| {
            for root in &writer.roots {
                overlay.settle_target(StoreKey::Foreign(writer.file.clone(), root.clone()));
            }
        };
        let (Some(resolver), Some(file)) = (self.resolver.get(), self.file.borrow().clone()) else {
            return settle_all(overlay);
        };
        let Some(args) = flow.foreign_args(None, call, scope, 0) else {
            return settle_all(overlay);
        };
        let sets = resolver.call_state(&file, &writer.path, &args, entering);
        // Later stores are nearer the lowering: applied first.
        for set in sets.iter().rev() {
            overlay.set_foreign(set.clone(), call.id());
        }
        // What it may set but did not say: as that module reads it.
        settle_all(overlay);
    }

    /// What calling module-level function or class `name` (from another
    /// module) sets of this module's state, or entering what it makes with
    /// `entering`, in the order its stores run; a value not known is an
    /// empty list (the caller then reads the key as this module does).
    pub fn state_for_call(
        &self,
        name: &str,
        call: &super::summary::ForeignCall,
        entering: bool,
    ) -> Vec<StateSet> {
        let Some(file) = self.file.borrow().as_deref().map(Arc::<Path>::from) else {
            return Vec::new();
        };
        let Some(id) = self.answered_def(name, call) else {
            return Vec::new();
        };
        let flow = self.flow();
        let (def, receiver) = match (self.scopes[id].kind, entering) {
            (ScopeKind::Class, true) => {
                let Some(enter) = self.method(id, "__enter__") else {
                    return Vec::new();
                };
                let instance = self
                    .construct_for_call(id, call)
                    .map(|alts| super::flow::from_consts(&alts));
                match instance.as_deref() {
                    Some([one]) => (enter, Some(one.clone())),
                    _ => return Vec::new(),
                }
            }
            (ScopeKind::Function, _) => (id, None),
            _ => return Vec::new(),
        };
        let given = match receiver {
            Some(_) => Vec::new(),
            None => match self.bind_call(&flow, def, false, call) {
                Some(given) => given,
                None => return Vec::new(),
            },
        };
        let frame = super::flow::Frame {
            def,
            given,
            kwargs: std::sync::Arc::new(self.extra_keywords(def, call)),
            receiver: receiver.clone(),
        };
        flow.with_frames(&[frame], || {
            let stores = match (receiver.is_some(), entering) {
                (true, _) => self.enter_stores(&flow, def, &[], 0),
                (false, true) => self.function_entered_stores(&flow, def, &[], 0),
                (false, false) => self.plain_setter_stores(def, 0),
            };
            let mut out = Vec::new();
            for (key, value) in stores.unwrap_or_default() {
                // What a manager of a third module it enters sets: that
                // module's state, passed on.
                if let StoreKey::Entered(EnteredForeign(sets)) = &key {
                    out.extend(sets.iter().cloned());
                    continue;
                }
                let Some(key) = resolve_key(&flow, &key, value.as_ref(), def) else {
                    continue;
                };
                let alts = value
                    .map(|(v, calls, why)| noted(read_in_frames(&flow, &calls, v, def), &why))
                    .unwrap_or_default();
                let known = !alts.is_empty() && alts.iter().all(|a| !a.val.is_unknown());
                let values = match known {
                    true => flow.detach_passing(&alts),
                    false => Vec::new(),
                };
                out.push(StateSet {
                    file: file.clone(),
                    key,
                    values,
                });
            }
            out
        })
    }

    /// Takes what a call from another module brings besides its arguments:
    /// the environment and registrations of the caller, and the state of
    /// this module it set (in force while the call is answered).
    pub(crate) fn accept_call(&self, call: &super::summary::ForeignCall) {
        self.caller_env.replace(call.env_set.clone());
        self.caller_registered.replace(call.registered.clone());
        let Some(file) = self.file.borrow().clone() else {
            return;
        };
        let mut overlay = Overlay::default();
        for set in call.state.iter().filter(|s| *s.file == *file) {
            if !set.values.is_empty() {
                let alts = super::flow::from_consts(&set.values);
                overlay.entries.push((set.key.clone(), alts));
            }
        }
        if overlay.entries.is_empty() {
            return;
        }
        // One state per call answered (each answer gets a fresh model).
        overlay.sources.push(usize::MAX);
        self.active_overlay.set(0);
        let slot = self.layer_for(overlay);
        self.active_overlay.set(slot);
    }

    /// The state of other modules in force (set before the lowering being
    /// answered), passed on with each call into another module.
    pub(crate) fn foreign_state_in_force(&self) -> Arc<Vec<StateSet>> {
        self.active_layer()
            .map(|layer| layer.overlay.foreign.clone())
            .unwrap_or_default()
    }
}

/// A function or class of another module whose call sets its state.
#[derive(Clone)]
pub(crate) struct ForeignWriter {
    /// As named in the calling module.
    path: String,
    file: Arc<Path>,
    roots: Vec<String>,
}

/// The targets of `a, b = x, y` with the values in their places; `None`
/// unless both sides are written sequences of the same length without a
/// `*` (then the whole value is unpacked at run time).
fn paired_targets<'t>(
    left: Node<'t>,
    right: Option<Node<'t>>,
) -> Option<Vec<(Node<'t>, Option<Node<'t>>)>> {
    let left = unparenthesize(left);
    let right = unparenthesize(right?);
    if !matches!(left.kind_name(), "pattern_list" | "tuple_pattern")
        || !matches!(right.kind_name(), "expression_list" | "tuple")
    {
        return None;
    }
    let targets: Vec<Node<'t>> = {
        let mut cursor = left.walk();
        left.named_children(&mut cursor).collect()
    };
    let values: Vec<Node<'t>> = {
        let mut cursor = right.walk();
        right
            .named_children(&mut cursor)
            .filter(|n| n.kind_name() != "comment")
            .collect()
    };
    let starred = |n: &Node<'t>| matches!(n.kind_name(), "list_splat_pattern" | "list_splat");
    if targets.len() != values.len() || targets.iter().chain(&values).any(starred) {
        return None;
    }
    Some(
        targets
            .into_iter()
            .zip(values.into_iter().map(|v| Some(unparenthesize(v))))
            .collect(),
    )
}

/// The key a store sets, read with its calls bound: `None` when a
/// `setattr` name is not one known string.
fn resolve_key<'t>(
    flow: &Flow<'_, 't>,
    key: &StoreKey<'t>,
    value: Option<&(Node<'t>, Vec<BoundCall<'t>>, Why)>,
    def: ScopeId,
) -> Option<Key> {
    match key {
        StoreKey::Key(key) => Some(key.clone()),
        StoreKey::Named { root, name } => {
            let calls = value.map(|(_, calls, _)| calls.as_slice()).unwrap_or(&[]);
            match read_in_frames(flow, calls, *name, def).as_slice() {
                [one] if one.why.certain() => match &one.val {
                    Val::Str(attr) => Some(Key::Path(format!("{root}.{attr}"))),
                    _ => None,
                },
                _ => None,
            }
        }
        StoreKey::Foreign(..) | StoreKey::Entered(_) => None,
    }
}

/// `alts`, each at most as sure as `why` (a default's note).
fn noted<'t>(alts: Vec<Alt<'t>>, why: &Why) -> Vec<Alt<'t>> {
    alts.into_iter()
        .map(|a| Alt {
            why: a.why.and(why),
            ..a
        })
        .collect()
}

/// `stores`, each at most as sure as `why`.
fn stores_noted<'t>(stores: Vec<Store<'t>>, why: &Why) -> Vec<Store<'t>> {
    stores
        .into_iter()
        // Another module's state, passed on as sets of constants, has no
        // room for the note: not set.
        .filter(|(key, _)| why.certain() || !matches!(key, StoreKey::Entered(_)))
        .map(|(key, value)| (key, value.map(|(v, calls, w)| (v, calls, w.and(why)))))
        .collect()
}

/// `node` read with `calls` bound; in `def` (bound by the caller) when
/// there are none.
fn read_in_frames<'t>(
    flow: &Flow<'_, 't>,
    calls: &[BoundCall<'t>],
    node: Node<'t>,
    def: ScopeId,
) -> Vec<Alt<'t>> {
    match calls {
        [] => flow.eval(node, def),
        _ => flow.eval_in_frames(calls, node),
    }
}

/// `stores` read inside `frames` (outermost first) before their own.
fn within_frames<'t>(stores: Vec<Store<'t>>, frames: &[BoundCall<'t>]) -> Vec<Store<'t>> {
    stores
        .into_iter()
        .map(|(key, value)| {
            let value = value.map(|(v, inner, why)| {
                let mut calls = frames.to_vec();
                calls.extend(inner);
                (v, calls, why)
            });
            (key, value)
        })
        .collect()
}

/// Sets each store's key in `overlay` to its value, read with its calls
/// bound (`source`: the `with` item or setter call they come from). Later
/// stores are nearer the lowering: applied first.
fn apply_stores<'t>(
    flow: &Flow<'_, 't>,
    stores: Vec<Store<'t>>,
    source: Node<'t>,
    overlay: &mut Overlay<'t>,
) {
    for (key, value) in stores.into_iter().rev() {
        if let StoreKey::Entered(EnteredForeign(sets)) = &key {
            for set in sets.iter().rev() {
                overlay.set_foreign(set.clone(), source.id());
            }
            continue;
        }
        let Some(resolved) = resolve_key(flow, &key, value.as_ref(), MODULE_SCOPE) else {
            overlay.settle_target(key);
            continue;
        };
        let alts = value
            .map(|(v, calls, why)| noted(read_in_frames(flow, &calls, v, MODULE_SCOPE), &why))
            .unwrap_or_default();
        overlay.set(resolved, alts, source.id());
    }
}

/// The calls a `with` statement enters (`with cm(a), other() as b:`).
fn with_item_calls(with: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut stack = vec![with];
    while let Some(n) = stack.pop() {
        if n.kind_name() == "with_item" {
            let mut value = n.field("value");
            if let Some(v) = value.filter(|v| v.kind_name() == "as_pattern") {
                value = v.named_child(0);
            }
            if let Some(call) = value
                .map(unparenthesize)
                .filter(|v| v.kind_name() == "call")
            {
                out.push(call);
            }
            continue;
        }
        if n.kind_name() == "block" {
            continue;
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    out.sort_by_key(|n| n.start_byte());
    out
}

/// The statements of `block` that run before the one holding byte `at`,
/// going into a `try` or `with` body that holds it (`try: yield finally:
/// ...`), and the `with` statements gone into; `None` when it is under
/// another statement (an `if`: which branch yields is not known).
#[allow(clippy::type_complexity)]
fn statements_before(block: Node<'_>, at: usize) -> Option<(Vec<Node<'_>>, Vec<Node<'_>>)> {
    let mut out = Vec::new();
    let mut c = block.walk();
    for statement in block.named_children(&mut c) {
        if statement.start_byte() <= at && at < statement.end_byte() {
            return match statement.kind_name() {
                "expression_statement" => Some((out, Vec::new())),
                "try_statement" | "with_statement" => {
                    let (inner, mut withs) = statements_before(statement.field("body")?, at)?;
                    out.extend(inner);
                    if statement.kind_name() == "with_statement" {
                        withs.insert(0, statement);
                    }
                    Some((out, withs))
                }
                _ => None,
            };
        }
        out.push(statement);
    }
    None
}

/// A function body's statements up to its first top-level `return`.
fn until_return(body: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut c = body.walk();
    for statement in body.named_children(&mut c) {
        if statement.kind_name() == "return_statement" {
            break;
        }
        out.push(statement);
    }
    out
}

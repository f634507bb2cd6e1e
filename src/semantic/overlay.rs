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

use super::flow::{Alt, Flow, Val};
use super::{reach, Binding, Module, ScopeId, ScopeKind, MODULE_SCOPE};
use crate::syntax::{text, unparenthesize, Field, KindName};
use std::cell::{Cell, OnceCell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
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
    /// Call sites of each def, as value flow finds them.
    pub(crate) def_sites: RefCell<HashMap<ScopeId, Rc<Vec<super::flow::CallSiteOf<'t>>>>>,
    /// Calls constructing a class through a value (`OPS[k]()`), by class,
    /// and calls of a function through a registry (`SAMPLERS["rmh"](f)`), by
    /// def (`None` until built; `value_calls_building` while being built).
    #[allow(clippy::type_complexity)]
    pub(crate) value_calls: RefCell<Option<Rc<HashMap<ScopeId, Vec<(Node<'t>, ScopeId)>>>>>,
    pub(crate) value_calls_building: Cell<bool>,
}

impl ValueCaches<'_> {
    pub(crate) fn new(scopes: usize) -> Self {
        ValueCaches {
            scope_facts: (0..scopes).map(|_| OnceCell::new()).collect(),
            guards: (0..scopes).map(|_| OnceCell::new()).collect(),
            branches: RefCell::default(),
            branches_building: RefCell::default(),
            def_sites: RefCell::default(),
            value_calls: RefCell::new(None),
            value_calls_building: Cell::new(false),
        }
    }
}

/// A piece of module-level state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Key {
    /// A module global (`global G; G = v`).
    Name(String),
    /// An attribute path of a module-level object (`SETTINGS.checks = v`,
    /// `setattr(SETTINGS, "checks", v)`).
    Path(String),
    /// A `contextvars.ContextVar`, by its constructor call's node id.
    Var(usize),
}

/// The state a lowering runs under: values of some keys.
#[derive(Default)]
pub(crate) struct Overlay<'t> {
    entries: Vec<(Key, Vec<Alt<'t>>)>,
    /// Keys already decided nearer the lowering (set, or left as the
    /// module reads them): what sets them further out does not hold.
    settled: Vec<Key>,
    /// The `with` items and calls it comes from (node ids): equal
    /// overlays share a cache set.
    sources: Vec<usize>,
}

impl<'t> Overlay<'t> {
    fn set(&mut self, key: Key, alts: Vec<Alt<'t>>, source: usize) {
        if self.settled.contains(&key) {
            return;
        }
        self.settled.push(key.clone());
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

    fn settle(&mut self, key: Key) {
        if !self.settled.contains(&key) {
            self.settled.push(key);
        }
    }

    fn get(&self, key: &Key) -> Option<Vec<Alt<'t>>> {
        self.entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, alts)| alts.clone())
    }
}

/// A cache set for one overlay.
pub(crate) struct Layer<'t> {
    overlay: Overlay<'t>,
    caches: ValueCaches<'t>,
}

/// A store to a piece of state in a function's straight-line code: the
/// value stored, `None` when it cannot be told (`G += 1`, `a, G = f()`).
type Store<'t> = (Key, Option<Node<'t>>);

/// A call bound while a stored value is read: the def, the call, the scope
/// the call is in, the receiver of a method.
pub(crate) type BoundCall<'t> = (ScopeId, Node<'t>, ScopeId, Option<Alt<'t>>);

/// A store made by entering a context manager: its value with the calls to
/// bind to read it (outermost first).
type EnteredStore<'t> = (Key, Option<(Node<'t>, Vec<BoundCall<'t>>)>);

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
        let layer = self.active_layer()?;
        let alts = layer.overlay.get(&Key::Path(path.to_owned()))?;
        let root = path.split('.').next().unwrap_or(path);
        self.is_module_name(scope, root).then_some(alts)
    }

    /// The value the state in force gives the context variable made by the
    /// constructor call `ctor`.
    pub(crate) fn overlay_var(&self, ctor: Node<'t>) -> Option<Vec<Alt<'t>>> {
        self.active_layer()?.overlay.get(&Key::Var(ctor.id()))
    }

    /// True if `name` read in `scope` is the module-level variable.
    fn is_module_name(&self, scope: ScopeId, name: &str) -> bool {
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
        let statement = enclosing_statement(node);
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
        if overlay.entries.is_empty() {
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
                || names_state()
        })
    }

    /// A quick look for what could set state before `node` runs (a `with`
    /// of a context manager of this module around it, a call of a function
    /// that writes state before it, the same at the call its function came
    /// through); `state_at` is asked only then.
    fn may_have_state(&self, node: Node<'t>, scope: ScopeId) -> bool {
        self.call_chain(node, scope)
            .into_iter()
            .any(|(node, scope)| {
                steps_up(node, self.scopes[scope].node)
                    .into_iter()
                    .any(|(parent, child)| match parent.kind_name() {
                        "block" | "module" => self
                            .writer_calls_in(parent)
                            .iter()
                            .any(|&start| start < child.start_byte()),
                        "with_statement" => with_item_calls(parent)
                            .into_iter()
                            .any(|call| self.may_enter_own(call, scope)),
                        _ => false,
                    })
            })
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
            let writes = statement
                .named_child(0)
                .filter(|e| e.kind_name() == "call")
                .and_then(|call| call.field("function"))
                .filter(|f| f.kind_name() == "identifier")
                .is_some_and(|f| {
                    matches!(self.binding_at(scope, text(f, self.src), f), Some(Binding::Def(d)) if writers.contains(d))
                });
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
            out
        })
    }

    fn state_at(&self, node: Node<'t>, scope: ScopeId) -> Overlay<'t> {
        let mut overlay = Overlay::default();
        let flow = self.flow();
        for (node, scope) in self.call_chain(node, scope) {
            // Nearest first: the statements before it in each enclosing
            // block, the context managers of each enclosing `with`.
            for (parent, child) in steps_up(node, self.scopes[scope].node) {
                if parent.kind_name() == "with_statement" {
                    for item in with_item_calls(parent).into_iter().rev() {
                        self.entered_state(&flow, item, scope, &mut overlay);
                    }
                    continue;
                }
                let mut sibling = child.prev_named_sibling();
                while let Some(statement) = sibling {
                    self.statement_state(&flow, statement, scope, &mut overlay);
                    sibling = statement.prev_named_sibling();
                }
            }
        }
        overlay
    }

    /// What a statement before the lowering sets: a setter's stores when it
    /// is a call of one; else every key it may set is settled as the module
    /// reads it.
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
            "expression_statement" => {
                let setter = statement
                    .named_child(0)
                    .filter(|e| e.kind_name() == "call")
                    .and_then(|call| Some((call, self.setter_stores(call, scope, 0)?)));
                match setter {
                    Some((call, (def, stores))) => {
                        let frame = vec![(def, call, scope, None)];
                        let stores = stores
                            .into_iter()
                            .map(|(key, value)| (key, value.map(|v| (v, frame.clone()))));
                        apply_stores(flow, stores, call, overlay);
                    }
                    None => {
                        for key in self.keys_set_within(statement, scope, 0) {
                            overlay.settle(key);
                        }
                    }
                }
            }
            _ => {
                for key in self.keys_set_within(statement, scope, 0) {
                    overlay.settle(key);
                }
            }
        }
    }

    /// What entering the context manager `call` sets: a `@contextmanager`
    /// generator's stores before its `yield` (and those of the context
    /// managers it enters around the `yield`), a class's `__enter__`'s; also
    /// through a helper that returns such a call (`with scope():`).
    fn entered_state(
        &self,
        flow: &Flow<'_, 't>,
        call: Node<'t>,
        scope: ScopeId,
        overlay: &mut Overlay<'t>,
    ) {
        if let Some(stores) = self.entered_stores(flow, call, scope, &[], 0) {
            apply_stores(flow, stores, call, overlay);
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
    ) -> Option<Vec<EnteredStore<'t>>> {
        if depth > MAX_SETTER_DEPTH {
            return None;
        }
        let (def, receiver) = self.callee_of(flow, call, scope)?;
        let mut inner: Vec<BoundCall<'t>> = frames.to_vec();
        let with_frames =
            |stores: Vec<Store<'t>>, frames: &Vec<BoundCall<'t>>| -> Vec<EnteredStore<'t>> {
                stores
                    .into_iter()
                    .map(|(key, value)| (key, value.map(|v| (v, frames.clone()))))
                    .collect()
            };
        match self.scopes[def].kind {
            ScopeKind::Function => {
                inner.push((def, call, scope, receiver));
                let def_node = self.scopes[def].node;
                let is_context_manager = self.scopes[def]
                    .decorators()
                    .iter()
                    .any(|d| text(*d, self.src).ends_with("contextmanager"));
                if !is_context_manager {
                    // `def scope(): return kernel_target("gpu")`.
                    let [returned] = self.scopes[def].returned[..] else {
                        return None;
                    };
                    let returned = unparenthesize(returned);
                    if returned.kind_name() != "call" || !self.yields_of(def_node).is_empty() {
                        return None;
                    }
                    return self.entered_stores(flow, returned, def, &inner, depth + 1);
                }
                let [only_yield] = self.yields_of(def_node)[..] else {
                    return None;
                };
                let (before, withs) =
                    statements_before(def_node.field("body")?, only_yield.start_byte())?;
                let mut out = with_frames(self.stores_in(def, &before, depth + 1), &inner);
                // `with kernel_target("gpu"): yield`: entered after those.
                for with in withs {
                    for item in with_item_calls(with) {
                        for (key, value) in self
                            .entered_stores(flow, item, def, &inner, depth + 1)
                            .unwrap_or_default()
                        {
                            out.retain(|(k, _)| *k != key);
                            out.push((key, value));
                        }
                    }
                }
                Some(out)
            }
            ScopeKind::Class => {
                let enter = self.method(def, "__enter__")?;
                let instance = match &flow.eval(call, scope)[..] {
                    [one] if matches!(one.val, Val::Instance(..)) => one.clone(),
                    _ => return None,
                };
                inner.push((enter, call, scope, Some(instance)));
                let body = self.scopes[enter].node.field("body")?;
                let statements = until_return(body);
                Some(with_frames(
                    self.stores_in(enter, &statements, depth + 1),
                    &inner,
                ))
            }
            _ => None,
        }
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
    /// not a generator) whose straight-line code stores state.
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
        let node = self.scopes[def].node;
        if self.scopes[def].kind != ScopeKind::Function
            || !self.scopes[def].decorators().is_empty()
            || !self.yields_of(node).is_empty()
        {
            return None;
        }
        let stores = self.stores_in(def, &until_return(node.field("body")?), depth + 1);
        (!stores.is_empty()).then_some((def, stores))
    }

    /// The stores of state among `statements` of `def`, in order (a later
    /// store of a key wins when they are applied in turn). A store inside a
    /// compound statement is not certain to run: its key is `None`-valued.
    fn stores_in(&self, def: ScopeId, statements: &[Node<'t>], depth: u32) -> Vec<Store<'t>> {
        let mut out: Vec<Store<'t>> = Vec::new();
        let mut put = |key: Key, value: Option<Node<'t>>| {
            out.retain(|(k, _)| *k != key);
            out.push((key, value));
        };
        for &statement in statements {
            let expr = match statement.kind_name() {
                "expression_statement" => statement.named_child(0),
                _ => {
                    for key in self.keys_set_within(statement, def, depth) {
                        put(key, None);
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
                    if let Some(key) = self.state_key(left, def) {
                        put(key, right.map(unparenthesize));
                    } else {
                        for key in self.keys_set_within(left, def, depth) {
                            put(key, None);
                        }
                    }
                    if let Some((key, value)) = right.and_then(|r| self.keyed_store(r, def)) {
                        put(key, value);
                    }
                }
                "call" => {
                    if let Some((key, value)) = self.keyed_store(expr, def) {
                        put(key, value);
                    }
                }
                _ => {
                    for key in self.keys_set_within(expr, def, depth) {
                        put(key, None);
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

    /// `setattr(OBJ, "attr", v)` on a module-level object, `VAR.set(v)` on a
    /// context variable.
    fn keyed_store(&self, call: Node<'t>, def: ScopeId) -> Option<Store<'t>> {
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
                let attr = crate::syntax::string_value(name, self.src)?;
                (object.kind_name() == "identifier"
                    && self.is_module_name(def, text(object, self.src)))
                .then(|| {
                    (
                        Key::Path(format!("{}.{attr}", text(object, self.src))),
                        Some(value),
                    )
                })
            }
            "attribute" if func.field("attribute").map(|a| text(a, self.src)) == Some("set") => {
                let object = func.field("object")?;
                let value = *args.positional.first()?;
                let vars = self.flow_with_budget(200).eval(object, def);
                match vars[..] {
                    [Alt {
                        val: Val::ContextVar(ctor, _),
                        ..
                    }] => Some((Key::Var(ctor.id()), Some(value))),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Every key code in `node` may set (values not read): assignment
    /// targets, setters called, context managers entered.
    fn keys_set_within(&self, node: Node<'t>, scope: ScopeId, depth: u32) -> Vec<Key> {
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
                            Some(key) => out.push(key),
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
}

/// The steps from `node` up to `top` (the node of its scope) where state
/// may be set before it: (a block or the module, the statement in it on
/// the way), (a `with`, its body).
fn steps_up<'t>(node: Node<'t>, top: Node<'t>) -> Vec<(Node<'t>, Node<'t>)> {
    let mut steps = Vec::new();
    let mut child = node;
    while let Some(parent) = child.parent() {
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

/// Sets each store's key in `overlay` to its value, read with its calls
/// bound (`source`: the `with` item or setter call they come from).
fn apply_stores<'t>(
    flow: &Flow<'_, 't>,
    stores: impl IntoIterator<Item = EnteredStore<'t>>,
    source: Node<'t>,
    overlay: &mut Overlay<'t>,
) {
    for (key, value) in stores {
        let alts = value
            .map(|(v, calls)| flow.eval_in_frames(&calls, v))
            .unwrap_or_default();
        overlay.set(key, alts, source.id());
    }
}

/// The statement holding `node` (itself if it is one): the child of a
/// block or of the module on its way up.
fn enclosing_statement(node: Node<'_>) -> Node<'_> {
    let mut current = node;
    while let Some(parent) = current.parent() {
        if matches!(parent.kind_name(), "block" | "module") {
            return current;
        }
        current = parent;
    }
    current
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

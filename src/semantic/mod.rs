//! The semantic model: what a module's code means for platform consistency.
//!
//! `Module::new` runs the fact query once over the tree and records scopes,
//! bindings and calls. The submodules answer the questions rules ask:
//! what a name resolves to (`resolve`), which constant value an expression
//! has (`values`), what a function transitively reaches (`reach`), and where
//! the module lowers or exports a computation, for which platforms (`lowering`).

pub mod contract;
pub mod flow;
pub(crate) mod host;
pub mod lowering;
pub mod names;
mod overlay;
pub mod reach;
pub mod summary;
pub mod values;

pub use lowering::{ContextMesh, Lowering, LoweringKind};
pub use reach::{Guard, KernelMesh, ReqKind, Requirement};
pub use summary::{ModuleSummary, Resolver};
pub use values::{MeshValue, PlatformsValue};

use crate::syntax::queries::{queries, Capture, Owner};
use crate::syntax::{text, unparenthesize};
use crate::syntax::{Field, KindName};
use rustc_hash::FxHashMap as HashMap;
use tree_sitter::{Node, Tree};

pub type ScopeId = usize;
pub const MODULE_SCOPE: ScopeId = 0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScopeKind {
    Module,
    Function,
    Class,
    Lambda,
}

#[derive(Debug)]
pub struct Scope<'t> {
    pub kind: ScopeKind,
    pub node: Node<'t>,
    pub parent: Option<ScopeId>,
    pub name: String,
    /// The class a method is defined in.
    pub class: Option<ScopeId>,
    /// Calls made directly in this scope (not in nested defs), indexes into `Module::calls`.
    pub calls: Vec<usize>,
    /// Expressions returned from this scope (`return inner`).
    pub returned: Vec<Node<'t>>,
    param_list: Vec<(String, Option<Node<'t>>)>,
    /// `decorators()`, read once: finding them walks from the tree's root
    /// (`Node::parent`), and the analysis asks a def for them many times.
    decorators: std::cell::OnceCell<Vec<Node<'t>>>,
}

impl<'t> Scope<'t> {
    /// Decorator expressions of a function or class (`@jax.jit` -> `jax.jit`).
    pub fn decorators(&self) -> Vec<Node<'t>> {
        self.decorators
            .get_or_init(|| Self::read_decorators(self.node))
            .clone()
    }

    fn read_decorators(node: Node<'t>) -> Vec<Node<'t>> {
        let mut out = Vec::new();
        if let Some(parent) = node.parent() {
            if parent.kind_name() == "decorated_definition" {
                let mut cursor = parent.walk();
                for child in parent.named_children(&mut cursor) {
                    if child.kind_name() == "decorator" {
                        if let Some(expr) = child.named_child(0) {
                            out.push(expr);
                        }
                    }
                }
            }
        }
        out
    }

    /// Parameter names with their default values, in order (`*` marks the
    /// end of positional parameters, `/` other markers).
    pub fn params(&self) -> &[(String, Option<Node<'t>>)] {
        &self.param_list
    }

    fn read_params(node: Node<'t>, src: &str) -> Vec<(String, Option<Node<'t>>)> {
        let mut out = Vec::new();
        let Some(params) = node.field("parameters") else {
            return out;
        };
        let mut cursor = params.walk();
        for param in params.named_children(&mut cursor) {
            match param.kind_name() {
                "identifier" => out.push((text(param, src).to_owned(), None)),
                "typed_parameter" => {
                    if let Some(name) = param.named_child(0) {
                        out.push((text(name, src).to_owned(), None));
                    }
                }
                "default_parameter" | "typed_default_parameter" => {
                    if let Some(name) = param.field("name") {
                        out.push((text(name, src).to_owned(), param.field("value")));
                    }
                }
                // `*args` and a bare `*` end the positional parameters; `**kwargs`
                // and `/` take no position. Marked, not named.
                "list_splat_pattern" | "keyword_separator" => out.push(("*".to_owned(), None)),
                _ => out.push(("/".to_owned(), None)),
            }
        }
        out
    }
}

/// The methods that set every keyword they are given on `self`, and their
/// names (a call is looked at by its method's name before its receiver's
/// class is known).
#[derive(Default)]
pub(crate) struct KeywordSetters {
    pub methods: rustc_hash::FxHashSet<ScopeId>,
    pub names: rustc_hash::FxHashSet<String>,
}

/// What kind of `enum.Enum` a class is (`Module::enum_kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnumKind {
    /// Members are their own objects (`Backend.TPU`, `.value` is "tpu").
    Plain,
    /// Members are also `str`/`int` values: read as those values.
    Mixin,
}

/// Decorated defs by (the def a decorator names, whether it is called):
/// each (decorated def, decorator node id).
type DecoratedBy = HashMap<(ScopeId, bool), Vec<(ScopeId, usize)>>;

/// The `NAME[key] = value` stores into a dict: (key, value, store's scope).
pub type DictStores<'t> = Vec<(Node<'t>, Node<'t>, ScopeId)>;

/// A store `E.attr[key] = value` that may be into a dict held in attribute
/// `attr` of class `owner` (`Module::attribute_dict_stores`).
pub struct AttrDictStore<'t> {
    pub key: Node<'t>,
    pub value: Node<'t>,
    /// The store's scope.
    pub scope: ScopeId,
    /// `E`: the store is into the dict when `E` is an instance of `owner`
    /// (or of a class deriving from it), or, for a class-body dict
    /// (`class_level`), that class itself.
    pub object: Node<'t>,
    pub owner: ScopeId,
    pub class_level: bool,
}

pub type AttrDictStores<'t> = Vec<AttrDictStore<'t>>;

/// The changes made through attribute `attr` of class `owner` to the list
/// it holds (`Module::attribute_list_mutations`): each with the object it
/// is made on (`E` of `E.attr.append(x)`), which the list is when `E` is
/// an instance of `owner` (or of a class deriving from it), or, for a
/// class-body list (`class_level`), that class itself.
#[derive(Default)]
pub struct AttrListMutations<'t> {
    pub owner: ScopeId,
    pub class_level: bool,
    pub changes: Vec<(Node<'t>, ListChange<'t>)>,
}

pub enum ListChange<'t> {
    /// `append`, `extend`, `insert`, `+=` (through an attribute: made in
    /// another function, so it may run any number of times, before or
    /// after a read).
    Add(ListAdd<'t>),
    /// `pop`, `remove`, `clear`, `sort`, `reverse`.
    Shrink,
    /// An item store, another method's call, `*args`: contents unknown.
    Unknown,
}

/// How a list bound to a name grows after it is made (`layers = []`, then
/// `layers.append(layer)` in a loop): `Module::list_mutations`.
#[derive(Default)]
pub struct ListMutations<'t> {
    /// Something else changes it (`pop`, `sort`, `xs[i] = v`, a mutating
    /// method passed on as a value, a mutation from another function): its
    /// contents are not known.
    pub unknown: bool,
    /// `pop()`, `remove(x)`, `clear()`, `sort()`, `reverse()`: elements may
    /// be gone or moved, so none is certainly there, in no known order.
    pub shrinks: bool,
    /// `append(x)`, `insert(i, x)`, `extend(xs)`, `xs += ys` made in the
    /// list's own scope, in text order; then the `append`/`insert`/`extend`
    /// calls of other scopes (`elsewhere`).
    pub adds: Vec<ListAdd<'t>>,
}

impl<'t> ListMutations<'t> {
    /// Adds one change found; whether the contents are no longer known
    /// (too many adds too), so that no more need be looked for.
    fn take(&mut self, change: Option<ListChange<'t>>) -> bool {
        match change {
            Some(ListChange::Add(add)) => self.adds.push(add),
            Some(ListChange::Shrink) => self.shrinks = true,
            Some(ListChange::Unknown) => self.unknown = true,
            None => {}
        }
        if self.adds.len() > 64 {
            self.unknown = true;
        }
        self.unknown
    }
}

/// One way a list grows: the call (or augmented assignment) `at`, whether
/// `arg` is one element (`append`, `insert`) or a collection of them
/// (`extend`, `+=`).
#[derive(Clone, Copy)]
pub struct ListAdd<'t> {
    pub at: Node<'t>,
    pub arg: Node<'t>,
    pub one: bool,
    /// `insert`: where the element lands is not followed.
    pub positioned: bool,
    /// Made in another scope (a function pushing onto a module-level
    /// stack): it may run any number of times, before or after a read.
    pub elsewhere: Option<ScopeId>,
}

/// What an attribute path read holds, from the stores to it (`Module::path_store_at`).
pub enum PathStore<'t> {
    /// No store to the path applies: read the object's attribute.
    None,
    /// The value stored last (evaluated in that scope).
    Value(Node<'t>, ScopeId),
    Unknown,
}

/// Whether a store runs (`Module::store_runs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreRuns {
    Never,
    Certainly,
    Maybe,
}

/// `a.b.c`: identifiers joined by dots, nothing else.
fn is_dotted_name(path: &str) -> bool {
    path.contains('.')
        && path.split('.').all(|part| {
            part.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
                && part.chars().all(|c| c.is_alphanumeric() || c == '_')
        })
}

/// What a name is bound to in some scope.
#[derive(Clone, Debug)]
pub enum Binding<'t> {
    /// An import: the canonical dotted path (relative imports keep their dots).
    Import(String),
    /// A `def` or `class` (the scope it opens).
    Def(ScopeId),
    /// An assignment; the value is evaluated in `scope`.
    Value {
        value: Node<'t>,
        scope: ScopeId,
        target: Node<'t>,
    },
    /// A parameter of the function scope `scope`, at position `index`.
    Param {
        scope: ScopeId,
        index: usize,
        default: Option<Node<'t>>,
    },
    /// One name of an unpacking assignment `a, b = value`: element `index`.
    Item {
        value: Node<'t>,
        index: usize,
        scope: ScopeId,
        target: Node<'t>,
    },
    /// A `for` loop's target, or one name of a target that unpacks: each
    /// element of `iter` in turn, followed down `path` (`for i, (name, p) in
    /// enumerate(zip(...))`: `p` is `[1, 1]`).
    Loop {
        target: Node<'t>,
        iter: Node<'t>,
        scope: ScopeId,
        loop_node: Node<'t>,
        path: Vec<usize>,
    },
    /// Bound in a way we do not follow (nested unpacking).
    Opaque(Node<'t>),
}

impl Binding<'_> {
    /// Where the binding takes effect: after the value of an assignment
    /// (`x = x or y` reads the earlier `x`), at the target otherwise.
    fn position(&self) -> usize {
        match self {
            Binding::Value { value, .. } | Binding::Item { value, .. } => value.end_byte(),
            Binding::Opaque(target) => target.start_byte(),
            // A comprehension's body comes before its `for` clause.
            Binding::Loop { loop_node, .. } => loop_node.start_byte(),
            _ => 0,
        }
    }
}

/// One call expression and the scope it is evaluated in.
#[derive(Clone, Copy, Debug)]
pub struct CallSite<'t> {
    pub node: Node<'t>,
    pub scope: ScopeId,
}

/// Who a module's model is read for.
#[derive(Debug)]
enum Reader {
    /// The module itself (analysed, or summarised for any importer).
    Own,
    /// A call of an importer: the module-level functions its text names
    /// (`None`: not known, any of them may be called).
    Importer(Option<Vec<String>>),
}

pub struct Module<'t> {
    pub src: &'t str,
    /// The module's root node; with a model built from pieces of the text
    /// parsed apart (`syntax::pieces`), the first piece's root.
    root: Node<'t>,
    pub scopes: Vec<Scope<'t>>,
    scope_of_node: HashMap<usize, ScopeId>,
    bindings: HashMap<(ScopeId, String), Vec<Binding<'t>>>,
    /// `self.x = v` in a method and `x = v` in a class body, keyed by class scope.
    attributes: HashMap<(ScopeId, String), Vec<Binding<'t>>>,
    /// Stores to an attribute of something other than a method's `self`
    /// (`cfg.platform = v`, `config.export.platforms = v`), keyed by the
    /// target's dotted text: (scope, target, value).
    path_stores: HashMap<String, Vec<(ScopeId, Node<'t>, Node<'t>)>>,
    /// Calls that may store the attribute their first argument names
    /// (`config.update("platforms", v)` with a method this module does not
    /// show to be a setter): the path's value is not known after them.
    unknown_path_stores: HashMap<String, Vec<(ScopeId, Node<'t>)>>,
    /// While collecting: `obj.method("attr", value)` calls (path
    /// `obj.attr`, the method's name, scope, call, value), and methods
    /// that store `setattr(self, <param>, <param>)` (method, positions of
    /// the name and value after `self`). `resolve_keyed_calls` turns the
    /// calls into stores.
    keyed_calls: Vec<(String, String, ScopeId, Node<'t>, Node<'t>)>,
    key_setters: Vec<(ScopeId, usize, usize)>,
    pub calls: Vec<CallSite<'t>>,
    /// `with` items (the context manager expressions) and their scopes.
    pub with_items: Vec<(Node<'t>, ScopeId)>,
    /// Some call enters a context manager by hand (`stack.enter_context(cm)`,
    /// `cm.__enter__()`): `with_items` alone does not say where meshes are.
    pub enters_by_hand: bool,
    /// The `for` statements, in the order their targets were collected.
    pub for_loops: Vec<Node<'t>>,
    /// The `@site` nodes of each group of rule patterns written alike
    /// (`syntax::queries::Queries::groups`), in pre-order of the matched
    /// nodes: a call that eleven rules' queries capture is kept once.
    group_sites: Vec<Vec<Node<'t>>>,
    /// The same, as sorted node ids (built on first use).
    group_site_ids: Vec<std::cell::OnceCell<Vec<usize>>>,
    /// What values decide, built on first use: for the module as it reads
    /// (`caches`), and under each state a lowering runs in (`overlays`, the
    /// one in force `active_overlay`, 0 for none). See `overlay.rs`.
    caches: overlay::ValueCaches<'t>,
    overlays: [std::cell::OnceCell<Box<overlay::Layer<'t>>>; overlay::MAX_OVERLAYS],
    active_overlay: std::cell::Cell<usize>,
    /// Whether any code may set module-level state (`overlay::may_set_state`).
    state_text: std::cell::OnceCell<bool>,
    /// The layer of the state each statement runs under (0: none), by the
    /// statement's node id (`overlay::under_state_at`).
    state_slots: std::cell::RefCell<HashMap<usize, usize>>,
    /// Set while a statement's state is being found.
    finding_state: std::cell::Cell<bool>,
    /// `overlay::writer_calls_in` by block node id, and the functions that
    /// write state (`overlay::state_writers`).
    writer_calls: std::cell::RefCell<HashMap<usize, std::rc::Rc<Vec<usize>>>>,
    /// `flow::method_calls_in` by scope.
    method_calls: std::cell::RefCell<HashMap<ScopeId, std::rc::Rc<flow::MethodCalls<'t>>>>,
    /// `overlay::foreign_writer` by call node id.
    foreign_writers: std::cell::RefCell<HashMap<usize, Option<overlay::ForeignWriter>>>,
    /// Parents found so far, by node id, and the top-level statements in
    /// document order (`parent_of`).
    parents: std::cell::RefCell<HashMap<usize, Option<Node<'t>>>>,
    statements_in_order: std::cell::OnceCell<Vec<Node<'t>>>,
    /// The keys a statement may set, by its node id and scope
    /// (`overlay::settle_within`): each statement's state walks every
    /// statement before it, so without this a long function costs the
    /// square of its length.
    keys_settled_by: overlay::SettledKeys<'t>,
    state_writer_scopes: std::cell::OnceCell<std::collections::HashSet<ScopeId>>,
    /// The defs some jit with shardings wraps (`reach::sharded_jit_defs`).
    sharded_jit_defs: std::cell::OnceCell<Vec<ScopeId>>,
    /// Whether it imports names other modules of the workspace may define
    /// (`overlay::imports_workspace_names`).
    foreign_writers_imported: std::cell::OnceCell<bool>,
    /// `Resolver::imported_lowering_helpers` of this module's text
    /// (`imported_helper_calls`); given by the server, which has them for
    /// every unit of a document (`set_imported_helpers`).
    imported_helpers: std::cell::OnceCell<Vec<String>>,
    /// Whether the model's text can hold a guard at all (`may_have_guards`).
    guard_text: std::cell::OnceCell<bool>,
    /// `NAME[k] = v` stores into a dict literal bound to NAME (by the
    /// literal's node id): (key, value, scope of the store).
    dict_stores: std::cell::RefCell<HashMap<usize, std::rc::Rc<DictStores<'t>>>>,
    /// `passed_to_changing_def`, per dict literal: asked at every read of
    /// the dict, and a scan of its name's uses and the callees' bodies.
    changed_by_callee: std::cell::RefCell<HashMap<usize, std::rc::Rc<bool>>>,
    attribute_dict_stores: std::cell::RefCell<HashMap<usize, std::rc::Rc<AttrDictStores<'t>>>>,
    attribute_list_mutations:
        std::cell::RefCell<HashMap<usize, std::rc::Rc<AttrListMutations<'t>>>>,
    /// The names each function declares `global` (none when the text has
    /// no `global`), computed once per function.
    globals_declared: HashMap<ScopeId, Vec<String>>,
    has_global: bool,
    /// `assigned_name_mutation` per copy call (by node id).
    mutated_copies: std::cell::RefCell<HashMap<usize, Mutation>>,
    /// What a method reaches run on one object (`Module::receiver_branches`),
    /// by (method, constructor call's node id, the calls of the functions
    /// it was made in that the walk's path pins).
    #[allow(clippy::type_complexity)]
    pub(crate) receiver_branches: std::cell::RefCell<
        HashMap<(ScopeId, usize, Vec<flow::Choice>), std::rc::Rc<reach::CallBranches>>,
    >,
    /// How each list literal bound to a name grows (by the literal's node id).
    list_mutations: std::cell::RefCell<HashMap<usize, std::rc::Rc<ListMutations<'t>>>>,
    /// The `@contextmanager` generators whose meshes are being worked out.
    pub(crate) context_managers_open: std::cell::RefCell<Vec<ScopeId>>,
    /// While collecting: the scopes open at the current position, innermost
    /// last, and the last start offset seen (matches come in document order).
    /// With the byte range of each one's body (read once: every node
    /// collected asks which open scope's body holds it).
    open: Vec<(ScopeId, Option<(usize, usize)>)>,
    last_start: usize,
    /// The scope each call is evaluated in, by node id.
    call_scope: HashMap<usize, ScopeId>,
    /// Calls by the last name of their callee (`f` for `f(...)` and `obj.f(...)`).
    calls_by_name: std::cell::OnceCell<HashMap<String, Vec<usize>>>,
    /// `keyword_calls_on`'s index.
    keyword_calls: std::cell::OnceCell<HashMap<(ScopeId, String), Vec<usize>>>,
    /// Attribute names stored into a function's parameter (`def configure(
    /// config): config.x = v`): `Flow::callee_store` looks no further for
    /// any other attribute.
    param_stored_attrs: std::cell::OnceCell<rustc_hash::FxHashSet<String>>,
    /// For each attribute, the methods other than `__init__` that store
    /// `self.attr = v`: `Flow::last_method_store` scans a scope's calls and
    /// evaluates a receiver only when a call on it may store what is read.
    method_stored_attrs:
        std::cell::OnceCell<rustc_hash::FxHashMap<String, rustc_hash::FxHashSet<String>>>,
    /// Every attribute name some statement stores (`self.x = v`, `cfg.x = v`,
    /// keyed setters): `Flow::param_state_at_calls` looks at no call for
    /// the others.
    stored_attr_names: std::cell::OnceCell<rustc_hash::FxHashSet<String>>,
    /// Methods that set every keyword they are given on `self`
    /// (`Module::keyword_setters`).
    keyword_setters: std::cell::OnceCell<KeywordSetters>,
    /// Where each name is written followed by `.`, `[` or an operator that
    /// may be an augmented assignment: the places a list bound to it may be
    /// changed (`list_mutations`), found by one lexical pass.
    mutation_sites: std::cell::OnceCell<rustc_hash::FxHashMap<&'t str, Vec<usize>>>,
    /// Every identifier of the code this model covers, by its text, built
    /// by one walk on the first question (a walk per name, pruned to the
    /// subtrees whose text holds it, was a sixth of a large module's check).
    pub(crate) identifiers_by_name:
        std::cell::OnceCell<rustc_hash::FxHashMap<&'t str, Vec<Node<'t>>>>,
    /// Decorated defs by the def their decorator names: `@d` under
    /// (d, false), `@outer(...)` under (outer, true); each (decorated def,
    /// decorator node id).
    decorated_by: std::cell::OnceCell<DecoratedBy>,
    /// The top-level statements this model covers, in document order
    /// (`None`: the whole module). See `Module::new_in`.
    statements: Option<Vec<Node<'t>>>,
    /// Values of names imported from other modules of the workspace, by
    /// canonical path, from their summaries, loaded when first asked for
    /// (`None`: not found).
    pub(crate) external_values: std::cell::RefCell<HashMap<String, Option<Vec<flow::ConstAlt>>>>,
    /// Whether a function path of another module resolves to a module of
    /// the workspace (`Module::resolves`), asked before a call's arguments
    /// are evaluated for it.
    pub(crate) resolvable: std::cell::RefCell<HashMap<String, bool>>,
    /// Which classes of other modules the resolver finds
    /// (`own_class_path_unresolved`).
    pub(crate) resolvable_classes: std::cell::RefCell<HashMap<String, bool>>,
    /// Whether an imported path names another module's function that
    /// reaches something (`Module::imports_reaching_function`).
    pub(crate) reaching_imports: std::cell::RefCell<HashMap<String, bool>>,
    /// Whether, read without a resolver, this model asked about another
    /// module's name it could not follow (what a deeper read may answer).
    pub(crate) wanted_imports: std::cell::Cell<bool>,
    /// What this module registers into other modules' dicts when imported
    /// (`Module::registrations`), and whether that is being computed.
    pub(crate) registrations:
        std::cell::RefCell<Option<std::sync::Arc<Vec<summary::Registration>>>>,
    pub(crate) registering: std::cell::Cell<bool>,
    /// What the module calling into this one registered (see
    /// `ForeignCall::registered`), while a call of it is evaluated.
    pub(crate) caller_registered: std::cell::RefCell<std::sync::Arc<Vec<summary::Registration>>>,
    /// Where other modules' summaries come from, and this module's file.
    pub(crate) resolver: std::cell::Cell<Option<&'t dyn Resolver>>,
    pub(crate) file: std::cell::RefCell<Option<std::path::PathBuf>>,
    /// Environment variables the module calling into this one sets (see
    /// `ForeignCall::env_set`), while a call of it is evaluated.
    pub(crate) caller_env: std::cell::RefCell<Vec<String>>,
    /// The environment variables this module sets (`Module::env_keys_set`).
    pub(crate) env_keys: std::cell::OnceCell<Vec<String>>,
    /// Set while the call graph is asked what a function passed to another
    /// module reaches (`Flow::foreign_args`): not asked again inside.
    pub(crate) passing: std::cell::Cell<bool>,
    /// How many `Flow::foreign_args` are being built, one inside another:
    /// an argument's value may come from another call of another module
    /// (`detach` evaluates a dict's entries anew), so this bounds it.
    pub(crate) foreign_nesting: std::cell::Cell<u32>,
    /// While another module's call of a function of this one is evaluated
    /// (`Resolver::call_returns`): that call's tag, carried by the tokens
    /// of the closures it returns (`local_ref`), so that what one of them
    /// reaches is found with the call's values (`local_ref_function`).
    pub(crate) call_tag: std::cell::RefCell<Option<String>>,
    /// The one call of another module this model answers, when it binds a
    /// def's parameters everywhere (`context_mesh_for_call`): every
    /// evaluation starts with that frame.
    pub(crate) answering: std::cell::RefCell<Option<(ScopeId, Vec<Vec<flow::Alt<'t>>>)>>,
    /// The object the method this model answers another module's call of
    /// runs on (`runner.predict_fn()` with `runner` made there): `self` of
    /// a `Target::OnObject` made in `reach::FOREIGN_OBJECT`.
    pub(crate) foreign_receiver: std::cell::RefCell<Option<ForeignReceiver<'t>>>,
    /// The model of the file being checked, not one read to answer an
    /// importer (a summary, another module's call): what only this file's
    /// own calls decide holds here (`Flow::context_abstract_mesh`).
    checked_here: std::cell::Cell<bool>,
    /// `name.trace(...)`-style calls by receiver name (built on first use).
    staging_calls: std::cell::OnceCell<std::collections::HashMap<&'t str, Vec<usize>>>,
    /// How often each word occurs in the model's code (built on first use).
    word_counts: std::cell::OnceCell<HashMap<&'t str, u32>>,
    /// The bytes of the statements a model of some statements covers
    /// (`mentioned_more_than` searches a small one for a name instead).
    pub(crate) covered_bytes: std::cell::OnceCell<usize>,
    /// The key `lookup` asks `bindings` with, kept so that a lookup does
    /// not allocate the name (it runs tens of thousands of times a model).
    lookup_key: std::cell::RefCell<(ScopeId, String)>,
    /// `scope_never_runs` by module-level def (each answer scans the text).
    never_running: std::cell::RefCell<HashMap<ScopeId, bool>>,
    /// Who the model is read for (`set_imported`).
    reader: std::cell::RefCell<Reader>,
    /// Calls by the plain names among their arguments (built on first use).
    #[allow(clippy::type_complexity)]
    value_args: std::cell::OnceCell<std::collections::HashMap<String, Vec<(usize, Node<'t>)>>>,
    /// The module's name and the project's contracts (`contract.rs`).
    contracts: std::cell::OnceCell<contract::ContractScope>,
    /// Whether the text holds a `# jax-lsp:` declaration (built on first use).
    declares: std::cell::OnceCell<bool>,
    /// `args_of` of calls without a `**` argument, by node id.
    plain_args: std::cell::RefCell<HashMap<usize, Args<'t>>>,
    /// `canonical` answers, by (node id, scope).
    canonical_paths: std::cell::RefCell<HashMap<(usize, ScopeId), Option<String>>>,
    /// `base_classes` by class: asked for every method lookup, and a
    /// module of hundreds of classes (a config schema) walked their bases
    /// each time. Cleared after collecting, as `canonical_paths`.
    base_classes: std::cell::RefCell<HashMap<ScopeId, Vec<ScopeId>>>,
}

impl<'t> Module<'t> {
    pub fn new(src: &'t str, tree: &'t Tree) -> Self {
        Self::build(src, tree.root_node(), None, &[])
    }

    /// The model of only some top-level statements of the module (children
    /// of the root, in document order): what the module would mean if the
    /// others were blank lines. Incremental analysis builds one per unit of
    /// statements that can affect each other (`crate::incremental`). The
    /// statements may come from several trees of pieces of the text
    /// (`syntax::pieces`); `root` is one of those trees' roots.
    pub fn new_in(src: &'t str, root: Node<'t>, statements: Vec<Node<'t>>) -> Self {
        Self::build(src, root, Some(statements), &[])
    }

    /// `new_in`, with the query matches of some statements already found
    /// (`matched[i]` for `statements[i]`; missing or `None`: matched here).
    /// Incremental analysis matches the statements every unit holds (the
    /// imports) once for all the units.
    pub fn new_in_matched(
        src: &'t str,
        root: Node<'t>,
        statements: Vec<Node<'t>>,
        matched: &[Option<&Matches<'t>>],
    ) -> Self {
        Self::build(src, root, Some(statements), matched)
    }

    /// The top-level statements this model covers, in document order.
    /// Marks this model as the checked file's (`checked_here`).
    pub fn set_checked_here(&self) {
        self.checked_here.set(true);
    }

    /// Whether this model is the checked file's, answering no importer.
    pub(crate) fn is_checked_here(&self) -> bool {
        self.checked_here.get()
            && self.answering.borrow().is_none()
            && self.foreign_receiver.borrow().is_none()
    }

    pub fn top_level_statements(&self) -> Vec<Node<'t>> {
        if let Some(statements) = &self.statements {
            return statements.clone();
        }
        crate::syntax::statements_under(self.root)
    }

    /// The node spanning exactly `span`, if any. Searched from the top-level
    /// statement holding it: the statements may belong to different trees.
    /// The stores `NAME[key] = value` into the dict literal `dict`, where it
    /// is the value of `NAME = {...}` (cached). In the scope of that
    /// binding, or anywhere when it is a module-level name.
    pub fn dict_stores(&self, dict: Node<'t>) -> std::rc::Rc<DictStores<'t>> {
        memoized(&self.dict_stores, dict.id(), || self.find_dict_stores(dict))
    }

    /// The module-level name `value` is assigned to (`NAME = value`).
    pub(crate) fn module_level_name_of(&self, value: Node<'t>) -> Option<&'t str> {
        let target = assigned_name(value)?;
        (self.innermost_scope_at(target.start_byte()) == MODULE_SCOPE)
            .then(|| text(target, self.src))
    }

    /// The name `value` is assigned to (`NAME = value`) and the byte range
    /// its stores can be in: its scope, or the whole module for a
    /// module-level name.
    fn assigned_name_and_range(
        &self,
        value: Node<'t>,
    ) -> Option<(&'t str, std::ops::Range<usize>)> {
        let target = assigned_name(value)?;
        let range = self.scope_range(self.innermost_scope_at(target.start_byte()));
        Some((text(target, self.src), range))
    }

    /// Whether the dict literal `dict` (bound to a name, or given as an
    /// argument itself) is passed to a function of this module that changes
    /// the parameter receiving it (`def override(cfg): cfg["k"] = v`). What
    /// that function stores is not followed, so the dict's entries are not
    /// known: its literal entries would be wrong after the call.
    pub(crate) fn passed_to_changing_def(&self, dict: Node<'t>) -> bool {
        *memoized(&self.changed_by_callee, dict.id(), || {
            self.find_passed_to_changing_def(dict)
        })
    }

    fn find_passed_to_changing_def(&self, dict: Node<'t>) -> bool {
        let mut passed: Vec<(Node<'t>, ScopeId)> = Vec::new();
        if argument_call(dict).is_some() {
            passed.push((dict, self.innermost_scope_at(dict.start_byte())));
        }
        if let Some((name, range)) = self.assigned_name_and_range(dict) {
            passed.extend(
                self.uses_of_assigned(name, "", range, dict)
                    .into_iter()
                    .filter(|(ident, _)| argument_call(*ident).is_some()),
            );
        }
        passed
            .into_iter()
            .any(|(argument, scope)| self.callee_changes_argument(argument, scope))
    }

    /// Whether the function of this module that `argument`'s call calls
    /// changes the items of the parameter receiving it.
    fn callee_changes_argument(&self, argument: Node<'t>, scope: ScopeId) -> bool {
        self.callee_changes_argument_at(argument, scope, 0)
    }

    fn callee_changes_argument_at(&self, argument: Node<'t>, scope: ScopeId, depth: u32) -> bool {
        if depth > 3 {
            return false;
        }
        let Some((call, keyword)) = argument_call(argument) else {
            return false;
        };
        let Some(func) = call
            .field("function")
            .filter(|f| f.kind_name() == "identifier")
        else {
            return false;
        };
        let Some(Binding::Def(def)) = self.binding_at(scope, text(func, self.src), func) else {
            return false;
        };
        let def = *def;
        if self.scopes[def].kind != ScopeKind::Function {
            return false;
        }
        let params = self.scopes[def].params();
        let param = match keyword {
            Some(name) => params.iter().find(|(p, _)| p == text(name, self.src)),
            None => {
                let index = self
                    .args_of(call)
                    .positional
                    .iter()
                    .position(|a| a.id() == argument.id());
                index.and_then(|i| params.get(i))
            }
        };
        let range = self.scopes[def].node.byte_range();
        // Received in `*args`/`**kwargs` (or past the named parameters) and
        // handed on (`return normalise(*args)`): changed if a function of
        // this module it is handed to changes any of its parameters.
        let Some((param, _)) = param.filter(|(p, _)| !p.starts_with('*')) else {
            let pattern = match keyword {
                Some(_) => "dictionary_splat_pattern",
                None => "list_splat_pattern",
            };
            let rest = self.scopes[def].node.field("parameters").and_then(|list| {
                let mut cursor = list.walk();
                let found = list
                    .named_children(&mut cursor)
                    .find(|p| p.kind_name() == pattern)
                    .and_then(|p| p.named_child(0))
                    .map(|name| text(name, self.src));
                found
            });
            let Some(rest) = rest else {
                return false;
            };
            return self.identifiers_named(rest).into_iter().any(|ident| {
                range.contains(&ident.start_byte())
                    && ident
                        .parent()
                        .filter(|p| matches!(p.kind_name(), "list_splat" | "dictionary_splat"))
                        .and_then(argument_call)
                        .and_then(|(call, _)| call.field("function"))
                        .filter(|f| f.kind_name() == "identifier")
                        .is_some_and(|f| {
                            let at = self.innermost_scope_at(f.start_byte());
                            matches!(self.binding_at(at, text(f, self.src), f),
                                Some(Binding::Def(d)) if self.changes_some_parameter(*d))
                        })
            });
        };
        let uses: Vec<Node<'t>> = self
            .identifiers_named(param)
            .into_iter()
            .filter(|ident| {
                range.contains(&ident.start_byte()) && {
                    let at = self.innermost_scope_at(ident.start_byte());
                    matches!(self.binding_at(at, param, *ident),
                        Some(Binding::Param { scope, .. }) if *scope == def)
                }
            })
            .collect();
        if uses.iter().any(|ident| changes_items(*ident, self.src)) {
            return true;
        }
        // Handed on to another function of this module that changes it.
        if uses.iter().any(|ident| {
            argument_call(*ident).is_some()
                && self.callee_changes_argument_at(
                    *ident,
                    self.innermost_scope_at(ident.start_byte()),
                    depth + 1,
                )
        }) {
            return true;
        }
        // Through a name for it or for a dict inside it (`node = cfg`, then
        // `node = node[part]` down a dotted path and `node[leaf] = v`).
        uses.iter().any(|ident| {
            let mut top = *ident;
            while let Some(up) = subscripted(top) {
                top = up;
            }
            let Some(alias) = assigned_name(top).filter(|t| t.id() != ident.id()) else {
                return false;
            };
            let alias = text(alias, self.src);
            self.identifiers_named(alias)
                .into_iter()
                .any(|use_of_alias| {
                    range.contains(&use_of_alias.start_byte())
                        && changes_items(use_of_alias, self.src)
                })
        })
    }

    /// Whether function `def` of this module changes the items of any of
    /// its parameters (directly).
    fn changes_some_parameter(&self, def: ScopeId) -> bool {
        if self.scopes[def].kind != ScopeKind::Function {
            return false;
        }
        let range = self.scopes[def].node.byte_range();
        self.scopes[def].params().iter().any(|(param, _)| {
            !matches!(param.as_str(), "*" | "/")
                && self.identifiers_named(param).into_iter().any(|ident| {
                    range.contains(&ident.start_byte()) && changes_items(ident, self.src)
                })
        })
    }

    /// How the name `call` is assigned to (`raw = dict(DEFAULTS)`) is
    /// changed in its scope afterwards. A copy so changed is not the dict
    /// it copied.
    pub(crate) fn assigned_name_mutation(&self, call: Node<'t>) -> Mutation {
        if let Some(known) = self.mutated_copies.borrow().get(&call.id()) {
            return *known;
        }
        // (Provisional while it is found: `node = node[key]` in a walk
        // asks about itself.)
        self.mutated_copies
            .borrow_mut()
            .insert(call.id(), Mutation::None);
        let mutated = self.find_name_mutation(call);
        self.mutated_copies.borrow_mut().insert(call.id(), mutated);
        mutated
    }

    fn find_name_mutation(&self, call: Node<'t>) -> Mutation {
        let Some((name, range)) = self.assigned_name_and_range(call) else {
            return Mutation::None;
        };
        let from = call.end_byte().max(range.start);
        let mut found = Mutation::None;
        for ident in self.identifiers_named(name) {
            if ident.start_byte() < from || ident.start_byte() >= range.end {
                continue;
            }
            found = found.max(self.mutation_through(ident));
            if found == Mutation::Deep {
                break;
            }
        }
        found
    }

    /// What the use `ident` of a dict's name does to the dict: stores an
    /// item (`d[k] = v`, `del d[k]`, `d[k] += v`, `d.update(...)`:
    /// `Shallow`), changes a dict or list it holds (`d["a"]["b"] = v`,
    /// `d["a"].append(v)`: `Deep`), or names it or one of its entries
    /// again, and that name changes it (`node = d` or `node = d["a"]`, then
    /// `node["b"] = v`, as a walk down computed keys does: `Deep`).
    fn mutation_through(&self, ident: Node<'t>) -> Mutation {
        const CHANGERS: [&str; 11] = [
            "update",
            "setdefault",
            "__setitem__",
            "__delitem__",
            "pop",
            "popitem",
            "clear",
            "append",
            "extend",
            "insert",
            "remove",
        ];
        // Up the chain of items and attributes read from it.
        let mut top = ident;
        let mut items = 0;
        while let Some(parent) = self.parent_of(top) {
            let through = match parent.kind_name() {
                "subscript" => parent.field("value"),
                "attribute" => parent.field("object"),
                _ => None,
            };
            if through.is_none_or(|n| n.id() != top.id()) {
                break;
            }
            if parent.kind_name() == "attribute" {
                let method = parent.field("attribute").map(|a| text(a, self.src));
                let called = self
                    .parent_of(parent)
                    .is_some_and(|c| c.kind_name() == "call");
                if called && method.is_some_and(|m| CHANGERS.contains(&m)) {
                    return if items == 0 {
                        Mutation::Shallow
                    } else {
                        Mutation::Deep
                    };
                }
                // (Any other attribute is no dict's entry.)
                return Mutation::None;
            }
            items += 1;
            top = parent;
        }
        let Some(parent) = self.parent_of(top) else {
            return Mutation::None;
        };
        let is_field = |field: &str| parent.field(field).is_some_and(|n| n.id() == top.id());
        let changed = match parent.kind_name() {
            "assignment" => {
                if is_field("left") && items > 0 {
                    true
                } else if is_field("right") {
                    // Named again: changed if the other name changes it.
                    return match self.assigned_name_mutation(top) {
                        Mutation::None => Mutation::None,
                        _ => Mutation::Deep,
                    };
                } else {
                    false
                }
            }
            "augmented_assignment" => is_field("left"),
            "delete_statement" => items > 0,
            // `del d["a"], d["b"]`
            "expression_list" => {
                items > 0
                    && self
                        .parent_of(parent)
                        .is_some_and(|p| p.kind_name() == "delete_statement")
            }
            _ => false,
        };
        match (changed, items) {
            (false, _) => Mutation::None,
            (true, 0 | 1) => Mutation::Shallow,
            (true, _) => Mutation::Deep,
        }
    }

    /// The stores `E.attr[key] = value` anywhere in this model's statements
    /// that may be into `dict`, a literal held in an attribute: the value of
    /// `X.attr = {...}`, or of `attr = {...}` in a class body (reached as
    /// `C.attr`, `cls.attr`, `self.attr`). Each with `E.attr`, the receiver,
    /// for the caller to evaluate: only a receiver whose object holds this
    /// very dict makes its store one of its entries (`Flow::dict_stores`).
    pub(crate) fn attribute_dict_stores(&self, dict: Node<'t>) -> std::rc::Rc<AttrDictStores<'t>> {
        memoized(&self.attribute_dict_stores, dict.id(), || {
            self.find_attribute_dict_stores(dict)
        })
    }

    /// The attribute a value is assigned to in a class: `self.attr = value`
    /// in a method (held by each instance) or `attr = value` in the class
    /// body (`class_level`: held by the class, read through it or its
    /// instances). (attr, class, class_level).
    fn attribute_holder(&self, value: Node<'t>) -> Option<(&'t str, ScopeId, bool)> {
        let left = assignment_target(value)?;
        let home = self.innermost_scope_at(left.start_byte());
        match left.kind_name() {
            "attribute" => {
                let class = self.method_self_class(home, left.field("object")?)?;
                Some((text(left.field("attribute")?, self.src), class, false))
            }
            "identifier" if self.scopes[home].kind == ScopeKind::Class => {
                Some((text(left, self.src), home, true))
            }
            _ => None,
        }
    }

    /// Each `E.attr` written with `suffix` right after the name (`"["` for
    /// item stores, `""` for any use) in the model's statements (a server
    /// model of part of a file), else in the whole file: the attribute
    /// node.
    fn attribute_uses(&self, attr: &str, suffix: &str) -> Vec<Node<'t>> {
        let ranges: Vec<std::ops::Range<usize>> = match &self.statements {
            Some(statements) => statements.iter().map(|s| s.byte_range()).collect(),
            None => std::iter::once(0..self.src.len()).collect(),
        };
        let needle = format!(".{attr}{suffix}");
        let mut out = Vec::new();
        for range in ranges {
            let mut from = range.start;
            while let Some(at) = self.src.get(from..range.end).and_then(|t| t.find(&needle)) {
                let start = from + at + 1;
                from = start + attr.len();
                let held = self
                    .node_for_span(start..start + attr.len())
                    .filter(|n| n.kind_name() == "identifier" && text(*n, self.src) == attr)
                    .and_then(|ident| self.parent_of(ident))
                    .filter(|a| a.kind_name() == "attribute");
                out.extend(held);
            }
        }
        out
    }

    fn find_attribute_dict_stores(&self, dict: Node<'t>) -> AttrDictStores<'t> {
        let mut out = Vec::new();
        // The class whose instances (or which, and its instances) hold it.
        let Some((attr, owner, class_level)) = self.attribute_holder(dict) else {
            return out;
        };
        for receiver in self.attribute_uses(attr, "[") {
            let Some((key, value)) = subscripted(receiver).and_then(item_store) else {
                continue;
            };
            let Some(object) = receiver.field("object") else {
                continue;
            };
            if out.len() < 64 {
                out.push(AttrDictStore {
                    key,
                    value,
                    scope: self.innermost_scope_at(receiver.start_byte()),
                    object,
                    owner,
                    class_level,
                });
            }
        }
        out
    }

    /// How a list held in an attribute (`self.callbacks = []` in a method,
    /// `HOOKS = []` in a class body) is changed through that attribute
    /// anywhere in the module (`monitor.callbacks.append(cb)`,
    /// `self.stack.pop()`): each change with the object it is made on, to be
    /// checked against the class by the value flow.
    pub(crate) fn attribute_list_mutations(
        &self,
        list: Node<'t>,
    ) -> std::rc::Rc<AttrListMutations<'t>> {
        memoized(&self.attribute_list_mutations, list.id(), || {
            self.find_attribute_list_mutations(list)
        })
    }

    fn find_attribute_list_mutations(&self, list: Node<'t>) -> AttrListMutations<'t> {
        let mut out = AttrListMutations::default();
        let Some((attr, owner, class_level)) = self.attribute_holder(list) else {
            return out;
        };
        out.owner = owner;
        out.class_level = class_level;
        for held in self.attribute_uses(attr, "") {
            let Some(object) = held.field("object") else {
                continue;
            };
            let scope = self.innermost_scope_at(held.start_byte());
            let Some(change) = self.list_change_at(held, Some(scope), true) else {
                continue;
            };
            if out.changes.len() >= 64 {
                out.changes.push((object, ListChange::Unknown));
                return out;
            }
            out.changes.push((object, change));
        }
        out
    }

    fn find_dict_stores(&self, dict: Node<'t>) -> DictStores<'t> {
        let mut out = Vec::new();
        // A dict nested in a dict literal (`cfg = {"aot": {...}}`): the keys
        // from the named dict down to it; stores are `cfg["aot"][key] = v`.
        let mut path: Vec<String> = Vec::new();
        let mut outer = dict;
        while let Some(pair) = self.parent_of(outer).filter(|p| {
            p.kind_name() == "pair" && p.field("value").is_some_and(|v| v.id() == outer.id())
        }) {
            let Some(key) = pair
                .field("key")
                .and_then(|k| crate::syntax::string_value(k, self.src))
            else {
                return out;
            };
            let Some(parent) = self
                .parent_of(pair)
                .filter(|p| p.kind_name() == "dictionary")
            else {
                return out;
            };
            if path.len() > 8 {
                return out;
            }
            path.insert(0, key);
            outer = parent;
        }
        let Some((name, range)) = self.assigned_name_and_range(outer) else {
            return out;
        };
        // The dict under other names (`cfg = CONFIG`): stores through them
        // are stores into it. A name for a dict inside it (`node =
        // CONFIG["export"]`, constant keys): its stores are stores down
        // that path (`prefix`); with other keys, what it changes there is
        // not known here.
        let mut names: Vec<(&'t str, std::ops::Range<usize>, Node<'t>, Vec<String>)> =
            vec![(name, range, outer, Vec::new())];
        let mut i = 0;
        while i < names.len() && names.len() < 8 {
            let (name, range, value, prefix) = names[i].clone();
            i += 1;
            for (ident, _) in self.uses_of_assigned(name, "", range, value) {
                let mut top = ident;
                let mut keys: Option<Vec<String>> = Some(prefix.clone());
                while let Some(up) = subscripted(top) {
                    let key = crate::syntax::single_index(up)
                        .and_then(|k| crate::syntax::string_value(k, self.src));
                    match (&mut keys, key) {
                        (Some(keys), Some(key)) => keys.push(key),
                        _ => keys = None,
                    }
                    top = up;
                }
                let Some((alias, alias_value)) = assigned_name(top)
                    .map(|target| (target, top))
                    .filter(|(target, _)| target.id() != ident.id())
                else {
                    continue;
                };
                let alias_range = self.scope_range(self.innermost_scope_at(alias.start_byte()));
                let alias_name = text(alias, self.src);
                if top.id() == ident.id() {
                    names.push((alias_name, alias_range, alias_value, prefix.clone()));
                    continue;
                }
                // `node = cfg["aot"]`: a name for the dict down those keys.
                if let Some(keys) = keys.filter(|_| top.kind_name() == "subscript") {
                    if self
                        .parent_of(top)
                        .is_some_and(|p| p.kind_name() == "assignment")
                    {
                        names.push((alias_name, alias_range, alias_value, keys));
                        continue;
                    }
                }
                for suffix in ["[", ".update(", ".setdefault(", ".__setitem__(", ".pop("] {
                    for (use_node, use_scope) in
                        self.uses_of_assigned(alias_name, suffix, alias_range.clone(), alias_value)
                    {
                        let changer = self.enclosing_statement(use_node);
                        let changes = suffix != "["
                            || subscripted(use_node).is_some_and(|sub| {
                                item_store(sub).is_some()
                                    || self.parent_of(sub).is_some_and(|p| {
                                        matches!(
                                            p.kind_name(),
                                            "augmented_assignment" | "delete_statement"
                                        )
                                    })
                            });
                        if changes && out.len() < 64 {
                            out.push((changer, changer, use_scope));
                        }
                    }
                }
            }
        }
        for (name, range, outer, prefix) in names {
            // A name for this dict, or for one it holds down `prefix`: the
            // stores through it down the rest of the path. (A name for
            // another entry, or for a dict inside this one's entries,
            // stores none of this dict's keys.)
            if let Some(rest) = path.strip_prefix(prefix.as_slice()) {
                self.named_dict_stores(name, range, outer, rest, &mut out);
            }
        }
        out.sort_by_key(|(_, v, _)| v.start_byte());
        out
    }

    /// The `for` loops of `scope` around `node` that a read at `read` is
    /// not in (a read not known is taken as after them): a store at `node`
    /// made on each of their passes leaves the last pass's value.
    pub(crate) fn loops_around(
        &self,
        node: Node<'t>,
        scope: ScopeId,
        read: Option<Node<'t>>,
    ) -> Vec<Node<'t>> {
        // (The loop's own scope is `scope`: a scope's node is not always all
        // of it, a module's being its first statement in a unit.)
        self.for_loops
            .iter()
            .copied()
            .filter(|l| {
                encloses(*l, node)
                    && self.innermost_scope_at(l.start_byte()) == scope
                    && read.is_none_or(|r| !encloses(*l, r))
            })
            .collect()
    }

    /// The attribute stores `NAME.attr = v` through the name `made` (an
    /// object's construction) is bound to: for an object whose class's
    /// `__setattr__` stores items (`Flow::sets_items_by_attribute`), its
    /// item stores, each as (the attribute's name node, value, scope).
    pub(crate) fn attribute_stores_through_name(&self, made: Node<'t>) -> DictStores<'t> {
        let mut out = Vec::new();
        let Some((name, range)) = self.assigned_name_and_range(made) else {
            return out;
        };
        for (ident, scope) in self.uses_of_assigned(name, ".", range, made) {
            let Some(attribute) = self.parent_of(ident).filter(|a| {
                a.kind_name() == "attribute"
                    && a.field("object").is_some_and(|o| o.id() == ident.id())
            }) else {
                continue;
            };
            let Some(assignment) = self.parent_of(attribute).filter(|p| {
                p.kind_name() == "assignment"
                    && p.field("left").is_some_and(|l| l.id() == attribute.id())
            }) else {
                continue;
            };
            if let (Some(attr), Some(value)) =
                (attribute.field("attribute"), assignment.field("right"))
            {
                if out.len() < 64 {
                    out.push((attr, value, scope));
                }
            }
        }
        out
    }

    /// `find_dict_stores` through one name of the dict (`outer`, bound to
    /// `name` in `range`), down `path`.
    fn named_dict_stores(
        &self,
        name: &'t str,
        range: std::ops::Range<usize>,
        outer: Node<'t>,
        path: &[String],
        out: &mut DictStores<'t>,
    ) {
        for (ident, scope) in self.uses_of_assigned(name, "[", range.clone(), outer) {
            let Some(mut subscript) = subscripted(ident) else {
                continue;
            };
            // Down the nesting: each level's key must be the path's (a
            // key that is not a literal may be it: the store counts).
            let mut on_path = true;
            for want in path {
                // (`d[a, b]`'s key, a tuple, is no string of the path.)
                let indices = crate::syntax::subscript_indices(subscript);
                let key = indices
                    .first()
                    .map(|k| crate::syntax::string_value(*k, self.src));
                if indices.len() > 1 || matches!(&key, Some(Some(k)) if k != want) {
                    on_path = false;
                    break;
                }
                match subscripted(subscript) {
                    Some(next) => subscript = next,
                    None => {
                        on_path = false;
                        break;
                    }
                }
            }
            if !on_path {
                continue;
            }
            // `name[k] += v`, `del name[k]`: a change of unknown value.
            let Some((key, value)) = item_store(subscript).or_else(|| {
                self.parent_of(subscript)
                    .filter(|p| {
                        matches!(p.kind_name(), "augmented_assignment" | "delete_statement")
                    })
                    .map(|stmt| (stmt, stmt))
            }) else {
                continue;
            };
            if out.len() < 64 {
                out.push((key, value, scope));
            }
        }
        // Stores made by methods: `name.update({"k": v, ...})` stores each
        // pair; any other `update`, a `setdefault`, `__setitem__` or `|=`
        // stores what is not known here: the call (or statement) stands
        // for key and value, and a key that is no constant makes a lookup
        // unknown.
        for method in [".update(", ".setdefault(", ".__setitem__(", " |="] {
            for (ident, scope) in self.uses_of_assigned(name, method, range.clone(), outer) {
                let Some(changer) = self.parent_of(ident) else {
                    continue;
                };
                // `name.update(...)`: the call; `name |= ...`: the statement.
                let changer = match changer.kind_name() {
                    "attribute" => match self.parent_of(changer) {
                        Some(call) if call.kind_name() == "call" => call,
                        _ => continue,
                    },
                    _ => changer,
                };
                if out.len() >= 64 {
                    continue;
                }
                match updated_pairs(changer, method) {
                    Some(pairs) => out.extend(pairs.into_iter().map(|(k, v)| (k, v, scope))),
                    None => out.push((changer, changer, scope)),
                }
            }
        }
    }

    /// Each `name` written as a whole identifier followed by `suffix` in
    /// `range` where it is the name `value` is assigned to: that
    /// identifier and its scope.
    fn uses_of_assigned(
        &self,
        name: &str,
        suffix: &str,
        range: std::ops::Range<usize>,
        value: Node<'t>,
    ) -> Vec<(Node<'t>, ScopeId)> {
        let needle = format!("{name}{suffix}");
        let mut out = Vec::new();
        let mut from = range.start;
        while let Some(at) = self.src.get(from..range.end).and_then(|t| t.find(&needle)) {
            let start = from + at;
            from = start + needle.len();
            // A whole identifier, not the tail of a longer one.
            let before = self.src[..start].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
                continue;
            }
            let Some(ident) = self.node_for_span(start..start + name.len()) else {
                continue;
            };
            let scope = self.innermost_scope_at(start);
            let bound_to_value = match self.binding_at(scope, name, ident) {
                Some(Binding::Value { value: v, .. }) => v.id() == value.id(),
                // One name of a parallel assignment (`a, b = {}, {}`).
                Some(Binding::Item { target, .. }) => {
                    assignment_target(value).is_some_and(|t| t.id() == target.id())
                }
                _ => false,
            };
            if bound_to_value {
                out.push((ident, scope));
            }
        }
        out
    }

    /// How the list literal `list` (`[]`, `[a]`, `list()`), bound to a
    /// name, is changed after it is made, by that name.
    pub fn list_mutations(&self, list: Node<'t>) -> std::rc::Rc<ListMutations<'t>> {
        memoized(&self.list_mutations, list.id(), || {
            self.find_list_mutations(list)
        })
    }

    fn find_list_mutations(&self, list: Node<'t>) -> ListMutations<'t> {
        let mut out = ListMutations::default();
        let Some(uses) = self.changing_uses(list) else {
            if let Some((dict, key)) = dict_entry_of(list, self.src) {
                self.find_entry_list_mutations(dict, key, &mut out);
            } else if let Some(target) =
                assignment_target(list).filter(|t| t.kind_name() == "subscript")
            {
                // `D["k"] = []`: changed as the entry of the dict `D` names
                // is (`D["k"].append(x)`); stored into an entry reached
                // another way (`self.d[k] = []`), changed by any change
                // of an item (`...].append(x)`), which is not followed.
                match self.stored_entry_of(target) {
                    Some((dict, key)) => self.find_entry_list_mutations(dict, key, &mut out),
                    None => out.unknown = self.changes_an_item_list(),
                }
            }
            return out;
        };
        let (target, name, home) = (uses.target, uses.name, uses.home);
        let (from, range) = (uses.from, uses.range.clone());
        // Whether `ident` (in `scope`) may name this list: its binding, or,
        // read in another scope while the name has several bindings (`STACK
        // = [...]` twice at module level, `STACK.append(x)` in a function),
        // any of them.
        let is_list = |b: &Binding<'t>| match b {
            Binding::Value { value: v, .. } => v.id() == list.id(),
            Binding::Item { target: t, .. } => t.id() == target.id(),
            _ => false,
        };
        let may_name_list =
            |ident: Node<'t>, scope: ScopeId| match self.binding_at(scope, name, ident) {
                Some(b) => is_list(b),
                None => {
                    scope != home
                        && match (self.lookup(scope, name), self.bindings_in(home, name)) {
                            (Some(found), Some(own)) if std::ptr::eq(found, own) => {
                                found.iter().any(is_list)
                            }
                            _ => false,
                        }
                }
            };
        for &ident in &uses.idents {
            let start = ident.start_byte();
            let scope = self.innermost_scope_at(start);
            if !may_name_list(ident, scope) {
                continue;
            }
            let elsewhere = (scope != home).then_some(scope);
            if out.take(self.list_change_at(ident, elsewhere, scope == home)) {
                break;
            }
        }
        // Named again or passed on (`ys = xs`, `fill(xs)`): changed there.
        let sites = self
            .mutation_sites()
            .get(name)
            .map(Vec::as_slice)
            .unwrap_or_default();
        if !out.unknown && self.mentioned_more_than(name, sites.len() + 1) {
            for ident in self.identifiers_named(name) {
                let start = ident.start_byte();
                if start < from || start >= range.end || sites.contains(&start) {
                    continue;
                }
                let scope = self.innermost_scope_at(start);
                if may_name_list(ident, scope) && self.list_change_at(ident, None, false).is_some()
                {
                    out.unknown = true;
                    break;
                }
            }
        }
        out
    }

    /// The uses of the name `value` is assigned to, after it in the
    /// name's scope, that may change what it holds: written followed by
    /// `.`, `[` or an operator (`mutation_sites`).
    fn changing_uses(&self, value: Node<'t>) -> Option<ChangingUses<'t>> {
        let target = assigned_name(value)?;
        let name = text(target, self.src);
        let home = self.innermost_scope_at(target.start_byte());
        let range = self.scope_range(home);
        let from = value.end_byte().max(range.start);
        let sites = self
            .mutation_sites()
            .get(name)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let idents = sites
            .iter()
            .filter(|&&start| start >= from && start < range.end)
            .filter_map(|&start| {
                self.node_for_span(start..start + name.len())
                    .filter(|n| n.kind_name() == "identifier")
            })
            .collect();
        Some(ChangingUses {
            target,
            name,
            home,
            range,
            from,
            idents,
        })
    }

    /// Whether a list named `name` is changed in `range` by that name
    /// (`name.append(x)`, `name[i] = v`, `name += ys`, ...), whoever binds
    /// it there.
    fn list_name_changed(&self, name: &str, range: std::ops::Range<usize>) -> bool {
        let sites = self
            .mutation_sites()
            .get(name)
            .map(Vec::as_slice)
            .unwrap_or_default();
        sites.iter().any(|&start| {
            range.contains(&start)
                && self
                    .node_for_span(start..start + name.len())
                    .filter(|n| n.kind_name() == "identifier")
                    .and_then(|ident| self.parent_of(ident))
                    .is_some_and(|parent| {
                        let holds = |field: &str| {
                            parent.field(field).is_some_and(|n| n.start_byte() == start)
                        };
                        match parent.kind_name() {
                            "attribute" if holds("object") => {
                                parent.field("attribute").is_some_and(|a| {
                                    matches!(
                                        text(a, self.src),
                                        "append"
                                            | "extend"
                                            | "insert"
                                            | "pop"
                                            | "remove"
                                            | "clear"
                                            | "sort"
                                            | "reverse"
                                    )
                                })
                            }
                            "subscript" if holds("value") => {
                                self.parent_of(parent).is_some_and(|p| {
                                    (matches!(p.kind_name(), "assignment" | "augmented_assignment")
                                        && p.field("left").is_some_and(|l| l.id() == parent.id()))
                                        || p.kind_name() == "delete_statement"
                                })
                            }
                            "augmented_assignment" => holds("left"),
                            _ => false,
                        }
                    })
        })
    }

    /// The bytes of scope `id`: the whole text for the module.
    fn scope_range(&self, id: ScopeId) -> std::ops::Range<usize> {
        if id == MODULE_SCOPE {
            0..self.src.len()
        } else {
            self.scopes[id].node.byte_range()
        }
    }

    /// Whether the module changes, in place, a list it reads as an item
    /// (`d[k].append(x)`, `d[k] += xs`).
    fn changes_an_item_list(&self) -> bool {
        const CHANGES: [&str; 11] = [
            "].append(",
            "].extend(",
            "].insert(",
            "].remove(",
            "].pop(",
            "].clear(",
            "].sort(",
            "].reverse(",
            "] +=",
            "] *=",
            "].__iadd__(",
        ];
        CHANGES.iter().any(|c| self.src.contains(c))
    }

    /// The dict display a store target `NAME["key"]` stores into (the one
    /// `NAME` is bound to there), with the key.
    fn stored_entry_of(&self, target: Node<'t>) -> Option<(Node<'t>, String)> {
        if target.kind_name() != "subscript" {
            return None;
        }
        let base = target
            .field("value")
            .filter(|b| b.kind_name() == "identifier")?;
        let key = crate::syntax::string_value(crate::syntax::single_index(target)?, self.src)?;
        let scope = self.innermost_scope_at(base.start_byte());
        match self.binding_at(scope, text(base, self.src), base)? {
            Binding::Value { value, .. } if value.kind_name() == "dictionary" => {
                Some((*value, key))
            }
            _ => None,
        }
    }

    /// `find_list_mutations` of a list that is the entry `key` of the dict
    /// literal `dict` bound to a name (`KERNELS = {"copy": []}`): changed
    /// through that name, `KERNELS["copy"].append(fn)` or
    /// `KERNELS.setdefault("copy", []).append(fn)`. A change through a key
    /// that is no literal may be this entry's: unknown.
    fn find_entry_list_mutations(&self, dict: Node<'t>, key: String, out: &mut ListMutations<'t>) {
        let Some(uses) = self.changing_uses(dict) else {
            return;
        };
        let (name, home) = (uses.name, uses.home);
        for &ident in &uses.idents {
            let start = ident.start_byte();
            let scope = self.innermost_scope_at(start);
            let same = matches!(
                self.binding_at(scope, name, ident),
                Some(Binding::Value { value, .. }) if value.id() == dict.id()
            );
            let Some(parent) = self.parent_of(ident).filter(|_| same) else {
                continue;
            };
            // The entry read: `NAME[key]`, or `NAME.setdefault(key, ...)`,
            // which returns it.
            let (entry, key_node) = match parent.kind_name() {
                "subscript" if parent.field("value").is_some_and(|v| v.id() == ident.id()) => {
                    (parent, crate::syntax::single_index(parent))
                }
                "attribute"
                    if parent
                        .field("attribute")
                        .is_some_and(|a| text(a, self.src) == "setdefault") =>
                {
                    let Some(call) = self.parent_of(parent).filter(|c| c.kind_name() == "call")
                    else {
                        continue;
                    };
                    let first = call.field("arguments").and_then(|a| a.named_child(0));
                    (call, first)
                }
                _ => continue,
            };
            match key_node.map(|k| crate::syntax::string_value(k, self.src)) {
                Some(Some(k)) if k != key => continue,
                Some(Some(_)) => {}
                // A computed key may be this one.
                _ => {
                    if self.list_change_at(entry, None, false).is_some() {
                        out.unknown = true;
                        break;
                    }
                    continue;
                }
            }
            let elsewhere = (scope != home).then_some(scope);
            if out.take(self.list_change_at(entry, elsewhere, scope == home)) {
                break;
            }
        }
    }

    /// How the list `used` refers to (a name, or `E.attr`) is changed where
    /// it is written: `xs.append(x)`, `xs.sort()`, `xs[i] = v`, `xs += ys`
    /// (an add only when `plus_adds`: in the list's own scope or through
    /// an attribute; elsewhere a rebinding of a name). `None`: not changed
    /// here. `elsewhere`: the scope an add runs in, when not the list's.
    fn list_change_at(
        &self,
        used: Node<'t>,
        elsewhere: Option<ScopeId>,
        plus_adds: bool,
    ) -> Option<ListChange<'t>> {
        let parent = self.parent_of(used)?;
        let holds = |field: &str| parent.field(field).is_some_and(|n| n.id() == used.id());
        match parent.kind_name() {
            // `xs.append(x)`, `xs.sort()`, `register = xs.append`.
            "attribute" if holds("object") => {
                let method = parent
                    .field("attribute")
                    .map(|a| text(a, self.src))
                    .unwrap_or("");
                let call = self.parent_of(parent).filter(|c| {
                    c.kind_name() == "call"
                        && c.field("function").is_some_and(|f| f.id() == parent.id())
                });
                match (method, call) {
                    ("index" | "count" | "copy", _) => None,
                    ("append" | "extend" | "insert", Some(call)) => {
                        let args = Args::of(call, self.src);
                        let wanted = if method == "insert" { 2 } else { 1 };
                        if args.has_splat
                            || !args.keywords.is_empty()
                            || args.positional.len() != wanted
                        {
                            return Some(ListChange::Unknown);
                        }
                        Some(ListChange::Add(ListAdd {
                            at: call,
                            arg: args.positional[wanted - 1],
                            one: method != "extend",
                            positioned: method == "insert",
                            elsewhere,
                        }))
                    }
                    ("pop" | "remove" | "clear" | "sort" | "reverse", Some(_)) => {
                        Some(ListChange::Shrink)
                    }
                    _ => Some(ListChange::Unknown),
                }
            }
            // `xs[i] = v`, `xs[i] += v`, `del xs[i]`.
            "subscript" if holds("value") => {
                let written = self.parent_of(parent).is_some_and(|p| {
                    (matches!(p.kind_name(), "assignment" | "augmented_assignment")
                        && p.field("left").is_some_and(|l| l.id() == parent.id()))
                        || p.kind_name() == "delete_statement"
                });
                written.then_some(ListChange::Unknown)
            }
            // `alias = xs`, then `alias.append(x)`: changed, not followed.
            "assignment" if holds("right") => {
                let alias = parent
                    .field("left")
                    .filter(|l| l.kind_name() == "identifier")?;
                let home = self.innermost_scope_at(alias.start_byte());
                let range = self.scope_range(home);
                self.list_name_changed(text(alias, self.src), alias.end_byte()..range.end)
                    .then_some(ListChange::Unknown)
            }
            // `fill(xs)` with `def fill(layers): layers.append(...)`: the
            // function of this module changes what it is given.
            "argument_list" | "keyword_argument" => {
                let (call, keyword) = match parent.kind_name() {
                    "keyword_argument" if holds("value") => (
                        self.parent_of(self.parent_of(parent)?)?,
                        parent.field("name").map(|n| text(n, self.src)),
                    ),
                    "argument_list" => (self.parent_of(parent)?, None),
                    _ => return None,
                };
                let func = call
                    .field("function")
                    .filter(|f| f.kind_name() == "identifier")?;
                let scope = self.innermost_scope_at(func.start_byte());
                let Some(Binding::Def(def)) = self.binding_at(scope, text(func, self.src), func)
                else {
                    return None;
                };
                let def = *def;
                if self.scopes[def].kind != ScopeKind::Function {
                    return None;
                }
                let param = match keyword {
                    Some(name) => name.to_owned(),
                    None => {
                        let args = Args::of(call, self.src);
                        let at = args.positional.iter().position(|a| a.id() == used.id())?;
                        self.scopes[def].params().get(at)?.0.clone()
                    }
                };
                let body = self.scopes[def].node.field("body")?;
                self.list_name_changed(&param, body.byte_range())
                    .then_some(ListChange::Unknown)
            }
            "augmented_assignment" if holds("left") => {
                let plus = parent
                    .field("operator")
                    .is_some_and(|o| text(o, self.src) == "+=");
                Some(match parent.field("right") {
                    Some(right) if plus && plus_adds => ListChange::Add(ListAdd {
                        at: parent,
                        arg: right,
                        one: false,
                        positioned: false,
                        elsewhere,
                    }),
                    _ => ListChange::Unknown,
                })
            }
            _ => None,
        }
    }

    /// Identifiers of the model's statements followed (after spaces) by `.`,
    /// `[` or an operator character, by name: what `find_list_mutations`
    /// looks at. Strings and comments are not skipped here; the syntax tree
    /// rules them out.
    fn mutation_sites(&self) -> &rustc_hash::FxHashMap<&'t str, Vec<usize>> {
        self.mutation_sites.get_or_init(|| {
            let src: &'t str = self.src;
            let bytes = src.as_bytes();
            let mut out: rustc_hash::FxHashMap<&'t str, Vec<usize>> = Default::default();
            let is_start = |b: u8| b.is_ascii_alphabetic() || b == b'_' || b >= 0x80;
            let is_part = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80;
            for statement in self.top_level_statements() {
                let end = statement.end_byte().min(bytes.len());
                let mut i = statement.start_byte();
                while i < end {
                    let b = bytes[i];
                    if !is_start(b) || (i > 0 && (is_part(bytes[i - 1]) || bytes[i - 1] == b'.')) {
                        i += 1;
                        continue;
                    }
                    let start = i;
                    while i < bytes.len() && is_part(bytes[i]) {
                        i += 1;
                    }
                    let mut j = i;
                    while j < bytes.len() && (bytes[j] == b' ' || bytes[j] == b'\t') {
                        j += 1;
                    }
                    let follows = bytes.get(j).copied().unwrap_or(b' ');
                    if matches!(
                        follows,
                        b'.' | b'['
                            | b'+'
                            | b'-'
                            | b'*'
                            | b'/'
                            | b'|'
                            | b'&'
                            | b'%'
                            | b'^'
                            | b'<'
                            | b'>'
                            | b'@'
                    ) {
                        if let Some(name) = src.get(start..i) {
                            out.entry(name).or_default().push(start);
                        }
                    }
                }
            }
            out
        })
    }

    /// Whether `node` is in the body of a loop of `scope` that does not also
    /// hold `since` (it may run several times after `since` ran once).
    pub(crate) fn in_loop_since(&self, node: Node<'t>, scope: ScopeId, since: Node<'t>) -> bool {
        let scope_node = self.scopes[scope].node;
        let mut current = self.parent_of(node);
        while let Some(parent) = current {
            if parent.id() == scope_node.id() || parent.byte_range().contains(&since.start_byte()) {
                return false;
            }
            if matches!(parent.kind_name(), "for_statement" | "while_statement") {
                return true;
            }
            current = self.parent_of(parent);
        }
        false
    }

    /// The one loop around `node` since `since` (in `scope`), when it is a
    /// `for` statement whose body every element runs through to `node`: no
    /// `break` or `continue` in it, no other loop between. `None` otherwise.
    pub(crate) fn only_loop_since(
        &self,
        node: Node<'t>,
        scope: ScopeId,
        since: Node<'t>,
    ) -> Option<Node<'t>> {
        let scope_node = self.scopes[scope].node;
        let mut found = None;
        let mut current = self.parent_of(node);
        while let Some(parent) = current {
            if parent.id() == scope_node.id() || parent.byte_range().contains(&since.start_byte()) {
                break;
            }
            match parent.kind_name() {
                "for_statement" if found.is_none() => found = Some(parent),
                "for_statement" | "while_statement" => return None,
                _ => {}
            }
            current = self.parent_of(parent);
        }
        let found = found?;
        let body = found.field("body")?;
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            match n.kind_name() {
                "break_statement" | "continue_statement" => return None,
                "function_definition" | "class_definition" | "lambda" => continue,
                _ => {}
            }
            let mut cursor = n.walk();
            stack.extend(n.named_children(&mut cursor));
        }
        Some(found)
    }

    /// The defs that `decorator` (a function of this module) decorates:
    /// `@decorator` itself, or `@outer(...)` where `outer` returns it. Each
    /// with the choice that picks it: (the def `@` names, the decorator
    /// expression's node id), the same choice `outer`'s parameters take
    /// through that call.
    /// The def a decorator expression names: a def of this module by name,
    /// or a method of a class of this module, named on the class
    /// (`@Op.register(...)`, a classmethod) or on a module-level object of
    /// it (`@reg.register` with `reg = Registry()`).
    fn decorator_def(&self, home: ScopeId, named: Node<'t>) -> Option<ScopeId> {
        if named.kind_name() == "identifier" {
            return match self.binding_at(home, text(named, self.src), named) {
                Some(Binding::Def(target)) => Some(*target),
                _ => None,
            };
        }
        let object = named.field("object")?;
        let method = text(named.field("attribute")?, self.src);
        if object.kind_name() != "identifier" {
            return None;
        }
        let class = match self.binding_at(home, text(object, self.src), object)? {
            Binding::Def(class) => *class,
            Binding::Value { value, .. } => {
                let value = crate::syntax::unparenthesize(*value);
                let made_by = value
                    .field("function")
                    .filter(|f| value.kind_name() == "call" && f.kind_name() == "identifier")?;
                match self.binding_at(MODULE_SCOPE, text(made_by, self.src), made_by)? {
                    Binding::Def(class) => *class,
                    _ => return None,
                }
            }
            _ => return None,
        };
        if self.scopes[class].kind != ScopeKind::Class {
            return None;
        }
        self.method(class, method)
    }

    pub fn decorator_applications(&self, decorator: ScopeId) -> Vec<(ScopeId, usize, usize)> {
        let own = &self.scopes[decorator];
        if own.kind != ScopeKind::Function {
            return Vec::new();
        }
        // `outer` returns this def by name.
        let outer = own.parent.filter(|p| {
            self.scopes[*p].kind == ScopeKind::Function
                && self.scopes[*p].returned.iter().any(|r| {
                    r.kind_name() == "identifier"
                        && text(*r, self.src) == own.name
                        && matches!(self.binding_at(*p, &own.name, *r), Some(Binding::Def(id)) if *id == decorator)
                })
        });
        let index = self.decorated_by.get_or_init(|| {
            let mut index = DecoratedBy::default();
            for (id, scope) in self.scopes.iter().enumerate() {
                if scope.kind != ScopeKind::Function && scope.kind != ScopeKind::Class {
                    continue;
                }
                let home = scope.parent.unwrap_or(MODULE_SCOPE);
                for d in scope.decorators() {
                    let (named, through_call) = match d.kind_name() {
                        "identifier" | "attribute" => (d, false),
                        "call" => match d.field("function") {
                            Some(f) if matches!(f.kind_name(), "identifier" | "attribute") => {
                                (f, true)
                            }
                            _ => continue,
                        },
                        _ => continue,
                    };
                    if let Some(target) = self.decorator_def(home, named) {
                        index
                            .entry((target, through_call))
                            .or_default()
                            .push((id, d.id()));
                    }
                }
            }
            index
        });
        let mut out = Vec::new();
        let mut add = |through: ScopeId, call: bool| {
            for &(decorated, at) in index
                .get(&(through, call))
                .map(Vec::as_slice)
                .unwrap_or(&[])
            {
                out.push((decorated, self.scopes[through].node.id(), at));
            }
        };
        add(decorator, false);
        if let Some(outer) = outer {
            add(outer, true);
        }
        out
    }

    /// The `yield` expressions of the generator `def_node` (a nested
    /// function's yields are its own).
    pub(crate) fn yields_of(&self, def_node: Node<'t>) -> Vec<Node<'t>> {
        let mut out = Vec::new();
        let mut stack: Vec<Node<'t>> = def_node.field("body").into_iter().collect();
        while let Some(n) = stack.pop() {
            match n.kind_name() {
                "function_definition" | "lambda" | "class_definition" => continue,
                "yield" => out.push(n),
                _ => {}
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        out
    }

    /// The innermost def, class or lambda holding byte `at`.
    pub(crate) fn innermost_scope_at(&self, at: usize) -> ScopeId {
        let mut best = MODULE_SCOPE;
        let mut best_len = usize::MAX;
        for (id, scope) in self.scopes.iter().enumerate().skip(1) {
            let r = scope.node.byte_range();
            if r.start <= at && at < r.end && r.len() < best_len {
                best = id;
                best_len = r.len();
            }
        }
        best
    }

    pub fn node_for_span(&self, span: std::ops::Range<usize>) -> Option<Node<'t>> {
        let holder = match &self.statements {
            Some(statements) => {
                let after = statements.partition_point(|s| s.start_byte() <= span.start);
                let statement = statements[..after].last()?;
                (span.end <= statement.end_byte()).then_some(*statement)?
            }
            None => self.root,
        };
        holder
            .descendant_for_byte_range(span.start, span.end)
            .filter(|node| node.byte_range() == span)
    }

    fn build(
        src: &'t str,
        root: Node<'t>,
        statements: Option<Vec<Node<'t>>>,
        matched: &[Option<&Matches<'t>>],
    ) -> Self {
        let mut module = Module {
            src,
            root,
            scopes: vec![Scope {
                kind: ScopeKind::Module,
                node: root,
                parent: None,
                name: String::new(),
                class: None,
                calls: Vec::new(),
                returned: Vec::new(),
                param_list: Vec::new(),
                decorators: std::cell::OnceCell::new(),
            }],
            scope_of_node: HashMap::default(),
            bindings: HashMap::default(),
            attributes: HashMap::default(),
            path_stores: HashMap::default(),
            unknown_path_stores: HashMap::default(),
            keyed_calls: Vec::new(),
            key_setters: Vec::new(),
            calls: Vec::new(),
            with_items: Vec::new(),
            enters_by_hand: false,
            for_loops: Vec::new(),
            group_sites: vec![Vec::new(); queries().group_count],
            group_site_ids: (0..queries().group_count)
                .map(|_| std::cell::OnceCell::new())
                .collect(),
            caches: overlay::ValueCaches::new(0),
            overlays: Default::default(),
            active_overlay: std::cell::Cell::new(0),
            state_text: std::cell::OnceCell::new(),
            state_slots: std::cell::RefCell::default(),
            finding_state: std::cell::Cell::new(false),
            writer_calls: std::cell::RefCell::default(),
            parents: std::cell::RefCell::default(),
            statements_in_order: std::cell::OnceCell::new(),
            foreign_writers: std::cell::RefCell::default(),
            method_calls: std::cell::RefCell::default(),
            keys_settled_by: std::cell::RefCell::default(),
            state_writer_scopes: std::cell::OnceCell::new(),
            sharded_jit_defs: std::cell::OnceCell::new(),
            foreign_writers_imported: std::cell::OnceCell::new(),
            imported_helpers: std::cell::OnceCell::new(),
            guard_text: std::cell::OnceCell::new(),
            dict_stores: std::cell::RefCell::new(HashMap::default()),
            changed_by_callee: std::cell::RefCell::new(HashMap::default()),
            attribute_dict_stores: std::cell::RefCell::new(HashMap::default()),
            attribute_list_mutations: std::cell::RefCell::new(HashMap::default()),
            globals_declared: HashMap::default(),
            // Over the model's own statements: a unit of a large module
            // scanning the whole text cost 7% of opening the bench module.
            has_global: match &statements {
                Some(nodes) => nodes.iter().any(|n| {
                    src.get(n.byte_range())
                        .is_some_and(|t| t.contains("global "))
                }),
                None => src.contains("global "),
            },
            mutated_copies: std::cell::RefCell::new(HashMap::default()),
            receiver_branches: std::cell::RefCell::new(HashMap::default()),
            list_mutations: std::cell::RefCell::new(HashMap::default()),
            context_managers_open: std::cell::RefCell::new(Vec::new()),
            open: Vec::new(),
            last_start: 0,
            call_scope: HashMap::default(),
            calls_by_name: std::cell::OnceCell::new(),
            keyword_calls: std::cell::OnceCell::new(),
            param_stored_attrs: std::cell::OnceCell::new(),
            method_stored_attrs: std::cell::OnceCell::new(),
            stored_attr_names: std::cell::OnceCell::new(),
            keyword_setters: std::cell::OnceCell::new(),
            mutation_sites: std::cell::OnceCell::new(),
            identifiers_by_name: std::cell::OnceCell::new(),
            decorated_by: std::cell::OnceCell::new(),
            statements,
            external_values: std::cell::RefCell::new(HashMap::default()),
            resolvable: std::cell::RefCell::new(HashMap::default()),
            resolvable_classes: std::cell::RefCell::new(HashMap::default()),
            reaching_imports: std::cell::RefCell::new(HashMap::default()),
            wanted_imports: std::cell::Cell::new(false),
            registrations: std::cell::RefCell::new(None),
            registering: std::cell::Cell::new(false),
            caller_registered: std::cell::RefCell::default(),
            resolver: std::cell::Cell::new(None),
            file: std::cell::RefCell::new(None),
            caller_env: std::cell::RefCell::new(Vec::new()),
            env_keys: std::cell::OnceCell::new(),
            passing: std::cell::Cell::new(false),
            foreign_nesting: std::cell::Cell::new(0),
            call_tag: std::cell::RefCell::new(None),
            answering: std::cell::RefCell::new(None),
            foreign_receiver: std::cell::RefCell::new(None),
            checked_here: std::cell::Cell::new(false),
            value_args: std::cell::OnceCell::new(),
            word_counts: std::cell::OnceCell::new(),
            covered_bytes: std::cell::OnceCell::new(),
            lookup_key: std::cell::RefCell::default(),
            never_running: std::cell::RefCell::default(),
            reader: std::cell::RefCell::new(Reader::Own),
            staging_calls: std::cell::OnceCell::new(),
            contracts: std::cell::OnceCell::new(),
            declares: std::cell::OnceCell::new(),
            plain_args: std::cell::RefCell::default(),
            canonical_paths: std::cell::RefCell::default(),
            base_classes: std::cell::RefCell::default(),
        };
        module.collect(root, matched);
        module.resolve_keyed_calls();
        // Answers remembered while collecting saw part of the bindings.
        module.canonical_paths.get_mut().clear();
        module.plain_args.get_mut().clear();
        module.base_classes.get_mut().clear();
        // Facts and guards are built per scope on first use: a lowering
        // usually reaches a few of a module's scopes.
        module.caches = overlay::ValueCaches::new(module.scopes.len());
        module
    }

    fn collect(&mut self, root: Node<'t>, matched: &[Option<&Matches<'t>>]) {
        // Each statement as the query's root: a byte range on the module's
        // root would step through every top-level statement before it.
        let statements = self.statements.take();
        match &statements {
            Some(statements) => {
                for (i, &statement) in statements.iter().enumerate() {
                    match matched.get(i).copied().flatten() {
                        Some(matches) => {
                            for (first, m) in &matches.0 {
                                self.take_match(*first, m);
                            }
                        }
                        None => self.collect_in(statement),
                    }
                }
            }
            None => self.collect_in(root),
        }
        self.statements = statements;
    }

    fn collect_in(&mut self, root: Node<'t>) {
        // Matches come in pre-order of the nodes they match at, so a scope is
        // always registered before anything inside it. The rules' queries
        // run in the same walk.
        queries()
            .matcher
            .for_each_match(root, self.src.as_bytes(), |patterns, m| {
                // `patterns` are written alike: one owner kind, one group.
                if let Some(&first) = patterns.first() {
                    self.take_match(first, m);
                }
            });
    }

    /// Records one match of the queries (`first`: the first of the
    /// patterns it matches, which are written alike).
    fn take_match(&mut self, first: usize, m: &crate::syntax::matcher::Match<'t>) {
        let all = queries();
        match all.owners.get(first) {
            Some(Owner::Facts) => self.record(m),
            Some(Owner::Rule(_)) => {
                if let Some(group) = all.groups.get(first).copied().flatten() {
                    self.record_sites(group, m, &all.sites);
                }
            }
            None => {}
        }
    }

    /// Records a group's sites (`sites`: which captures are `@site`). All
    /// matches at one node come together, so a site matched twice is kept
    /// once.
    fn record_sites(
        &mut self,
        group: usize,
        m: &crate::syntax::matcher::Match<'t>,
        sites: &[bool],
    ) {
        let Some(list) = self.group_sites.get_mut(group) else {
            return;
        };
        for (capture, node) in m {
            if sites.get(*capture as usize) == Some(&true)
                && list.last().is_none_or(|last| last.id() != node.id())
            {
                list.push(*node);
            }
        }
    }

    /// True if `node` is a site (`@site`) of the query of rule `rule` (its
    /// index in `syntax::queries::RULE_SOURCES`).
    pub fn is_rule_site(&self, rule: usize, node: Node<'t>) -> bool {
        let groups = queries()
            .rule_groups
            .get(rule)
            .map_or(&[][..], Vec::as_slice);
        groups.iter().any(|&group| {
            let (Some(sites), Some(ids)) =
                (self.group_sites.get(group), self.group_site_ids.get(group))
            else {
                return false;
            };
            let ids = ids.get_or_init(|| {
                let mut ids: Vec<usize> = sites.iter().map(|n| n.id()).collect();
                ids.sort_unstable();
                ids
            });
            ids.binary_search(&node.id()).is_ok()
        })
    }

    /// Records the facts of one match of the fact queries.
    fn record(&mut self, m: &crate::syntax::matcher::Match<'t>) {
        let src = self.src;
        let meanings = &queries().captures;
        let get = |want: Capture| {
            m.iter()
                .find(|(c, _)| meanings.get(*c as usize) == Some(&Some(want)))
                .map(|(_, n)| *n)
        };
        if let Some(module) = get(Capture::ImportModule) {
            let path = text(module, src).to_owned();
            let scope = self.scope_while_collecting(module);
            match get(Capture::ImportAlias) {
                Some(alias) => self.bind(scope, text(alias, src), Binding::Import(path)),
                None => {
                    // `import a.b.c` binds `a` to the package `a`.
                    let first = path.split('.').next().unwrap_or("").to_owned();
                    self.bind(scope, &first, Binding::Import(first.clone()));
                }
            }
        } else if let (Some(from), Some(name)) = (get(Capture::FromModule), get(Capture::FromName))
        {
            let scope = self.scope_while_collecting(from);
            let module = text(from, src);
            let name_text = text(name, src);
            let path = if module.ends_with('.') {
                format!("{module}{name_text}")
            } else {
                format!("{module}.{name_text}")
            };
            let local = get(Capture::FromAlias)
                .map(|a| text(a, src))
                .unwrap_or(name_text);
            self.bind(scope, local, Binding::Import(path));
        } else if let Some(node) = get(Capture::Function) {
            self.add_scope(node, ScopeKind::Function);
        } else if let Some(node) = get(Capture::Class) {
            self.add_scope(node, ScopeKind::Class);
        } else if let Some(node) = get(Capture::Lambda) {
            self.add_scope(node, ScopeKind::Lambda);
        } else if let (Some(target), Some(value)) =
            (get(Capture::BindingTarget), get(Capture::BindingValue))
        {
            let scope = self.scope_while_collecting(target);
            self.bind_target(scope, target, Some(value));
        } else if let Some(target) = get(Capture::LoopTarget) {
            let scope = self.scope_while_collecting(target);
            // The loop: a `for` statement, or the comprehension a `for` clause
            // is in (its body comes before the clause).
            let clause = self
                .parent_of(target)
                .filter(|p| matches!(p.kind_name(), "for_statement" | "for_in_clause"));
            let iter_and_loop = clause.and_then(|c| {
                let iter = c.field("right")?;
                let loop_node = if c.kind_name() == "for_in_clause" {
                    self.parent_of(c)?
                } else {
                    c
                };
                Some((iter, loop_node))
            });
            if let Some((_, loop_node)) = iter_and_loop {
                if loop_node.kind_name() == "for_statement"
                    && self
                        .for_loops
                        .last()
                        .is_none_or(|l| l.id() != loop_node.id())
                {
                    self.for_loops.push(loop_node);
                }
            }
            match (Self::unpacked_names(target), iter_and_loop) {
                (Some(names), Some((iter, loop_node))) => {
                    for (name_node, path) in names {
                        let name = text(name_node, src).to_owned();
                        self.bind(
                            scope,
                            &name,
                            Binding::Loop {
                                target: name_node,
                                iter,
                                scope,
                                loop_node,
                                path,
                            },
                        );
                    }
                }
                _ => self.bind_target(scope, target, None),
            }
        } else if let Some(item) = get(Capture::WithItem) {
            let scope = self.scope_while_collecting(item);
            let value = if item.kind_name() == "as_pattern" {
                // `with cm(...) as name`: name is what entering gives (the
                // flow reads an `as_pattern` value so).
                if let Some(alias) = item
                    .field("alias")
                    .and_then(|a| a.named_child(0))
                    .filter(|a| a.kind_name() == "identifier")
                {
                    let name = text(alias, self.src).to_owned();
                    self.bind(
                        scope,
                        &name,
                        Binding::Value {
                            value: item,
                            scope,
                            target: alias,
                        },
                    );
                }
                item.named_child(0).unwrap_or(item)
            } else {
                item
            };
            self.with_items.push((value, scope));
        } else if let Some(call) = get(Capture::Call) {
            let scope = self.scope_while_collecting(call);
            self.record_setattr(call, scope);
            self.enters_by_hand |=
                crate::semantic::lowering::entered_by_hand(call, self.src).is_some();
            self.scopes[scope].calls.push(self.calls.len());
            self.call_scope.insert(call.id(), scope);
            self.calls.push(CallSite { node: call, scope });
        } else if let Some(value) = get(Capture::Returned) {
            let scope = self.scope_while_collecting(value);
            self.scopes[scope].returned.push(value);
        }
    }

    /// `setattr(self, "x", v)` / `object.__setattr__(self, "x", v)` in a
    /// method (frozen dataclasses' `__post_init__`, flag holders): the same
    /// store as `self.x = v`; `setattr(cfg, "x", v)` elsewhere is the store
    /// `cfg.x = v`. `setattr(self, key, value)` with the method's parameters
    /// makes the method a setter of the attribute its caller names; a call
    /// `obj.m("x", v)` is kept to be read so (`resolve_keyed_calls`).
    fn record_setattr(&mut self, call: Node<'t>, scope: ScopeId) {
        let Some(function) = call.field("function") else {
            return;
        };
        let is_setattr = matches!(
            text(function, self.src),
            "setattr" | "object.__setattr__" | "builtins.setattr"
        );
        // (Every call comes here: read the arguments only of the shapes kept.)
        let two_args = || {
            call.field("arguments")
                .is_some_and(|a| a.named_child_count() == 2)
        };
        if !is_setattr && (function.kind_name() != "attribute" || !two_args()) {
            return;
        }
        let args = Args::of(call, self.src);
        if args.has_splat || !args.keywords.is_empty() {
            return;
        }
        if !is_setattr {
            self.record_keyed_call(call, function, &args, scope);
            return;
        }
        let [object, name, value] = args.positional[..] else {
            return;
        };
        let Some(attr) = crate::syntax::string_value(name, self.src) else {
            // `setattr(self, key, value)` over two parameters of the method.
            let param_at = |node: Node<'t>| {
                (node.kind_name() == "identifier")
                    .then(|| {
                        self.scopes[scope]
                            .params()
                            .iter()
                            .position(|(p, _)| p == text(node, self.src))
                    })
                    .flatten()
                    .and_then(|i| i.checked_sub(1))
            };
            if self.method_self_class(scope, object).is_some() {
                if let (Some(name_at), Some(value_at)) = (param_at(name), param_at(value)) {
                    self.key_setters.push((scope, name_at, value_at));
                }
            }
            return;
        };
        if let Some(class) = self.method_self_class(scope, object) {
            self.attributes
                .entry((class, attr))
                .or_default()
                .push(Binding::Value {
                    value,
                    scope,
                    target: call,
                });
        } else if is_dotted_name(&format!("{}.{attr}", text(object, self.src))) {
            self.path_stores
                .entry(format!("{}.{attr}", text(object, self.src)))
                .or_default()
                .push((scope, call, value));
        }
    }

    /// `obj.m("attr", value)`: two positional arguments, the first a string
    /// that is a name.
    fn record_keyed_call(
        &mut self,
        call: Node<'t>,
        function: Node<'t>,
        args: &Args<'t>,
        scope: ScopeId,
    ) {
        if function.kind_name() != "attribute" || args.positional.len() != 2 {
            return;
        }
        let (Some(object), Some(method)) = (function.field("object"), function.field("attribute"))
        else {
            return;
        };
        let Some(attr) = crate::syntax::string_value(args.positional[0], self.src) else {
            return;
        };
        let path = format!("{}.{attr}", text(object, self.src));
        if is_dotted_name(&path) {
            self.keyed_calls.push((
                path,
                text(method, self.src).to_owned(),
                scope,
                call,
                args.positional[1],
            ));
        }
    }

    /// The `obj.m("attr", value)` calls: a store of `obj.attr` when every
    /// method of this module named `m` is a setter with the name first and
    /// the value second; otherwise (a method of another module, or not a
    /// setter) a store whose value is not known.
    fn resolve_keyed_calls(&mut self) {
        let keyed = std::mem::take(&mut self.keyed_calls);
        for (path, method, scope, call, value) in keyed {
            // The receiver's own class's method when it is made by one
            // class here (`settings = Settings()`); else every method of
            // the name.
            let named: Vec<ScopeId> = match self
                .constructed_class(call, scope)
                .and_then(|class| self.method(class, &method))
            {
                Some(own) => vec![own],
                None => self
                    .scopes
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| {
                        s.kind == ScopeKind::Function && s.class.is_some() && s.name == method
                    })
                    .map(|(id, _)| id)
                    .collect(),
            };
            let setter = !named.is_empty()
                && named
                    .iter()
                    .all(|id| self.key_setters.contains(&(*id, 0, 1)));
            if setter {
                self.path_stores
                    .entry(path)
                    .or_default()
                    .push((scope, call, value));
            } else {
                self.unknown_path_stores
                    .entry(path)
                    .or_default()
                    .push((scope, call));
            }
        }
    }

    /// For `obj.m(...)` (`call`, in `scope`): the class of this module that
    /// makes `obj` at every binding of the name (`obj = Settings()`).
    fn constructed_class(&self, call: Node<'t>, scope: ScopeId) -> Option<ScopeId> {
        let object = call
            .field("function")?
            .field("object")
            .filter(|o| o.kind_name() == "identifier")?;
        let bindings = self.lookup(scope, text(object, self.src))?;
        let mut class = None;
        for binding in bindings {
            let Binding::Value { value, scope, .. } = binding else {
                return None;
            };
            let maker = value
                .field("function")
                .filter(|f| value.kind_name() == "call" && f.kind_name() == "identifier")?;
            let Some([Binding::Def(id)]) = self.lookup(*scope, text(maker, self.src)) else {
                return None;
            };
            if self.scopes[*id].kind != ScopeKind::Class || class.is_some_and(|c| c != *id) {
                return None;
            }
            class = Some(*id);
        }
        class
    }

    /// The class whose method `scope` is, when `object` is that method's
    /// first parameter (`self`).
    fn method_self_class(&self, scope: ScopeId, object: Node<'t>) -> Option<ScopeId> {
        let class = self.scopes[scope].class?;
        self.scopes[scope]
            .params()
            .first()
            .is_some_and(|(first, _)| first == text(object, self.src))
            .then_some(class)
    }

    fn add_scope(&mut self, node: Node<'t>, kind: ScopeKind) {
        let parent = self.scope_while_collecting(node);
        let name = node
            .field("name")
            .map(|n| text(n, self.src).to_owned())
            .unwrap_or_else(|| "<lambda>".to_owned());
        let class = (kind == ScopeKind::Function && self.scopes[parent].kind == ScopeKind::Class)
            .then_some(parent);
        let id = self.scopes.len();
        self.scopes.push(Scope {
            kind,
            node,
            parent: Some(parent),
            name: name.clone(),
            class,
            calls: Vec::new(),
            // A lambda returns its body.
            returned: (kind == ScopeKind::Lambda)
                .then(|| node.field("body"))
                .flatten()
                .into_iter()
                .collect(),
            param_list: Scope::read_params(node, self.src),
            decorators: std::cell::OnceCell::new(),
        });
        self.scope_of_node.insert(node.id(), id);
        let body = node.field("body").map(|b| (b.start_byte(), b.end_byte()));
        self.open.push((id, body));
        if kind != ScopeKind::Lambda {
            self.bind(parent, &name, Binding::Def(id));
        }
        let params = self.scopes[id].params().to_vec();
        for (index, (param, default)) in params.into_iter().enumerate() {
            if param != "*" && param != "/" {
                self.bind(
                    id,
                    &param,
                    Binding::Param {
                        scope: id,
                        index,
                        default,
                    },
                );
            }
        }
        // `*args` and `**kwargs` are bound in the function too (their values
        // are not followed here; `**kwargs` forwarding is read by
        // `Flow::keyword_sources`): a lookup must not fall through to an
        // outer name of the same spelling.
        if let Some(list) = node.field("parameters") {
            let mut cursor = list.walk();
            for p in list.named_children(&mut cursor) {
                // (`*layers: Layer` is a typed parameter holding the splat.)
                let p = match p.kind_name() {
                    "typed_parameter" => p.named_child(0).unwrap_or(p),
                    _ => p,
                };
                if matches!(
                    p.kind_name(),
                    "list_splat_pattern" | "dictionary_splat_pattern"
                ) {
                    if let Some(name) = p.named_child(0).filter(|n| n.kind_name() == "identifier") {
                        let text_name = text(name, self.src).to_owned();
                        self.bind(id, &text_name, Binding::Opaque(name));
                    }
                }
            }
        }
    }

    fn bind(&mut self, scope: ScopeId, name: &str, binding: Binding<'t>) {
        // `global NAME` in a function: its assignments bind the module's
        // name (evaluated in the function: the binding keeps its scope).
        let scope = if self.declares_global(scope, name) {
            MODULE_SCOPE
        } else {
            scope
        };
        let bindings = self.bindings.entry((scope, name.to_owned())).or_default();
        // `import jax` again (or `import jax.numpy` after it) rebinds the name
        // to the same module: one binding, not an ambiguous two.
        if let (Binding::Import(new), Some(Binding::Import(last))) = (&binding, bindings.last()) {
            if new == last {
                return;
            }
        }
        bindings.push(binding);
    }

    /// True if the function `scope` declares `name` global (`global name`
    /// in its own body, not in a def nested in it).
    fn declares_global(&mut self, scope: ScopeId, name: &str) -> bool {
        fn walk(node: Node<'_>, src: &str, out: &mut Vec<String>) {
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                match child.kind_name() {
                    "global_statement" => {
                        let mut names = child.walk();
                        out.extend(
                            child
                                .named_children(&mut names)
                                .filter(|n| n.kind_name() == "identifier")
                                .map(|n| text(n, src).to_owned()),
                        );
                    }
                    "function_definition" | "class_definition" | "lambda" => {}
                    _ => walk(child, src, out),
                }
            }
        }
        if !self.has_global {
            return false;
        }
        let Some(s) = self.scopes.get(scope) else {
            return false;
        };
        if s.kind != ScopeKind::Function {
            return false;
        }
        let node = s.node;
        let src = self.src;
        self.globals_declared
            .entry(scope)
            .or_insert_with(|| {
                let mut out = Vec::new();
                if let Some(body) = node.field("body") {
                    walk(body, src, &mut out);
                }
                out
            })
            .iter()
            .any(|n| n == name)
    }

    fn bind_target(&mut self, scope: ScopeId, target: Node<'t>, value: Option<Node<'t>>) {
        match (target.kind_name(), value) {
            ("identifier", Some(value)) => {
                let name = text(target, self.src).to_owned();
                self.bind(
                    scope,
                    &name,
                    Binding::Value {
                        value,
                        scope,
                        target,
                    },
                );
                if self.scopes[scope].kind == ScopeKind::Class {
                    self.attributes
                        .entry((scope, name))
                        .or_default()
                        .push(Binding::Value {
                            value,
                            scope,
                            target,
                        });
                }
            }
            ("identifier", None) => {
                let name = text(target, self.src).to_owned();
                self.bind(scope, &name, Binding::Opaque(target));
            }
            ("attribute", _) => {
                // `self.x = v` inside a method binds attribute `x` of the class.
                let (Some(object), Some(attr)) =
                    (target.field("object"), target.field("attribute"))
                else {
                    return;
                };
                let Some(class) = self.method_self_class(scope, object) else {
                    let path = text(target, self.src);
                    if let (Some(value), true) = (value, is_dotted_name(path)) {
                        self.path_stores
                            .entry(path.to_owned())
                            .or_default()
                            .push((scope, target, value));
                    }
                    return;
                };
                let binding = match value {
                    Some(value) => Binding::Value {
                        value,
                        scope,
                        target,
                    },
                    None => Binding::Opaque(target),
                };
                self.attributes
                    .entry((class, text(attr, self.src).to_owned()))
                    .or_default()
                    .push(binding);
            }
            ("pattern_list" | "tuple_pattern" | "list_pattern", Some(value))
                if Self::flat_pattern(target) =>
            {
                // `a, b = f()`: each name is an element of the value.
                let mut cursor = target.walk();
                let names: Vec<Node<'t>> = target
                    .named_children(&mut cursor)
                    .filter(|n| n.kind_name() != "comment")
                    .collect();
                for (index, name) in names.into_iter().enumerate() {
                    let text_name = text(name, self.src).to_owned();
                    self.bind(
                        scope,
                        &text_name,
                        Binding::Item {
                            value,
                            index,
                            scope,
                            target: name,
                        },
                    );
                }
            }
            ("pattern_list" | "tuple_pattern", Some(value))
                if Self::attribute_pairs(target, value).is_some() =>
            {
                // `self.norm, self.hidden = norm, hidden`: each attribute
                // takes its own element of the display (names their item).
                for (index, (part, element)) in Self::attribute_pairs(target, value)
                    .unwrap_or_default()
                    .into_iter()
                    .enumerate()
                {
                    if part.kind_name() == "attribute" {
                        self.bind_target(scope, part, Some(element));
                    } else {
                        let name = text(part, self.src).to_owned();
                        self.bind(
                            scope,
                            &name,
                            Binding::Item {
                                value,
                                index,
                                scope,
                                target: part,
                            },
                        );
                    }
                }
            }
            _ => {
                // Nested unpacking and subscripts: every plain name inside becomes opaque.
                let mut stack = vec![target];
                while let Some(node) = stack.pop() {
                    if node.kind_name() == "identifier" {
                        let name = text(node, self.src).to_owned();
                        self.bind(scope, &name, Binding::Opaque(node));
                    } else if matches!(
                        node.kind_name(),
                        "pattern_list"
                            | "tuple_pattern"
                            | "list_pattern"
                            | "list_splat_pattern"
                            | "tuple"
                            | "list"
                    ) {
                        let mut cursor = node.walk();
                        stack.extend(node.named_children(&mut cursor));
                    }
                }
            }
        }
    }

    /// The names a loop target binds, each with its position in the element
    /// (`i, (name, p)`: `i` at `[0]`, `p` at `[1, 1]`); `None` when a part is
    /// starred, a subscript or an attribute (what it binds is not followed).
    fn unpacked_names(target: Node<'t>) -> Option<Vec<(Node<'t>, Vec<usize>)>> {
        let mut out = Vec::new();
        let mut stack = vec![(target, Vec::new())];
        while let Some((node, path)) = stack.pop() {
            match node.kind_name() {
                "identifier" => out.push((node, path)),
                "pattern_list"
                | "tuple_pattern"
                | "list_pattern"
                | "tuple"
                | "list"
                | "parenthesized_expression" => {
                    let mut cursor = node.walk();
                    let parts: Vec<Node<'t>> = node
                        .named_children(&mut cursor)
                        .filter(|n| n.kind_name() != "comment")
                        .collect();
                    if node.kind_name() == "parenthesized_expression" {
                        let [inner] = parts.as_slice() else {
                            return None;
                        };
                        stack.push((*inner, path));
                        continue;
                    }
                    for (index, part) in parts.into_iter().enumerate() {
                        let mut inner = path.clone();
                        inner.push(index);
                        stack.push((part, inner));
                    }
                }
                _ => return None,
            }
            if out.len() > 16 {
                return None;
            }
        }
        Some(out)
    }

    /// A pattern of plain names only (`a, b`), no nesting or starred names.
    /// The (target, element) pairs of `a.x, b = v1, v2`: a flat pattern of
    /// names and attributes (some attribute) unpacking a display of as
    /// many elements, none starred.
    fn attribute_pairs(target: Node<'t>, value: Node<'t>) -> Option<Vec<(Node<'t>, Node<'t>)>> {
        if !matches!(value.kind_name(), "expression_list" | "tuple") {
            return None;
        }
        let parts = |n: Node<'t>| {
            let mut cursor = n.walk();
            n.named_children(&mut cursor)
                .filter(|c| c.kind_name() != "comment")
                .collect::<Vec<_>>()
        };
        let (targets, elements) = (parts(target), parts(value));
        let plain = targets
            .iter()
            .all(|t| matches!(t.kind_name(), "identifier" | "attribute"))
            && targets.iter().any(|t| t.kind_name() == "attribute")
            && !elements.iter().any(|e| e.kind_name() == "list_splat");
        (plain && targets.len() == elements.len())
            .then(|| targets.into_iter().zip(elements).collect())
    }

    fn flat_pattern(target: Node<'t>) -> bool {
        let mut cursor = target.walk();
        let all_names = target
            .named_children(&mut cursor)
            .all(|n| matches!(n.kind_name(), "identifier" | "comment"));
        all_names
    }

    /// `scope_at` for nodes met in document order while collecting: a stack of
    /// open scopes instead of walking parents (which tree-sitter does from the
    /// root, so a walk up costs O(depth^2)).
    fn scope_while_collecting(&mut self, node: Node<'t>) -> ScopeId {
        let (start, end) = (node.start_byte(), node.end_byte());
        if start < self.last_start {
            return self.scope_at(node);
        }
        self.last_start = start;
        while let Some(&(top, _)) = self.open.last() {
            if self.scopes[top].node.end_byte() <= start {
                self.open.pop();
            } else {
                break;
            }
        }
        for &(id, body) in self.open.iter().rev() {
            if let Some((body_start, body_end)) = body {
                if body_start <= start && end <= body_end {
                    return id;
                }
            }
        }
        MODULE_SCOPE
    }

    /// The scope whose code evaluates `node`. Decorators, default values and a
    /// def's name belong to the enclosing scope; the body to the def's own.
    pub fn scope_at(&self, node: Node<'t>) -> ScopeId {
        let mut child = node;
        while let Some(parent) = self.parent_of(child) {
            if matches!(
                parent.kind_name(),
                "function_definition" | "class_definition" | "lambda"
            ) {
                let in_body = parent
                    .field("body")
                    .is_some_and(|body| body.id() == child.id());
                if in_body {
                    if let Some(&id) = self.scope_of_node.get(&parent.id()) {
                        return id;
                    }
                }
            }
            child = parent;
        }
        MODULE_SCOPE
    }

    /// Calls whose callee's last name is `name` (`f(...)`, `obj.f(...)`).
    pub fn calls_named(&self, name: &str) -> &[usize] {
        let index = self.calls_by_name.get_or_init(|| {
            let mut index: HashMap<String, Vec<usize>> = HashMap::default();
            for (i, site) in self.calls.iter().enumerate() {
                let Some(callee) = site.node.field("function") else {
                    continue;
                };
                let last = match callee.kind_name() {
                    "identifier" => Some(callee),
                    "attribute" => callee.field("attribute"),
                    _ => None,
                };
                if let Some(last) = last {
                    index
                        .entry(text(last, self.src).to_owned())
                        .or_default()
                        .push(i);
                }
            }
            index
        });
        index.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The calls `name.method(...)` made in `scope` that pass keywords (or
    /// unpack `**`), in order: where a keyword setter may store into the
    /// object `name` holds (`Flow::foreign_setter_store_before`).
    pub(crate) fn keyword_calls_on(&self, scope: ScopeId, name: &str) -> &[usize] {
        let index = self.keyword_calls.get_or_init(|| {
            let mut index: HashMap<(ScopeId, String), Vec<usize>> = HashMap::default();
            for (i, site) in self.calls.iter().enumerate() {
                let Some(receiver) = site
                    .node
                    .field("function")
                    .filter(|f| f.kind_name() == "attribute")
                    .and_then(|f| f.field("object"))
                    .filter(|o| o.kind_name() == "identifier")
                else {
                    continue;
                };
                // By syntax: `args_of` reads `**` dicts through the value
                // flow, which may ask this index again.
                let passes_keywords = site.node.field("arguments").is_some_and(|a| {
                    let mut cursor = a.walk();
                    let found = a
                        .named_children(&mut cursor)
                        .any(|c| matches!(c.kind_name(), "keyword_argument" | "dictionary_splat"));
                    found
                });
                if !passes_keywords {
                    continue;
                }
                index
                    .entry((site.scope, text(receiver, self.src).to_owned()))
                    .or_default()
                    .push(i);
            }
            index
        });
        index
            .get(&(scope, name.to_owned()))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// The call sites whose callee's last name is one of `names`, in order.
    /// Names imported under an alias count too (`from jax import jit as jjit`).
    pub fn call_sites_named(&self, names: &[&str]) -> Vec<CallSite<'t>> {
        let aliases: Vec<&str> = self
            .bindings
            .iter()
            .filter(|(_, bindings)| {
                bindings.iter().any(|b| {
                    matches!(b, Binding::Import(path) if names.contains(&path.rsplit('.').next().unwrap_or("")))
                })
            })
            .map(|((_, local), _)| local.as_str())
            .collect();
        let mut indices: Vec<usize> = names
            .iter()
            .chain(aliases.iter())
            .flat_map(|n| self.calls_named(n).iter().copied())
            .collect();
        indices.sort_unstable();
        indices.dedup();
        indices.into_iter().map(|i| self.calls[i]).collect()
    }

    /// `names` and the local names imported as one of them: the callee
    /// names `call_sites_named` looks for.
    pub fn callee_names<'n>(&'n self, names: &[&'n str]) -> Vec<&'n str> {
        let mut out = names.to_vec();
        for ((_, local), bindings) in &self.bindings {
            let imported = bindings.iter().any(|b| {
                matches!(b, Binding::Import(path) if names.contains(&path.rsplit('.').next().unwrap_or("")))
            });
            if imported && !out.contains(&local.as_str()) {
                out.push(local.as_str());
            }
        }
        out
    }

    /// The sites of rule `rule`'s query whose callee's last name is one of
    /// `names` (from `callee_names`), in document order. Found through the
    /// calls by name, the smaller set: a rule's sites hold every call of a
    /// plain name, since only the model knows which names are aliases.
    pub fn sites_named(&self, rule: usize, names: &[&str]) -> Vec<CallSite<'t>> {
        let mut indices: Vec<usize> = names
            .iter()
            .flat_map(|n| self.calls_named(n).iter().copied())
            .collect();
        indices.sort_unstable();
        indices.dedup();
        indices
            .into_iter()
            .map(|i| self.calls[i])
            .filter(|site| self.is_rule_site(rule, site.node))
            .collect()
    }

    /// True if `scope` is `ancestor` or nested inside it.
    pub fn scope_within(&self, scope: ScopeId, ancestor: ScopeId) -> bool {
        let mut current = Some(scope);
        while let Some(id) = current {
            if id == ancestor {
                return true;
            }
            current = self.scopes[id].parent;
        }
        false
    }

    /// What Python's `__qualname__` of the def or class `def` is: its name
    /// after those of the classes and functions around it
    /// (`Stepper.collide`, `make.<locals>.apply`). `None` for a scope that
    /// is not a def, class or lambda.
    pub fn qualname(&self, def: ScopeId) -> Option<String> {
        let name = |id: ScopeId| match self.scopes[id].kind {
            ScopeKind::Lambda => Some("<lambda>".to_owned()),
            ScopeKind::Function | ScopeKind::Class => Some(self.scopes[id].name.clone()),
            _ => None,
        };
        let mut parts = vec![name(def)?];
        let mut current = self.scopes[def].parent;
        while let Some(id) = current.filter(|id| *id != MODULE_SCOPE) {
            match self.scopes[id].kind {
                ScopeKind::Class => parts.push(self.scopes[id].name.clone()),
                ScopeKind::Function | ScopeKind::Lambda => {
                    parts.push("<locals>".to_owned());
                    parts.push(name(id)?);
                }
                // A comprehension's scope is not in the path.
                _ => {}
            }
            current = self.scopes[id].parent;
        }
        parts.reverse();
        Some(parts.join("."))
    }

    /// The scope a def/class/lambda node opens.
    pub fn scope_of_def(&self, node: Node<'t>) -> Option<ScopeId> {
        self.scope_of_node.get(&node.id()).copied()
    }

    /// Bindings of `name` visible from `scope` (Python's LEGB rule, classes
    /// skipped for nested scopes), or `None` for builtins and unknown names.
    pub fn lookup(&self, scope: ScopeId, name: &str) -> Option<&[Binding<'t>]> {
        let mut current = Some(scope);
        let mut first = true;
        while let Some(id) = current {
            let skip = !first && self.scopes[id].kind == ScopeKind::Class;
            if !skip {
                let found = {
                    let mut key = self.lookup_key.borrow_mut();
                    key.0 = id;
                    key.1.clear();
                    key.1.push_str(name);
                    self.bindings.get(&*key)
                };
                if let Some(found) = found {
                    return Some(found);
                }
            }
            first = false;
            current = self.scopes[id].parent;
        }
        None
    }

    /// The binding that `name` has at `use_node` in `scope`, when one can be
    /// chosen: the last straight-line assignment before the use in the same
    /// scope, or the only binding. `None` means unknown or ambiguous.
    pub fn binding_at(
        &self,
        scope: ScopeId,
        name: &str,
        use_node: Node<'t>,
    ) -> Option<&Binding<'t>> {
        let found = self.lookup(scope, name)?;
        if found.len() == 1 {
            return found.first();
        }
        let same_scope = self
            .bindings
            .get(&(scope, name.to_owned()))
            .is_some_and(|b| std::ptr::eq(b.as_slice(), found));
        if !same_scope {
            return None;
        }
        let before: Vec<&Binding<'t>> = found
            .iter()
            .filter(|b| b.position() < use_node.start_byte())
            .collect();
        let last = *before.last()?;
        match last {
            Binding::Value { target, .. } | Binding::Item { target, .. }
                if self.is_straight_line(*target, scope, use_node) =>
            {
                Some(last)
            }
            _ => None,
        }
    }

    /// `obj` of the call `obj.method(...)` whose node id is `call`, with the
    /// scope the call is made in (found through `call_scope`, not a scan
    /// of every call).
    pub(crate) fn method_call_receiver(&self, call: usize) -> Option<(Node<'t>, ScopeId)> {
        let &scope = self.call_scope.get(&call)?;
        let node = self.scopes[scope]
            .calls
            .iter()
            .map(|&i| self.calls[i].node)
            .find(|n| n.id() == call)?;
        let object = node
            .field("function")
            .filter(|f| f.kind_name() == "attribute")?
            .field("object")?;
        Some((object, scope))
    }

    /// Whether another module's method `path` (`pkg.cfg.Config.set`) stores
    /// each keyword of its call on `self` (a keyword setter).
    pub(crate) fn foreign_keyword_setter(&self, path: &str) -> bool {
        let (Some(resolver), Some(file)) = (self.resolver.get(), self.file.borrow().clone()) else {
            return false;
        };
        resolver
            .resolve_function(&file, path)
            .is_some_and(|(summary, name)| summary.keyword_setters.contains(&name))
    }

    /// The names of the methods (not `__init__`) that store `self.attr`
    /// (see `method_stored_attrs`); `None` when none does.
    pub(crate) fn methods_storing(&self, attr: &str) -> Option<&rustc_hash::FxHashSet<String>> {
        self.method_stored_attrs
            .get_or_init(|| {
                let mut out: rustc_hash::FxHashMap<String, rustc_hash::FxHashSet<String>> =
                    rustc_hash::FxHashMap::default();
                for ((_, attr), bindings) in &self.attributes {
                    for b in bindings {
                        if let Binding::Value { scope, .. } = b {
                            let def = &self.scopes[*scope];
                            if def.kind == ScopeKind::Function && def.name != "__init__" {
                                out.entry(attr.clone())
                                    .or_default()
                                    .insert(def.name.clone());
                            }
                        }
                    }
                }
                out
            })
            .get(attr)
    }

    /// Whether any statement stores an attribute named `attr` (see
    /// `stored_attr_names`), or a keyword setter may.
    pub(crate) fn attribute_ever_stored(&self, attr: &str) -> bool {
        if !self.keyword_setters().methods.is_empty() {
            return true;
        }
        self.stored_attr_names
            .get_or_init(|| {
                let last = |path: &String| path.rsplit('.').next().unwrap_or(path).to_owned();
                self.attributes
                    .keys()
                    .map(|(_, name)| name.clone())
                    .chain(self.path_stores.keys().map(last))
                    .chain(self.unknown_path_stores.keys().map(last))
                    .collect()
            })
            .contains(attr)
    }

    /// Methods that store each keyword argument of their call as an
    /// attribute of `self`, the way config objects' `set(**kw)` and
    /// `__init__(self, **kw)` do: `for k, v in kw.items(): setattr(self, k,
    /// v)` (or `object.__setattr__(self, k, v)`), or
    /// `self.__dict__.update(kw)` (or `vars(self)`), as a plain statement of
    /// the body, with no `self.x = ...` after it (which would decide `x`).
    pub(crate) fn keyword_setters(&self) -> &KeywordSetters {
        self.keyword_setters.get_or_init(|| {
            let mut out = KeywordSetters::default();
            for (id, scope) in self.scopes.iter().enumerate() {
                if scope.kind == ScopeKind::Function
                    && scope.class.is_some()
                    && self.sets_keywords(id)
                {
                    out.methods.insert(id);
                    out.names.insert(scope.name.clone());
                }
            }
            out
        })
    }

    fn sets_keywords(&self, method: ScopeId) -> bool {
        let def = &self.scopes[method];
        let Some(class) = def.class else {
            return false;
        };
        let Some((self_name, _)) = def.params().first() else {
            return false;
        };
        let Some(params) = def.node.field("parameters") else {
            return false;
        };
        let mut cursor = params.walk();
        let Some(kwargs) = params
            .named_children(&mut cursor)
            .filter(|p| p.kind_name() == "dictionary_splat_pattern")
            .find_map(|p| p.named_child(0))
            .map(|n| text(n, self.src))
        else {
            return false;
        };
        let Some(body) = def.node.field("body") else {
            return false;
        };
        let mut cursor = body.walk();
        let Some(end) = body
            .named_children(&mut cursor)
            .filter(|stmt| self.sets_keywords_statement(*stmt, self_name, kwargs))
            .map(|stmt| stmt.end_byte())
            .last()
        else {
            return false;
        };
        // A store written after it decides its attribute.
        !self.attributes.iter().any(|((c, _), bindings)| {
            *c == class
                && bindings.iter().any(|b| {
                    matches!(b, Binding::Value { scope, target, .. }
                        if *scope == method && target.start_byte() > end)
                })
        })
    }

    /// The last `self.attr = value` of `method` (of `class`), as (target,
    /// value).
    pub(crate) fn last_self_store(
        &self,
        class: ScopeId,
        method: ScopeId,
        attr: &str,
    ) -> Option<(Node<'t>, Node<'t>)> {
        self.attribute(class, attr)?
            .iter()
            .filter_map(|b| match b {
                Binding::Value {
                    value,
                    scope,
                    target,
                } if *scope == method => Some((*target, *value)),
                _ => None,
            })
            .max_by_key(|(target, _)| target.start_byte())
    }

    /// The name an object is assigned to where it is made (`c = Config()`).
    pub(crate) fn constructed_name(&self, call: Node<'t>) -> Option<Node<'t>> {
        // `cfg = Config() if flag else Other()`: when the construction runs,
        // the name holds what it made.
        let mut value = call;
        while let Some(parent) = self.parent_of(value) {
            let holds_it = match parent.kind_name() {
                "parenthesized_expression" => true,
                "conditional_expression" => {
                    parent.named_child(0).is_some_and(|c| c.id() == value.id())
                        || parent.named_child(2).is_some_and(|c| c.id() == value.id())
                }
                _ => false,
            };
            if !holds_it {
                break;
            }
            value = parent;
        }
        // `config.export = ConfigDict()` (ml_collections' `get_config`): the
        // dotted path holds it, as a name would.
        self.parent_of(value)
            .filter(|a| a.kind_name() == "assignment")
            .and_then(|a| a.field("left"))
            .filter(|l| {
                l.kind_name() == "identifier"
                    || (l.kind_name() == "attribute" && is_dotted_name(text(*l, self.src)))
            })
    }

    /// Whether some function stores `param.attr = v` into one of its
    /// parameters (see `param_stored_attrs`).
    pub(crate) fn stores_into_a_parameter(&self, attr: &str) -> bool {
        self.param_stored_attrs
            .get_or_init(|| {
                let mut out = rustc_hash::FxHashSet::default();
                for (path, stores) in &self.path_stores {
                    let Some((root, stored)) = path.split_once('.') else {
                        continue;
                    };
                    if stored.contains('.') {
                        continue;
                    }
                    let into_param = stores.iter().any(|(scope, _, _)| {
                        self.scopes[*scope]
                            .params()
                            .iter()
                            .any(|(name, _)| name == root)
                    });
                    if into_param {
                        out.insert(stored.to_owned());
                    }
                }
                out
            })
            .contains(attr)
    }

    /// The lowering helpers this module's text imports, already read
    /// (`Resolver::imported_lowering_helpers`): every unit of a document
    /// would scan the whole text's imports again.
    pub fn set_imported_helpers(&self, helpers: &[String]) {
        let _ = self.imported_helpers.set(helpers.to_vec());
    }

    /// Marks this module as read for another module that imports it:
    /// `called`, the module-level functions the importer names (`None`: not
    /// known, any may be called). A setter of this module that neither
    /// module names never runs; one the importer names may.
    pub fn set_imported(&self, called: Option<Vec<String>>) {
        *self.reader.borrow_mut() = Reader::Importer(called);
        self.never_running.borrow_mut().clear();
    }

    /// Whether the code of `scope` never runs: it is in a module-level
    /// function, undecorated or a `@contextmanager`, that nothing in the
    /// module names (no call, no reference) and that the module does not
    /// list in `__all__`; read for an importer (`set_imported`), one the
    /// importer does not name either, `__all__` or not. Its stores
    /// (`global G; G = v`, `SETTINGS.flag = v`) change nothing a read of
    /// the module sees (trax's `use_backend` setter, never called).
    /// True if `node` lies in an `if` branch that its conditions, read the
    /// way the rules read values (with the branches constant conditions
    /// decide: `branch_aware`), certainly skip. `never_runs` decides
    /// conditions without those branches (so that deciding never
    /// recurses); a rule that found a value with them checks here that
    /// the same value does not also guard the code off (`if
    /// isinstance(mesh, AbstractMesh): ... else: jax.set_mesh(mesh)` with
    /// `mesh` abstract only once `if mesh is None: mesh = AbstractMesh(..)`
    /// is decided).
    pub(crate) fn guarded_off(&self, node: Node<'t>, scope: ScopeId) -> bool {
        let scope_node = self.scopes[scope].node;
        let flow = self.flow();
        let truth = |condition: Node<'t>| reach::truth_of(flow.eval(condition, scope));
        let mut child = node;
        let mut current = self.parent_of(node);
        while let Some(parent) = current {
            if parent.id() == scope_node.id() {
                return false;
            }
            let if_statement = match parent.kind_name() {
                "if_statement" => Some(parent),
                "elif_clause" | "else_clause" => self.parent_of(parent),
                _ => None,
            };
            if let (Some(statement), "block") = (if_statement, child.kind_name()) {
                // The conditions before this branch, and its own.
                let mut cursor = statement.walk();
                let mut conditions: Vec<(Node<'t>, bool)> = Vec::new();
                if let Some(c) = statement.field("condition") {
                    conditions.push((
                        c,
                        statement.field("consequence").map(|b| b.id()) == Some(child.id()),
                    ));
                }
                for alt in statement.children_by_field_name("alternative", &mut cursor) {
                    if alt.kind_name() == "elif_clause" {
                        if let Some(c) = alt.field("condition") {
                            conditions.push((
                                c,
                                alt.field("consequence").map(|b| b.id()) == Some(child.id()),
                            ));
                        }
                    }
                }
                for (condition, own) in conditions {
                    match (truth(condition), own) {
                        (reach::Truth::Known(false), true) => return true,
                        (reach::Truth::Known(true), false) => return true,
                        (_, true) => break,
                        _ => {}
                    }
                }
            }
            child = parent;
            current = self.parent_of(parent);
        }
        false
    }

    /// The function `scope` is (or is nested in: a lambda, a
    /// comprehension); the module scope outside any.
    pub(crate) fn enclosing_function(&self, scope: ScopeId) -> ScopeId {
        let mut at = scope;
        while self.scopes[at].kind != ScopeKind::Function {
            match self.scopes[at].parent {
                Some(parent) => at = parent,
                None => return MODULE_SCOPE,
            }
        }
        at
    }

    pub(crate) fn scope_never_runs(&self, scope: ScopeId) -> bool {
        let mut at = scope;
        while let Some(parent) = self.scopes.get(at).and_then(|s| s.parent) {
            if parent == MODULE_SCOPE {
                break;
            }
            at = parent;
        }
        let Some(top) = self.scopes.get(at) else {
            return false;
        };
        if let Some(known) = self.never_running.borrow().get(&at) {
            return *known;
        }
        // A module read for an importer: the importer may call its
        // functions (`_cfg.set_target("tpu")` before using `_cfg`); those it
        // does not name, nor this module, never run. `__all__` only says
        // some importer may.
        let (for_importer, importer_silent) = match &*self.reader.borrow() {
            Reader::Own => (false, true),
            Reader::Importer(None) => (true, false),
            Reader::Importer(Some(called)) => (true, !called.contains(&top.name)),
        };
        let never = importer_silent
            && top.kind == ScopeKind::Function
            && top.parent == Some(MODULE_SCOPE)
            // Undecorated, or made a context manager (the decorator wraps
            // the generator without running it).
            && top
                .decorators()
                .iter()
                .all(|d| text(*d, self.src).ends_with("contextmanager"))
            && !top.name.is_empty()
            && (for_importer || !self.src.contains("__all__"))
            // The whole text, also for a unit of some statements (a call of
            // the setter may be in a statement the unit does not hold).
            && if for_importer {
                // The whole module is read: identifiers only (`__all__`
                // names its setters in strings).
                self.identifier_mentions(&top.name) <= 1
            } else {
                code_word_count(self.src, &top.name) <= 1
            };
        self.never_running.borrow_mut().insert(at, never);
        never
    }

    /// What a stored attribute path (`cfg.platform`, `config.export.platforms`)
    /// holds where `node` reads it: the last store before the read when it
    /// certainly ran (same scope, straight-line; or, read from a nested
    /// function, the last of the stores of one outer scope, all unconditional),
    /// `Unknown` when a store may or may not have run or another scope stores
    /// it too, `None` when nothing stores it (read the object as usual).
    pub fn path_store_at(&self, node: Node<'t>, scope: ScopeId) -> PathStore<'t> {
        self.path_store_of(text(node, self.src), node, scope)
    }

    /// The attribute paths stored below `root` (`cfg.case.source` for
    /// `cfg`), known or not.
    pub(crate) fn stored_paths_under(&self, root: &str) -> Vec<String> {
        if self.path_stores.is_empty() && self.unknown_path_stores.is_empty() {
            return Vec::new();
        }
        let under = |path: &&String| {
            path.len() > root.len() + 1
                && path.starts_with(root)
                && path.as_bytes()[root.len()] == b'.'
        };
        let mut paths: Vec<String> = self
            .path_stores
            .keys()
            .filter(under)
            .chain(self.unknown_path_stores.keys().filter(under))
            .cloned()
            .collect();
        paths.sort();
        paths.dedup();
        paths
    }

    /// `path_store_at` for a path read at `node` but not written there
    /// (`getattr(cfg, "platform")` reads `cfg.platform`).
    pub fn path_store_of(&self, path: &str, node: Node<'t>, scope: ScopeId) -> PathStore<'t> {
        let unknown = self.unknown_path_stores.get(path);
        let stores = self.path_stores.get(path);
        if stores.is_none() && unknown.is_none() {
            return PathStore::None;
        }
        let root = path.split('.').next().unwrap_or(path);
        let Some(root_bindings) = self.lookup(scope, root) else {
            return PathStore::None;
        };
        let same_object = |store_scope: ScopeId| {
            self.lookup(store_scope, root)
                .is_some_and(|b| std::ptr::eq(b, root_bindings))
        };
        // A store in a function nothing calls does not run, unless the read
        // is in that function too (read as an entry point: `main()` of a
        // script run from elsewhere).
        let may_run = |store_scope: ScopeId| {
            !self.scope_never_runs(store_scope) || self.scope_within(scope, store_scope)
        };
        if unknown.is_some_and(|u| u.iter().any(|(s, _)| same_object(*s) && may_run(*s))) {
            return PathStore::Unknown;
        }
        let Some(stores) = stores else {
            return PathStore::None;
        };
        let relevant: Vec<&(ScopeId, Node<'t>, Node<'t>)> = stores
            .iter()
            .filter(|(s, _, _)| same_object(*s) && may_run(*s))
            .collect();
        let Some(&&(store_scope, _, _)) = relevant.first() else {
            return PathStore::None;
        };
        if relevant.iter().any(|(s, _, _)| *s != store_scope) {
            return PathStore::Unknown;
        }
        let last = if store_scope == scope {
            let Some(last) = relevant
                .iter()
                .rev()
                .find(|(_, target, _)| self.store_ran_before(*target, node))
            else {
                return PathStore::None;
            };
            // The object itself rebound after the store: the store is of another.
            if let Some(binding) = self.binding_at(scope, root, node) {
                if binding.position() > last.1.start_byte() {
                    return PathStore::None;
                }
            }
            if !self.is_straight_line(last.1, scope, node) {
                return PathStore::Unknown;
            }
            **last
        } else {
            let unconditional = relevant
                .iter()
                .all(|(_, target, _)| self.is_body_statement_target(*target, store_scope));
            if !unconditional || !self.scope_within(scope, store_scope) {
                return PathStore::Unknown;
            }
            let Some(last) = relevant.last() else {
                return PathStore::None;
            };
            **last
        };
        PathStore::Value(last.2, last.0)
    }

    /// Whether the store whose target is `target` ran before `read`: its
    /// statement ended before it (not a store whose own value reads it:
    /// `cfg.p = cfg.p.split(",")` reads the value before it).
    fn store_ran_before(&self, target: Node<'t>, read: Node<'t>) -> bool {
        self.parent_of(target).unwrap_or(target).end_byte() <= read.start_byte()
    }

    /// A call's arguments, with `**options` unpackings of a dict made in the
    /// same scope read as the keywords they pass: `options = {"backend":
    /// "cpu"}`, `dict(backend="cpu")`, `**{...}`, and `options["k"] = v`
    /// stores that certainly run (a finding about such a keyword points at
    /// the entry or the store: where it is written). An unpacking that cannot
    /// be read so stays one (`has_dict_splat`).
    pub fn args_of(&self, call: Node<'t>) -> Args<'t> {
        // Asked about the same calls many times over (every keyword read of
        // every rule and lowering): a call without `**` has the same
        // arguments whenever asked, so those are read from its node once.
        if let Some(args) = self.plain_args.borrow().get(&call.id()) {
            return args.clone();
        }
        let mut args = Args::of(call, self.src);
        if !args.has_dict_splat {
            self.plain_args.borrow_mut().insert(call.id(), args.clone());
            return args;
        }
        let Some(&scope) = self.call_scope.get(&call.id()) else {
            return args;
        };
        let Some(list) = call.field("arguments") else {
            return args;
        };
        let mut unread = false;
        let mut cursor = list.walk();
        for splat in list.named_children(&mut cursor) {
            if splat.kind_name() != "dictionary_splat" {
                continue;
            }
            match splat
                .named_child(0)
                .and_then(|d| self.local_dict_keywords(unparenthesize(d), scope, call))
            {
                Some(entries) => {
                    for (name, value, holder) in entries {
                        args.keywords.retain(|(n, _, _)| *n != name);
                        args.keywords.push((name, value, holder));
                    }
                }
                None => unread = true,
            }
        }
        args.has_dict_splat = unread;
        args.has_splat = unread || args.has_list_splat;
        args
    }

    /// True if `call` has no `**` argument, known without reading it again
    /// once `args_of(call)` has read it (such calls' arguments are kept).
    pub(crate) fn known_without_dict_splat(&self, call: Node<'t>) -> bool {
        self.plain_args.borrow().contains_key(&call.id())
    }

    /// The keywords a dict passes when unpacked (`args_of`): a display with
    /// string keys or `dict(k=v)`, named in `scope` and made there, with
    /// the stores into it that certainly run. `None` when any part is not so.
    fn local_dict_keywords(
        &self,
        dict: Node<'t>,
        scope: ScopeId,
        call: Node<'t>,
    ) -> Option<Vec<(String, Node<'t>, Node<'t>)>> {
        let (made, named) = match dict.kind_name() {
            "identifier" => match self.binding_at(scope, text(dict, self.src), dict)? {
                Binding::Value {
                    value, scope: s, ..
                } if *s == scope => (unparenthesize(*value), true),
                _ => return None,
            },
            _ => (dict, false),
        };
        let mut out: Vec<(String, Node<'t>, Node<'t>)> = Vec::new();
        match made.kind_name() {
            "dictionary" => {
                let mut cursor = made.walk();
                for pair in made.named_children(&mut cursor) {
                    match pair.kind_name() {
                        "comment" => {}
                        "pair" => {
                            let key = crate::syntax::string_value(pair.field("key")?, self.src)?;
                            out.push((key, pair.field("value")?, pair));
                        }
                        _ => return None,
                    }
                }
            }
            "call" if text(made.field("function")?, self.src) == "dict" => {
                let args = Args::of(made, self.src);
                if args.has_splat || !args.positional.is_empty() {
                    return None;
                }
                out = args.keywords;
            }
            "dictionary_comprehension" => out = self.comprehension_keywords(made, scope, call)?,
            _ => return None,
        }
        if named {
            for (key, value, store_scope) in self.dict_stores(made).iter() {
                // Stores after the call are of later calls; a nested
                // function's may never run.
                if value.start_byte() > call.start_byte() {
                    continue;
                }
                if *store_scope != scope {
                    return None;
                }
                match self.store_runs(*value, scope, made) {
                    StoreRuns::Never => continue,
                    StoreRuns::Maybe => return None,
                    StoreRuns::Certainly => {}
                }
                // Stored on each pass of a loop the call comes after: the
                // call passes the last pass's value, which a keyword
                // pointing at the store cannot say.
                if !self.loops_around(*value, scope, Some(call)).is_empty() {
                    return None;
                }
                let key = crate::syntax::string_value(*key, self.src)?;
                let holder = self.parent_of(*value).unwrap_or(*value);
                out.retain(|(k, _, _)| *k != key);
                out.push((key, *value, holder));
            }
        }
        Some(out)
    }

    /// The keywords `**{k: v for k, v in D.items() if ...}` passes: the
    /// entries of `D` its `if` clauses keep (each decided by the flow for
    /// that entry), pointing at where `D` writes them. `D` is a dict
    /// `local_dict_keywords` reads, or a module-level display nothing
    /// changes whose entries mean the same in `scope`. `None` when the
    /// comprehension does more than filter, or a filter is not known.
    fn comprehension_keywords(
        &self,
        comp: Node<'t>,
        scope: ScopeId,
        call: Node<'t>,
    ) -> Option<Vec<(String, Node<'t>, Node<'t>)>> {
        let body = comp.field("body").filter(|b| b.kind_name() == "pair")?;
        let (key_var, value_var) = (body.field("key")?, body.field("value")?);
        let mut cursor = comp.walk();
        let mut fors = comp
            .named_children(&mut cursor)
            .filter(|c| c.kind_name() == "for_in_clause");
        let (Some(clause), None) = (fors.next(), fors.next()) else {
            return None;
        };
        // `for k, v in ...` binding exactly the body's key and value.
        let left = clause.field("left")?;
        let mut cursor = left.walk();
        let targets: Vec<Node<'t>> = left.named_children(&mut cursor).collect();
        let [k, v] = targets.as_slice() else {
            return None;
        };
        let same_name = |a: Node<'t>, b: Node<'t>| {
            a.kind_name() == "identifier"
                && b.kind_name() == "identifier"
                && text(a, self.src) == text(b, self.src)
        };
        if !same_name(*k, key_var) || !same_name(*v, value_var) {
            return None;
        }
        let items = unparenthesize(clause.field("right")?);
        let method = items.field("function").filter(|f| {
            items.kind_name() == "call"
                && f.kind_name() == "attribute"
                && f.field("attribute")
                    .is_some_and(|a| text(a, self.src) == "items")
        })?;
        if items
            .field("arguments")
            .is_none_or(|a| a.named_child_count() != 0)
        {
            return None;
        }
        let source = unparenthesize(method.field("object")?);
        let entries = match self.local_dict_keywords(source, scope, call) {
            Some(entries) => entries,
            None => self.unchanged_module_dict(source, scope)?,
        };
        let flow = self.flow();
        let mut out = Vec::new();
        for entry in entries {
            if flow.comprehension_keeps(comp, scope, &entry.0)? {
                out.push(entry);
            }
        }
        Some(out)
    }

    /// The entries of `name`, read in `scope`, when it is a module-level dict
    /// display with string keys that nothing stores into, and each entry's
    /// names mean in `scope` what they mean at the module level (its value
    /// is then read in `scope`, as a keyword's is).
    fn unchanged_module_dict(
        &self,
        name: Node<'t>,
        scope: ScopeId,
    ) -> Option<Vec<(String, Node<'t>, Node<'t>)>> {
        if name.kind_name() != "identifier" {
            return None;
        }
        let display = match self.binding_at(scope, text(name, self.src), name)? {
            Binding::Value {
                value,
                scope: MODULE_SCOPE,
                ..
            } => unparenthesize(*value),
            _ => return None,
        };
        if display.kind_name() != "dictionary" || !self.dict_stores(display).is_empty() {
            return None;
        }
        let resolves_alike = |n: &str| match (self.lookup(scope, n), self.lookup(MODULE_SCOPE, n)) {
            (Some(a), Some(b)) => std::ptr::eq(a, b),
            (None, None) => true,
            _ => false,
        };
        let mut out = Vec::new();
        let mut cursor = display.walk();
        for pair in display.named_children(&mut cursor) {
            match pair.kind_name() {
                "comment" => {}
                "pair" => {
                    let key = crate::syntax::string_value(pair.field("key")?, self.src)?;
                    let value = pair.field("value")?;
                    if !crate::syntax::name_uses(value)
                        .into_iter()
                        .all(|id| resolves_alike(text(id, self.src)))
                    {
                        return None;
                    }
                    out.push((key, value, pair));
                }
                _ => return None,
            }
        }
        Some(out)
    }

    /// Whether `node` is in a body of `scope` that never runs (a branch a
    /// constant condition rules out, what follows a `return` that always
    /// runs).
    pub(crate) fn never_runs(&self, node: Node<'t>, scope: ScopeId) -> bool {
        let at = node.start_byte();
        self.branch_ranges(scope)
            .dead
            .iter()
            .any(|d| d.contains(&at))
    }

    /// Whether a statement at `node` (a store) runs whenever `since` (what it
    /// stores into, made in the same scope) does: never (a branch decided
    /// false), certainly (straight-line code, a branch decided true, a `for`
    /// body: once per element, a branch that holds `since` too), or maybe (a
    /// branch, loop or handler decided at run time).
    pub fn store_runs(&self, node: Node<'t>, scope: ScopeId, since: Node<'t>) -> StoreRuns {
        let branches = self.branch_ranges(scope);
        let at = node.start_byte();
        // (Dead when a dead range holds all of it: the dead arm of a
        // conditional expression starts where the expression does.)
        if branches
            .dead
            .iter()
            .any(|d| d.contains(&at) && node.end_byte() <= d.end)
        {
            return StoreRuns::Never;
        }
        let scope_node = self.scopes[scope].node;
        let mut child = node;
        let mut current = self.parent_of(node);
        while let Some(parent) = current {
            if parent.id() == scope_node.id() || parent.byte_range().contains(&since.start_byte()) {
                break;
            }
            match parent.kind_name() {
                "if_statement" | "elif_clause" | "else_clause" | "case_clause"
                    if child.kind_name() == "block"
                        && !branches.taken.contains(&child.byte_range()) =>
                {
                    return StoreRuns::Maybe
                }
                "except_clause"
                    if child.kind_name() == "block"
                        && branches.taken.contains(&child.byte_range()) => {}
                "while_statement"
                | "except_clause"
                | "conditional_expression"
                | "boolean_operator"
                | "finally_clause" => return StoreRuns::Maybe,
                _ => {}
            }
            child = parent;
            current = self.parent_of(parent);
        }
        StoreRuns::Certainly
    }

    /// Stores to attribute `attr` of the object that `call` constructs, made
    /// through the name it is assigned to in that scope (`c = Config()` then
    /// `c.platform = "tpu"`): the last, when every such store is a statement
    /// of the scope's body (it ran before the object is used elsewhere).
    /// With `before`, a read in that scope: the stores whose statement ran
    /// before it.
    pub fn store_after_construction(
        &self,
        call: Node<'t>,
        scope: ScopeId,
        attr: &str,
        before: Option<Node<'t>>,
    ) -> PathStore<'t> {
        let Some(name) = self.constructed_name(call) else {
            return PathStore::None;
        };
        let path = format!("{}.{attr}", text(name, self.src));
        // The path given another object after this one (`config.export =
        // Other()` later): stores through it may be the other's.
        if name.kind_name() == "attribute"
            && self
                .path_stores
                .get(text(name, self.src))
                .is_some_and(|stores| {
                    stores
                        .iter()
                        .any(|(s, target, _)| *s == scope && target.start_byte() > call.end_byte())
                })
        {
            return PathStore::Unknown;
        }
        if self.unknown_path_stores.get(&path).is_some_and(|u| {
            u.iter()
                .any(|(s, store)| *s == scope && store.start_byte() > call.end_byte())
        }) {
            return PathStore::Unknown;
        }
        let Some(stores) = self.path_stores.get(&path) else {
            return PathStore::None;
        };
        let ran_before_read =
            |target: Node<'t>| before.is_none_or(|read| self.store_ran_before(target, read));
        let stores: Vec<&(ScopeId, Node<'t>, Node<'t>)> = stores
            .iter()
            .filter(|(s, target, _)| {
                *s == scope && target.start_byte() > call.end_byte() && ran_before_read(*target)
            })
            .collect();
        let Some(last) = stores.last() else {
            return PathStore::None;
        };
        // The name rebound to something else after the construction (a
        // copy of itself is the same object for what it holds:
        // `cfg = copy.copy(cfg)` before `object.__setattr__(cfg, ...)`).
        // What it held before does not count: the parameter it replaces
        // (`cfg = Config() if cfg is None else cfg`), an earlier value.
        let name_text = text(name, self.src);
        if self
            .bindings
            .get(&(scope, name_text.to_owned()))
            .is_some_and(|b| {
                b.len() > 1
                    && b.iter().any(|b| match b {
                        Binding::Value { value, .. } => {
                            value.start_byte() > call.end_byte()
                                && !self.is_copy_of(*value, name_text)
                        }
                        Binding::Param { .. } => false,
                        _ => true,
                    })
            })
        {
            return PathStore::Unknown;
        }
        // Stores that run whenever the construction does: in its block
        // or an enclosing one, not under a branch or loop of their own.
        if stores
            .iter()
            .all(|(_, target, _)| self.is_straight_line(*target, scope, call))
        {
            PathStore::Value(last.2, last.0)
        } else {
            PathStore::Unknown
        }
    }

    /// The attributes stored through the name (or dotted path) a
    /// construction is bound to after it (`config.model = ...` after
    /// `config = ConfigDict()`): a few, by name.
    pub(crate) fn stored_after_construction_names(&self, call: Node<'t>) -> Vec<String> {
        let Some(name) = self.constructed_name(call) else {
            return Vec::new();
        };
        let prefix = format!("{}.", text(name, self.src));
        let mut out: Vec<String> = self
            .path_stores
            .keys()
            .filter_map(|path| path.strip_prefix(&prefix))
            .filter(|attr| !attr.contains('.'))
            .map(str::to_owned)
            .collect();
        out.sort();
        out.dedup();
        out.truncate(32);
        out
    }

    /// `value` is `copy.copy(name)` / `copy.deepcopy(name)`.
    fn is_copy_of(&self, value: Node<'t>, name: &str) -> bool {
        value.kind_name() == "call"
            && value
                .field("function")
                .is_some_and(|f| matches!(text(f, self.src), "copy.copy" | "copy.deepcopy"))
            && value.field("arguments").is_some_and(|a| {
                a.named_child_count() == 1
                    && a.named_child(0)
                        .is_some_and(|x| x.kind_name() == "identifier" && text(x, self.src) == name)
            })
    }

    /// `target` is the target of an assignment that is a statement of
    /// `scope`'s own body (not inside a branch or loop).
    /// `node.parent()`, remembered. Tree-sitter finds a parent by
    /// descending from the root, so walking up a deep node costs its depth
    /// times that; one descent here, from the top-level statement holding
    /// `node` (the model's statements may be of several trees), records
    /// every ancestor on the way.
    pub(crate) fn parent_of(&self, node: Node<'t>) -> Option<Node<'t>> {
        if let Some(known) = self.parents.borrow().get(&node.id()) {
            return *known;
        }
        let statements = self
            .statements_in_order
            .get_or_init(|| self.top_level_statements());
        let at = statements.partition_point(|s| s.start_byte() <= node.start_byte());
        let holder = at
            .checked_sub(1)
            .map(|i| statements[i])
            .filter(|s| node.end_byte() <= s.end_byte() && s.id() != node.id());
        let mut chain = Vec::new();
        let mut reached = false;
        if let Some(mut current) = holder {
            while !reached {
                let Some(next) = current.child_with_descendant(node) else {
                    break;
                };
                chain.push((next.id(), current));
                reached = next.id() == node.id();
                current = next;
            }
        }
        let mut parents = self.parents.borrow_mut();
        if reached {
            parents.extend(chain.into_iter().map(|(id, parent)| (id, Some(parent))));
        } else {
            // A top-level statement, the root, or a node the model's
            // statements do not hold.
            parents.insert(node.id(), node.parent());
        }
        parents.get(&node.id()).copied().flatten()
    }

    /// The statement holding `node` (itself if it is one): the child of a
    /// block or of the module on its way up.
    pub(crate) fn enclosing_statement(&self, node: Node<'t>) -> Node<'t> {
        let mut current = node;
        while let Some(parent) = self.parent_of(current) {
            if matches!(parent.kind_name(), "block" | "module") {
                return current;
            }
            current = parent;
        }
        current
    }

    pub(crate) fn is_body_statement_target(&self, target: Node<'t>, scope: ScopeId) -> bool {
        let scope_node = self.scopes[scope].node;
        // (A keyed store's target is its call: `setattr(cfg, "x", v)`.)
        let statement = if target.kind_name() == "call" {
            self.parent_of(target)
        } else {
            self.parent_of(target)
                .filter(|a| a.kind_name() == "assignment")
                .and_then(|a| self.parent_of(a))
        };
        let mut block = statement
            .filter(|e| e.kind_name() == "expression_statement")
            .and_then(|e| self.parent_of(e));
        // A `with` body runs whenever its `with` statement does.
        while let Some(b) = block {
            match self.parent_of(b) {
                Some(w) if b.kind_name() == "block" && w.kind_name() == "with_statement" => {
                    block = self.parent_of(w);
                }
                _ => break,
            }
        }
        block.is_some_and(|b| {
            (b.kind_name() == "module" && self.scopes[scope].kind == ScopeKind::Module)
                || (b.kind_name() == "block"
                    && self.parent_of(b).is_some_and(|p| p.id() == scope_node.id()))
        })
    }

    /// Whether `node` and `other` are in bodies of one statement of which at
    /// most one runs each time it does: two branches of an `if` or `match`,
    /// two handlers of a `try`, or a handler and its `else`. A binding in
    /// one never reaches a read in the other.
    pub(crate) fn in_exclusive_branches(&self, node: Node<'t>, other: Node<'t>) -> bool {
        let mut current = self.parent_of(node);
        while let Some(parent) = current {
            if encloses(parent, other) {
                return self.exclusive_at(parent, node, other);
            }
            current = self.parent_of(parent);
        }
        false
    }

    /// `in_exclusive_branches` where `parent` is the lowest node holding
    /// both `node` and `other`.
    fn exclusive_at(&self, parent: Node<'t>, node: Node<'t>, other: Node<'t>) -> bool {
        let branches: Vec<Node<'t>> = match parent.kind_name() {
            "if_statement" => {
                let mut cursor = parent.walk();
                parent
                    .field("consequence")
                    .into_iter()
                    .chain(parent.children_by_field_name("alternative", &mut cursor))
                    .collect()
            }
            // (A `match`'s cases are in its body block.)
            "block"
                if self
                    .parent_of(parent)
                    .is_some_and(|m| m.kind_name() == "match_statement") =>
            {
                let mut cursor = parent.walk();
                parent
                    .named_children(&mut cursor)
                    .filter(|c| c.kind_name() == "case_clause")
                    .collect()
            }
            "try_statement" => {
                let mut cursor = parent.walk();
                parent
                    .named_children(&mut cursor)
                    .filter(|c| matches!(c.kind_name(), "except_clause" | "else_clause"))
                    .collect()
            }
            _ => return false,
        };
        // The body of a branch clause (not its condition or pattern).
        let body_of = |clause: Node<'t>| -> Option<Node<'t>> {
            match clause.kind_name() {
                "block" => Some(clause),
                "elif_clause" | "case_clause" => clause.field("consequence"),
                "else_clause" => clause.field("body"),
                "except_clause" => reach::except_block(clause),
                _ => None,
            }
        };
        let body_holding = |x: Node<'t>| {
            branches
                .iter()
                .position(|b| body_of(*b).is_some_and(|body| encloses(body, x)))
        };
        match (body_holding(node), body_holding(other)) {
            (Some(a), Some(b)) => a != b,
            _ => false,
        }
    }

    /// True if `node` is not inside a conditional or loop of its scope that
    /// does not also contain `use_node`.
    pub(crate) fn is_straight_line(
        &self,
        node: Node<'t>,
        scope: ScopeId,
        use_node: Node<'t>,
    ) -> bool {
        self.runs_before(node, scope, use_node, &[])
    }

    /// `is_straight_line`, where an `if`/`elif`/`else` body in `taken` (its
    /// condition is constant and true: `if config is None:` with `config`
    /// None on every path) counts as straight-line code.
    pub(crate) fn runs_before(
        &self,
        node: Node<'t>,
        scope: ScopeId,
        use_node: Node<'t>,
        taken: &[std::ops::Range<usize>],
    ) -> bool {
        let scope_node = self.scopes[scope].node;
        let mut child = node;
        let mut current = self.parent_of(node);
        while let Some(parent) = current {
            if parent.id() == scope_node.id() {
                return true;
            }
            let holds_use = encloses(parent, use_node);
            // Another branch of the statement holding the use (`parent` is
            // the lowest node holding both): never runs before it.
            if holds_use && !encloses(child, use_node) && self.exclusive_at(parent, node, use_node)
            {
                return false;
            }
            // (A `match` passes on to its `case` clauses, decided as `if`s.)
            // (A decided `try` passes on to its body and clauses, taken
            // when they certainly run.)
            let in_taken_body = (matches!(
                parent.kind_name(),
                "if_statement"
                    | "elif_clause"
                    | "else_clause"
                    | "case_clause"
                    | "try_statement"
                    | "except_clause"
            ) && (child.kind_name() != "block"
                || taken.contains(&child.byte_range())))
                || (parent.kind_name() == "match_statement" && child.kind_name() == "block")
                // The body of a loop that certainly runs it (`loop_body_runs`).
                || (parent.kind_name() == "for_statement"
                    && child.kind_name() == "block"
                    && taken.contains(&child.byte_range()));
            if in_taken_body && !holds_use {
                child = parent;
                current = self.parent_of(parent);
                continue;
            }
            if matches!(
                parent.kind_name(),
                "if_statement"
                    | "elif_clause"
                    | "else_clause"
                    | "for_statement"
                    | "while_statement"
                    | "try_statement"
                    | "except_clause"
                    | "match_statement"
                    | "case_clause"
            ) && !holds_use
            {
                return false;
            }
            child = parent;
            current = self.parent_of(parent);
        }
        true
    }

    /// Bindings of attribute `name` on instances of class `class`, including
    /// classes it inherits from that are defined in this module.
    pub fn attribute(&self, class: ScopeId, name: &str) -> Option<&[Binding<'t>]> {
        let mut seen = Vec::new();
        let mut queue = vec![class];
        while let Some(id) = queue.pop() {
            if seen.contains(&id) || seen.len() > 16 {
                continue;
            }
            seen.push(id);
            if let Some(found) = self.attributes.get(&(id, name.to_owned())) {
                return Some(found);
            }
            queue.extend(self.base_classes(id));
        }
        None
    }

    /// Whether def `def` is made a context manager (`@contextlib.contextmanager`).
    pub(crate) fn is_context_manager(&self, def: ScopeId) -> bool {
        self.scopes[def]
            .decorators()
            .iter()
            .any(|d| text(*d, self.src).ends_with("contextmanager"))
    }

    /// A method (or nested class) named `name` of `class` or its local bases.
    pub fn method(&self, class: ScopeId, name: &str) -> Option<ScopeId> {
        self.class_and_bases(class).into_iter().find_map(|id| {
            self.bindings
                .get(&(id, name.to_owned()))?
                .iter()
                .rev()
                .find_map(|binding| match binding {
                    Binding::Def(def) => Some(*def),
                    _ => None,
                })
        })
    }

    /// The `super().__init__(...)` (or `super(Cls, self).__init__(...)`)
    /// call in `init`, a class's `__init__`, with the `__init__` it runs: that
    /// of the first base of `init`'s class (in this module) that has one.
    /// The first such call in the body, not one inside a nested def.
    pub(crate) fn super_init_call(&self, init: ScopeId) -> Option<(Node<'t>, ScopeId)> {
        let owner = self.scopes[init].class?;
        let next = self
            .base_classes(owner)
            .into_iter()
            .find_map(|base| self.method(base, "__init__"))?;
        let body = self.scopes[init].node.field("body")?;
        let mut stack = vec![body];
        let mut found = None;
        while let Some(node) = stack.pop() {
            if matches!(
                node.kind_name(),
                "function_definition" | "class_definition" | "lambda"
            ) {
                continue;
            }
            if node.kind_name() == "call"
                && is_super_init(node, self.src)
                && found.is_none_or(|f: Node<'t>| node.start_byte() < f.start_byte())
            {
                found = Some(node);
            }
            let mut cursor = node.walk();
            stack.extend(node.named_children(&mut cursor));
        }
        found.map(|call| (call, next))
    }

    /// `class` and its bases of this module, nearest first (depth-first, as
    /// `method` looks a name up), at most 17.
    pub(crate) fn class_and_bases(&self, class: ScopeId) -> Vec<ScopeId> {
        let mut seen = Vec::new();
        let mut queue = vec![class];
        while let Some(id) = queue.pop() {
            if seen.contains(&id) || seen.len() > 16 {
                continue;
            }
            seen.push(id);
            queue.extend(self.base_classes(id));
        }
        seen
    }

    /// Method `name` that `class` (or a base of it in this module)
    /// inherits from a class of another module (`class Trainer(Module)`
    /// with `Module` imported): its path, `pkg.mod.Module.name`. For a name
    /// `method` does not find here; `None` when no base is imported from a
    /// non-library module.
    pub(crate) fn foreign_base_method(&self, class: ScopeId, name: &str) -> Option<String> {
        for id in self.class_and_bases(class) {
            let outer = self.scopes[id].parent.unwrap_or(MODULE_SCOPE);
            if let Some(supers) = self.scopes[id].node.field("superclasses") {
                let mut cursor = supers.walk();
                for base in supers.named_children(&mut cursor) {
                    if !matches!(base.kind_name(), "identifier" | "attribute") {
                        continue;
                    }
                    let Some(path) = self.canonical(base, outer) else {
                        continue;
                    };
                    if !reach::is_library_path(&path) && path.contains('.') {
                        return Some(format!("{path}.{name}"));
                    }
                }
            }
        }
        None
    }

    pub(crate) fn base_classes(&self, class: ScopeId) -> Vec<ScopeId> {
        if let Some(found) = self.base_classes.borrow().get(&class) {
            return found.clone();
        }
        let found = self.read_base_classes(class);
        self.base_classes.borrow_mut().insert(class, found.clone());
        found
    }

    fn read_base_classes(&self, class: ScopeId) -> Vec<ScopeId> {
        let mut out = Vec::new();
        let scope = &self.scopes[class];
        let Some(supers) = scope.node.field("superclasses") else {
            return out;
        };
        let mut cursor = supers.walk();
        for base in supers.named_children(&mut cursor) {
            // `Base[T]` (a generic base) is `Base`.
            let base = match base.kind_name() {
                "subscript" => match base.field("value") {
                    Some(value) => value,
                    None => continue,
                },
                _ => base,
            };
            if let Some(id) = self.class_named_by(base, scope.parent.unwrap_or(0), 0) {
                if id != class && !out.contains(&id) {
                    out.push(id);
                }
            }
        }
        out
    }

    /// The class of this module an expression names: `Base`, an alias of
    /// one (`Config = Base`), or a class's attribute holding one
    /// (`Module.Config`, a nested class or a class-body alias).
    fn class_named_by(&self, expr: Node<'t>, scope: ScopeId, depth: u32) -> Option<ScopeId> {
        if depth > 4 {
            return None;
        }
        let from_binding = |binding: &Binding<'t>| match binding {
            Binding::Def(id) if self.scopes[*id].kind == ScopeKind::Class => Some(*id),
            Binding::Value { value, scope, .. } => self.class_named_by(*value, *scope, depth + 1),
            _ => None,
        };
        match expr.kind_name() {
            "identifier" => from_binding(self.binding_at(scope, text(expr, self.src), expr)?),
            "attribute" => {
                let owner = self.class_named_by(expr.field("object")?, scope, depth + 1)?;
                let name = text(expr.field("attribute")?, self.src);
                // (A nested class is a binding of the class body, not a
                // stored attribute.)
                let bindings = self
                    .attribute(owner, name)
                    .or_else(|| self.bindings_in(owner, name))?;
                from_binding(bindings.last()?)
            }
            _ => None,
        }
    }

    /// Whether `class` is an `enum.Enum` class, and whether its members are
    /// `str`/`int` values too (`class Backend(str, enum.Enum)`, `IntEnum`,
    /// `StrEnum`). Flags and enums of other modules' enum bases: `None`.
    pub(crate) fn enum_kind(&self, class: ScopeId) -> Option<EnumKind> {
        let mut seen = Vec::new();
        self.enum_kind_of(class, &mut seen)
    }

    fn enum_kind_of(&self, class: ScopeId, seen: &mut Vec<ScopeId>) -> Option<EnumKind> {
        if seen.contains(&class) || seen.len() > 16 || self.scopes[class].kind != ScopeKind::Class {
            return None;
        }
        seen.push(class);
        let supers = self.scopes[class].node.field("superclasses")?;
        let outer = self.scopes[class].parent.unwrap_or(MODULE_SCOPE);
        let mut enum_base = None;
        let mut mixin = false;
        let mut cursor = supers.walk();
        for base in supers.named_children(&mut cursor) {
            match text(base, self.src) {
                "str" | "int" => mixin = true,
                _ => {}
            }
            match self.canonical(base, outer).as_deref() {
                Some("enum.Enum") => enum_base = Some(EnumKind::Plain),
                Some("enum.IntEnum" | "enum.StrEnum") => enum_base = Some(EnumKind::Mixin),
                _ => {}
            }
        }
        if enum_base.is_none() {
            for local in self.base_classes(class) {
                if let Some(kind) = self.enum_kind_of(local, seen) {
                    enum_base = Some(kind);
                }
            }
        }
        match enum_base? {
            EnumKind::Plain if mixin => Some(EnumKind::Mixin),
            kind => Some(kind),
        }
    }

    /// The class whose method `scope` is (directly or through nested defs and
    /// lambdas), with the name `self` has there.
    pub fn enclosing_method_class(&self, scope: ScopeId) -> Option<(ScopeId, String)> {
        let s = &self.scopes[self.enclosing_method(scope)?];
        let first = s.params().first()?.0.clone();
        Some((s.class?, first))
    }

    /// The method `scope` is in (itself, or the method a closure is in).
    pub fn enclosing_method(&self, scope: ScopeId) -> Option<ScopeId> {
        let mut current = Some(scope);
        while let Some(id) = current {
            if self.scopes[id].class.is_some() {
                return Some(id);
            }
            current = self.scopes[id].parent;
        }
        None
    }

    /// Canonical dotted path of an expression naming an imported object:
    /// `pltpu.CompilerParams` -> `jax.experimental.pallas.tpu.CompilerParams`.
    pub fn canonical(&self, node: Node<'t>, scope: ScopeId) -> Option<String> {
        // Asked for the same callees by every rule, lowering and flow step
        // (60,000 times in the 1,111 units of the bench module); the answer
        // depends only on the model's bindings, which are complete.
        let key = (node.id(), scope);
        if let Some(found) = self.canonical_paths.borrow().get(&key) {
            return found.clone();
        }
        let found = self.canonical_depth(node, scope, 0);
        self.canonical_paths.borrow_mut().insert(key, found.clone());
        found
    }

    fn canonical_depth(&self, node: Node<'t>, scope: ScopeId, depth: u32) -> Option<String> {
        // Re-bindings can cycle (`x = x.y`); real aliases are a few steps deep.
        if depth > 8 {
            return None;
        }
        let node = unparenthesize(node);
        match node.kind_name() {
            "identifier" => match self.binding_at(scope, text(node, self.src), node)? {
                Binding::Import(path) => Some(names::canonicalize(path).into_owned()),
                Binding::Value { value, scope, .. } => {
                    // `jit = jax.jit` style re-bindings of an API object.
                    let value = unparenthesize(*value);
                    if matches!(value.kind_name(), "identifier" | "attribute")
                        && value.id() != node.id()
                    {
                        self.canonical_depth(value, *scope, depth + 1)
                    } else {
                        None
                    }
                }
                _ => None,
            },
            "attribute" => {
                let object = node.field("object")?;
                let attr = node.field("attribute")?;
                let base = self.canonical_depth(object, scope, depth + 1)?;
                let joined = format!("{base}.{}", text(attr, self.src));
                Some(names::canonicalize(&joined).into_owned())
            }
            _ => None,
        }
    }

    /// The canonical path of a call's callee.
    pub fn callee(&self, call: Node<'t>, scope: ScopeId) -> Option<String> {
        self.canonical(call.field("function")?, scope)
    }

    /// The local name that `path` (a module such as `jax`) is imported under at
    /// module level, for fixes that need to spell an API.
    pub fn local_name_of(&self, path: &str) -> Option<String> {
        self.bindings.iter().find_map(|((scope, name), bindings)| {
            (*scope == MODULE_SCOPE
                && bindings
                    .iter()
                    .any(|b| matches!(b, Binding::Import(p) if p == path)))
            .then(|| name.clone())
        })
    }
}

/// The query matches of one top-level statement, in the order the walk
/// gives them: the first of the patterns each matches (they are written
/// alike) and its captures. Found once, they can be given to the models of
/// several units (`Module::new_in_matched`).
pub struct Matches<'t>(Vec<(usize, Vec<(crate::syntax::matcher::CaptureId, Node<'t>)>)>);

impl<'t> Matches<'t> {
    pub fn of(statement: Node<'t>, src: &str) -> Matches<'t> {
        let mut out = Vec::new();
        queries()
            .matcher
            .for_each_match(statement, src.as_bytes(), |patterns, m| {
                if let Some(&first) = patterns.first() {
                    out.push((first, m.to_vec()));
                }
            });
        Matches(out)
    }
}

/// `Module::changing_uses`: the name's binding (`target`, `name`, its
/// scope `home` and that scope's bytes `range`), where the value ends
/// (`from`), and the identifiers after it that may change it.
struct ChangingUses<'t> {
    target: Node<'t>,
    name: &'t str,
    home: ScopeId,
    range: std::ops::Range<usize>,
    from: usize,
    idents: Vec<Node<'t>>,
}

/// How a dict bound to a name is changed after it is made
/// (`Module::assigned_name_mutation`), in order of how much it changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Mutation {
    None,
    /// Its own items are stored, deleted or updated.
    Shallow,
    /// A dict or list it holds is changed, or another name is bound to it
    /// or to one of its entries.
    Deep,
}

/// Positional and keyword arguments of a call.
#[derive(Clone, Default)]
pub struct Args<'t> {
    pub positional: Vec<Node<'t>>,
    pub keywords: Vec<(String, Node<'t>, Node<'t>)>,
    /// `*args` / `**kwargs` present: positions and names are not all visible.
    pub has_splat: bool,
    /// `**kwargs` present: names are not all visible (a `*args` alone
    /// cannot pass a keyword-only parameter).
    pub has_dict_splat: bool,
    /// `*args` present: positions are not all visible.
    pub has_list_splat: bool,
}

impl<'t> Args<'t> {
    pub fn of(call: Node<'t>, src: &str) -> Args<'t> {
        let mut args = Args {
            positional: Vec::new(),
            keywords: Vec::new(),
            has_splat: false,
            has_dict_splat: false,
            has_list_splat: false,
        };
        let Some(list) = call.field("arguments") else {
            return args;
        };
        // `tuple(x for x in xs)`: the generator is the one argument.
        if list.kind_name() == "generator_expression" {
            args.positional.push(list);
            return args;
        }
        let mut cursor = list.walk();
        for arg in list.named_children(&mut cursor) {
            match arg.kind_name() {
                "keyword_argument" => {
                    if let (Some(name), Some(value)) = (arg.field("name"), arg.field("value")) {
                        args.keywords.push((text(name, src).to_owned(), value, arg));
                    }
                }
                "list_splat" => {
                    args.has_splat = true;
                    args.has_list_splat = true;
                }
                "dictionary_splat" => {
                    args.has_splat = true;
                    args.has_dict_splat = true;
                }
                "comment" => {}
                _ => args.positional.push(arg),
            }
        }
        args
    }

    /// How many positional arguments of `call` come before its first
    /// `*expr` argument; `None` without one.
    pub fn positional_before_list_splat(call: Node<'t>) -> Option<usize> {
        let list = call.field("arguments")?;
        let mut cursor = list.walk();
        let mut before = 0;
        for arg in list.named_children(&mut cursor) {
            match arg.kind_name() {
                "list_splat" => return Some(before),
                "keyword_argument" | "dictionary_splat" | "comment" => {}
                _ => before += 1,
            }
        }
        None
    }

    /// `f(a, *rest)`: the expression `rest` of the call's only `*`
    /// unpacking, when it comes after every plain positional argument, and
    /// how many come before it (position `n` is `rest`'s item `n - k`).
    pub fn trailing_list_splat(call: Node<'t>) -> Option<(Node<'t>, usize)> {
        let list = call.field("arguments")?;
        let mut cursor = list.walk();
        let mut before = 0;
        let mut splat = None;
        for arg in list.named_children(&mut cursor) {
            match arg.kind_name() {
                "list_splat" if splat.is_none() => splat = Some(arg.named_child(0)?),
                "list_splat" => return None,
                "keyword_argument" | "dictionary_splat" | "comment" => {}
                _ if splat.is_some() => return None,
                _ => before += 1,
            }
        }
        Some((splat?, before))
    }

    /// The first `**expr` argument of `call` (where a finding about what it
    /// unpacks points).
    pub fn first_dict_splat(call: Node<'t>) -> Option<Node<'t>> {
        let list = call.field("arguments")?;
        let mut cursor = list.walk();
        let found = list
            .named_children(&mut cursor)
            .find(|a| a.kind_name() == "dictionary_splat");
        found
    }

    pub fn keyword(&self, name: &str) -> Option<Node<'t>> {
        self.keywords
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, v, _)| *v)
    }

    pub fn keyword_arg(&self, name: &str) -> Option<Node<'t>> {
        self.keywords
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, _, a)| *a)
    }
}

/// The plain name `value` is assigned to (`NAME = value`).
/// `node[...]`: the subscript whose value `node` is.
/// For an argument of a call (`f(d)`, `f(cfg=d)`): the call, and the
/// keyword it is passed by.
fn argument_call(node: Node<'_>) -> Option<(Node<'_>, Option<Node<'_>>)> {
    let parent = node.parent()?;
    let (list, keyword) = match parent.kind_name() {
        "argument_list" => (parent, None),
        "keyword_argument" if parent.field("value").is_some_and(|v| v.id() == node.id()) => {
            let name = parent.field("name")?;
            (parent.parent()?, Some(name))
        }
        _ => return None,
    };
    let call = list.parent().filter(|c| c.kind_name() == "call")?;
    Some((call, keyword))
}

/// Whether the use `ident` of a dict changes its items: `d[k] = v`,
/// `d[k] += v`, `del d[k]`, `d.update(...)` and the other changing methods.
fn changes_items(ident: Node<'_>, src: &str) -> bool {
    if let Some(sub) = subscripted(ident) {
        return item_store(sub).is_some()
            || sub.parent().is_some_and(|p| {
                matches!(p.kind_name(), "augmented_assignment" | "delete_statement")
            });
    }
    ident
        .parent()
        .filter(|a| {
            a.kind_name() == "attribute" && a.field("object").is_some_and(|o| o.id() == ident.id())
        })
        .and_then(|a| a.parent().filter(|c| c.kind_name() == "call"))
        .and_then(|c| c.field("function"))
        .and_then(|f| f.field("attribute"))
        .is_some_and(|method| CHANGING_DICT_METHODS.contains(&text(method, src)))
}

/// The methods of a dict that change its items.
const CHANGING_DICT_METHODS: &[&str] = &[
    "update",
    "setdefault",
    "pop",
    "popitem",
    "clear",
    "__setitem__",
    "__delitem__",
];

fn subscripted(node: Node<'_>) -> Option<Node<'_>> {
    node.parent().filter(|p| {
        p.kind_name() == "subscript" && p.field("value").is_some_and(|v| v.id() == node.id())
    })
}

/// The dict literal holding `value` as the value of a pair whose key is a
/// string literal, with that key.
pub(crate) fn dict_entry_of<'t>(value: Node<'t>, src: &str) -> Option<(Node<'t>, String)> {
    let pair = value.parent().filter(|p| {
        p.kind_name() == "pair" && p.field("value").is_some_and(|v| v.id() == value.id())
    })?;
    let dict = pair.parent().filter(|d| d.kind_name() == "dictionary")?;
    let key = crate::syntax::string_value(pair.field("key")?, src)?;
    Some((dict, key))
}

/// `subscript = value` (an item store, `D[key] = value`): its key and value.
/// The (key, value) pairs `call` (`d.update({"k": v})`, one dict display
/// of constant keys) stores; `None` for any other change.
fn updated_pairs<'t>(call: Node<'t>, method: &str) -> Option<Vec<(Node<'t>, Node<'t>)>> {
    if method != ".update(" || call.kind_name() != "call" {
        return None;
    }
    let args = call.field("arguments")?;
    let [display] = [args.named_child(0)?];
    if args.named_child_count() != 1 || display.kind_name() != "dictionary" {
        return None;
    }
    let mut cursor = display.walk();
    let mut out = Vec::new();
    for pair in display.named_children(&mut cursor) {
        match pair.kind_name() {
            "pair" => {
                let key = pair.field("key")?;
                if key.kind_name() != "string" {
                    return None;
                }
                out.push((key, pair.field("value")?));
            }
            "comment" => {}
            _ => return None,
        }
    }
    Some(out)
}

/// The name an attribute path is read from (`_state` of `_state.stack`);
/// `None` for a path through anything but attributes.
pub(crate) fn attribute_root(node: Node<'_>) -> Option<Node<'_>> {
    let mut root = node;
    while root.kind_name() == "attribute" {
        root = root.field("object")?;
    }
    (root.kind_name() == "identifier").then_some(root)
}

/// Whether `inner` lies within `outer` (by bytes).
pub(crate) fn encloses(outer: Node<'_>, inner: Node<'_>) -> bool {
    outer.start_byte() <= inner.start_byte() && inner.end_byte() <= outer.end_byte()
}

/// `super().__init__(...)` or `super(Cls, self).__init__(...)`.
pub(crate) fn is_super_init(call: Node<'_>, src: &str) -> bool {
    call.field("function")
        .filter(|f| f.kind_name() == "attribute")
        .filter(|f| {
            f.field("attribute")
                .is_some_and(|a| text(a, src) == "__init__")
        })
        .and_then(|f| f.field("object"))
        .filter(|o| o.kind_name() == "call")
        .and_then(|o| o.field("function"))
        .is_some_and(|f| text(f, src) == "super")
}

fn item_store(subscript: Node<'_>) -> Option<(Node<'_>, Node<'_>)> {
    let assignment = subscript.parent().filter(|p| {
        p.kind_name() == "assignment" && p.field("left").is_some_and(|l| l.id() == subscript.id())
    })?;
    // `d[a, b] = v`: the key is the tuple, given as the subscript itself
    // (no string; `Flow::eval_key` reads its indices).
    let key = match crate::syntax::subscript_indices(subscript).as_slice() {
        [one] => *one,
        [] => return None,
        _ => subscript,
    };
    Some((key, assignment.field("right")?))
}

/// `cache[key]`, made by `make` the first time it is asked for (a per-node
/// answer a model computes once: `dict_stores`, `list_mutations`, ...).
fn memoized<V>(
    cache: &std::cell::RefCell<HashMap<usize, std::rc::Rc<V>>>,
    key: usize,
    make: impl FnOnce() -> V,
) -> std::rc::Rc<V> {
    if let Some(found) = cache.borrow().get(&key) {
        return found.clone();
    }
    let made = std::rc::Rc::new(make());
    cache.borrow_mut().insert(key, made.clone());
    made
}

pub(crate) fn assigned_name(value: Node<'_>) -> Option<Node<'_>> {
    assignment_target(value).filter(|l| l.kind_name() == "identifier")
}

/// The target `value` is assigned to: `x` of `x = value`, and of a
/// parallel assignment the target in its place (`a, b = {}, {}`: `b` for
/// the second display).
pub(crate) fn assignment_target<'a>(value: Node<'a>) -> Option<Node<'a>> {
    let parent = value.parent()?;
    if parent.kind_name() == "assignment" {
        return parent
            .field("right")
            .filter(|r| r.id() == value.id())
            .and(parent.field("left"));
    }
    if parent.kind_name() != "expression_list" {
        return None;
    }
    let assignment = parent
        .parent()
        .filter(|a| a.kind_name() == "assignment")
        .filter(|a| a.field("right").is_some_and(|r| r.id() == parent.id()))?;
    let left = assignment
        .field("left")
        .filter(|l| matches!(l.kind_name(), "pattern_list" | "tuple_pattern"))?;
    fn named(n: Node<'_>) -> Vec<Node<'_>> {
        let mut cursor = n.walk();
        n.named_children(&mut cursor)
            .filter(|c| c.kind_name() != "comment")
            .collect()
    }
    let (values, targets) = (named(parent), named(left));
    // Starred targets (`a, *rest = ...`) pair by no fixed position.
    if values.len() != targets.len()
        || targets
            .iter()
            .any(|t| t.kind_name() == "list_splat_pattern")
        || values.iter().any(|v| v.kind_name() == "list_splat")
    {
        return None;
    }
    let at = values.iter().position(|v| v.id() == value.id())?;
    Some(targets[at])
}

/// The assignment a statement is (`x = v`, `D[k] = v`), if it is one.
pub(crate) fn statement_assignment(stmt: Node<'_>) -> Option<Node<'_>> {
    stmt.named_child(0)
        .filter(|a| stmt.kind_name() == "expression_statement" && a.kind_name() == "assignment")
}

/// How many times `name` occurs as a whole word in `src` outside comments
/// (a `#` before it on its line) and not as a member (`jax.set_mesh` names
/// no `set_mesh` of this module). A word in a string counts (`getattr(mod,
/// "name")` may call it; counting too many errs to "yes"), except in a
/// triple-quoted one: a docstring's prose calls nothing.
fn code_word_count(src: &str, name: &str) -> usize {
    without_triple_quoted(src)
        .lines()
        .map(|line| line.split_once('#').map_or(line, |(code, _)| code))
        .map(|code| {
            flow::whole_words(code, name)
                .filter(|&at| !code[..at].trim_end().ends_with('.'))
                .count()
        })
        .sum()
}

/// `src` with the text of its triple-quoted strings (docstrings, in
/// practice) blanked: prose naming a function does not call it.
fn without_triple_quoted(src: &str) -> std::borrow::Cow<'_, str> {
    if !src.contains("\"\"\"") && !src.contains("\'\'\'") {
        return std::borrow::Cow::Borrowed(src);
    }
    let mut out = String::with_capacity(src.len());
    let mut rest = src;
    loop {
        let next = ["\"\"\"", "\'\'\'"]
            .iter()
            .filter_map(|q| rest.find(q).map(|at| (at, *q)))
            .min();
        let Some((open, quote)) = next else {
            out.push_str(rest);
            break;
        };
        out.push_str(&rest[..open]);
        let body = &rest[open + 3..];
        let close = body.find(quote).map_or(body.len(), |at| at + 3);
        out.extend(
            rest[open..open + 3 + close.min(body.len())]
                .chars()
                .map(|c| if c == '\n' { '\n' } else { ' ' }),
        );
        rest = &body[close.min(body.len())..];
    }
    std::borrow::Cow::Owned(out)
}

impl<'t> Module<'t> {
    /// Whether `stmt` (of a method whose first parameter is `self_name` and
    /// whose `**` parameter is `kwargs`) sets every keyword on `self`:
    /// `for k, v in kwargs.items(): setattr(self, k, v)` with the `setattr` a
    /// plain statement of the loop's body (a guard raising before it may
    /// stand), or `self.__dict__.update(kwargs)` / `vars(self).update(kwargs)`.
    fn sets_keywords_statement(&self, stmt: Node<'t>, self_name: &str, kwargs: &str) -> bool {
        let src = self.src;
        let is_name = |n: Option<Node<'t>>, name: &str| {
            n.is_some_and(|n| n.kind_name() == "identifier" && text(n, src) == name)
        };
        // Plain positional arguments only.
        let positional = |call: Node<'t>| -> Vec<Node<'t>> {
            let args = self.args_of(call);
            if args.has_splat || !args.keywords.is_empty() {
                return Vec::new();
            }
            args.positional
        };
        match stmt.kind_name() {
            "for_statement" => {
                let (Some(left), Some(right), Some(body)) =
                    (stmt.field("left"), stmt.field("right"), stmt.field("body"))
                else {
                    return false;
                };
                let mut cursor = left.walk();
                let targets: Vec<&str> = left
                    .named_children(&mut cursor)
                    .filter(|n| n.kind_name() == "identifier")
                    .map(|n| text(n, src))
                    .collect();
                let [key, value] = targets.as_slice() else {
                    return false;
                };
                if !matches!(left.kind_name(), "pattern_list" | "tuple_pattern")
                    || left.named_child_count() != 2
                    || right.kind_name() != "call"
                    || right
                        .field("arguments")
                        .is_some_and(|a| a.named_child_count() > 0)
                {
                    return false;
                }
                let Some(items) = right
                    .field("function")
                    .filter(|f| f.kind_name() == "attribute")
                else {
                    return false;
                };
                if !is_name(items.field("object"), kwargs)
                    || items.field("attribute").map(|a| text(a, src)) != Some("items")
                {
                    return false;
                }
                let mut cursor = body.walk();
                let found = body.named_children(&mut cursor).any(|s| {
                    let Some(call) = s.named_child(0).filter(|c| {
                        s.kind_name() == "expression_statement" && c.kind_name() == "call"
                    }) else {
                        return false;
                    };
                    let Some(function) = call.field("function") else {
                        return false;
                    };
                    let args = positional(call);
                    let setattr = match text(function, src) {
                        "setattr" | "object.__setattr__" => {
                            args.len() == 3 && is_name(args.first().copied(), self_name)
                        }
                        _ => false,
                    };
                    setattr
                        && is_name(args.get(1).copied(), key)
                        && is_name(args.get(2).copied(), value)
                });
                found
            }
            "expression_statement" => {
                let Some(call) = stmt.named_child(0).filter(|c| c.kind_name() == "call") else {
                    return false;
                };
                let Some(update) = call
                    .field("function")
                    .filter(|f| f.kind_name() == "attribute")
                else {
                    return false;
                };
                if update.field("attribute").map(|a| text(a, src)) != Some("update") {
                    return false;
                }
                let args = positional(call);
                if args.len() != 1 || !is_name(args.first().copied(), kwargs) {
                    return false;
                }
                let Some(object) = update.field("object") else {
                    return false;
                };
                let dict_of_self = format!("{self_name}.__dict__");
                let vars_of_self = format!("vars({self_name})");
                let written = text(object, src);
                written == dict_of_self || written == vars_of_self
            }
            _ => false,
        }
    }
}

/// The receiver of the method call of another module a model answers, with
/// that method and the call's arguments (its own branches are decided with
/// both; the methods it calls on `self`, with the object alone).
#[derive(Clone)]
pub(crate) struct ForeignReceiver<'t> {
    pub(crate) object: flow::Alt<'t>,
    pub(crate) method: ScopeId,
    pub(crate) given: Vec<Vec<flow::Alt<'t>>>,
}

//! Constant evaluation of the few kinds of values the rules need: platform
//! names, booleans, meshes and shardings, and "what does this jit wrap".
//! Anything not determined statically is `Unknown`; rules stay silent on it.

use super::flow;
use super::names::{self};
use super::{Args, Binding, Module, ScopeId, ScopeKind};
use crate::syntax::Field;
use crate::syntax::KindName;
use crate::syntax::{string_value, text, unparenthesize};
use tree_sitter::Node;

const MAX_DEPTH: u32 = 12;

/// A constant value given as lowering/export platforms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlatformsValue {
    /// `("cpu",)`, `("tpu", "cuda")`
    Tuple(Vec<String>),
    /// `["cpu"]`
    List(Vec<String>),
    /// `"cpu"` or `("cpu")`: a bare string, which JAX iterates per character.
    Str(String),
    /// `tuple("cpu")`: a string's characters made a tuple, so JAX lowers
    /// for them as for the bare string.
    Split(String),
    /// A list whose items are not known (`[t for t in targets]`,
    /// `[os.environ["P"]]`): `Traced.lower` rejects it all the same.
    SomeList,
    /// A non-empty tuple whose items are not all known
    /// (`(FLAGS.platform,)`): platforms are supplied, which ones is not
    /// known.
    SomeTuple,
    /// `None` (or absent): JAX falls back to the default.
    Default,
    /// A `str` whose text is not known (an environment variable, a flag,
    /// `jax.default_backend()`): JAX iterates it all the same.
    Text,
    Unknown,
}

impl PlatformsValue {
    /// The platforms JAX lowers for when the value is a proper sequence.
    pub fn platforms(&self) -> Option<&[String]> {
        match self {
            PlatformsValue::Tuple(v) | PlatformsValue::List(v) => Some(v),
            _ => None,
        }
    }
}

/// A mesh (or the mesh a sharding is over).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MeshValue {
    /// `AbstractMesh(...)` or `mesh.abstract_mesh`.
    Abstract(AbstractMeshInfo),
    /// A concrete device mesh (`jax.make_mesh`, `Mesh(devices, ...)`).
    Concrete,
    Unknown,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbstractMeshInfo {
    /// `Some(p)` with an `abstract_device` of known platform, `Some("")` with a
    /// device of unknown platform (`concrete.abstract_mesh`), `None` without one.
    pub device_platform: Option<String>,
    /// JAX's repr, e.g. `AbstractMesh('dp': 4, 'tp': 4, axis_types=(Explicit, Explicit))`,
    /// when the sizes and names are literals.
    pub repr: Option<String>,
    /// True if some axis is `Explicit` (the default); eager ops then need devices.
    pub has_explicit_axis: bool,
    /// `jax.sharding.get_abstract_mesh()`: the abstract view of whatever mesh
    /// is in force where it runs (concrete under `jax.set_mesh`).
    pub current: bool,
}

impl AbstractMeshInfo {
    /// One mesh standing for two it may be: the first's axes, a device of
    /// unknown platform when their devices differ.
    pub fn join(mut self, other: &AbstractMeshInfo) -> AbstractMeshInfo {
        if self.device_platform != other.device_platform {
            self.device_platform = Some(String::new());
        }
        self
    }
}

/// What a sharding argument uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShardingUse {
    pub abstract_mesh: bool,
    pub concrete_mesh: bool,
    /// A bare `PartitionSpec`, which takes the context mesh.
    pub spec: bool,
    /// On `get_abstract_mesh()`: the context mesh's abstract view, abstract
    /// only when the mesh in force is.
    pub current_mesh: bool,
    pub unknown: bool,
    /// The abstract mesh it is over, as far as a mesh read back off it
    /// (`sharding.mesh`) needs: made over one (`known`), its Explicit axes,
    /// its abstract device.
    pub origin: AbstractOrigin,
}

/// See `ShardingUse::origin`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AbstractOrigin {
    pub known: bool,
    pub explicit: bool,
    pub device: OriginDevice,
}

/// An abstract mesh's device: none, of a platform not known, or of one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OriginDevice {
    #[default]
    None,
    Unknown,
    Cpu,
    Cuda,
    Rocm,
    Tpu,
}

impl AbstractOrigin {
    pub fn of(info: &AbstractMeshInfo) -> AbstractOrigin {
        let device = match info.device_platform.as_deref() {
            None => OriginDevice::None,
            Some("cpu") => OriginDevice::Cpu,
            Some("cuda") => OriginDevice::Cuda,
            Some("rocm") => OriginDevice::Rocm,
            Some("tpu") => OriginDevice::Tpu,
            Some(_) => OriginDevice::Unknown,
        };
        AbstractOrigin {
            known: !info.current,
            explicit: info.has_explicit_axis,
            device,
        }
    }

    /// The mesh's info again (its repr not kept); `None` when not known.
    pub fn info(&self) -> Option<AbstractMeshInfo> {
        if !self.known {
            return None;
        }
        let device_platform = match self.device {
            OriginDevice::None => None,
            OriginDevice::Unknown => Some(String::new()),
            OriginDevice::Cpu => Some("cpu".to_owned()),
            OriginDevice::Cuda => Some("cuda".to_owned()),
            OriginDevice::Rocm => Some("rocm".to_owned()),
            OriginDevice::Tpu => Some("tpu".to_owned()),
        };
        Some(AbstractMeshInfo {
            device_platform,
            repr: None,
            has_explicit_axis: self.explicit,
            current: false,
        })
    }
}

impl ShardingUse {
    pub fn unknown() -> ShardingUse {
        ShardingUse {
            unknown: true,
            ..ShardingUse::default()
        }
    }

    pub fn merge(&mut self, other: ShardingUse) {
        self.abstract_mesh |= other.abstract_mesh;
        self.concrete_mesh |= other.concrete_mesh;
        self.spec |= other.spec;
        self.current_mesh |= other.current_mesh;
        self.unknown |= other.unknown;
        // Two abstract meshes that differ: which one is not known.
        if other.origin.known {
            self.origin = if self.origin.known && self.origin != other.origin {
                AbstractOrigin::default()
            } else {
                other.origin
            };
        }
    }

    /// Only the kind flags (not `origin`) equal `other`'s.
    pub fn same_kind(&self, other: &ShardingUse) -> bool {
        ShardingUse {
            origin: AbstractOrigin::default(),
            ..*self
        } == ShardingUse {
            origin: AbstractOrigin::default(),
            ..*other
        }
    }
}

/// A `jax.jit(...)`-wrapped function, as far as it can be seen.
#[derive(Clone, Debug)]
pub struct Jitted<'t> {
    /// The wrapped function expression (a name, lambda, partial(...)) or, for
    /// a decorated def, the def node itself.
    pub target: Option<Node<'t>>,
    /// The scope `target` is evaluated in.
    pub scope: ScopeId,
    /// Keyword arguments of every jit wrapper (`in_shardings`, `backend`, ...).
    pub keywords: Vec<(String, Node<'t>, ScopeId)>,
    /// Where the jit was applied (the call or decorator), for related info.
    pub site: Node<'t>,
    /// A jit another module made (`target` is then `None`, and `keywords`
    /// empty): its function and what its shardings use.
    pub foreign: Option<std::sync::Arc<flow::ForeignJit>>,
}

impl<'t> Jitted<'t> {
    pub fn keyword(&self, name: &str) -> Option<(Node<'t>, ScopeId)> {
        self.keywords
            .iter()
            .rev()
            .find(|(n, _, _)| n == name)
            .map(|(_, node, scope)| (*node, *scope))
    }
}

impl<'t> Module<'t> {
    /// Follows a name to the value it is bound to, if there is exactly one.
    /// Parameters follow their default only when no call in this module
    /// passes that parameter.
    pub(crate) fn follow_value(
        &self,
        node: Node<'t>,
        scope: ScopeId,
    ) -> Option<(Node<'t>, ScopeId)> {
        match node.kind_name() {
            "identifier" => match self.binding_at(scope, text(node, self.src), node)? {
                Binding::Value { value, scope, .. } => Some((*value, *scope)),
                Binding::Param {
                    scope: fscope,
                    index,
                    default,
                } => {
                    let def_scope = self.scopes[*fscope].parent.unwrap_or(0);
                    match self.param_arguments(*fscope, *index, text(node, self.src)) {
                        // No call passes it: the default applies.
                        Some(args) if args.is_empty() => default.map(|d| (d, def_scope)),
                        // Exactly one call site passes it: follow that argument.
                        Some(args) if args.len() == 1 => Some(args[0]),
                        _ => None,
                    }
                }
                _ => None,
            },
            "attribute" => {
                let object = node.field("object")?;
                let attr = text(node.field("attribute")?, self.src);
                let class = self.class_of_receiver(object, scope)?;
                let bindings = self.attribute(class, attr)?;
                // Every assignment of the attribute must agree; take the one
                // value if there is one.
                match bindings {
                    [Binding::Value { value, scope, .. }] => Some((*value, *scope)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// For `self.x` / `cls.x` / `ClassName.x`: the class scope.
    pub fn class_of_receiver(&self, object: Node<'t>, scope: ScopeId) -> Option<ScopeId> {
        if object.kind_name() != "identifier" {
            return None;
        }
        let name = text(object, self.src);
        if let Some((class, self_name)) = self.enclosing_method_class(scope) {
            if name == self_name {
                return Some(class);
            }
        }
        match self.binding_at(scope, name, object)? {
            Binding::Def(id) if self.scopes[*id].kind == ScopeKind::Class => Some(*id),
            _ => None,
        }
    }

    /// The arguments that calls of the function `fscope` in this module pass
    /// for the parameter at `index` (by position or keyword), with the scope
    /// of each call. `None` when some call may pass it invisibly (`*args`,
    /// a use of the function as a value).
    fn param_arguments(
        &self,
        fscope: ScopeId,
        index: usize,
        name: &str,
    ) -> Option<Vec<(Node<'t>, ScopeId)>> {
        let mut out = Vec::new();
        for (_, scope, source) in self.param_call_sites(fscope, index, name)? {
            match source {
                super::flow::ParamSource::Arg(arg) => out.push((arg, scope)),
                super::flow::ParamSource::Default => {}
                super::flow::ParamSource::Unknown
                | super::flow::ParamSource::Wrapped(_)
                | super::flow::ParamSource::Splat
                | super::flow::ParamSource::Spread(..) => return None,
            }
        }
        Some(out)
    }

    /// For a call of a function defined in this module: the function's scope
    /// and the expressions it returns.
    pub(crate) fn local_returns(
        &self,
        call: Node<'t>,
        scope: ScopeId,
    ) -> Option<(ScopeId, &[Node<'t>])> {
        let func = call.field("function")?;
        let def = match func.kind_name() {
            "identifier" => match self.binding_at(scope, text(func, self.src), func)? {
                Binding::Def(def) => *def,
                _ => return None,
            },
            // `self.helper(...)`, `Exporter(...).lower(...)`
            "attribute" => {
                let object = func.field("object")?;
                let class = self.class_of_receiver(object, scope).or_else(|| {
                    match self.eval_alts(object, scope).as_slice() {
                        [one] => match one.val {
                            flow::Val::Instance(class, _) => Some(class),
                            _ => None,
                        },
                        _ => None,
                    }
                })?;
                self.method(class, text(func.field("attribute")?, self.src))?
            }
            _ => return None,
        };
        (self.scopes[def].kind == ScopeKind::Function)
            .then(|| (def, self.scopes[def].returned.as_slice()))
    }

    /// Evaluates lowering/export platforms.
    pub fn eval_platforms(&self, node: Node<'t>, scope: ScopeId) -> PlatformsValue {
        self.eval_platforms_depth(node, scope, 0)
    }

    fn eval_platforms_depth(&self, node: Node<'t>, scope: ScopeId, depth: u32) -> PlatformsValue {
        if depth > MAX_DEPTH {
            return PlatformsValue::Unknown;
        }
        let inner = unparenthesize(node);
        match inner.kind_name() {
            "string" => string_value(inner, self.src)
                .map(PlatformsValue::Str)
                .unwrap_or(PlatformsValue::Unknown),
            "none" => PlatformsValue::Default,
            "tuple" | "list" => {
                let mut items = Vec::new();
                let mut cursor = inner.walk();
                for item in inner.named_children(&mut cursor) {
                    if item.kind_name() == "comment" {
                        continue;
                    }
                    match self.eval_str(item, scope, depth + 1) {
                        Some(s) => items.push(s),
                        None => return PlatformsValue::Unknown,
                    }
                }
                // `()` stays an (empty) tuple: JAX then uses the host's platform,
                // but unlike `None` it does not raise E3 (checked under jax 0.12).
                if inner.kind_name() == "list" {
                    PlatformsValue::List(items)
                } else {
                    PlatformsValue::Tuple(items)
                }
            }
            "call" => {
                // tuple(x) / list(x) of a known sequence.
                let Some(func) = inner.field("function") else {
                    return PlatformsValue::Unknown;
                };
                let args = self.args_of(inner);
                let conv = text(func, self.src);
                if (conv == "tuple" || conv == "list")
                    && args.positional.len() == 1
                    && args.keywords.is_empty()
                {
                    let items =
                        match self.eval_platforms_depth(args.positional[0], scope, depth + 1) {
                            PlatformsValue::Tuple(v) | PlatformsValue::List(v) => v,
                            PlatformsValue::Str(s) | PlatformsValue::Split(s)
                                if conv == "tuple" =>
                            {
                                return PlatformsValue::Split(s)
                            }
                            PlatformsValue::Str(s) | PlatformsValue::Split(s) => {
                                s.chars().map(String::from).collect()
                            }
                            _ => return PlatformsValue::Unknown,
                        };
                    return if conv == "tuple" {
                        PlatformsValue::Tuple(items)
                    } else {
                        PlatformsValue::List(items)
                    };
                }
                PlatformsValue::Unknown
            }
            "identifier" | "attribute" => match self.follow_value(inner, scope) {
                Some((value, vscope)) => self.eval_platforms_depth(value, vscope, depth + 1),
                None => PlatformsValue::Unknown,
            },
            _ => PlatformsValue::Unknown,
        }
    }

    /// A constant string, followed through names.
    pub fn eval_str(&self, node: Node<'t>, scope: ScopeId, _depth: u32) -> Option<String> {
        let flow = self.flow();
        let alts = flow.with_defaults(flow.eval(node, scope));
        let mut found: Option<String> = None;
        for alt in alts {
            let flow::Val::Str(s) = alt.val else {
                return None;
            };
            if !alt.why.certain() || found.as_ref().is_some_and(|f| *f != s) {
                return None;
            }
            found = Some(s);
        }
        found
    }

    /// A constant boolean (`True`, `False`, `None` counts as false) that
    /// every alternative agrees on.
    pub fn eval_bool(&self, node: Node<'t>, scope: ScopeId) -> Option<bool> {
        let flow = self.flow();
        let mut found = None;
        for alt in flow.with_defaults(flow.eval(node, scope)) {
            let value = match alt.val {
                flow::Val::Bool(b) => b,
                flow::Val::None => false,
                _ => return None,
            };
            if found.is_some_and(|f| f != value) {
                return None;
            }
            found = Some(value);
        }
        found
    }

    /// Follows names (`x`, `self.x`, a parameter) to the expression they are
    /// bound to, unparenthesized, with the scope it is evaluated in. `None`
    /// when a name cannot be followed (unknown, ambiguous, too deep).
    pub(crate) fn follow_names(
        &self,
        node: Node<'t>,
        scope: ScopeId,
    ) -> Option<(Node<'t>, ScopeId)> {
        let mut current = (unparenthesize(node), scope);
        for _ in 0..MAX_DEPTH {
            if !matches!(current.0.kind_name(), "identifier" | "attribute") {
                return Some(current);
            }
            let (value, vscope) = self.follow_value(current.0, current.1)?;
            current = (unparenthesize(value), vscope);
        }
        None
    }

    /// Evaluates a mesh expression: a mesh every alternative agrees on
    /// (run-time choices count), else `Unknown`.
    pub fn eval_mesh(&self, node: Node<'t>, scope: ScopeId) -> MeshValue {
        let mut found: Option<MeshValue> = None;
        for alt in self.eval_alts(node, scope) {
            let flow::Val::Mesh(mesh) = alt.val else {
                return MeshValue::Unknown;
            };
            found = Some(match (found, mesh) {
                (None, mesh) => mesh,
                (Some(MeshValue::Abstract(a)), MeshValue::Abstract(b)) => {
                    MeshValue::Abstract(a.join(&b))
                }
                (Some(a), b) if a == b => a,
                _ => return MeshValue::Unknown,
            });
        }
        found.unwrap_or(MeshValue::Unknown)
    }

    /// Evaluates a mesh expression to each mesh it may be, with how sure
    /// each is and the choices it made (`Unknown` for what is not a mesh).
    pub fn eval_mesh_alts(
        &self,
        node: Node<'t>,
        scope: ScopeId,
    ) -> Vec<(MeshValue, flow::Why, Vec<flow::Choice>)> {
        self.eval_alts(node, scope)
            .into_iter()
            .map(|alt| match alt.val {
                flow::Val::Mesh(mesh) => (mesh, alt.why, alt.choices),
                _ => (MeshValue::Unknown, alt.why, alt.choices),
            })
            .collect()
    }

    /// The meshes an `AbstractMesh(...)` call makes: one per platform its
    /// `abstract_device` may have (`for device in FLEET: AbstractMesh(...,
    /// abstract_device=device)` is a mesh per device), each with how sure it
    /// is and the choices it made; one mesh when the device is certain.
    ///
    /// `flow` is the evaluation asking: its bindings hold (`abstract_device=
    /// self.device` in a method run on a known object).
    pub(crate) fn abstract_mesh_alts(
        &self,
        flow: &flow::Flow<'_, 't>,
        args: &Args<'t>,
        scope: ScopeId,
    ) -> Vec<(AbstractMeshInfo, flow::Why, Vec<flow::Choice>)> {
        // A `**` unpacking the module cannot read may pass the device.
        let device_alts = match args.keyword("abstract_device") {
            Some(device) => Some(flow.with_defaults(flow.eval(device, scope))),
            None if args.has_dict_splat => Some(vec![flow::Alt::unknown()]),
            None => None,
        };
        let joined = self.abstract_mesh_info(args, scope, device_alts.as_deref());
        let Some(alts) = device_alts else {
            return vec![(joined, flow::Why::Fixed, Vec::new())];
        };
        let platform_of = |val: &flow::Val<'t>| match val {
            flow::Val::None => None,
            flow::Val::AbstractDevice(Some(p)) => Some(p.clone()),
            _ => Some(String::new()),
        };
        let first = alts.first().map(|a| platform_of(&a.val));
        if alts.len() < 2 || alts.iter().all(|a| Some(platform_of(&a.val)) == first) {
            return vec![(joined, flow::Why::Fixed, Vec::new())];
        }
        alts.into_iter()
            .map(|alt| {
                let info = AbstractMeshInfo {
                    device_platform: platform_of(&alt.val),
                    ..joined.clone()
                };
                (info, alt.why, alt.choices)
            })
            .collect()
    }

    /// What an `AbstractMesh(...)` call's arguments say, its device joined
    /// over the values it may take (`device_alts`, those of its
    /// `abstract_device`; `Some("")` when they differ).
    fn abstract_mesh_info(
        &self,
        args: &Args<'t>,
        scope: ScopeId,
        device_alts: Option<&[flow::Alt<'t>]>,
    ) -> AbstractMeshInfo {
        // `Some(p)`: a device of platform p (`""` when not known); `None`: none.
        let device_platform = device_alts.map(|alts| {
            if !alts.is_empty() && alts.iter().all(|a| matches!(a.val, flow::Val::None)) {
                return None;
            }
            let mut platforms = alts.iter().map(|a| match &a.val {
                flow::Val::AbstractDevice(Some(p)) => p.clone(),
                _ => String::new(),
            });
            let first = platforms.next().unwrap_or_default();
            Some(if platforms.all(|p| p == first) {
                first
            } else {
                String::new()
            })
        });
        let device_platform = device_platform.flatten();
        let sizes = args
            .positional
            .first()
            .copied()
            .or_else(|| args.keyword("axis_sizes"));
        let names_node = args
            .positional
            .get(1)
            .copied()
            .or_else(|| args.keyword("axis_names"));
        let types = args
            .positional
            .get(2)
            .copied()
            .or_else(|| args.keyword("axis_types"));
        let axis_types: Option<Vec<String>> = types.map(|t| self.axis_type_names(t, scope));
        // A mesh without axes (`AbstractMesh((), ())`) has no Explicit axis.
        let no_axes =
            sizes.is_some_and(|n| self.literal_ints(n, scope).is_some_and(|v| v.is_empty()));
        let has_explicit_axis = !no_axes
            && match &axis_types {
                None => true,
                Some(v) => v.is_empty() || v.iter().any(|t| t == "Explicit" || t == "?"),
            };
        let repr = (|| {
            let sizes = self.literal_ints(sizes?, scope)?;
            let names_list = match self.eval_platforms(names_node?, scope) {
                PlatformsValue::Tuple(v) | PlatformsValue::List(v) => v,
                PlatformsValue::Str(s) => vec![s],
                _ => return None,
            };
            if sizes.len() != names_list.len() {
                return None;
            }
            let types: Vec<String> = match &axis_types {
                None => vec!["Explicit".to_owned(); sizes.len()],
                Some(v) if v.len() == sizes.len() && !v.iter().any(|t| t == "?") => v.clone(),
                Some(v) if v.len() == 1 && v[0] != "?" => vec![v[0].clone(); sizes.len()],
                _ => return None,
            };
            let axes: Vec<String> = names_list
                .iter()
                .zip(&sizes)
                .map(|(n, s)| format!("'{n}': {s}"))
                .collect();
            let types = if types.len() == 1 {
                format!("{},", types[0])
            } else {
                types.join(", ")
            };
            Some(format!(
                "AbstractMesh({}, axis_types=({types}))",
                axes.join(", ")
            ))
        })();
        AbstractMeshInfo {
            device_platform,
            repr,
            has_explicit_axis,
            current: false,
        }
    }

    /// `AxisType.Explicit` / `(AxisType.Auto, AxisType.Explicit)` -> names; "?" for unknown items.
    fn axis_type_names(&self, node: Node<'t>, scope: ScopeId) -> Vec<String> {
        let inner = unparenthesize(node);
        let one = |n: Node<'t>| -> String {
            let n = unparenthesize(n);
            match n.kind_name() {
                "attribute" => n
                    .field("attribute")
                    .map(|a| text(a, self.src).to_owned())
                    .filter(|a| matches!(a.as_str(), "Explicit" | "Auto" | "Manual"))
                    .unwrap_or_else(|| "?".to_owned()),
                _ => "?".to_owned(),
            }
        };
        match inner.kind_name() {
            "tuple" | "list" => {
                let mut cursor = inner.walk();
                inner
                    .named_children(&mut cursor)
                    .filter(|c| c.kind_name() != "comment")
                    .map(one)
                    .collect()
            }
            "identifier" => match self.follow_value(inner, scope) {
                Some((value, vscope)) if value.id() != inner.id() => {
                    self.axis_type_names(value, vscope)
                }
                _ => vec!["?".to_owned()],
            },
            // `(AxisType.Explicit,) * 2`, `(AxisType.Auto,) + rest`.
            "binary_operator" => {
                let (Some(left), Some(right)) = (inner.field("left"), inner.field("right")) else {
                    return vec!["?".to_owned()];
                };
                let op = inner.field("operator").map(|o| text(o, self.src));
                let count = |n: Node<'t>| match self.flow().eval(n, scope).as_slice() {
                    [one] if one.why.certain() => match one.val {
                        flow::Val::Int(c) if (0..=64).contains(&c) => Some(c),
                        _ => None,
                    },
                    _ => None,
                };
                match op {
                    Some("+") => {
                        let mut out = self.axis_type_names(left, scope);
                        out.extend(self.axis_type_names(right, scope));
                        out
                    }
                    Some("*") => match (count(right), count(left)) {
                        (Some(c), _) => repeated(self.axis_type_names(left, scope), c),
                        (None, Some(c)) => repeated(self.axis_type_names(right, scope), c),
                        _ => vec!["?".to_owned()],
                    },
                    _ => vec!["?".to_owned()],
                }
            }
            _ => vec![one(inner)],
        }
    }

    fn literal_ints(&self, node: Node<'t>, scope: ScopeId) -> Option<Vec<i64>> {
        let (inner, _) = self.follow_names(node, scope)?;
        match inner.kind_name() {
            "tuple" | "list" => {
                let mut cursor = inner.walk();
                inner
                    .named_children(&mut cursor)
                    .filter(|c| c.kind_name() != "comment")
                    .map(|c| text(c, self.src).parse().ok())
                    .collect()
            }
            "integer" => Some(vec![text(inner, self.src).parse().ok()?]),
            _ => None,
        }
    }

    /// What meshes a sharding expression (or tuple/list/dict of them) uses,
    /// over all its alternatives.
    pub fn eval_sharding(&self, node: Node<'t>, scope: ScopeId) -> ShardingUse {
        let flow = self.flow();
        let mut out = ShardingUse::default();
        for alt in flow.eval(node, scope) {
            out.merge(flow.sharding_use_of(&alt.val));
        }
        out
    }

    /// What a lowering receiver wraps: `jax.jit(f, ...)`, a name bound to one,
    /// a `@jax.jit`-decorated def, `functools.partial(jax.jit, ...)(f)`.
    pub fn eval_jitted(&self, node: Node<'t>, scope: ScopeId) -> Option<Jitted<'t>> {
        self.eval_jitted_depth(node, scope, 0)
    }

    fn eval_jitted_depth(&self, node: Node<'t>, scope: ScopeId, depth: u32) -> Option<Jitted<'t>> {
        if depth > MAX_DEPTH {
            return None;
        }
        if let Some(found) = self.eval_jitted_by_syntax(node, scope, depth) {
            return Some(found);
        }
        // What the syntax does not show (`state_cls.init`, a jitted function
        // kept in a field, returned by a property or a factory): the one
        // jit, or jitted def, the value flow gives.
        if !matches!(
            unparenthesize(node).kind_name(),
            "identifier" | "attribute" | "call"
        ) {
            return None;
        }
        let alts = self.flow_with_budget(200).eval(node, scope);
        self.jit_of_alts(node, scope, &alts, depth, &|why| {
            why.certain() || matches!(why, flow::Why::Host(_))
        })
    }

    /// What a lowering receiver wraps (`eval_jitted`), or else the one jit
    /// the default of run-time configuration picks (`REG[os.environ.get(K,
    /// "a")]().build()`), with the default's `Why`: what a plain run lowers.
    pub fn eval_jitted_or_default(
        &self,
        node: Node<'t>,
        scope: ScopeId,
    ) -> (Option<Jitted<'t>>, flow::Why) {
        if let Some(found) = self.eval_jitted(node, scope) {
            return (Some(found), flow::Why::Fixed);
        }
        if !matches!(
            unparenthesize(node).kind_name(),
            "identifier" | "attribute" | "call"
        ) {
            return (None, flow::Why::Fixed);
        }
        let alts = self.flow_with_budget(200).eval(node, scope);
        let Some(why) = alts
            .iter()
            .find(|a| matches!(a.why, flow::Why::Default(_)))
            .map(|a| a.why.clone())
        else {
            return (None, flow::Why::Fixed);
        };
        // Only when nothing else certainly runs: the other alternatives are
        // choices a plain run does not make.
        if alts.iter().any(|a| a.why.certain()) {
            return (None, flow::Why::Fixed);
        }
        let picked: Vec<flow::Alt<'t>> = alts
            .into_iter()
            .filter(|a| matches!(a.why, flow::Why::Default(_)))
            .collect();
        match self.jit_of_alts(node, scope, &picked, 0, &|w| {
            matches!(w, flow::Why::Default(_))
        }) {
            Some(found) => (Some(found), why),
            None => (None, flow::Why::Fixed),
        }
    }

    /// The one jit, or jitted def, that the alternatives `accepted` give
    /// (`None` when they give several, or anything else).
    fn jit_of_alts(
        &self,
        node: Node<'t>,
        scope: ScopeId,
        alts: &[flow::Alt<'t>],
        depth: u32,
        accepted: &dyn Fn(&flow::Why) -> bool,
    ) -> Option<Jitted<'t>> {
        // A jit another module made: lowered here as it was made there.
        if let [flow::Alt {
            val: flow::Val::ForeignJitted(foreign),
            why,
            ..
        }] = alts
        {
            if accepted(why) && !matches!(why, flow::Why::Host(_)) {
                return Some(Jitted {
                    target: None,
                    scope,
                    keywords: Vec::new(),
                    site: unparenthesize(node),
                    foreign: Some(foreign.clone()),
                });
            }
        }
        // One jit call whatever the host picks for it to jit
        // (`jax.jit(IMPLS[jax.default_backend()])` kept in a field): that
        // jit, whose function the lowering's seeds read per host.
        let mut jits = alts.iter().map(|a| match a.val {
            flow::Val::Jitted(def, call, call_scope) if accepted(&a.why) => {
                Some(((true, call.id()), Some((call, call_scope, def))))
            }
            flow::Val::Function(def)
                if accepted(&a.why) && !matches!(a.why, flow::Why::Host(_)) =>
            {
                Some(((false, def), None))
            }
            _ => None,
        });
        let first = jits.next()??;
        if !jits.all(|j| j.as_ref().is_some_and(|j| j.0 == first.0)) {
            return None;
        }
        match first {
            (_, Some((call, call_scope, def))) => {
                let mut jitted = self.eval_jitted_by_syntax(call, call_scope, depth + 1)?;
                // `jax.jit(fun)` in a decorator's wrapper names the def by a
                // parameter, which means nothing where the def is lowered:
                // the def itself is the jitted function.
                let by_parameter = jitted.target.is_some_and(|t| {
                    let t = unparenthesize(t);
                    t.kind_name() == "identifier"
                        && matches!(
                            self.binding_at(call_scope, text(t, self.src), t),
                            Some(Binding::Param { .. })
                        )
                });
                if by_parameter && self.scopes[def].kind == super::ScopeKind::Function {
                    jitted.target = Some(self.scopes[def].node);
                    jitted.scope = self.scopes[def].parent.unwrap_or(0);
                }
                Some(jitted)
            }
            ((_, def), None) => self.jitted_def(def),
        }
    }

    fn eval_jitted_by_syntax(
        &self,
        node: Node<'t>,
        scope: ScopeId,
        depth: u32,
    ) -> Option<Jitted<'t>> {
        let inner = unparenthesize(node);
        match inner.kind_name() {
            "call" => {
                let func = inner.field("function")?;
                let args = self.args_of(inner);
                let mut keywords: Vec<(String, Node<'t>, ScopeId)> = args
                    .keywords
                    .iter()
                    .map(|(n, v, _)| (n.clone(), *v, scope))
                    .collect();
                if self.canonical(func, scope).as_deref() == Some(names::JIT) {
                    return Some(Jitted {
                        target: args.positional.first().copied(),
                        scope,
                        keywords,
                        site: inner,
                        foreign: None,
                    });
                }
                // A factory: `make_step(8)` where `make_step` returns `jax.jit(step)`.
                if let Some((def, returned)) = self.local_returns(inner, scope) {
                    return returned
                        .iter()
                        .find_map(|value| self.eval_jitted_depth(*value, def, depth + 1));
                }
                // functools.partial(jax.jit, **kw)(f), also through a name
                // (`jit_fn = partial(jax.jit, ...)`, then `jit_fn(f)`).
                let (func_inner, func_scope) = match unparenthesize(func).kind_name() {
                    "identifier" | "attribute" => self
                        .follow_names(func, scope)
                        .unwrap_or((unparenthesize(func), scope)),
                    _ => (unparenthesize(func), scope),
                };
                if func_inner.kind_name() == "call" {
                    if let Some(partial_kw) = self.partial_of_jit(func_inner, func_scope) {
                        let mut all = partial_kw;
                        all.append(&mut keywords);
                        return Some(Jitted {
                            target: args.positional.first().copied(),
                            scope,
                            keywords: all,
                            site: inner,
                            foreign: None,
                        });
                    }
                }
                None
            }
            "identifier" => {
                let binding = self.binding_at(scope, text(inner, self.src), inner)?;
                match binding {
                    Binding::Def(def) => self.jitted_def(*def),
                    Binding::Value { value, scope, .. } => {
                        self.eval_jitted_depth(*value, *scope, depth + 1)
                    }
                    // A jitted function handed to a helper by its one caller.
                    Binding::Param { .. } => {
                        let (value, vscope) = self.follow_value(inner, scope)?;
                        self.eval_jitted_depth(value, vscope, depth + 1)
                    }
                    _ => None,
                }
            }
            "attribute" => {
                let object = inner.field("object")?;
                let attr = text(inner.field("attribute")?, self.src);
                let class = self.class_of_receiver(object, scope)?;
                if let Some(method) = self.method(class, attr) {
                    return self.jitted_def(method);
                }
                let (value, vscope) = self.follow_value(inner, scope)?;
                self.eval_jitted_depth(value, vscope, depth + 1)
            }
            _ => None,
        }
    }

    /// `functools.partial(jax.jit, **kw)` -> the keywords.
    fn partial_of_jit(
        &self,
        call: Node<'t>,
        scope: ScopeId,
    ) -> Option<Vec<(String, Node<'t>, ScopeId)>> {
        if self.callee(call, scope).as_deref() != Some(names::PARTIAL) {
            return None;
        }
        let args = self.args_of(call);
        let first = args.positional.first()?;
        (self.canonical(*first, scope).as_deref() == Some(names::JIT)).then(|| {
            args.keywords
                .iter()
                .map(|(n, v, _)| (n.clone(), *v, scope))
                .collect()
        })
    }

    /// The keywords of `jax.jit(...)` or `functools.partial(jax.jit, ...)`.
    fn jit_keywords_of_call(
        &self,
        call: Node<'t>,
        scope: ScopeId,
    ) -> Option<Vec<(String, Node<'t>, ScopeId)>> {
        self.partial_of_jit(call, scope).or_else(|| {
            (self.callee(call, scope).as_deref() == Some(names::JIT)).then(|| {
                self.args_of(call)
                    .keywords
                    .iter()
                    .map(|(n, v, _)| (n.clone(), *v, scope))
                    .collect()
            })
        })
    }

    /// A decorator named by a local variable bound once to a jit wrapper
    /// (`jit_cells = functools.partial(jax.jit, out_shardings=s)` in the
    /// function, then `@jit_cells`), also picked by a condition the code
    /// decides (`partial(jax.jit, ...) if sharding else jax.jit`): the
    /// wrapper's keywords.
    fn jit_alias_keywords(
        &self,
        name: Node<'t>,
        scope: ScopeId,
    ) -> Option<Vec<(String, Node<'t>, ScopeId)>> {
        let bindings = self.bindings_in(scope, text(name, self.src))?;
        let [Binding::Value { value, .. }] = bindings else {
            return None;
        };
        let value = unparenthesize(*value);
        if value.end_byte() > name.start_byte() {
            return None;
        }
        let jit_of = |arm: Node<'t>| -> Option<Vec<(String, Node<'t>, ScopeId)>> {
            let arm = unparenthesize(arm);
            if self.canonical(arm, scope).as_deref() == Some(names::JIT) {
                return Some(Vec::new());
            }
            (arm.kind_name() == "call")
                .then(|| self.jit_keywords_of_call(arm, scope))
                .flatten()
        };
        if value.kind_name() != "conditional_expression" {
            return jit_of(value);
        }
        let (when_true, condition, when_false) = (
            value.named_child(0)?,
            value.named_child(1)?,
            value.named_child(2)?,
        );
        use super::reach::{truth_of, Truth};
        match truth_of(self.flow_with_budget(200).eval(condition, scope)) {
            Truth::Known(true) => jit_of(when_true),
            Truth::Known(false) => jit_of(when_false),
            _ => None,
        }
    }

    /// A def decorated with `@jax.jit` or `@partial(jax.jit, ...)`.
    pub fn jitted_def(&self, def: ScopeId) -> Option<Jitted<'t>> {
        let scope = &self.scopes[def];
        let outer = scope.parent.unwrap_or(0);
        for decorator in scope.decorators() {
            let keywords = if self.canonical(decorator, outer).as_deref() == Some(names::JIT) {
                Some(Vec::new())
            } else if decorator.kind_name() == "call" {
                self.jit_keywords_of_call(decorator, outer)
            } else if decorator.kind_name() == "identifier" {
                self.jit_alias_keywords(decorator, outer)
            } else {
                None
            };
            if let Some(keywords) = keywords {
                return Some(Jitted {
                    target: Some(scope.node),
                    scope: outer,
                    keywords,
                    site: decorator,
                    foreign: None,
                });
            }
        }
        None
    }
}

/// `items * count` as Python repeats a sequence.
fn repeated(items: Vec<String>, count: i64) -> Vec<String> {
    let times = usize::try_from(count).unwrap_or(0);
    let mut out = Vec::with_capacity(items.len() * times);
    for _ in 0..times {
        out.extend(items.iter().cloned());
    }
    out
}

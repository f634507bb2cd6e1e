//! The platforms code runs on, as the code itself says: test decorators
//! (`@jtu.run_on_devices("tpu")`, `@jtu.skip_on_devices(...)`,
//! `@pytest.mark.skipif(jax.default_backend() != "tpu", ...)`), branches on
//! `jax.default_backend()` / `jtu.test_device_matches([...])`, and early exits
//! (`if not jtu.test_device_matches(["tpu"]): self.skipTest(...)`). Rules use
//! it where JAX takes the platform from the host, like `target-platforms`.

use super::{Module, ScopeId};
use crate::syntax::Field;
use crate::syntax::KindName;
use crate::syntax::{string_value, text, unparenthesize};
use tree_sitter::Node;

/// The hosts a test or guard can name (`gpu` stands for cuda and rocm).
pub(crate) const HOSTS: &[&str] = &["cpu", "cuda", "rocm", "tpu"];

/// The hosts that platform names stand for (`gpu`: cuda and rocm).
pub(crate) fn expand(names: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for name in names {
        let add: &[&str] = match name.as_str() {
            "gpu" => &["cuda", "rocm"],
            "cpu" => &["cpu"],
            "cuda" => &["cuda"],
            "rocm" => &["rocm"],
            "tpu" => &["tpu"],
            _ => &[],
        };
        for a in add {
            if !out.iter().any(|o| o == a) {
                out.push((*a).to_owned());
            }
        }
    }
    out
}

/// The hosts on which `jax.default_backend()` (or a test's
/// `device_under_test()`) equals one of `names`: it is the backend's
/// platform, `"gpu"` on CUDA and ROCm hosts (seen on an H200, jax 0.11.2;
/// `xla_bridge.default_backend` is `get_backend(None).platform`), so
/// `"cuda"` and `"rocm"` equal it on no host.
pub(crate) fn backend_hosts(names: &[String]) -> Vec<String> {
    let named: Vec<String> = names
        .iter()
        .filter(|n| matches!(n.as_str(), "gpu" | "cpu" | "tpu"))
        .cloned()
        .collect();
    expand(&named)
}

fn complement(names: &[String]) -> Vec<String> {
    HOSTS
        .iter()
        .filter(|h| !names.iter().any(|n| n == *h))
        .map(|h| (*h).to_owned())
        .collect()
}

fn intersect(a: Option<Vec<String>>, b: Vec<String>) -> Option<Vec<String>> {
    Some(match a {
        None => b,
        Some(a) => a.into_iter().filter(|x| b.contains(x)).collect(),
    })
}

impl<'t> Module<'t> {
    /// The host platforms `node` (in `scope`) can run on, when the code
    /// restricts them; `None` when it does not say.
    pub fn host_platforms(&self, node: Node<'t>, scope: ScopeId) -> Option<Vec<String>> {
        let mut known: Option<Vec<String>> = None;
        // Decorators of the enclosing defs and classes.
        let mut current = Some(scope);
        while let Some(id) = current {
            // A test class whose `setUp` / `setUpClass` (its own or a base
            // class's) skips off some platforms restricts all its tests.
            if self.scopes[id].kind == super::ScopeKind::Class {
                for hook in ["setUp", "setUpClass"] {
                    if let Some(platforms) = self
                        .method(id, hook)
                        .and_then(|m| self.scope_exit_platforms(m))
                    {
                        known = intersect(known, platforms);
                    }
                }
            }
            for decorator in self.scopes[id].decorators() {
                if let Some(platforms) =
                    self.decorator_platforms(decorator, self.scopes[id].parent.unwrap_or(0))
                {
                    known = intersect(known, platforms);
                }
            }
            current = self.scopes[id].parent;
        }
        // Enclosing branches and early exits, up to the scope.
        let mut child = node;
        for parent in crate::syntax::ancestors_below(node, self.scopes[scope].node) {
            if matches!(
                parent.kind_name(),
                "if_statement" | "elif_clause" | "else_clause" | "block"
            ) {
                if let Some(platforms) = self.branch_platforms(parent, child) {
                    known = intersect(known, platforms);
                }
            }
            if parent.kind_name() == "block" {
                // `if <not on tpu>: skip/return` earlier in the same block.
                let mut cursor = parent.walk();
                for stmt in parent.named_children(&mut cursor) {
                    if stmt.start_byte() >= child.start_byte() {
                        break;
                    }
                    if let Some(platforms) = self.early_exit_platforms(stmt) {
                        known = intersect(known, platforms);
                    }
                }
            }
            child = parent;
        }
        known
    }

    /// The early exits at the top level of a function body (a `setUp` that
    /// skips unless a platform).
    fn scope_exit_platforms(&self, def: ScopeId) -> Option<Vec<String>> {
        let body = self.scopes[def].node.field("body")?;
        let mut known = None;
        let mut cursor = body.walk();
        for stmt in body.named_children(&mut cursor) {
            if let Some(platforms) = self.early_exit_platforms(stmt) {
                known = intersect(known, platforms);
            }
        }
        known
    }

    /// `@jtu.run_on_devices("tpu")`, `@jtu.skip_on_devices("gpu")`,
    /// `@pytest.mark.skipif(<host test>, ...)`, `@unittest.skipIf(...)`.
    fn decorator_platforms(&self, decorator: Node<'t>, scope: ScopeId) -> Option<Vec<String>> {
        if decorator.kind_name() != "call" {
            return None;
        }
        let func = decorator.field("function")?;
        let name = text(func, self.src);
        let args = self.args_of(decorator);
        let strings: Vec<String> = args
            .positional
            .iter()
            .filter_map(|a| self.eval_str(*a, scope, 0))
            .collect();
        if name.ends_with("run_on_devices") {
            return Some(expand(&strings));
        }
        if name.ends_with("skip_on_devices") {
            return Some(complement(&expand(&strings)));
        }
        if name.ends_with("skipif") || name.ends_with("skipIf") {
            // Skipped when the condition holds: runs where it does not.
            let (platforms, holds) = self.host_test(*args.positional.first()?)?;
            return Some(if holds {
                complement(&platforms)
            } else {
                platforms
            });
        }
        if name.ends_with("skipUnless") {
            let (platforms, holds) = self.host_test(*args.positional.first()?)?;
            return Some(if holds {
                platforms
            } else {
                complement(&platforms)
            });
        }
        None
    }

    /// A condition that tests the host: the platforms it names and whether it
    /// holds on them (`default_backend() == "tpu"` -> (["tpu"], true);
    /// `!=` -> (["tpu"], false); `not test_device_matches(["gpu"])` -> (cuda/rocm, false)).
    fn host_test(&self, condition: Node<'t>) -> Option<(Vec<String>, bool)> {
        let condition = unparenthesize(condition);
        match condition.kind_name() {
            "not_operator" => {
                let (p, holds) = self.host_test(condition.field("argument")?)?;
                Some((p, !holds))
            }
            "comparison_operator" => {
                let left = condition.named_child(0)?;
                let right = condition.named_child(1)?;
                let op = *crate::syntax::comparison_operators(condition).first()?;
                let probes = |side: Node<'t>| {
                    let t = text(side, self.src);
                    t.contains("default_backend")
                        || t.contains("device_under_test")
                        || self.is_host_probe_name(side)
                        || self.holds_host_backend(side)
                };
                let (call, value) = if probes(left) {
                    (left, right)
                } else if probes(right) {
                    (right, left)
                } else {
                    return None;
                };
                let _ = call;
                let names: Vec<String> = match unparenthesize(value).kind_name() {
                    "string" => vec![string_value(unparenthesize(value), self.src)?],
                    "tuple" | "list" | "set" => {
                        let mut cursor = value.walk();
                        unparenthesize(value)
                            .named_children(&mut cursor)
                            .filter_map(|c| string_value(c, self.src))
                            .collect()
                    }
                    _ => return None,
                };
                let platforms = backend_hosts(&names);
                match op {
                    "==" | "in" => Some((platforms, true)),
                    "!=" | "not" => Some((platforms, false)),
                    _ => None,
                }
            }
            "call" => {
                let func = text(condition.field("function")?, self.src);
                // `jtu.is_device_tpu()`, `jtu.is_device_tpu_at_least(5)`,
                // `jtu.is_device_cuda()`, `jtu.is_cuda_compute_capability_at_least("9.0")`.
                let last = func.rsplit('.').next().unwrap_or(func);
                let named = if last.starts_with("is_device_tpu") {
                    Some("tpu")
                } else if last.starts_with("is_device_cuda") || last.starts_with("is_cuda_") {
                    Some("cuda")
                } else if last.starts_with("is_device_rocm") {
                    Some("rocm")
                } else if last.starts_with("is_device_gpu") {
                    Some("gpu")
                } else {
                    None
                };
                if let Some(named) = named {
                    return Some((expand(&[named.to_owned()]), true));
                }
                if !func.ends_with("test_device_matches") {
                    return None;
                }
                let args = self.args_of(condition);
                let list = unparenthesize(*args.positional.first()?);
                let mut cursor = list.walk();
                let names: Vec<String> = list
                    .named_children(&mut cursor)
                    .filter_map(|c| string_value(c, self.src))
                    .collect();
                Some((expand(&names), true))
            }
            _ => None,
        }
    }

    /// An expression whose every value is the host's backend, as value flow
    /// finds it (`device.platform` with `device = jax.devices()[0]`, a
    /// helper returning `jax.default_backend()`).
    fn holds_host_backend(&self, side: Node<'t>) -> bool {
        if !self.may_have_guards() {
            return false;
        }
        let scope = self.scope_at(side);
        let alts = self.flow_with_budget(200).eval(side, scope);
        !alts.is_empty()
            && alts.iter().all(|a| {
                matches!(a.val, super::flow::Val::Str(_))
                    && matches!(a.why, super::flow::Why::Host(_))
            })
    }

    /// A name bound, where it is read, to what only the host answers
    /// (`backend = jax.default_backend()`, `platform =
    /// jax.devices()[0].platform`): a test of it tests the host.
    pub(crate) fn is_host_probe_name(&self, node: Node<'t>) -> bool {
        let node = unparenthesize(node);
        if node.kind_name() != "identifier" {
            return false;
        }
        let scope = self.scope_at(node);
        let Some(super::Binding::Value { value, .. }) =
            self.binding_at(scope, text(node, self.src), node)
        else {
            return false;
        };
        let value = text(*value, self.src);
        value.contains("default_backend()")
            || (value.contains("devices(") && value.ends_with(".platform"))
    }

    /// Inside `if <host test>:` (or its else) -> the platforms of that branch.
    pub(crate) fn branch_platforms(
        &self,
        parent: Node<'t>,
        child: Node<'t>,
    ) -> Option<Vec<String>> {
        match parent.kind_name() {
            "if_statement" | "elif_clause" => {
                let condition = parent.field("condition")?;
                if condition.id() == child.id() {
                    return None;
                }
                let consequence = parent.field("consequence")?;
                let (platforms, holds) = self.host_test(condition)?;
                // The consequence runs where the test holds, an `else` where it does not.
                let runs_where_true = if consequence.id() == child.id() {
                    true
                } else if child.kind_name() == "else_clause" {
                    false
                } else {
                    return None;
                };
                Some(if runs_where_true == holds {
                    platforms
                } else {
                    complement(&platforms)
                })
            }
            _ => None,
        }
    }

    /// `if <host test>: return / raise / self.skipTest(...) / pytest.skip(...)`
    /// -> the code after it runs where the test does not hold.
    fn early_exit_platforms(&self, stmt: Node<'t>) -> Option<Vec<String>> {
        if stmt.kind_name() != "if_statement" || stmt.field("alternative").is_some() {
            return None;
        }
        let consequence = stmt.field("consequence")?;
        let exits = {
            let mut cursor = consequence.walk();
            let last = consequence.named_children(&mut cursor).last()?;
            let t = text(last, self.src);
            matches!(last.kind_name(), "return_statement" | "raise_statement")
                || t.contains("skipTest(")
                || t.contains("skip(")
        };
        if !exits {
            return None;
        }
        let (platforms, holds) = self.host_test(stmt.field("condition")?)?;
        Some(if holds {
            complement(&platforms)
        } else {
            platforms
        })
    }
}

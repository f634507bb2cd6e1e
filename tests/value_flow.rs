//! What the value flow gives module-level names, read from
//! `jax-lsp debug-lowerings` (`analysis::debug_lowerings`): small programs
//! whose values Python itself decides.

use std::path::Path;

fn name_values(text: &str, name: &str) -> String {
    let dump = debug_lowerings(text);
    let prefix = format!("name {name} = ");
    dump.lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .map(str::to_owned)
        .unwrap_or_else(|| panic!("no `{name}` in:\n{dump}"))
}

/// `debug_lowerings` on a thread with the stack every analysis runs on
/// (`ANALYSIS_STACK_BYTES`): a test thread's 2 MiB is less than the
/// product gives (an unoptimised build's frames are large).
fn debug_lowerings(text: &str) -> String {
    let text = text.to_owned();
    std::thread::Builder::new()
        .stack_size(jax_lsp::ANALYSIS_STACK_BYTES)
        .spawn(move || {
            jax_lsp::analysis::debug_lowerings(&text, Path::new("/nonexistent/flow_case.py"))
        })
        .expect("spawn")
        .join()
        .expect("analysis thread")
}

/// `x or "host"` is `x` when `x` is truthy, else `"host"`: never `True`
/// (only a boolean right side makes the result a known boolean).
#[test]
fn or_with_a_truthy_default_is_either_side_not_true() {
    let text = "class Site:\n    pass\n\n\ndef backend(site):\n    return site.backend or \"host\"\n\n\nprobe = backend(Site())\nflag = Site().debug or True\n";
    let probe = name_values(text, "probe");
    assert!(!probe.contains("Bool(true)"), "{probe}");
    assert!(probe.contains("Str(\"host\")"), "{probe}");
    let flag = name_values(text, "flag");
    assert!(flag.contains("Bool(true)"), "{flag}");
}

/// `field(default_factory=f)` is what `f()` returns (a def, as a lambda).
#[test]
fn a_default_factory_def_gives_what_it_returns() {
    let text = "import dataclasses\n\n\ndef default_tools():\n    return (\"calculator\",)\n\n\n@dataclasses.dataclass\nclass Sampler:\n    tools: tuple = dataclasses.field(default_factory=default_tools)\n\n\nprobe = Sampler().tools\n";
    let probe = name_values(text, "probe");
    assert!(probe.contains("Str(\"calculator\")"), "{probe}");
    assert!(probe.contains("why: Fixed"), "{probe}");
}

/// An array made by `jnp`/`jax.random` is uncommitted; `device_put` to a
/// device commits it.
#[test]
fn arrays_are_committed_only_when_placed() {
    let text = "import jax\nimport jax.numpy as jnp\n\nloose = jnp.ones(3)\nkey = jax.random.key(0)\nplaced = jax.device_put(jnp.ones(3), jax.devices()[0])\nmoved = jax.device_put(jnp.ones(3))\n";
    for (name, committed) in [
        ("loose", false),
        ("key", false),
        ("placed", true),
        ("moved", false),
    ] {
        let value = name_values(text, name);
        assert!(
            value.contains(&format!("Array {{ committed: {committed} }}")),
            "{name}: {value}"
        );
    }
}

/// A dict entry read where it is read: the last store before the read (not
/// one after it, nor an earlier one it replaced), and a store whose value
/// reads the entry sees the value before it.
#[test]
fn a_dict_entry_is_the_last_store_before_the_read() {
    let text = "opts = {}\nopts[\"p\"] = \"tpu\"\nopts[\"p\"] = (\"tpu\",)\nreplaced = opts[\"p\"]\nopts[\"p\"] = \"later\"\nlate = {\"q\": \"a,b\"}\nlate[\"q\"] = late[\"q\"].split(\",\")\nsplit = late[\"q\"]\n";
    let replaced = name_values(text, "replaced");
    assert!(
        replaced.contains("Seq(Tuple, [Str(\"tpu\")])"),
        "{replaced}"
    );
    assert!(!replaced.contains("later"), "{replaced}");
    assert!(!replaced.contains("val: Str(\"tpu\")"), "{replaced}");
    let split = name_values(text, "split");
    assert!(
        split.contains("Seq(List, [Str(\"a\"), Str(\"b\")])"),
        "{split}"
    );
}

/// `obj.p = obj.p.split(",")` reads what `obj.p` held before the store.
#[test]
fn an_attribute_store_reading_itself_sees_the_value_before_it() {
    let text = "class Cfg:\n    pass\n\n\ncfg = Cfg()\ncfg.p = \"a,b\"\ncfg.p = cfg.p.split(\",\")\nsplit = cfg.p\n";
    let split = name_values(text, "split");
    assert!(
        split.contains("Seq(List, [Str(\"a\"), Str(\"b\")])"),
        "{split}"
    );
}

/// `g(*args)` forwarding a caller's positional arguments binds `g`'s
/// parameters to them; one past them takes its default.
#[test]
fn forwarded_positional_arguments_bind_the_callee() {
    let text = "def pick(x, p, q=\"default\"):\n    return (p, q)\n\n\ndef forward(*args):\n    return pick(*args)\n\n\nprobe = forward(1, \"tpu\")\n";
    let probe = name_values(text, "probe");
    assert!(
        probe.contains("Seq(Tuple, [Str(\"tpu\"), Str(\"default\")])"),
        "{probe}"
    );
}

/// An attribute of an object read where the object was made is what it
/// holds at the read: a store after the read is not its value.
#[test]
fn an_attribute_read_before_a_store_sees_the_value_before_it() {
    let text = "class Cfg:\n    p = (\"tpu\",)\n\n\ncfg = Cfg()\nearly = cfg.p\ncfg.p = \"tpu\"\nlate = cfg.p\n";
    let early = name_values(text, "early");
    assert!(early.contains("Seq(Tuple, [Str(\"tpu\")])"), "{early}");
    assert!(!early.contains("val: Str(\"tpu\")"), "{early}");
    let late = name_values(text, "late");
    assert!(late.contains("val: Str(\"tpu\")"), "{late}");
}

/// A name for a dict inside another (`node = cfg["aot"]`): its stores are
/// stores of the nested dict; a change it makes some other way leaves the
/// entry unknown, never the value it replaced.
#[test]
fn stores_through_a_name_for_a_nested_dict_are_its_stores() {
    let text = "cfg = {\"aot\": {\"p\": \"cpu\"}, \"b\": {\"p\": \"x\"}}\nnode = cfg[\"aot\"]\nnode[\"p\"] = (\"cpu\",)\nother = cfg[\"b\"]\nother[\"p\"] = \"tpu\"\nstored = cfg[\"aot\"][\"p\"]\nup = {\"aot\": {\"p\": \"cpu\"}}\nn2 = up[\"aot\"]\nn2.update(p=(\"cpu\",))\nupdated = up[\"aot\"][\"p\"]\n";
    let stored = name_values(text, "stored");
    assert!(stored.contains("Seq(Tuple, [Str(\"cpu\")])"), "{stored}");
    assert!(!stored.contains("val: Str("), "{stored}");
    let updated = name_values(text, "updated");
    assert!(!updated.contains("val: Str(\"cpu\")"), "{updated}");
}

/// The guards of the requirement `debug-lowerings` lists first.
fn first_requirement_guards(text: &str) -> String {
    let dump = jax_lsp::analysis::debug_lowerings(text, Path::new("/nonexistent/flow_case.py"));
    dump.lines()
        .find(|line| line.trim_start().starts_with("req "))
        .and_then(|line| line.split("guards=").nth(1))
        .map(str::to_owned)
        .unwrap_or_else(|| panic!("no requirement in:\n{dump}"))
}

/// A logging-level test is a run-time choice (the application sets the
/// level), unless it is this module's own method whose answer the flow
/// knows: `self.vlog_is_on(1)` reading the level the object was made with.
#[test]
fn a_logging_test_the_flow_answers_decides_its_branch() {
    let own = "import jax\nimport jax.numpy as jnp\n\nclass Trainer:\n    def __init__(self, level):\n        self._level = level\n\n    def vlog_is_on(self, level):\n        return self._level is not None and level <= self._level\n\n    def step(self, x):\n        if self.vlog_is_on(1):\n            jax.debug.print(\"x={x}\", x=x)\n        return x\n\nt = Trainer(2)\njax.jit(t.step).trace(jax.ShapeDtypeStruct((8,), jnp.float32)).lower(lowering_platforms=(\"tpu\",))\n";
    assert_eq!(first_requirement_guards(own), "[]");
    let library = own
        .replace("self.vlog_is_on(1)", "logging.vlog_is_on(1)")
        .replace("import jax\n", "import jax\nfrom absl import logging\n");
    assert_eq!(first_requirement_guards(&library), "[CallerChoice]");
    let unknown_level = own.replace("Trainer(2)", "Trainer(int(input()))");
    assert_eq!(first_requirement_guards(&unknown_level), "[CallerChoice]");
}

/// A table entry read with the key of a function's one call site reaches
/// what the entry is: the closure its factory made (`TABLE[name]` with
/// `TABLE = {"j0": _host(np.sin)}`). With two call sites of different
/// keys, the lowered path's entry is not known, and nothing is claimed.
#[test]
fn a_table_entry_read_by_a_parameter_reaches_the_closure_it_holds() {
    let one_site = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef _host(np_fn):\n    def fn_(x):\n        return jax.pure_callback(np_fn, jax.ShapeDtypeStruct(x.shape, x.dtype), x)\n    return fn_\n\ndef plain(x):\n    return x\n\nTABLE = {\"j0\": _host(np.sin), \"plain\": plain}\n\ndef lookup(name):\n    return TABLE[name]\n\njax.jit(lambda k: lookup(\"j0\")(k)).trace(jax.ShapeDtypeStruct((8,), jnp.float32)).lower(lowering_platforms=(\"tpu\",))\n";
    let dump = jax_lsp::analysis::debug_lowerings(one_site, Path::new("/nonexistent/flow_case.py"));
    assert!(dump.contains("HostCallback"), "{dump}");
    let two_sites =
        one_site.replace("lookup(\"j0\")(k)", "lookup(\"plain\")(k)") + "made = lookup(\"j0\")\n";
    let dump =
        jax_lsp::analysis::debug_lowerings(&two_sites, Path::new("/nonexistent/flow_case.py"));
    assert!(!dump.contains("HostCallback"), "{dump}");
}

/// A static method has no receiver: its first parameter is the call's
/// first argument (`@Registry.register("mm")` stores under "mm").
#[test]
fn a_static_method_binds_its_first_parameter_to_the_first_argument() {
    let text = "class Registry:\n    _REG = {}\n\n    @staticmethod\n    def register(name):\n        def deco(fn):\n            Registry._REG[name] = fn\n            return fn\n\n        return deco\n\n\n@Registry.register(\"mm\")\ndef mm(x):\n    return x\n\n\nprobe = Registry._REG[\"mm\"]\n";
    let probe = name_values(text, "probe");
    assert!(probe.contains("Ref(\"mm\")"), "{probe}");
}

/// A closure a factory made twice reads what the call that made it was
/// given: kept in an object's field (the object made directly or by a
/// factory) and called there, it runs the layers of the one call that made
/// the value, not every call's.
#[test]
fn a_closure_in_a_field_runs_on_the_call_that_made_it() {
    let text = "import jax\nimport jax.numpy as jnp\n\n\nclass Apply:\n    def __init__(self, fn):\n        self.fn = fn\n\n    def __call__(self, *args, **kwargs):\n        return self.fn(*args, **kwargs)\n\n\ndef make_apply(fn):\n    return Apply(fn)\n\n\ndef dense(x):\n    return jnp.tanh(x @ jnp.ones((x.shape[-1], x.shape[-1]), x.dtype))\n\n\ndef log_activations(x):\n    jax.debug.print(\"activations mean {m}\", m=x.mean())\n    return x\n\n\ndef sequential(layers):\n    def apply(x):\n        for layer in layers:\n            x = layer(x)\n        return x\n\n    return apply\n\n\nif __name__ == \"__main__\":\n    spec = jax.ShapeDtypeStruct((8, 16), jnp.float32)\n    deploy = sequential((dense, dense))\n    debug = sequential((dense, log_activations))\n    lowered = jax.jit(LOWERED).trace(spec).lower(lowering_platforms=(\"tpu\",))\n    local = jax.jit(debug).trace(spec).lower(lowering_platforms=(\"cpu\",))\n";
    for (lowered, logs) in [
        ("make_apply(deploy)", false),
        ("make_apply(debug)", true),
        ("Apply(deploy)", false),
        ("Apply(debug)", true),
    ] {
        let dump = jax_lsp::analysis::debug_lowerings(
            &text.replace("LOWERED", lowered),
            Path::new("/nonexistent/flow_case.py"),
        );
        let first = dump.split("\nline ").next().unwrap_or_default();
        assert_eq!(first.contains("HostCallback"), logs, "{lowered}: {dump}");
    }
}

/// `self.norm(x)` with `self.norm = create("gpu")`, called where its result
/// is not returned as it is (in a loop): on the path of that factory call,
/// so the object it made is the one called.
#[test]
fn a_field_made_by_a_factory_is_on_that_call_s_path() {
    let text = "import jax\nimport jax.numpy as jnp\nfrom jax.experimental import pallas as pl\nfrom jax.experimental.pallas import tpu as pltpu\nfrom jax.experimental.pallas import triton as pltriton\n\nclass Norm:\n  def __init__(self, backend):\n    self.backend = backend\n\n  def __call__(self, x):\n    p = pltriton.CompilerParams() if self.backend == \"gpu\" else pltpu.CompilerParams()\n    return pl.pallas_call(lambda x_ref, o_ref: None, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), compiler_params=p)(x)\n\ndef create(backend):\n  return Norm(backend)\n\nclass Model:\n  def __init__(self):\n    self.norm = create(\"gpu\")\n\n  def forward(self, params, x):\n    for layer in params:\n      x = self.norm(x) * layer\n    return x\n\nspec = jax.ShapeDtypeStruct((8,), jnp.float32)\njax.jit(Model().forward).trace([spec, spec], spec).lower(lowering_platforms=(\"tpu\",))\n";
    let dump = jax_lsp::analysis::debug_lowerings(text, Path::new("/nonexistent/flow_case.py"));
    assert!(dump.contains("params: Class(Triton)"), "{dump}");
}

/// A decorator's wrapper that fills a keyword only when the caller left
/// it out (`kwargs.setdefault(k, v)`, `if k not in kwargs: kwargs[k] = v`)
/// passes `v` when no call of the decorated function passes `k`; when one
/// may, the value is not the wrapper's alone.
#[test]
fn a_keyword_filled_unless_passed_is_the_wrapper_s_when_no_call_passes_it() {
    let setdefault = "import functools\n\n\ndef defaults(fn):\n    @functools.wraps(fn)\n    def wrapper(*args, **kwargs):\n        kwargs.setdefault(\"value\", \"tpu\")\n        return fn(*args, **kwargs)\n\n    return wrapper\n\n\n@defaults\ndef value_of(value=None):\n    return value\n\n\nprobe = value_of()\n";
    let membership = setdefault.replace(
        "        kwargs.setdefault(\"value\", \"tpu\")\n",
        "        if \"value\" not in kwargs:\n            kwargs[\"value\"] = \"tpu\"\n",
    );
    for text in [setdefault.to_owned(), membership] {
        let probe = name_values(&text, "probe");
        assert!(
            probe.contains("Str(\"tpu\")") && !probe.contains("Unknown"),
            "{probe}"
        );
        let passed = text.clone() + "other = value_of(value=\"cpu\")\n";
        let probe = name_values(&passed, "probe");
        assert!(probe.contains("Unknown"), "{probe}");
    }
}

/// `f(**{k: v for k, v in opts.items() if ...})`: the entry the
/// comprehension makes for a parameter, its `if` clause decided for that
/// element (a key it filters out is not passed: the default holds).
#[test]
fn a_dict_comprehension_unpacked_passes_the_entries_it_keeps() {
    let text = "opts = {\"platforms\": \"tpu\", \"other\": 1}\nkept = {k: v for k, v in opts.items() if k != \"other\"}\ndropped = {k: v for k, v in opts.items() if k != \"platforms\"}\n\n\ndef export(platforms=(\"cpu\",), other=2):\n    return platforms\n\n\nprobe = export(**kept)\nfallback = export(**dropped)\n";
    let probe = name_values(text, "probe");
    assert!(
        probe.contains("Str(\"tpu\")") && !probe.contains("Unknown"),
        "{probe}"
    );
    let fallback = name_values(text, "fallback");
    assert!(
        fallback.contains("Seq(Tuple, [Str(\"cpu\")])"),
        "{fallback}"
    );
}

/// The rule codes `check` reports for `text`, by line.
/// `code` on each of `lines`, as `codes_by_line` lists findings.
fn on_lines(code: &str, lines: &[usize]) -> Vec<(usize, String)> {
    lines.iter().map(|&line| (line, code.to_owned())).collect()
}

fn codes_by_line(text: &str) -> Vec<(usize, String)> {
    jax_lsp::analysis::analyze(
        text,
        Path::new("/nonexistent/flow_case.py"),
        &jax_lsp::config::Settings::default(),
        None,
    )
    .into_iter()
    .map(|f| {
        (
            text[..f.span.start].matches('\n').count() + 1,
            f.code.to_string(),
        )
    })
    .collect()
}

/// `jax.jit(f, **{k: v for k, v in D.items() if ...})` passes the entries of
/// `D` its filter keeps, as jit's own keywords (where the finding points:
/// the entry). A module table is read from a function when its entries
/// mean the same there; a dropped entry, a filter on a parameter no call
/// fills, a local `D` shadowing the table pass nothing known. (Run under
/// JAX: `kept` and `local` warn, the others run clean.)
#[test]
fn jit_keywords_unpacked_from_a_filtering_comprehension_are_the_kept_entries() {
    let text = r#"import jax

def f(x):
    return x * 2

TABLE = {"backend": "cpu", "inline": True}

def kept():
    return jax.jit(f, **{k: v for k, v in TABLE.items() if k != "inline"})

def dropped():
    return jax.jit(f, **{k: v for k, v in TABLE.items() if k != "backend"})

def chosen_by_caller(drop):
    return jax.jit(f, **{k: v for k, v in TABLE.items() if k != drop})

def shadowed():
    TABLE = {"backend": None}
    return jax.jit(f, **{k: v for k, v in TABLE.items() if k})

def local():
    options = {k: v for k, v in {"device": jax.devices()[0]}.items() if k}
    return jax.jit(f, **options)
"#;
    let found = codes_by_line(text);
    assert_eq!(
        found,
        vec![(6, "JP012".to_owned()), (22, "JP012".to_owned())],
        "{found:?}"
    );
}

/// A call in an arm of `a if c else b`, or after `c and` / `c or`, runs only
/// when the condition lets it, as in an `if` statement: a module flag that is
/// `False` keeps the TPU kernel out of the cuda exports of `by_ternary`,
/// `by_and` and `by_or` (each was a false JP002), and `taken` reaches it
/// through the arm that runs. (Under JAX the first three export, `taken`
/// fails.)
#[test]
fn calls_in_a_conditional_expression_run_as_its_condition_decides() {
    let text = r#"import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

FUSED = False
SPEC = jax.ShapeDtypeStruct((8, 128), jnp.float32)


def _copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def fused(x):
    return pl.pallas_call(_copy, out_shape=x, compiler_params=pltpu.CompilerParams())(x)


def by_ternary(x):
    return fused(x) if FUSED else x + 1


def by_and(x):
    return FUSED and fused(x) or x + 1


def by_or(x):
    return not FUSED or fused(x)


def taken(x):
    return x + 1 if FUSED else fused(x)


if __name__ == "__main__":
    jax.export.export(jax.jit(by_ternary), platforms=("cuda",))(SPEC)
    jax.export.export(jax.jit(by_and), platforms=("cuda",))(SPEC)
    jax.export.export(jax.jit(by_or), platforms=("cuda",))(SPEC)
    jax.export.export(jax.jit(taken), platforms=("cuda",))(SPEC)
"#;
    let found = codes_by_line(text);
    assert_eq!(found, vec![(38, "JP002".to_owned())], "{found:?}");
}

/// `probe() and platform == "cpu"` is `False` whatever the probe gives when
/// the right side is `False` for the element being lowered, also when the
/// probe holds a `try` (its result a run-time choice): `interpret=` is known
/// false for the "cuda" export of the loop, which JAX rejects. (It was
/// `Unknown`, and the finding missed.)
#[test]
fn an_and_whose_right_side_is_false_is_false_whatever_the_left_runs() {
    let text = r#"import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

SPEC = jax.ShapeDtypeStruct((8, 128), jnp.float32)


def on_cpu_host():
    try:
        return jax.devices()[0].platform == "cpu"
    except RuntimeError:
        return False


def _copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def make(platform):
    interpret = on_cpu_host() and platform == "cpu"

    def run(x):
        return pl.pallas_call(
            _copy, out_shape=x, compiler_params=pltpu.CompilerParams(), interpret=interpret
        )(x)

    return run


if __name__ == "__main__":
    for platform in ("tpu", "cuda"):
        jax.export.export(jax.jit(make(platform)), platforms=(platform,))(SPEC)
"#;
    let found = codes_by_line(text);
    assert_eq!(found, vec![(33, "JP002".to_owned())], "{found:?}");
}

/// A registering function that refuses a name already taken (`if name in
/// KERNELS: raise`) before storing it still stores: the test reads the dict
/// before the store below it. Run under JAX: `run_double` lowers for tpu,
/// `run_copy` raises "Compiler params for platform gpu cannot be used for
/// tpu lowering." (The build before read the guard against the dict with
/// the store in it, took the `raise`, and found nothing.)
#[test]
fn a_membership_guard_before_a_store_sees_the_dict_without_it() {
    let text = r#"import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as pltriton

KERNELS = {}


def register(name, kernel):
    if name in KERNELS:
        raise KeyError(f"{name} is already registered")
    KERNELS[name] = kernel


def _copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def copy(x):
    return pl.pallas_call(
        _copy, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params=pltriton.CompilerParams(num_warps=4),
    )(x)


register("copy", copy)
register("double", lambda x: x * 2)


@jax.jit
def run_copy(x):
    return KERNELS["copy"](x)


@jax.jit
def run_double(x):
    return KERNELS["double"](x)


spec = jax.ShapeDtypeStruct((8, 128), jnp.float32)
run_double.trace(spec).lower(lowering_platforms=("tpu",))
run_copy.trace(spec).lower(lowering_platforms=("tpu",))
"#;
    let found = codes_by_line(text);
    assert_eq!(found, vec![(42, "JP002".to_owned())], "{found:?}");
}

/// A classmethod a class inherits runs with `cls` that class: `cls.version_1`
/// in the base's `handle` is `Fused.version_1` for `Fused.handle`, the TPU
/// kernel, and `Plain.version_1` for `Plain.handle`. Run under JAX: the
/// `Fused` lowering for cuda fails (a bare `AssertionError`, the TPU
/// params unregistered), the `Plain` one lowers. (The build before took
/// `cls` for the base, which has no `version_1`, and found nothing.)
#[test]
fn an_inherited_classmethod_runs_on_the_class_it_is_called_on() {
    let text = r#"import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def _double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0


def fused_double(x):
    return pl.pallas_call(
        _double, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params=pltpu.CompilerParams(),
    )(x)


class Handler:
    @classmethod
    def handle(cls, x):
        return cls.version_1(x)

    def run(self, x):
        return self.version_1(x) + 1


class Fused(Handler):
    @classmethod
    def version_1(cls, x):
        return fused_double(x)


class Plain(Handler):
    @classmethod
    def version_1(cls, x):
        return x * 2.0


spec = jax.ShapeDtypeStruct((8, 128), jnp.float32)
jax.jit(Fused.handle).trace(spec).lower(lowering_platforms=("cuda",))
jax.jit(Plain.handle).trace(spec).lower(lowering_platforms=("cuda",))
"#;
    let found = codes_by_line(text);
    assert_eq!(found, vec![(40, "JP002".to_owned())], "{found:?}");
}

/// A plain subclass of a dataclass, with no `__init__` of its own, is made
/// by the base's generated one: `LoggedStep(3.0, True)` and
/// `LoggedStep(log_steps=True)` set the base's field, so the callback its
/// method guards runs. Run under JAX: those two lowerings for tpu raise
/// "the platform for the specified backend cpu is different from the
/// lowering platform tpu"; `LoggedStep(3.0, False)` lowers. (The build
/// before read no field of such an object and found none.)
#[test]
fn a_plain_subclass_of_a_dataclass_is_made_by_the_bases_init() {
    let text = r#"import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class StepConfig:
    scale: float = 2.0
    log_steps: bool = False


class LoggedStep(StepConfig):
    def step(self, x):
        if self.log_steps:
            jax.debug.print("x={}", x)
        return x * self.scale


x = jnp.ones((4,), jnp.float32)
jax.jit(LoggedStep(3.0, True).step).trace(x).lower(lowering_platforms=("tpu",))
jax.jit(LoggedStep(3.0, False).step).trace(x).lower(lowering_platforms=("tpu",))
jax.jit(LoggedStep(log_steps=True).step).trace(x).lower(lowering_platforms=("tpu",))
"#;
    let found = codes_by_line(text);
    assert_eq!(
        found,
        vec![(21, "JP001".to_owned()), (23, "JP001".to_owned())],
        "{found:?}"
    );
}

/// A callee that is the result of a call the value flow reads
/// (`IMPLS.get(name, default)(x)` of a registry a decorator fills) is what
/// that call gives, per call of the wrapper: the "pallas" export for cuda
/// reaches the TPU kernel, the "xla" one does not. Run under JAX: the
/// "pallas" export raises (a bare `AssertionError`: the TPU params are not
/// registered), the "xla" one alone exports. (The build before asked the
/// flow only about names, attributes and subscripts called, and found
/// nothing.)
#[test]
fn a_registry_entry_read_with_get_and_called_is_that_entry() {
    let text = r#"import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

IMPLS = {}


def register(name):
    def wrap(fn):
        IMPLS[name] = fn
        return fn

    return wrap


def _double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0


@register("pallas")
def double_pallas(x):
    return pl.pallas_call(
        _double, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params=pltpu.CompilerParams(),
    )(x)


@register("xla")
def double_xla(x):
    return x * 2.0


def run(name, x):
    return IMPLS.get(name, double_xla)(x)


spec = jax.ShapeDtypeStruct((8, 128), jnp.float32)
jax.export.export(jax.jit(lambda x: run("xla", x)), platforms=("cuda",))(spec)
jax.export.export(jax.jit(lambda x: run("pallas", x)), platforms=("cuda",))(spec)
"#;
    let found = codes_by_line(text);
    assert_eq!(found, vec![(40, "JP002".to_owned())], "{found:?}");
}

#[test]
fn a_call_through_any_holder_of_a_partial_binds_what_that_partial_stores() {
    // Each lowering run alone under jax 0.12.0.1: the "gpu" ones raise
    // "Compiler params for platform gpu cannot be used for tpu lowering.",
    // the "tpu" ones lower. The partial reaches the call through a second
    // name, a dict entry, a field, a factory's return and a partial of it;
    // the build before found only the factory ones, and flagged the clean
    // one too (both partials' params for either call). The field holds one
    // partial per construction: which one, the object called tells.
    let text = r#"import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as pltriton


def _add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def add_one(x, *, params, scale=1):
    return pl.pallas_call(
        _add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), compiler_params=params
    )(x)


TPU_ADD = functools.partial(add_one, params=pltpu.CompilerParams())
GPU_ADD = functools.partial(add_one, params=pltriton.CompilerParams())
BY_BACKEND = {"tpu": TPU_ADD, "gpu": GPU_ADD}
SCALED_TPU = functools.partial(TPU_ADD, scale=2)
SCALED_GPU = functools.partial(GPU_ADD, scale=2)
chosen_tpu = TPU_ADD
chosen_gpu = GPU_ADD


class Layer:
    def __init__(self, add):
        self.add = add

    def __call__(self, x):
        return self.add(x)


def pick(backend):
    return BY_BACKEND[backend]


spec = jax.ShapeDtypeStruct((8, 128), jnp.float32)
jax.jit(lambda x: chosen_tpu(x)).trace(spec).lower(lowering_platforms=("tpu",))
jax.jit(lambda x: chosen_gpu(x)).trace(spec).lower(lowering_platforms=("tpu",))
jax.jit(lambda x: BY_BACKEND["tpu"](x)).trace(spec).lower(lowering_platforms=("tpu",))
jax.jit(lambda x: BY_BACKEND["gpu"](x)).trace(spec).lower(lowering_platforms=("tpu",))
jax.jit(Layer(TPU_ADD)).trace(spec).lower(lowering_platforms=("tpu",))
jax.jit(Layer(GPU_ADD)).trace(spec).lower(lowering_platforms=("tpu",))
jax.jit(lambda x: pick("tpu")(x)).trace(spec).lower(lowering_platforms=("tpu",))
jax.jit(lambda x: pick("gpu")(x)).trace(spec).lower(lowering_platforms=("tpu",))
jax.jit(lambda x: SCALED_TPU(x)).trace(spec).lower(lowering_platforms=("tpu",))
jax.jit(lambda x: SCALED_GPU(x)).trace(spec).lower(lowering_platforms=("tpu",))
"#;
    let found = codes_by_line(text);
    assert_eq!(found, on_lines("JP002", &[43, 45, 47, 49, 51]), "{found:?}");
}

#[test]
fn a_store_after_a_construction_that_replaces_a_parameter_is_the_objects() {
    // Under jax 0.12.0.1 on a CPU host each export (run alone) raises a
    // bare `AssertionError` when the store says "cuda" and exports when it
    // says "tpu". `cfg = ExportConfig() if cfg is None else cfg` (and the
    // `if cfg is None:` form) rebinds the parameter; the store after it is
    // the new object's. The build before read the attribute as unknown.
    for (platform, expected) in [("cuda", vec![37, 38]), ("tpu", vec![])] {
        let text = format!(
            r#"import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


class ExportConfig:
    platforms = ("tpu",)


def with_defaults(cfg=None):
    cfg = ExportConfig() if cfg is None else cfg
    cfg.platforms = ("{platform}",)
    return cfg


def completed(cfg=None):
    if cfg is None:
        cfg = ExportConfig()
    cfg.platforms = ("{platform}",)
    return cfg


def _copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def step(x):
    return pl.pallas_call(
        _copy,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params=pltpu.CompilerParams(),
    )(x)


spec = jax.ShapeDtypeStruct((8, 128), jnp.float32)
jax.export.export(jax.jit(step), platforms=with_defaults().platforms)(spec)
jax.export.export(jax.jit(step), platforms=completed().platforms)(spec)
"#
        );
        let found = codes_by_line(&text);
        assert_eq!(found, on_lines("JP002", &expected), "{platform}: {found:?}");
    }
}

#[test]
fn a_class_nested_in_a_class_body_is_read_through_the_outer_class() {
    // Under jax 0.12.0.1 on a CPU host each lowering (run alone) raises a
    // bare `AssertionError` for "cuda" and lowers for "tpu". The build
    // before read `Exporter.Config` as unknown: neither the platforms nor
    // the method's kernel were found.
    for (platform, expected) in [("cuda", vec![25, 26]), ("tpu", vec![])] {
        let text = format!(
            r#"import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def _copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


class Exporter:
    class Config:
        platforms = ("{platform}",)

        def step(self, x):
            return pl.pallas_call(
                _copy,
                out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                compiler_params=pltpu.CompilerParams(),
            )(x)


cfg = Exporter.Config()
spec = jax.ShapeDtypeStruct((8, 128), jnp.float32)
jax.export.export(jax.jit(cfg.step), platforms=cfg.platforms)(spec)
jax.jit(cfg.step).trace(spec).lower(lowering_platforms=Exporter.Config.platforms)
"#
        );
        let found = codes_by_line(&text);
        assert_eq!(found, on_lines("JP002", &expected), "{platform}: {found:?}");
    }
}

#[test]
fn a_call_given_a_bare_generator_is_a_call() {
    // `Stack(TABLE[name] for name in [...])`: a call whose one argument is
    // a bare generator (no parentheses of its own). Under jax 0.12.0.1 the
    // "host_j0" stack raises "AbstractMesh cannot be used when jaxpr
    // contains primitives that require devices ..." and the "double" one
    // lowers. The build before did not index such a call: the constructor
    // had no call site, so the field was unknown and nothing was reached.
    for (name, expected) in [("host_j0", vec![28]), ("double", vec![])] {
        let text = format!(
            r#"import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec


def host_j0(x):
    return jax.pure_callback(lambda v: v, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


def double(x):
    return x * 2


TABLE = {{"host_j0": host_j0, "double": double}}


class Stack:
    def __init__(self, fns):
        self.fns = list(fns)

    def __call__(self, x):
        return jnp.stack([f(x) for f in self.fns])


stack = Stack(TABLE[name] for name in ["{name}"])
mesh = AbstractMesh((2,), ("k",))
spec = jax.ShapeDtypeStruct((8,), jnp.float32, sharding=NamedSharding(mesh, PartitionSpec("k")))
jax.jit(lambda x: stack(x)).trace(spec).lower(lowering_platforms=("tpu",))
"#
        );
        let found = codes_by_line(&text);
        assert_eq!(found, on_lines("JP004", &expected), "{name}: {found:?}");
    }
}

#[test]
fn a_generator_keeps_which_factory_call_made_its_closures() {
    // `Stack(f for f in (deploy,))` with `deploy` and `debug` closures of
    // one factory: the stack holds the closure `deploy`'s call made, not
    // any closure of the factory. Under jax 0.12.0.1 the "debug" stack
    // raises "the platform for the specified backend cpu is different from
    // the lowering platform tpu" (its `jax.debug.print`) and the "deploy"
    // one lowers. The build before dropped the factory call's choice when
    // it expanded the generator, and reported the "deploy" stack too.
    for (name, expected) in [("debug", vec![34]), ("deploy", vec![])] {
        let text = format!(
            r#"import jax
import jax.numpy as jnp


class Stack:
    def __init__(self, fns):
        self.fns = list(fns)

    def forward(self, x):
        return [f(x) for f in self.fns][0]


def dense(x):
    return jnp.tanh(x)


def log_activations(x):
    jax.debug.print("mean {{m}}", m=x.mean())
    return x


def sequential(layers):
    def apply(x):
        for layer in layers:
            x = layer(x)
        return x

    return apply


deploy = sequential((dense, dense))
debug = sequential((dense, log_activations))
spec = jax.ShapeDtypeStruct((8,), jnp.float32)
jax.jit(Stack(f for f in ({name},)).forward).trace(spec).lower(lowering_platforms=("tpu",))
"#
        );
        let found = codes_by_line(&text);
        assert_eq!(found, on_lines("JP001", &expected), "{name}: {found:?}");
    }
}

#[test]
fn a_partial_of_a_partial_binds_what_the_inner_one_leaves_open() {
    // `partial(inner, fn=g)` with `inner = partial(apply)`: `apply`'s `fn`
    // is what the outer partial binds, on that partial's path (two outer
    // partials of one inner bind different functions). Under jax 0.12.0.1
    // the lowerings reaching `host` raise "the platform for the specified
    // backend cpu is different from the lowering platform tpu", those
    // reaching `double` lower. The build before left `fn` unknown (missing
    // the inline nested partial and the call through a lambda) or, by
    // syntax, counted every function a partial names (a false finding on
    // `good` once `fn` was followed).
    for (lowered, expected) in [
        ("good", vec![]),
        ("bad", vec![24]),
        ("nested", vec![24]),
        ("lambda x: good(x)", vec![]),
        ("lambda x: bad(x)", vec![24]),
    ] {
        let text = format!(
            r#"import functools

import jax
import jax.numpy as jnp


def apply(x, fn):
    return fn(x)


def host(x):
    return jax.pure_callback(lambda v: v, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


def double(x):
    return x * 2


inner = functools.partial(apply)
good = functools.partial(inner, fn=double)
bad = functools.partial(inner, fn=host)
nested = functools.partial(functools.partial(apply), fn=host)
spec = jax.ShapeDtypeStruct((4,), jnp.float32)
jax.jit({lowered}).trace(spec).lower(lowering_platforms=("tpu",))
"#
        );
        let found = codes_by_line(&text);
        assert_eq!(found, on_lines("JP001", &expected), "{lowered}: {found:?}");
    }
}

#[test]
fn a_factory_call_s_record_holds_that_call_s_arguments() {
    // `make_dict(p)` returns `{"platforms": p, ...}` and `make_object(p)`
    // a dataclass built from `p`; the module calls each twice. A record
    // read later holds its own call's `p`, not every call's. Under jax
    // 0.12.0.1 the `host` records lower (no error) and the `remote` ones
    // raise "the platform for the specified backend cpu is different from
    // the lowering platform cuda" at line 30, and at line 31 with line 30
    // removed. The build before read every call's `p` into both records
    // and reported the `host` ones too (a false alarm).
    for (chosen, expected) in [("host", vec![]), ("remote", vec![30, 31])] {
        let text = format!(
            r#"import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class RunConfig:
    platforms: tuple
    name: str


def make_dict(platforms):
    return {{"platforms": platforms, "name": "run"}}


def make_object(platforms):
    return RunConfig(platforms, "run")


def step(x):
    jax.debug.print("x {{}}", x)
    return x * 2


host = make_dict(("cpu",)), make_object(("cpu",))
remote = make_dict(("cuda",)), make_object(("cuda",))
spec = jax.ShapeDtypeStruct((4,), jnp.float32)
CHOSEN = {chosen}
jax.jit(step).trace(spec).lower(lowering_platforms=CHOSEN[0]["platforms"])
jax.jit(step).trace(spec).lower(lowering_platforms=CHOSEN[1].platforms)
"#
        );
        let found = codes_by_line(&text);
        assert_eq!(found, on_lines("JP001", &expected), "{chosen}: {found:?}");
    }
}

#[test]
fn a_recursive_function_returns_what_its_last_call_returns() {
    // `unwrap(Box(Box(p)))` recurses twice and returns `p`. Under jax
    // 0.12.0.1 "cuda" raises "the platform for the specified backend cpu
    // is different from the lowering platform cuda" (the `debug.print`);
    // "cpu" lowers. The build before read the recursive call's argument
    // in its own frame (`node` of the call being evaluated, again) and
    // allowed no call inside itself: the platforms were not known.
    for (platform, expected) in [("cuda", vec![22]), ("cpu", vec![])] {
        let text = format!(
            r#"import jax
import jax.numpy as jnp


class Box:
    def __init__(self, inner):
        self.inner = inner


def unwrap(node):
    if isinstance(node, Box):
        return unwrap(node.inner)
    return node


def step(x):
    jax.debug.print("x {{}}", x)
    return x * 2


spec = jax.ShapeDtypeStruct((4,), jnp.float32)
jax.jit(step).trace(spec).lower(lowering_platforms=unwrap(Box(Box(("{platform}",)))))
"#
        );
        let found = codes_by_line(&text);
        assert_eq!(found, on_lines("JP001", &expected), "{platform}: {found:?}");
    }
    let text = "def f(x, again):\n    if again:\n        return f(x, False)\n    return x\n\n\nprobe = f(\"cpu\", True)\n";
    let probe = name_values(text, "probe");
    assert!(
        probe.contains("Str(\"cpu\")") && !probe.contains("Unknown"),
        "{probe}"
    );
}

#[test]
fn containers_of_a_parallel_assignment_keep_their_stores() {
    // `self.options, self.names = {}, []` and `OPTIONS, NAMES = {}, []`,
    // then `OPTIONS["platforms"] = ...`: the dict in its place is the one
    // stored into. Under jax 0.12.0.1 "cuda" raises "the platform for the
    // specified backend cpu is different from the lowering platform cuda"
    // at line 20, and at line 21 with line 20 removed; "cpu" lowers. The
    // build before found no stores (the dict's name is one of a pair) and
    // read an empty dict.
    for (platform, expected) in [("cuda", vec![20, 21]), ("cpu", vec![])] {
        let text = format!(
            r#"import jax
import jax.numpy as jnp


class Settings:
    def __init__(self, platforms):
        self.options, self.names = {{}}, []
        self.options["platforms"] = platforms
        self.names.append("platforms")


def step(x):
    jax.debug.print("x {{}}", x)
    return x * 2


OPTIONS, NAMES = {{}}, []
OPTIONS["platforms"] = ("{platform}",)
spec = jax.ShapeDtypeStruct((4,), jnp.float32)
jax.jit(step).trace(spec).lower(lowering_platforms=Settings(("{platform}",)).options["platforms"])
jax.jit(step).trace(spec).lower(lowering_platforms=OPTIONS["platforms"])
"#
        );
        let found = codes_by_line(&text);
        assert_eq!(found, on_lines("JP001", &expected), "{platform}: {found:?}");
    }
    // A list of a pair grows by its name (it was read as the empty list).
    let text =
        "A, B = [], []\nA.append(\"cpu\")\nB.append(\"tpu\")\nprobe = tuple(A)\nsecond = B[0]\n";
    let probe = name_values(text, "probe");
    assert!(probe.contains("Seq(Tuple, [Str(\"cpu\")])"), "{probe}");
    let second = name_values(text, "second");
    assert!(second.contains("Str(\"tpu\")"), "{second}");
}

#[test]
fn a_device_s_platform_is_a_str_whatever_the_host() {
    // `jax.devices()[0].platform` is the host's backend, as
    // `jax.default_backend()` is ("cpu", "gpu" or "tpu", a `str` on every
    // host): as `lowering_platforms` JAX iterates it. Under jax 0.12.0.1
    // (cpu host) the bare string lowers for ('c', 'p', 'u') (JP005) and
    // `.compile()` raises "safe_zip() argument 1 has length 1 but argument
    // 0 has length 2" (JP015, a lowering for several platforms; each host's
    // name has three letters); `(platform,)` compiles. The build before
    // knew nothing of a device's attributes, and then only that it is a str.
    let both = vec![(11, "JP005".to_owned()), (11, "JP015".to_owned())];
    for (platforms, expected) in [("platform", both), ("(platform,)", vec![])] {
        let text = format!(
            r#"import jax
import jax.numpy as jnp


def step(x):
    return x * 2


spec = jax.ShapeDtypeStruct((4,), jnp.float32)
platform = jax.devices()[0].platform
jax.jit(step).trace(spec).lower(lowering_platforms={platforms}).compile()
"#
        );
        let found = codes_by_line(&text);
        assert_eq!(found, expected, "{platforms}: {found:?}");
    }
}

#[test]
fn qualname_is_the_path_from_the_module() {
    // Python's `__qualname__`: classes and functions around the def, a
    // function's locals marked (checked with CPython 3.12).
    let text = "class Stepper:\n    def collide(self):\n        pass\n\n\ndef make():\n    def apply():\n        pass\n    return apply\n\n\nmethod = Stepper.collide.__qualname__\nclosure = make().__qualname__\ntop = make.__qualname__\n";
    for (name, expected) in [
        ("method", "Stepper.collide"),
        ("closure", "make.<locals>.apply"),
        ("top", "make"),
    ] {
        let value = name_values(text, name);
        assert!(
            value.contains(&format!("Str(\"{expected}\")")),
            "{name}: {value}"
        );
    }
}

#[test]
fn the_items_of_a_dict_call_are_its_keywords() {
    // `dict(a=1, b=None).items()` iterates its keywords in order: a
    // comprehension keeping the entries that are not None has `a`. (The
    // build before knew no items of a `dict(...)` call.)
    let text = "kept = {k: v for k, v in dict(a=1, b=None).items() if v is not None}\nfirst = kept[\"a\"]\n";
    let first = name_values(text, "first");
    assert!(
        first.contains("Int(1)") && !first.contains("Unknown"),
        "{first}"
    );
}

#[test]
fn a_base_init_s_parameters_are_the_super_call_s_arguments() {
    // `super().__init__()` in a subclass's `__init__` runs the base's with
    // its defaults; `super().__init__(platforms)` with the subclass's
    // parameter. Under jax 0.12.0.1 the second raises "the platform for
    // the specified backend cpu is different from the lowering platform
    // cuda" and the first lowers (the base's default is cpu). The build
    // before bound the base `__init__`'s parameters to the subclass call's
    // arguments, by position: the platforms were not found here, and
    // elsewhere a wrong value was read as certain (below).
    for (form, expected) in [
        ("super().__init__(platforms)", vec![16]),
        ("super().__init__()", vec![]),
    ] {
        let text = format!(
            r#"import jax
import jax.numpy as jnp


class Exporter:
    def __init__(self, platforms=("cpu",)):
        self.platforms = platforms


class CallbackExporter(Exporter):
    def __init__(self, fn, platforms=("cuda",)):
        {form}
        self.fn = fn

    def lower(self, spec):
        return jax.jit(self.fn).trace(spec).lower(lowering_platforms=self.platforms)


def step(x):
    jax.debug.print("x {{}}", x)
    return x * 2


CallbackExporter(step, ("cuda",)).lower(jax.ShapeDtypeStruct((4,), jnp.float32))
"#
        );
        let found = codes_by_line(&text);
        assert_eq!(found, on_lines("JP001", &expected), "{form}: {found:?}");
    }
    // As CPython 3.12 prints them: train train eval predict.
    let text = "\nclass Base:\n    def __init__(self, mode=\"train\"):\n        self.mode = mode\n\nclass Embedding(Base):\n    def __init__(self, size, mode=\"eval\"):\n        super().__init__()\n        self.size = size\n\nclass Embedding2(Base):\n    def __init__(self, size, mode=\"eval\"):\n        super().__init__(mode=mode)\n        self.size = size\n\ne = Embedding(64)\nprobe1 = e.mode\nprobe2 = Embedding(64, mode=\"predict\").mode\nprobe3 = Embedding2(64).mode\nprobe4 = Embedding2(64, mode=\"predict\").mode\n";
    for (name, expected) in [
        ("probe1", "train"),
        ("probe2", "train"),
        ("probe3", "eval"),
        ("probe4", "predict"),
    ] {
        let value = name_values(text, name);
        assert!(
            value.contains(&format!("Str(\"{expected}\")")) && value.contains("why: Fixed"),
            "{name}: {value}"
        );
    }
}

#[test]
fn a_generator_unpacked_gives_its_items_in_turn() {
    // `key, value = (part.strip() for part in SETTINGS.split(":", 1))`:
    // `value` is "cpu", a bare string. Under jax 0.12.0.1 lowering for it
    // lowers for ('c', 'p', 'u') and `.compile()` raises "safe_zip()
    // argument 1 has length 1 but argument 0 has length 2"; `(value,)`
    // compiles. The build before read nothing out of an unpacked generator.
    for (platforms, expected) in [
        (
            "value",
            vec![(13, "JP005".to_owned()), (13, "JP015".to_owned())],
        ),
        ("(value,)", vec![]),
    ] {
        let text = format!(
            r#"import jax
import jax.numpy as jnp

SETTINGS = "export_platforms: cpu"


def step(x):
    return x * 2


key, value = (part.strip() for part in SETTINGS.split(":", 1))
spec = jax.ShapeDtypeStruct((4,), jnp.float32)
jax.jit(step).trace(spec).lower(lowering_platforms={platforms}).compile()
"#
        );
        let mut found = codes_by_line(&text);
        found.sort();
        assert_eq!(found, expected, "{platforms}");
    }
}

#[test]
fn a_lazily_initialised_attribute_is_what_the_test_stores() {
    // `if self._mesh is None: self._mesh = AbstractMesh(...)`, then
    // `return self._mesh`: the mesh (the `None` of `__init__` is replaced
    // before the read). Under jax 0.12.0.1 lowering without platforms
    // raises "Passing lowering_platforms via jax.export or
    // jit(f).trace(*args).lower(lowering_platforms=...) is required when
    // only AbstractMesh exists"; with `lowering_platforms=("cpu",)` it
    // lowers. The build before read None or the mesh, as a run-time choice.
    for (platforms, expected) in [("", vec![19]), ("lowering_platforms=(\"cpu\",)", vec![])] {
        let text = format!(
            r#"import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P


class Partitioner:
    def __init__(self, devices):
        self._devices = devices
        self._mesh = None

    @property
    def mesh(self):
        if self._mesh is None:
            self._mesh = AbstractMesh((self._devices,), ("data",))
        return self._mesh

    def lower(self, fn, spec):
        sharding = NamedSharding(self.mesh, P("data"))
        return jax.jit(fn, in_shardings=sharding).trace(spec).lower({platforms})


def step(x):
    return x * 2


Partitioner(8).lower(step, jax.ShapeDtypeStruct((16,), jnp.float32))
"#
        );
        let found = codes_by_line(&text);
        assert_eq!(
            found,
            on_lines("JP003", &expected),
            "{platforms}: {found:?}"
        );
    }
}

#[test]
fn dataclass_fields_are_its_annotated_names_in_order() {
    // `from_dict` keeps the keys naming a field (`{f.name for f in
    // dataclasses.fields(cls)}`), dropping "saved_at". Under jax 0.12.0.1
    // with `eigh_on_host` True the `pure_callback` lowered for tpu raises
    // "the platform for the specified backend cpu is different from the
    // lowering platform tpu"; with False it lowers. The build before knew
    // nothing of `dataclasses.fields`, so no key could be kept.
    for (on_host, expected) in [("True", vec![32]), ("False", vec![])] {
        let text = format!(
            r#"import dataclasses

import jax
import jax.numpy as jnp
import numpy as np


@dataclasses.dataclass(frozen=True)
class EstimatorConfig:
    eigh_on_host: bool = False
    target_platform: str = "cpu"

    @classmethod
    def from_dict(cls, raw):
        known = {{f.name for f in dataclasses.fields(cls)}}
        return cls(**{{k: v for k, v in raw.items() if k in known}})


def host_eigh(m):
    return np.linalg.eigh(m)[0].astype(np.float32)


def update(m, config):
    if config.eigh_on_host:
        return jax.pure_callback(host_eigh, jax.ShapeDtypeStruct((4,), jnp.float32), m)
    return jnp.linalg.eigh(m)[0]


RESTORED = {{"eigh_on_host": {on_host}, "target_platform": "tpu", "saved_at": "step_100"}}
config = EstimatorConfig.from_dict(RESTORED)
spec = jax.ShapeDtypeStruct((4, 4), jnp.float32)
jax.jit(lambda m: update(m, config)).trace(spec).lower(lowering_platforms=(config.target_platform,))
"#
        );
        let found = codes_by_line(&text);
        assert_eq!(found, on_lines("JP001", &expected), "{on_host}: {found:?}");
    }
    // Bases' fields first, `ClassVar`s left out (as CPython lists them).
    let text = "import dataclasses\nfrom typing import ClassVar\n\n\n@dataclasses.dataclass\nclass Base:\n    a: int = 1\n\n\n@dataclasses.dataclass\nclass Cfg(Base):\n    platform: str = \"cpu\"\n    KIND: ClassVar[str] = \"cfg\"\n    on_host: bool = False\n\n\nnames = tuple(f.name for f in dataclasses.fields(Cfg))\n";
    let names = name_values(text, "names");
    assert!(
        names.contains("Seq(Tuple, [Str(\"a\"), Str(\"platform\"), Str(\"on_host\")])"),
        "{names}"
    );
}

/// A method returning a copy of the object it is called on
/// (`dataclasses.replace(self, meter=resolve(self.meter))`, dynamiqs's
/// `Options.initialise`) reads `self` as that call's receiver: each object
/// normalised keeps its own meter, not every object's of the class.
#[test]
fn a_copy_a_method_returns_reads_its_own_receiver() {
    let text = r#"import dataclasses


class TextMeter:
    pass


class NoMeter:
    pass


def resolve(meter):
    if meter is None:
        return TextMeter()
    if meter is False:
        return NoMeter()
    return meter


@dataclasses.dataclass(frozen=True)
class Options:
    meter: object = None

    def initialise(self):
        return dataclasses.replace(self, meter=resolve(self.meter))


text_meter = Options(meter=None).initialise().meter
no_meter = Options(meter=False).initialise().meter
"#;
    let text_meter = name_values(text, "text_meter");
    assert!(text_meter.contains("TextMeter"), "{text_meter}");
    assert!(!text_meter.contains("NoMeter"), "{text_meter}");
    assert!(text_meter.contains("why: Fixed"), "{text_meter}");
    let no_meter = name_values(text, "no_meter");
    assert!(no_meter.contains("NoMeter"), "{no_meter}");
    assert!(!no_meter.contains("TextMeter"), "{no_meter}");
}

/// A keyword setter (`set(**kw)` storing each keyword with `setattr`)
/// called on another object made by another construction stores into that
/// object: `Config().platforms` stays the class's value however many
/// other configs are set; a call through an alias of the object still
/// may store into it.
#[test]
fn a_keyword_setter_on_another_object_leaves_this_one_alone() {
    let text = r#"class Config:
    platforms = ("cpu",)

    def set(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)
        return self


fresh = Config().platforms
other = Config()
other.set(platforms=("tpu",))
chained = Config().set(name="x").platforms
a = Config()
b = a
b.set(platforms=("cuda",))
aliased = a.platforms
"#;
    for name in ["fresh", "chained"] {
        let values = name_values(text, name);
        assert!(values.contains("Str(\"cpu\")"), "{name}: {values}");
        assert!(
            !values.contains("tpu") && !values.contains("cuda"),
            "{name}: {values}"
        );
        assert!(values.contains("why: Fixed"), "{name}: {values}");
    }
    let aliased = name_values(text, "aliased");
    assert!(aliased.contains("cuda"), "{aliased}");
}

/// A mesh read back off a sharding, or a `ShapeDtypeStruct`'s sharding
/// (`NamedSharding(p.sharding.mesh, ...)`, privacy's zero-redundancy
/// resharding), is the mesh it was made with: abstract with its Explicit
/// axes and abstract device, or concrete.
#[test]
fn a_mesh_read_back_off_a_sharding_is_the_mesh_it_was_made_with() {
    let text = r#"import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

explicit = AbstractMesh((2,), ("dp",), axis_types=(AxisType.Explicit,))
auto = AbstractMesh((2,), ("dp",), axis_types=(AxisType.Auto,))
spec = jax.ShapeDtypeStruct((8,), jnp.float32, sharding=NamedSharding(explicit, P("dp")))
explicit_back = spec.sharding.mesh
auto_back = NamedSharding(auto, P()).mesh
concrete_back = NamedSharding(jax.make_mesh((1,), ("dp",)), P()).mesh
"#;
    let explicit = name_values(text, "explicit_back");
    assert!(explicit.contains("Abstract("), "{explicit}");
    assert!(explicit.contains("has_explicit_axis: true"), "{explicit}");
    let auto = name_values(text, "auto_back");
    assert!(auto.contains("has_explicit_axis: false"), "{auto}");
    let concrete = name_values(text, "concrete_back");
    assert!(concrete.contains("Concrete"), "{concrete}");
}

/// `jax.default_backend()` is each host's backend on that host: a table
/// keyed by it gives one entry per host, and what every host gives is
/// certain.
#[test]
fn the_host_s_backend_picks_one_entry_per_host() {
    let text = r#"import jax

IMPLS = {"cpu": "host", "gpu": "triton", "tpu": "mosaic"}
picked = IMPLS[jax.default_backend()]
same = {"cpu": "xla", "gpu": "xla", "tpu": "xla"}[jax.default_backend()]
"#;
    let picked = name_values(text, "picked");
    assert!(
        picked.contains(r#"Str("host"), why: Host(["cpu"])"#),
        "{picked}"
    );
    assert!(
        picked.contains(r#"Str("triton"), why: Host(["cuda", "rocm"])"#),
        "{picked}"
    );
    assert!(
        picked.contains(r#"Str("mosaic"), why: Host(["tpu"])"#),
        "{picked}"
    );
    let same = name_values(text, "same");
    assert_eq!(same, r#"[ConstAlt { val: Str("xla"), why: Fixed }]"#);
}

/// A copy of a dict changed through a dict it holds, or through another
/// name walked down to it, is not the dict it copied: not known, never
/// the original's entry (a wrong certain value once hid the store).
#[test]
fn a_copy_changed_deep_inside_is_not_the_original() {
    let text = "import copy\n\nBASE = {\"export\": {\"platforms\": (\"cpu\",)}}\n\n\ndef nested():\n    cfg = copy.deepcopy(BASE)\n    cfg[\"export\"][\"platforms\"] = (\"tpu\",)\n    return cfg\n\n\ndef walked(path):\n    cfg = copy.deepcopy(BASE)\n    node = cfg\n    for key in path:\n        node = node[key]\n    node[\"platforms\"] = (\"tpu\",)\n    return cfg\n\n\ndef shallow():\n    cfg = copy.deepcopy(BASE)\n    cfg[\"export\"] = {\"platforms\": (\"tpu\",)}\n    return cfg\n\n\nprobe_nested = nested()[\"export\"][\"platforms\"]\nprobe_walked = walked([\"export\"])[\"export\"][\"platforms\"]\nprobe_shallow = shallow()[\"export\"][\"platforms\"]\nprobe_read = copy.deepcopy(BASE)[\"export\"][\"platforms\"]\n";
    for name in ["probe_nested", "probe_walked"] {
        let probe = name_values(text, name);
        assert!(!probe.contains("cpu"), "{name}: {probe}");
        assert!(probe.contains("Unknown"), "{name}: {probe}");
    }
    let shallow = name_values(text, "probe_shallow");
    assert!(
        shallow.contains("Str(\"tpu\")") && !shallow.contains("cpu"),
        "{shallow}"
    );
    let read = name_values(text, "probe_read");
    assert!(read.contains("Str(\"cpu\")"), "{read}");
}

/// `d.update(overrides or {})` stores what `overrides` holds: nothing for
/// the default `None`, its entry for a dict passed.
#[test]
fn an_update_with_a_dict_or_nothing_stores_its_entries() {
    let text = "DEFAULTS = {\"backend\": \"mosaic_tpu\", \"rows\": 8}\n\n\ndef load(overrides=None):\n    config = dict(DEFAULTS)\n    config.update(overrides or {})\n    return config\n\n\ndef load_given(overrides=None):\n    config = dict(DEFAULTS)\n    config.update(overrides or {})\n    return config\n\n\nprobe_default = load()[\"backend\"]\nprobe_given = load_given({\"backend\": \"interpret\"})[\"backend\"]\n";
    let default = name_values(text, "probe_default");
    assert_eq!(
        default,
        "[ConstAlt { val: Str(\"mosaic_tpu\"), why: Fixed }]"
    );
    let given = name_values(text, "probe_given");
    assert!(
        given.contains("Str(\"interpret\")")
            && !given.contains("mosaic")
            && !given.contains("Unknown"),
        "{given}"
    );
}

/// A list held in a dict grows through the dict's name
/// (`KERNELS["copy"].append(f)`, `setdefault`), and a list named again
/// or given to a function of the module that changes it is not known.
#[test]
fn lists_change_through_entries_aliases_and_helpers() {
    let text = "KERNELS = {\"copy\": [], \"scale\": []}\nKERNELS[\"copy\"].append(\"tpu\")\nKERNELS.setdefault(\"scale\", []).append(\"cpu\")\nprobe_entry = KERNELS[\"copy\"]\nprobe_setdefault = KERNELS[\"scale\"]\n\nTABLE = {\"a\": []}\nrows = TABLE[\"a\"]\nrows.append(\"tpu\")\nprobe_entry_alias = TABLE[\"a\"]\n\nxs = []\nys = xs\nys.append(\"tpu\")\nprobe_alias = xs\n\n\ndef fill(layers):\n    layers.append(\"tpu\")\n\n\nzs = []\nfill(zs)\nprobe_helper = zs\n\nws = []\nprint(ws)\nprobe_read_only = ws\n";
    let entry = name_values(text, "probe_entry");
    assert_eq!(
        entry,
        "[ConstAlt { val: Seq(List, [Str(\"tpu\")]), why: Fixed }]"
    );
    let setdefault = name_values(text, "probe_setdefault");
    assert_eq!(
        setdefault,
        "[ConstAlt { val: Seq(List, [Str(\"cpu\")]), why: Fixed }]"
    );
    for name in ["probe_entry_alias", "probe_alias", "probe_helper"] {
        let probe = name_values(text, name);
        assert!(probe.contains("Unknown"), "{name}: {probe}");
    }
    let read_only = name_values(text, "probe_read_only");
    assert_eq!(read_only, "[ConstAlt { val: Seq(List, []), why: Fixed }]");
}

/// A member of an enum of this module is an instance of its class.
#[test]
fn an_enum_member_is_an_instance_of_its_enum() {
    let text = "import enum\n\n\nclass Backend(enum.Enum):\n    TPU = \"tpu\"\n    GPU = \"gpu\"\n\n\nprobe_own = isinstance(Backend.TPU, Backend)\nprobe_str = isinstance(Backend.TPU, str)\n";
    assert_eq!(
        name_values(text, "probe_own"),
        "[ConstAlt { val: Bool(true), why: Fixed }]"
    );
    assert_eq!(
        name_values(text, "probe_str"),
        "[ConstAlt { val: Bool(false), why: Fixed }]"
    );
}

/// `get_abstract_mesh()` in a helper is the mesh every call of it runs
/// under (through callers of callers); with one call outside the `with`,
/// it is not known.
#[test]
fn the_ambient_abstract_mesh_is_the_one_every_call_runs_under() {
    let text = "import jax\nfrom jax.sharding import AbstractMesh\n\n\ndef ambient():\n    return jax.sharding.get_abstract_mesh()\n\n\ndef is_empty():\n    return ambient().empty\n\n\ndef plan():\n    return is_empty()\n\n\ndef mixed():\n    return jax.sharding.get_abstract_mesh().empty\n\n\nmesh = AbstractMesh((2, 4), (\"data\", \"model\"))\nwith jax.sharding.use_abstract_mesh(mesh):\n    probe_helpers = plan()\n    probe_mixed = mixed()\nprobe_outside = mixed()\n";
    assert_eq!(
        name_values(text, "probe_helpers"),
        "[ConstAlt { val: Bool(false), why: Fixed }]"
    );
    for name in ["probe_mixed", "probe_outside"] {
        let probe = name_values(text, name);
        assert!(probe.contains("Unknown"), "{name}: {probe}");
    }
}

/// `dataclasses.replace` of an object a run-time default picks the class
/// of: the default's object replaced, the other choices still not known.
#[test]
fn a_replace_keeps_the_default_object_of_a_run_time_choice() {
    let text = "import dataclasses\nimport os\n\n\n@dataclasses.dataclass(frozen=True)\nclass Quiet:\n    log: bool = False\n\n\nclass Other:\n    pass\n\n\nCLASSES = {\"quiet\": Quiet, \"other\": Other}\nmade = CLASSES[os.environ.get(\"KIND\", \"quiet\")]()\nprobe = dataclasses.replace(made, log=True).log\n";
    let probe = name_values(text, "probe");
    assert!(probe.contains("Bool(true), why: Default("), "{probe}");
    assert!(!probe.contains("Bool(false)"), "{probe}");
}

/// `d[a, b]` is the tuple key `(a, b)`, as `d[(a, b)]` is: another tuple
/// with the same first item is another key.
#[test]
fn a_subscript_of_several_indices_is_a_tuple_key() {
    let text = "T = {}\nT[\"a\", 1] = (\"cpu\",)\nT[\"a\", 2] = (\"tpu\",)\nfirst = T[\"a\", 1]\nL = {(\"x\", \"gpu\"): \"cuda\", (\"x\", \"tpu\"): \"tpu\"}\n\n\ndef pick(op, backend):\n    return L[(op, backend)]\n\n\npicked = pick(\"x\", \"gpu\")\ngot = L.get((\"x\", \"tpu\"))\nhas = (\"x\", \"gpu\") in L\n";
    let first = name_values(text, "first");
    assert!(
        first.contains("Str(\"cpu\")") && !first.contains("tpu"),
        "{first}"
    );
    let picked = name_values(text, "picked");
    assert!(
        picked.contains("Str(\"cuda\")") && !picked.contains("tpu"),
        "{picked}"
    );
    assert!(name_values(text, "got").contains("Str(\"tpu\")"));
    assert!(name_values(text, "has").contains("Bool(true)"));
}

/// `dict(pairs)`: the last pair of a key gives its entry, whether the
/// pairs are a list, a generator or `zip(keys, values)`.
#[test]
fn a_dict_of_pairs_has_their_entries() {
    let text = "PAIRS = [(\"a\", \"cuda\"), (\"b\", 2), (\"a\", \"tpu\")]\nlisted = dict(PAIRS)[\"a\"]\ngenerated = dict(p for p in PAIRS)[\"b\"]\nzipped = dict(zip([\"x\", \"y\"], [\"cpu\", \"tpu\"]))[\"y\"]\n";
    let listed = name_values(text, "listed");
    assert!(
        listed.contains("Str(\"tpu\")") && !listed.contains("cuda"),
        "{listed}"
    );
    assert!(name_values(text, "generated").contains("Int(2)"));
    let zipped = name_values(text, "zipped");
    assert!(
        zipped.contains("Str(\"tpu\")") && !zipped.contains("cpu"),
        "{zipped}"
    );
}

/// A `dict` subclass whose `__init__` fills it (`super().__init__(...)`,
/// `self[k] = v` over the argument's items) holds what that `__init__`
/// stores for the constructor call; `__getattr__` reading `self[k]` too.
#[test]
fn a_dict_subclass_holds_what_its_init_stores() {
    let text = "class Config(dict):\n    def __init__(self, initial=None, **kwargs):\n        super().__init__()\n        for k, v in dict(initial or {}, **kwargs).items():\n            self[k] = v\n\n    def __getattr__(self, name):\n        return self[name]\n\n\nclass Passed(dict):\n    def __init__(self, d=None, **kw):\n        super().__init__(d or {}, **kw)\n\n\nlooped = Config({\"platforms\": \"tpu\", \"debug\": False})[\"platforms\"]\nattr = Config(platforms=\"cuda\").platforms\npassed = Passed(platforms=\"cpu\")[\"platforms\"]\nfetched = Passed({\"p\": \"tpu\"}).get(\"p\")\n";
    let looped = name_values(text, "looped");
    assert!(
        looped.contains("Str(\"tpu\")") && !looped.contains("Bool"),
        "{looped}"
    );
    assert!(name_values(text, "attr").contains("Str(\"cuda\")"));
    assert!(name_values(text, "passed").contains("Str(\"cpu\")"));
    assert!(name_values(text, "fetched").contains("Str(\"tpu\")"));
}

/// A key stored on every pass of a loop holds, after the loop, what the
/// last pass stored (not each pass's value as if all stayed).
#[test]
fn a_key_stored_in_a_loop_holds_the_last_pass() {
    let text = "cfg = {}\nfor p in [\"tpu\", \"cpu\"]:\n    cfg[\"platform\"] = p\nafter = cfg[\"platform\"]\n\n\nclass Cfg(dict):\n    def __init__(self):\n        super().__init__()\n        for p in (\"cuda\", \"tpu\"):\n            self[\"platform\"] = p\n\n\nmade = Cfg()[\"platform\"]\n";
    let after = name_values(text, "after");
    assert!(
        after.contains("Str(\"cpu\")") && !after.contains("tpu"),
        "{after}"
    );
    let made = name_values(text, "made");
    assert!(
        made.contains("Str(\"tpu\")") && !made.contains("cuda"),
        "{made}"
    );
}

/// A list stored as a dict's entry and grown through it (`D["k"] = []`,
/// then `D["k"].append(x)`) is not the empty list it was stored as.
#[test]
fn a_list_stored_as_an_entry_keeps_what_is_appended() {
    let text = "D = {}\nD[\"k\"] = []\nD[\"k\"].append(\"tpu\")\nnamed = D[\"k\"]\n\n\nclass Registry:\n    def __init__(self):\n        self.by_name = {}\n\n    def add(self, name, fn):\n        self.by_name[name] = []\n        self.by_name[name].append(fn)\n\n\nreg = Registry()\nreg.add(\"norm\", \"triton\")\nheld = reg.by_name[\"norm\"]\n";
    let named = name_values(text, "named");
    assert!(named.contains("Str(\"tpu\")"), "{named}");
    let held = name_values(text, "held");
    assert!(!held.contains("Seq(List, [])"), "{held}");
}

/// Two parsers with one option each: which one parsed is not followed,
/// so neither default is the plain run's.
#[test]
fn an_option_of_two_parsers_has_no_plain_run_default() {
    let text = "import argparse\n\n\ndef local_parser():\n    ap = argparse.ArgumentParser()\n    ap.add_argument(\"--platform\", default=\"tpu\")\n    return ap\n\n\ndef export_parser():\n    ap = argparse.ArgumentParser()\n    ap.add_argument(\"--platform\", default=\"cpu\")\n    return ap\n\n\nargs = export_parser().parse_args()\nprobe = args.platform\n";
    let probe = name_values(text, "probe");
    assert!(!probe.contains("Default"), "{probe}");
    assert!(probe.contains("Choice"), "{probe}");
}

/// An object handed to a helper that calls what a parameter holds (a
/// visitor) may be changed by it: a field that function stores is no
/// longer the constructor's.
#[test]
fn a_field_a_visitor_may_store_is_not_the_constructors() {
    let text = "class Tagged:\n    def __init__(self):\n        self.value = None\n\n\ndef walk(node, visit):\n    visit(node)\n\n\ndef set_tagged(tagged, value):\n    def visitor(n):\n        n.value = value\n\n    walk(tagged, visitor)\n\n\nt = Tagged()\nset_tagged(t, \"cpu\")\nprobe = t.value\n";
    let probe = name_values(text, "probe");
    assert!(!probe.contains("val: None, why: Fixed"), "{probe}");
}

/// Folds of known iterables: `sorted` of a dict's keys, `max`/`min`/`sum`
/// /`any`/`all` of one iterable, `math.prod`, `itertools.product`,
/// `str.find`/`index`.
#[test]
fn folds_of_known_iterables_are_computed() {
    let text = "import itertools\nimport math\n\nD = {\"b\": 1, \"a\": 2}\nkeys = sorted(D)\nbiggest = max([3, 7, 5])\nsmallest = min([\"tpu\", \"cpu\"])\ntotal = sum((1, 2, 3))\nsome = any([False, True])\nevery = all([1, 0])\ncells = math.prod((2, 4))\npairs = list(itertools.product([\"a\", \"b\"], [1]))\nat = \"ij\".index(\"j\")\nmissing = \"ij\".find(\"k\")\n";
    let keys = name_values(text, "keys");
    assert!(
        keys.contains("Seq(List, [Str(\"a\"), Str(\"b\")])"),
        "{keys}"
    );
    for (name, want) in [
        ("biggest", "Int(7)"),
        ("smallest", "Str(\"cpu\")"),
        ("total", "Int(6)"),
        ("some", "Bool(true)"),
        ("every", "Bool(false)"),
        ("cells", "Int(8)"),
        ("at", "Int(1)"),
        ("missing", "Int(-1)"),
    ] {
        let got = name_values(text, name);
        assert!(got.contains(want), "{name}: {got}");
    }
    let pairs = name_values(text, "pairs");
    assert!(
        pairs.contains("Seq(Tuple, [Str(\"a\"), Int(1)]), Seq(Tuple, [Str(\"b\"), Int(1)])"),
        "{pairs}"
    );
}

/// Float arithmetic as Python does it: true division of ints, `**`,
/// `round` to even, `int` toward zero, comparisons with ints; a step count
/// computed from a duration decides `steps <= 0`.
#[test]
fn floats_are_computed_as_python_does() {
    let text = "C0 = 299_792_458.0\ntime = 10.0\ndt = 0.5\nsteps = int(round(time / dt))\nnone_left = steps <= 0\nhalf = 1 / 2\nroot = 2 ** 0.5\ninverse = 2 ** -1\neven = round(2.5)\ntoward_zero = int(-3.9)\nsame = 1.0 == 1\nmixed = max([1.5, 2])\nfloored = -7.5 % 2\nspeed = C0 * 2\n";
    for (name, want) in [
        ("steps", "Int(20)"),
        ("none_left", "Bool(false)"),
        ("half", "Float(0.5)"),
        ("root", "Float(1.414"),
        ("inverse", "Float(0.5)"),
        ("even", "Int(2)"),
        ("toward_zero", "Int(-3)"),
        ("same", "Bool(true)"),
        ("mixed", "Int(2)"),
        ("floored", "Float(0.5)"),
        ("speed", "Float(599584916.0)"),
    ] {
        let got = name_values(text, name);
        assert!(got.contains(want), "{name}: {got}");
    }
}

/// `cfg.platforms = v` on a `dict` subclass whose `__setattr__` stores the
/// item (ml_collections' `ConfigDict`) is a store of the key; the last one
/// before a read is what it reads, `.get` included.
#[test]
fn an_attribute_store_through_an_item_setattr_is_an_item_store() {
    let text = "class Config(dict):\n    def __setattr__(self, name, value):\n        self[name] = value\n\n    def __getattr__(self, name):\n        return self[name]\n\n\ncfg = Config()\ncfg.platforms = \"tpu\"\nitem = cfg[\"platforms\"]\nattr = cfg.platforms\ncfg.platforms = \"cpu\"\nfetched = cfg.get(\"platforms\")\n\n\nclass AttrDict(dict):\n    __setattr__ = dict.__setitem__\n\n\nd = AttrDict(p=1)\nd.p = 2\nreplaced = d[\"p\"]\n";
    for (name, want, not_want) in [
        ("item", "Str(\"tpu\")", "cpu"),
        ("attr", "Str(\"tpu\")", "cpu"),
        ("fetched", "Str(\"cpu\")", "tpu"),
        ("replaced", "Int(2)", "Int(1)"),
    ] {
        let got = name_values(text, name);
        assert!(
            got.contains(want) && !got.contains(not_want),
            "{name}: {got}"
        );
    }
}

/// `d.get(k)` reads what `d` holds where the call is: a store replaced
/// before it is not read.
#[test]
fn get_reads_the_last_store_before_the_call() {
    let text = "D = {}\nD[\"k\"] = \"tpu\"\nD[\"k\"] = \"cpu\"\nfetched = D.get(\"k\")\nD[\"k\"] = \"cuda\"\n";
    let got = name_values(text, "fetched");
    assert!(
        got.contains("Str(\"cpu\")") && !got.contains("tpu") && !got.contains("cuda"),
        "{got}"
    );
}

/// A loop element a guard `if cond: continue` certainly skips does not
/// reach the statements after it (an empty line is skipped before it is
/// split into a key and a value).
#[test]
fn an_element_a_continue_guard_skips_reaches_nothing_after_it() {
    let text = "def load(lines):\n    cfg = {}\n    for line in lines:\n        if not line or line.startswith(\"#\"):\n            continue\n        key, value = line.split(\":\", 1)\n        cfg[key] = value.strip()\n    return cfg\n\n\nhardware = load([\"\", \"# comment\", \"hw: tpu\"])[\"hw\"]\n";
    let got = name_values(text, "hardware");
    assert!(
        got.contains("Str(\"tpu\")") && !got.contains("Unknown"),
        "{got}"
    );
}

/// A store whose value is a conditional expression with its first arm
/// dead (`int(v) if False else v`) still runs: the dead arm starts where
/// the expression does, but does not hold all of it.
#[test]
fn a_store_of_a_conditional_with_a_dead_first_arm_runs() {
    let text = "DEBUG = False\nc = {}\nc[\"k\"] = len(\"q\") if DEBUG else \"e\"\nstored = c[\"k\"]\nhas = \"k\" in c\n";
    let stored = name_values(text, "stored");
    assert!(stored.contains("Str(\"e\")"), "{stored}");
    let has = name_values(text, "has");
    assert!(has.contains("Bool(true)"), "{has}");
}

/// A guard `if not line: continue` prunes the element for values derived
/// from the loop variable after it too (a name rebound from it first).
#[test]
fn a_continue_guard_prunes_values_derived_from_the_element() {
    let text = "def load(text=\"\\n# c\\nhw: 'tpu'\\nn: 4\"):\n    config = {}\n    for line in text.splitlines():\n        line = line.split(\"#\", 1)[0].strip()\n        if not line:\n            continue\n        key, value = line.split(\":\", 1)\n        value = value.strip().strip(\"'\")\n        config[key] = int(value) if value.isdigit() else value\n    return config\n\n\nhardware = load()[\"hw\"]\nsize = load()[\"n\"]\n";
    let hardware = name_values(text, "hardware");
    assert!(
        hardware.contains("Str(\"tpu\")") && !hardware.contains("Unknown"),
        "{hardware}"
    );
    let size = name_values(text, "size");
    assert!(size.contains("Int(4)"), "{size}");
}

/// `**opts` after a loop storing `opts[k]` on each pass passes the last
/// pass's value; inside the loop, each pass's own.
#[test]
fn a_splat_after_a_storing_loop_passes_the_last_pass() {
    let text = "import jax\n\n\ndef f(x):\n    return x\n\n\nafter = {}\nfor platform in [\"cpu\", \"tpu\"]:\n    after[\"lowering_platforms\"] = (platform,)\nlowered = jax.jit(f).trace(1.0).lower(**after)\n";
    let dump = debug_lowerings(text);
    let line = dump
        .lines()
        .filter(|l| l.starts_with("line 11 "))
        .collect::<Vec<_>>();
    assert_eq!(line.len(), 1, "{dump}");
    assert!(line[0].contains("Tuple([\"tpu\"])"), "{dump}");
    let after = name_values(text, "after");
    assert!(
        after.contains("Str(\"tpu\")") && !after.contains("cpu"),
        "{after}"
    );
}

/// A module-level name bound in a loop holds the last element after it,
/// also when a def comes first (the module's scope node in a unit is its
/// first statement, not all of it).
#[test]
fn a_name_bound_in_a_module_loop_after_a_def_holds_the_last_element() {
    let text = "import jax\n\n\ndef f(x):\n    return x\n\n\nfor p in [\"cpu\", \"tpu\"]:\n    plat = p\nafter = plat\n";
    let after = name_values(text, "after");
    assert!(
        after.contains("Str(\"tpu\")") && !after.contains("cpu"),
        "{after}"
    );
}

/// `try: v = int(v) except ValueError: pass` is decided by the value:
/// text that does not convert takes the handler (the name keeps the
/// text), text that does takes the body.
#[test]
fn a_try_around_a_conversion_is_decided_by_the_value() {
    let text = "def conv(v):\n    try:\n        v = int(v)\n    except (TypeError, ValueError) as e:\n        pass\n    return v\n\n\ndef conv_return(v):\n    try:\n        return float(v)\n    except ValueError:\n        return v\n\n\nA = conv(\"tpu\")\nB = conv(\"3\")\nC = conv_return(\"tpu\")\nD = conv_return(\"2.5\")\n";
    assert_eq!(
        name_values(text, "A"),
        "[ConstAlt { val: Str(\"tpu\"), why: Fixed }]"
    );
    assert_eq!(
        name_values(text, "B"),
        "[ConstAlt { val: Int(3), why: Fixed }]"
    );
    assert_eq!(
        name_values(text, "C"),
        "[ConstAlt { val: Str(\"tpu\"), why: Fixed }]"
    );
    assert_eq!(
        name_values(text, "D"),
        "[ConstAlt { val: Float(2.5), why: Fixed }]"
    );
}

/// A handler that names another exception, a value from the environment,
/// or an import: not decided, both ways stay run-time choices.
#[test]
fn a_try_is_not_decided_when_the_handler_or_value_is_not_known() {
    let text = "import os\n\n\ndef conv(v):\n    try:\n        v = int(v)\n    except KeyError:\n        v = \"k\"\n    except ValueError:\n        v = \"bad\"\n    return v\n\n\ndef conv_custom(v):\n    try:\n        v = int(v)\n    except MyError:\n        v = \"mine\"\n    except ValueError:\n        v = \"bad\"\n    return v\n\n\nclass MyError(ValueError):\n    pass\n\n\nA = conv(\"tpu\")\nB = conv_custom(\"tpu\")\nC = conv(os.environ[\"P\"])\ntry:\n    import triton\n    HAS = True\nexcept ImportError:\n    HAS = False\nD = HAS\n";
    assert_eq!(
        name_values(text, "A"),
        "[ConstAlt { val: Str(\"bad\"), why: Fixed }]"
    );
    let b = name_values(text, "B");
    assert!(
        b.contains("mine") && b.contains("bad") && b.contains("Choice"),
        "{b}"
    );
    let c = name_values(text, "C");
    assert!(c.contains("bad") && c.contains("Choice"), "{c}");
    let d = name_values(text, "D");
    assert!(
        d.contains("true") && d.contains("false") && d.contains("Choice"),
        "{d}"
    );
}

/// In a loop over constant lines, an `if` or `try` around a binding is
/// decided per line: each line's value is the one its own path made, as
/// certain as the line is (a config text coerced field by field).
#[test]
fn branches_in_a_loop_are_decided_per_element() {
    let text = "def load(text):\n    out = {}\n    for line in text.strip().splitlines():\n        key, _, value = line.partition(\":\")\n        value = value.strip()\n        if \".\" in value:\n            value = float(value)\n        else:\n            try:\n                value = int(value)\n            except ValueError:\n                pass\n        out[key.strip()] = value\n    return out\n\n\nCFG = load(\"a: 0.5\\nb: tpu\\nc: 8\\n\")\nA = CFG[\"a\"]\nB = CFG[\"b\"]\nC = CFG[\"c\"]\n";
    let a = name_values(text, "A");
    assert!(
        a.contains("Float(0.5)") && !a.contains("Str") && !a.contains("Choice"),
        "{a}"
    );
    let b = name_values(text, "B");
    assert!(
        b.contains("Str(\"tpu\")") && !b.contains("Unknown") && !b.contains("Choice"),
        "{b}"
    );
    let c = name_values(text, "C");
    assert!(
        c.contains("Int(8)") && !c.contains("Str") && !c.contains("Choice"),
        "{c}"
    );
}

/// A binding in one branch of an `if` never reaches a read in another.
#[test]
fn a_binding_in_one_branch_does_not_reach_a_read_in_another() {
    let text = "import sys\nx = \"cpu\"\nif len(sys.argv) > 1:\n    x = \"tpu\"\nelse:\n    y = x\nA = y\n";
    assert_eq!(
        name_values(text, "A"),
        "[ConstAlt { val: Str(\"cpu\"), why: Fixed }]"
    );
}

/// A dict a function fills and returns: a later straight-line store of a
/// key (or `update` with the call's keywords) replaces the earlier one for
/// the caller's read, as it does for a read in the function itself.
#[test]
fn a_returned_dict_holds_the_last_store_of_a_key() {
    let text = "def parse(**overrides):\n    config = {}\n    config[\"hardware\"] = \"tpu\"\n    config.update(overrides)\n    return config\n\n\ndef build():\n    cfg = {}\n    cfg[\"p\"] = \"tpu\"\n    cfg[\"p\"] = \"cpu\"\n    return cfg\n\n\nA = parse(hardware=\"cpu\")[\"hardware\"]\nB = build()[\"p\"]\n";
    let a = name_values(text, "A");
    assert!(a.contains("Str(\"cpu\")") && !a.contains("tpu"), "{a}");
    assert_eq!(
        name_values(text, "B"),
        "[ConstAlt { val: Str(\"cpu\"), why: Fixed }]"
    );
}

/// A config factory taking `**overrides`, called from several places: each
/// call's dict holds that call's keywords over the defaults (`update`, a
/// `{**a, **b}` display, `dict(a, **b)`), not every call's.
#[test]
fn a_factorys_overrides_are_read_per_call() {
    let text = "DEFAULTS = {\"platform\": \"tpu\", \"steps\": 10}\n\n\ndef make_config(**overrides):\n    cfg = dict(DEFAULTS)\n    cfg.update(overrides)\n    return cfg\n\n\ndef make_display(**overrides):\n    return {**DEFAULTS, **overrides}\n\n\ndef make_call(**overrides):\n    return dict(DEFAULTS, **overrides)\n\n\nA = make_config()[\"platform\"]\nB = make_config(platform=\"cpu\")[\"platform\"]\nC = make_display()[\"platform\"]\nD = make_display(platform=\"cpu\")[\"platform\"]\nE = make_call()[\"platform\"]\nF = make_call(platform=\"cpu\")[\"platform\"]\n";
    for (name, want, other) in [
        ("A", "tpu", "cpu"),
        ("B", "cpu", "tpu"),
        ("C", "tpu", "cpu"),
        ("D", "cpu", "tpu"),
        ("E", "tpu", "cpu"),
        ("F", "cpu", "tpu"),
    ] {
        let got = name_values(text, name);
        assert!(
            got.contains(&format!("Str(\"{want}\")"))
                && !got.contains(other)
                && !got.contains("Unknown"),
            "{name}: {got}"
        );
    }
}

#[test]
fn a_context_stack_top_is_what_the_manager_in_force_pushed() {
    let managers = "import contextlib\n\nSTACK = [\"cpu\"]\n\n\n@contextlib.contextmanager\ndef target(name):\n    STACK.append(name)\n    try:\n        yield\n    finally:\n        STACK.pop()\n\n\nclass Scope:\n    active = []\n\n    def __init__(self, platform):\n        self.platform = platform\n\n    def __enter__(self):\n        Scope.active.append(self)\n        return self\n\n    def __exit__(self, *exc):\n        Scope.active.pop()\n\n\ndef push(name):\n    STACK.append(name)\n\n\n";
    // (Each text under at most `MAX_OVERLAYS` states: past that, sites
    // read the module plainly.)
    let nested = format!("{managers}with target(\"cuda\"):\n    INSIDE = STACK[-1]\n    with target(\"tpu\"):\n        NESTED = STACK[-1]\n    STACK.pop()\n    POPPED = STACK[-1]\nAFTER = STACK[-1]\n");
    let others = format!("{managers}with Scope(\"tpu\"):\n    SCOPED = Scope.active[-1].platform\nwith target(\"cuda\"):\n    STACK = [\"cpu\"]\n    REBOUND = STACK[-1]\npush(\"tpu\")\nPUSHED = STACK[-1]\n");
    for (text, name, want) in [
        (&nested, "INSIDE", Some("cuda")),
        (&nested, "NESTED", Some("tpu")),
        (&nested, "POPPED", None),
        (&nested, "AFTER", None),
        (&others, "SCOPED", Some("tpu")),
        (&others, "REBOUND", Some("cpu")),
        (&others, "PUSHED", Some("tpu")),
    ] {
        let got = name_values(text, name);
        match want {
            Some(want) => assert!(
                got.contains(&format!("Str(\"{want}\")")) && got.matches("Str(").count() == 1,
                "{name}: {got}"
            ),
            // Not known: no pushed name read as certain.
            None => assert!(
                !got.contains("Str(\"cuda\")") && !got.contains("Str(\"tpu\")"),
                "{name}: {got}"
            ),
        }
    }
}

#[test]
fn a_list_a_function_grows_is_not_its_first_binding_alone() {
    // Two module-level bindings of `STACK`: the function's append may
    // change either; the read after its call is not the literal's last item.
    let text = "STACK = [\"cpu\"]\n\n\ndef grow(name):\n    STACK.append(name)\n\n\nfor name in [\"cuda\"]:\n    grow(name)\nLAST = STACK[-1]\nSTACK = [\"tpu\"]\n";
    let got = name_values(text, "LAST");
    assert!(!got.contains("Str(\"cpu\")"), "{got}");
}

#[test]
fn a_setter_called_twice_leaves_its_last_store() {
    let setter = "class Config:\n    def __init__(self):\n        self.values = {}\n\n    def set(self, name, val):\n        self.values[name] = val\n\n\nconfig = Config()\nconfig.set(\"plat\", \"tpu\")\nBETWEEN = config.values[\"plat\"]\nconfig.set(\"plat\", \"cpu\")\nLAST = config.values[\"plat\"]\nconfig.set(\"other\", \"x\")\nSTILL = config.values[\"plat\"]\n\n\ndef reader():\n    return config.values[\"plat\"]\n\n\nREAD = reader()\n\n\nclass Defaults:\n    plat = config.values[\"plat\"]\n\n\nCLASS_BODY = Defaults.plat\n";
    for (name, want, other) in [
        ("BETWEEN", "tpu", "cpu"),
        ("LAST", "cpu", "tpu"),
        ("STILL", "cpu", "tpu"),
        ("READ", "cpu", "tpu"),
        ("CLASS_BODY", "cpu", "tpu"),
    ] {
        let got = name_values(setter, name);
        assert!(
            got.contains(&format!("Str(\"{want}\"), why: Fixed")) && !got.contains(other),
            "{name}: {got}"
        );
    }
    // A call in a function that may run at any time: which store the read
    // sees is not known, and no value is certain.
    let elsewhere = format!("{setter}\n\ndef later():\n    config.set(\"plat\", \"cuda\")\n");
    let got = name_values(&elsewhere, "LAST");
    assert!(!got.contains("Fixed") && !got.contains("Each"), "{got}");
    // Two objects of the class, each set once: neither store is certain
    // for a read of one of them (the stores are not told apart by object).
    let two = "class Config:\n    def __init__(self):\n        self.values = {}\n\n    def set(self, name, val):\n        self.values[name] = val\n\n\nc1 = Config()\nc2 = Config()\nc1.set(\"plat\", \"tpu\")\nc2.set(\"plat\", \"cpu\")\nA = c1.values[\"plat\"]\n";
    let got = name_values(two, "A");
    assert!(
        !got.contains("Str(\"cpu\"), why: Fixed") && !got.contains("Each"),
        "{got}"
    );
}

#[test]
fn a_local_of_a_managers_name_does_not_hide_its_calls() {
    // `configured(settings=None): settings = ...` binds a local, not the
    // manager: the manager's `**overrides` are still its calls'.
    let text = "import contextlib\n\n_CFG = {\"platforms\": (\"cpu\",)}\n\n\n@contextlib.contextmanager\ndef settings(**overrides):\n    global _CFG\n    saved = _CFG\n    _CFG = {**_CFG, **overrides}\n    try:\n        yield\n    finally:\n        _CFG = saved\n\n\ndef configured(settings=None):\n    settings = {} if settings is None else settings\n    return settings\n\n\nwith settings(platforms=\"tpu\"):\n    P = _CFG[\"platforms\"]\n";
    let got = name_values(text, "P");
    assert!(
        got.contains("Str(\"tpu\")") && !got.contains("Unknown") && !got.contains("Choice"),
        "{got}"
    );
}

/// A dict made empty is true once a store into it certainly ran before the
/// read (`d or {}` is `d`); a store that may not run leaves both sides.
#[test]
fn a_dict_filled_before_the_read_is_true() {
    let text = "def make(flag):\n    d = {}\n    if flag:\n        d[\"k\"] = \"cpu\"\n    return d or {\"k\": \"none\"}\n\n\nfilled = {}\nfilled[\"k\"] = \"tpu\"\nprobe = filled or {\"k\": \"none\"}\nmaybe = make(OTHER)\n";
    let probe = name_values(text, "probe");
    assert!(probe.contains("Str(\"tpu\")"), "{probe}");
    assert!(!probe.contains("none"), "{probe}");
    assert!(probe.contains("why: Fixed"), "{probe}");
    let maybe = name_values(text, "maybe");
    assert!(maybe.contains("Str(\"none\")"), "{maybe}");
}

/// The lowerings of `text` (`line N ...` of the dump), each with the
/// requirement lines under it.
fn lowerings(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in debug_lowerings(text).lines() {
        if line.starts_with("line ") {
            out.push(line.to_owned());
        } else if line.starts_with("  req ") {
            if let Some(last) = out.last_mut() {
                last.push('\n');
                last.push_str(line);
            }
        }
    }
    out
}

/// A closure reads a variable of the function around it as it is when the
/// closure runs: with no binding after the def, the guarded rebinding (`log
/// = None; if make is not None: log = make()`) is joined by the ways its
/// guard runs; and a lowering inside that function runs on each call, so
/// the callback the closure's guard keeps for one call site is reached from
/// that call's lowering only.
#[test]
fn a_closure_guard_is_decided_per_call_of_the_function_lowering_it() {
    let text = "import jax\nfrom jax.experimental import io_callback\n\n\ndef make_log():\n    return lambda x: io_callback(print, None, x)\n\n\ndef export(platform, make=None):\n    log = None\n    if make is not None:\n        log = make()\n\n    def step(x):\n        if log is not None:\n            log(x)\n        return x\n\n    return jax.jit(step).trace(1.0).lower(lowering_platforms=(platform,))\n\n\nexport(\"cpu\", make_log)\nexport(\"tpu\")\n";
    let found = lowerings(text);
    assert_eq!(found.len(), 2, "{found:?}");
    let cpu = found.iter().find(|l| l.contains("Tuple([\"cpu\"])"));
    let tpu = found.iter().find(|l| l.contains("Tuple([\"tpu\"])"));
    let (Some(cpu), Some(tpu)) = (cpu, tpu) else {
        panic!("{found:?}");
    };
    assert!(
        cpu.contains("HostCallback") && cpu.contains("guards=[]"),
        "{cpu}"
    );
    assert!(!tpu.contains("HostCallback"), "{tpu}");
}

/// A def that is the default of a parameter only ever called (`def
/// save(build_fn=build)`, then `build_fn(...)`) has that call as its call
/// site: a lowering in what it returns reads the call's arguments, and no
/// unknown caller besides.
#[test]
fn a_def_called_through_its_parameter_default_gets_that_calls_arguments() {
    let text = "import jax\n\n\ndef build(platforms=None):\n    def export():\n        return jax.jit(abs).trace(1.0).lower(lowering_platforms=platforms)\n    return export\n\n\ndef save(build_fn=build):\n    return build_fn(platforms=(\"tpu\",))()\n\n\nsave()\n";
    let found = lowerings(text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("platforms=Tuple([\"tpu\"])"), "{found:?}");
}

/// A return that runs because a default of run-time configuration decided
/// its `if` is what a plain run returns: the default's note, not `Fixed`.
/// An object returned that way stays as it was (call edges take it).
#[test]
fn a_return_decided_by_a_default_names_the_default() {
    let text = "import os\n\nTARGET = os.environ.get(\"TARGET\", \"gpu\")\n\n\nclass Meter:\n    pass\n\n\ndef platform():\n    if TARGET == \"gpu\":\n        return \"cuda\"\n    return \"tpu\"\n\n\ndef meter():\n    if TARGET == \"gpu\":\n        return Meter()\n    return None\n\n\nprobe = platform()\nmade = meter()\nfixed = \"cuda\" if True else \"tpu\"\n";
    let probe = name_values(text, "probe");
    assert!(probe.contains("Str(\"cuda\")"), "{probe}");
    assert!(!probe.contains("Str(\"tpu\")"), "{probe}");
    assert!(
        probe.contains("why: Default(\"with the default of $TARGET"),
        "{probe}"
    );
    let made = name_values(text, "made");
    assert!(made.contains("why: Fixed"), "{made}");
}

/// The jitted function a default of run-time configuration picks
/// (`BUILDERS[os.environ.get(K, "debug")]().build()`) is what a plain run
/// lowers: a lowering of it carries the default; another name's pick does
/// not reach the callback.
#[test]
fn a_jit_picked_by_a_default_is_lowered_with_the_default() {
    let program = |default: &str| {
        format!("import os\nimport jax\n\n\ndef noisy(x):\n    jax.debug.print(\"{{}}\", x)\n    return x\n\n\nclass Debug:\n    def build(self):\n        return jax.jit(noisy)\n\n\nclass Fast:\n    def build(self):\n        return jax.jit(lambda x: x)\n\n\nBUILDERS = {{\"debug\": Debug, \"fast\": Fast}}\nstep = BUILDERS[os.environ.get(\"STEP\", \"{default}\")]().build()\nstep.trace(1.0).lower(lowering_platforms=(\"tpu\",))\n")
    };
    let debug = debug_lowerings(&program("debug"));
    let line = debug
        .lines()
        .find(|l| l.starts_with("line 22 TracedLower"))
        .unwrap_or_else(|| panic!("no lowering in:\n{debug}"));
    assert!(
        line.contains("why=Default(\"with the default of $STEP"),
        "{debug}"
    );
    assert!(debug.contains("HostCallback"), "{debug}");
    let fast = debug_lowerings(&program("fast"));
    assert!(!fast.contains("HostCallback"), "{fast}");
}

/// A dict given to a function of this module that stores into the
/// parameter receiving it (`def override(cfg): cfg["k"] = v`) is not the
/// literal any more: its entries are not known (never the stale literal).
/// One given to a function that only reads it keeps its entries.
#[test]
fn a_dict_changed_through_a_parameter_is_not_its_literal() {
    let text = "def override(cfg):\n    cfg[\"platforms\"] = \"cpu\"\n    return cfg\n\n\ndef update_by_keyword(*, cfg):\n    cfg.update(platforms=\"cpu\")\n\n\ndef read(cfg):\n    return cfg\n\n\nD = {\"platforms\": (\"cpu\",)}\noverride(D)\nnamed = D[\"platforms\"]\ndirect = override({\"platforms\": (\"cpu\",)})[\"platforms\"]\nK = {\"platforms\": (\"cpu\",)}\nupdate_by_keyword(cfg=K)\nby_keyword = K[\"platforms\"]\nkept = read({\"platforms\": (\"cpu\",)})[\"platforms\"]\n";
    for name in ["named", "direct", "by_keyword"] {
        let values = name_values(text, name);
        assert!(!values.contains("Seq(Tuple"), "{name}: {values}");
    }
    let kept = name_values(text, "kept");
    assert!(kept.contains("Seq(Tuple, [Str(\"cpu\")])"), "{kept}");
}

//! The `jax-lsp` command line, run as a user runs it.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

const BAD_STRING: &str = r#"import jax

def f(x):
    return x + 1

# 日本語 ✓ (non-ASCII before the finding on the same line)
lowered = jax.jit(f).trace(1).lower(lowering_platforms="cpu")  # é
"#;

const CLEAN: &str = r#"import jax

def f(x):
    return x + 1

lowered = jax.jit(f).trace(1).lower(lowering_platforms=("cpu",))
name = "CPU".lower()
"#;

fn jax_lsp(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jax-lsp"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    dir
}

/// The findings `check --output-format json .` gives on a project of `files`.
/// `items` (a `check` JSON report) holds `expected` findings, each of `code`.
fn assert_findings(items: &Value, expected: usize, code: &str, case: &str) {
    let found = items.as_array().map(Vec::as_slice).unwrap_or_default();
    assert_eq!(found.len(), expected, "{case}: {items}");
    for item in found {
        assert_eq!(item["code"], code, "{case}: {items}");
    }
}

fn check_json(files: &[(&str, &str)]) -> Value {
    let dir = project(files);
    let out = jax_lsp(dir.path(), &["check", "--output-format", "json", "."]);
    serde_json::from_str(&stdout(&out)).expect("json")
}

#[test]
fn text_output_has_location_code_frame_and_exit_1() {
    let dir = project(&[("bad.py", BAD_STRING), ("clean.py", CLEAN)]);
    let out = jax_lsp(dir.path(), &["check", "."]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("bad.py:7:56: JP005 [*] lowering_platforms=\"cpu\" is a string, not a tuple: JAX lowers for platforms ('c', 'p', 'u')"), "{text}");
    assert!(text.contains("^^^^^ JP005 (error)"), "{text}");
    assert!(text.contains("Found 1 error."), "{text}");
    assert!(!text.contains("clean.py"), "{text}");
}

#[test]
fn clean_code_exits_0() {
    let dir = project(&[("clean.py", CLEAN)]);
    let out = jax_lsp(dir.path(), &["check", "clean.py"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("All checks passed!"));
}

#[test]
fn json_uses_ruff_fields_with_character_columns() {
    let dir = project(&[("bad.py", BAD_STRING)]);
    let out = jax_lsp(dir.path(), &["check", "--output-format", "json", "bad.py"]);
    assert_eq!(out.status.code(), Some(1));
    let items: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    let item = &items[0];
    assert_eq!(item["code"], "JP005");
    assert_eq!(item["severity"], "error");
    assert_eq!(item["filename"], "bad.py");
    assert_eq!(item["location"]["row"], 7);
    assert_eq!(item["location"]["column"], 56);
    assert_eq!(item["end_location"]["column"], 61);
    assert_eq!(item["fix"]["applicability"], "safe");
    assert_eq!(item["fix"]["edits"][0]["content"], "(\"cpu\",)");
    assert!(item["url"].as_str().is_some_and(|u| u.contains("jp005")));
    // The multi-line comment line before does not shift rows; CJK does not shift columns.
    let dir = project(&[(
        "x.py",
        &BAD_STRING.replace("lowered = ", "s = \"😀\"; lowered = "),
    )]);
    let out = jax_lsp(dir.path(), &["check", "--output-format", "json", "x.py"]);
    let items: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(
        items[0]["location"]["column"],
        56 + 9,
        "one character per emoji"
    );
}

#[test]
fn sarif_and_github_formats() {
    let dir = project(&[("bad.py", BAD_STRING)]);
    let out = jax_lsp(dir.path(), &["check", "--output-format", "sarif", "bad.py"]);
    let sarif: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(sarif["version"], "2.1.0");
    let result = &sarif["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "JP005");
    assert_eq!(
        result["locations"][0]["physicalLocation"]["region"]["startLine"],
        7
    );
    assert!(sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .is_some_and(|r| r.len() >= 5));
    let out = jax_lsp(
        dir.path(),
        &["check", "--output-format", "github", "bad.py"],
    );
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "::error title=jax-lsp (JP005),file=bad.py,line=7,col=56,endLine=7,endColumn=61::"
        ),
        "{text}"
    );
}

#[test]
fn fix_rewrites_the_file_and_diff_does_not() {
    let dir = project(&[("bad.py", BAD_STRING)]);
    let out = jax_lsp(dir.path(), &["check", "--diff", "bad.py"]);
    assert_eq!(out.status.code(), Some(1));
    let diff = stdout(&out);
    assert!(
        diff.contains("+lowered = jax.jit(f).trace(1).lower(lowering_platforms=(\"cpu\",))  # é"),
        "{diff}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("bad.py")).expect("read"),
        BAD_STRING
    );

    let out = jax_lsp(dir.path(), &["check", "--fix", "bad.py"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("Fixed 1 error."));
    let fixed = std::fs::read_to_string(dir.path().join("bad.py")).expect("read");
    assert!(fixed.contains("lowering_platforms=(\"cpu\",)"));
    assert_eq!(
        jax_lsp(dir.path(), &["check", "bad.py"]).status.code(),
        Some(0)
    );
}

#[test]
fn unsafe_fixes_only_on_request() {
    let kernel = r#"import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def add(x):
    return pl.pallas_call(kernel, out_shape=x, compiler_params=pltpu.CompilerParams())(x)

lowered = jax.jit(add).trace(1.0).lower(lowering_platforms=("cuda",))
"#;
    let dir = project(&[("k.py", kernel)]);
    let out = jax_lsp(dir.path(), &["check", "--fix", "k.py"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("k.py")).expect("read"),
        kernel
    );
    let out = jax_lsp(dir.path(), &["check", "--fix", "--unsafe-fixes", "k.py"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let fixed = std::fs::read_to_string(dir.path().join("k.py")).expect("read");
    assert!(
        fixed.contains("jax.lax.platform_dependent(x, tpu=pl.pallas_call("),
        "{fixed}"
    );
    assert!(fixed.contains("interpret=True"), "{fixed}");
}

#[test]
fn select_ignore_statistics_and_exit_zero() {
    let dir = project(&[("bad.py", BAD_STRING)]);
    assert_eq!(
        jax_lsp(dir.path(), &["check", "--ignore", "JP005", "."])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        jax_lsp(dir.path(), &["check", "--select", "JP001,JP002", "."])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        jax_lsp(dir.path(), &["check", "--select", "JP", "."])
            .status
            .code(),
        Some(1)
    );
    assert_eq!(
        jax_lsp(dir.path(), &["check", "--exit-zero", "."])
            .status
            .code(),
        Some(0)
    );
    let out = jax_lsp(dir.path(), &["check", "--statistics", "."]);
    assert!(
        stdout(&out).contains("1\tJP005\t[*] platforms-not-a-tuple"),
        "{}",
        stdout(&out)
    );
    let out = jax_lsp(dir.path(), &["check", "--select", "XY1", "."]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("XY1"));
}

#[test]
fn noqa_suppresses() {
    let dir = project(&[
        ("a.py", &BAD_STRING.replace("# é", "# noqa: JP005")),
        ("b.py", &BAD_STRING.replace("# é", "# noqa")),
        ("c.py", &BAD_STRING.replace("# é", "# noqa: JP001")),
    ]);
    let out = jax_lsp(dir.path(), &["check", "--output-format", "json", "."]);
    let items: Value = serde_json::from_str(&stdout(&out)).expect("json");
    let files: Vec<&str> = items
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|i| i["filename"].as_str())
        .collect();
    assert_eq!(files, vec!["./c.py"]);
}

#[test]
fn bad_inputs_are_named_and_the_rest_is_checked() {
    let dir = project(&[("bad.py", BAD_STRING)]);
    std::fs::write(dir.path().join("latin1.py"), b"x = '\xe9'\nlower(\n").expect("write");
    let out = jax_lsp(dir.path(), &["check", ".", "missing.py"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("latin1.py: not valid UTF-8"), "{err}");
    assert!(
        err.contains("missing.py: No such file or directory"),
        "{err}"
    );
    assert!(
        stdout(&out).contains("bad.py:7:56: JP005"),
        "the readable file is still checked"
    );
}

#[test]
fn pyproject_config_applies_and_errors_name_file_and_key() {
    let sharded = r#"import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def add(x):
    return pl.pallas_call(kernel, out_shape=x, compiler_params=pltpu.CompilerParams())(x)

lowered = jax.jit(add).trace(jnp.ones(8)).lower()
"#;
    // Without config the host's platform is unknown: silent.
    let dir = project(&[("pkg/k.py", sharded)]);
    assert_eq!(jax_lsp(dir.path(), &["check", "."]).status.code(), Some(0));
    // The project says it runs on GPUs: TPU params on the host's platform fail.
    let dir = project(&[
        (
            "pyproject.toml",
            "[tool.jax-lsp]\ntarget-platforms = [\"cuda\"]\n",
        ),
        ("pkg/k.py", sharded),
    ]);
    let out = jax_lsp(dir.path(), &["check", "."]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out)
        .contains("JP002 Compiler params for platform tpu cannot be used for gpu lowering."));
    // per-file-ignores
    let dir = project(&[
        ("pyproject.toml", "[tool.jax-lsp]\ntarget-platforms = [\"cuda\"]\n[tool.jax-lsp.per-file-ignores]\n\"pkg/*.py\" = [\"JP002\"]\n"),
        ("pkg/k.py", sharded),
    ]);
    assert_eq!(jax_lsp(dir.path(), &["check", "."]).status.code(), Some(0));
    // An unknown key is an error naming the file and the key.
    let dir = project(&[
        (
            "pyproject.toml",
            "[tool.jax-lsp]\ntarget_platform = [\"cuda\"]\n",
        ),
        ("k.py", BAD_STRING),
    ]);
    let out = jax_lsp(dir.path(), &["check", "."]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("pyproject.toml") && err.contains("target_platform"),
        "{err}"
    );
}

/// `jax.default_backend()` is the backend's platform: `"gpu"` on a CUDA
/// host, never `"cuda"` (seen on an H200 with jax 0.11.2,
/// `tests/oracle/gpu_host_facts.py`). A branch on `== "gpu"` traces the TPU
/// kernel on the project's CUDA hosts (a bare `AssertionError` there); one
/// on `== "cuda"` never runs.
#[test]
fn a_default_backend_branch_compares_with_the_backends_name() {
    let kernel = |name: &str| {
        format!(
            r#"import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def add(x):
    if jax.default_backend() == "{name}":
        return pl.pallas_call(kernel, out_shape=x, compiler_params=pltpu.CompilerParams())(x)
    return x


lowered = jax.jit(add).trace(jnp.ones(8)).lower()
"#
        )
    };
    let config = "[tool.jax-lsp]\ntarget-platforms = [\"cuda\"]\n";
    for (name, expected) in [("gpu", 1), ("cuda", 0)] {
        let source = kernel(name);
        let items = check_json(&[("pyproject.toml", config), ("k.py", &source)]);
        assert_findings(&items, expected, "JP002", name);
    }
}

/// Code that says which hosts it runs on (`if jax.default_backend() ==
/// "cpu":`) runs on those of the project's `target-platforms` only: on a
/// CUDA-only project that branch never runs (the GPU host ran the JP010
/// fixtures so written clean).
#[test]
fn code_for_hosts_the_project_does_not_target_never_runs() {
    let source = r#"import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def double_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


def double(x):
    return pl.pallas_call(double_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


if jax.default_backend() == "cpu":
    lowered = jax.jit(double).trace(jax.ShapeDtypeStruct((8, 128), jnp.float32)).lower()
"#;
    for (targets, expected) in [
        ("[\"cuda\"]", 0),
        ("[\"cpu\"]", 1),
        ("[\"cpu\", \"tpu\"]", 1),
    ] {
        let config = format!("[tool.jax-lsp]\ntarget-platforms = {targets}\n");
        let items = check_json(&[("pyproject.toml", &config), ("k.py", source)]);
        assert_findings(&items, expected, "JP010", targets);
    }
}

/// An implementation picked per host (`IMPLS.get(jax.default_backend(), F)`),
/// whether jitted itself or called inside the jitted function, is checked once
/// per host that may run it: only the TPU host's pick is a compiled kernel, so
/// a cpu lowering fails on a TPU host only (JAX 0.12.0.1 raises "Only
/// interpret mode is supported on CPU backend." for that kernel lowered for
/// cpu; with the interpret pick it runs clean on a CPU host). Reported where
/// the project runs on TPU hosts only, silent where another host may run it.
#[test]
fn an_implementation_the_host_picks_fails_where_every_host_in_force_picks_failing_code() {
    let source = |lowered: &str| {
        format!(
            r#"import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _scale_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0


def _scale_compiled(x):
    return pl.pallas_call(_scale_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


def _scale_interpreted(x):
    return pl.pallas_call(
        _scale_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True
    )(x)


_IMPLS = {{"tpu": _scale_compiled}}


def scale(x):
    return _IMPLS.get(jax.default_backend(), _scale_interpreted)(x)


x = jax.ShapeDtypeStruct((8, 128), jnp.float32)
jax.jit({lowered}).trace(x).lower(lowering_platforms=("cpu",))
"#
        )
    };
    for lowered in [
        "scale",
        "_IMPLS.get(jax.default_backend(), _scale_interpreted)",
    ] {
        for (targets, expected) in [("[]", 0), ("[\"cpu\"]", 0), ("[\"tpu\"]", 1)] {
            let config = format!("[tool.jax-lsp]\ntarget-platforms = {targets}\n");
            let items = check_json(&[("pyproject.toml", &config), ("k.py", &source(lowered))]);
            assert_findings(
                &items,
                expected,
                "JP010",
                &format!("{lowered} on {targets}"),
            );
        }
    }
}

/// A method of another module's class run on an object made here reads
/// that object as `self` in the methods it calls on `self`, also from a
/// closure it returns: `runner.predict_fn()` returns `run`, which calls
/// `self.step(x)`, whose callback hangs on `self.memory_efficient`. Under
/// JAX 0.12.0.1 the tpu export on a CPU host raises "the platform for the
/// specified backend cpu is different from the lowering platform tpu" with
/// `memory_efficient=True` and runs clean with `False`, for each way of
/// handing the method over.
#[test]
fn a_foreign_method_runs_its_self_calls_on_the_object_it_was_called_on() {
    let runner = r#"import jax


class Runner:
    def __init__(self, fn, memory_efficient=False):
        self.fn = fn
        self.memory_efficient = memory_efficient

    def step(self, x):
        if self.memory_efficient:
            jax.debug.callback(print, x)
        return self.fn(x)

    def run(self, x):
        return self.step(x) + 1

    def predict_fn(self):
        def run(x):
            return self.step(x)

        return run
"#;
    for lowered in [
        "runner.predict_fn()",
        "runner.run",
        "lambda x: runner.run(x)",
    ] {
        for (flag, expected) in [("True", 1), ("False", 0)] {
            let main = format!(
                r#"import jax
import jax.numpy as jnp
from _runner import Runner

runner = Runner(jnp.tanh, memory_efficient={flag})
spec = jax.ShapeDtypeStruct((4,), jnp.float32)
exported = jax.export.export(jax.jit({lowered}), platforms=("tpu",))(spec)
"#
            );
            let items = check_json(&[("_runner.py", runner), ("main.py", &main)]);
            assert_findings(&items, expected, "JP001", &format!("{lowered} with {flag}"));
        }
    }
}

#[test]
fn a_kernel_in_another_module_is_followed_even_when_prefiltered() {
    let kernels = r#"from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as pltriton

def _body(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2

def double(x):
    return pl.pallas_call(_body, out_shape=x, compiler_params=pltriton.CompilerParams(num_warps=4))(x)
"#;
    let main = r#"import jax
from .kernels import double

def model(x):
    return double(x) + 1

lowered = jax.jit(model).trace(1.0).lower(lowering_platforms=("tpu",))
"#;
    let dir = project(&[
        ("pkg/__init__.py", ""),
        ("pkg/kernels.py", kernels),
        ("pkg/main.py", main),
    ]);
    let out = jax_lsp(dir.path(), &["check", "--output-format", "json", "."]);
    let items: Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(items.as_array().map(Vec::len), Some(1), "{items}");
    assert_eq!(items[0]["code"], "JP002");
    assert_eq!(items[0]["filename"], "./pkg/main.py");
    assert_eq!(
        items[0]["message"],
        "Compiler params for platform gpu cannot be used for tpu lowering."
    );
}

#[test]
fn a_closure_an_imported_factory_made_is_followed_through_a_helper_called_twice() {
    // Verified under jax 0.12.0.1: the cuda lowering raises "the platform
    // for the specified backend cpu is different from the lowering platform
    // cuda"; the cpu one lowers.
    let density = r#"import jax

def make_density(scale):
    def density(x):
        out = jax.ShapeDtypeStruct(x.shape, x.dtype)
        return jax.pure_callback(lambda v: v * scale, out, x)
    return density
"#;
    let main = |platform: &str| {
        format!(
            r#"import jax
import jax.numpy as jnp
from density import make_density

def wrapped(fn):
    def run(*args):
        return fn(*args)
    return run

UNUSED = wrapped(None)

if __name__ == "__main__":
    spec = jax.ShapeDtypeStruct((8,), jnp.float32)
    jax.jit(wrapped(make_density(2.0))).trace(spec).lower(lowering_platforms=("{platform}",))
"#
        )
    };
    for (platform, expected) in [("cuda", 1), ("cpu", 0)] {
        let text = main(platform);
        let items = check_json(&[("density.py", density), ("main.py", &text)]);
        assert_eq!(
            items.as_array().map(Vec::len),
            Some(expected),
            "{platform}: {items}"
        );
        if expected == 1 {
            assert_eq!(items[0]["code"], "JP001");
            assert_eq!(items[0]["filename"], "./main.py");
        }
    }
}

#[test]
fn a_setter_of_another_module_runs_when_the_importer_calls_it() {
    // Verified under jax 0.12.0.1: with `set_target("tpu")` called first the
    // tpu lowering runs clean; without it the Triton params of the module's
    // default raise "Compiler params for platform gpu cannot be used for
    // tpu lowering."
    let config = r#"from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as pltriton

_TARGET = "gpu"


def set_target(target):
    global _TARGET
    _TARGET = target


def kernel_params():
    if _TARGET == "tpu":
        return pltpu.CompilerParams()
    return pltriton.CompilerParams(num_warps=4)
"#;
    let main = |setup: &str| {
        format!(
            r#"import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

import kcfg


def _copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def copy(x):
    return pl.pallas_call(_copy, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          compiler_params=kcfg.kernel_params())(x)


if __name__ == "__main__":
    {setup}
    spec = jax.ShapeDtypeStruct((8, 128), jnp.float32)
    jax.jit(copy).trace(spec).lower(lowering_platforms=("tpu",))
"#
        )
    };
    // `__all__` naming the setter (in strings) does not make it run.
    let exported = format!("__all__ = [\"set_target\", \"kernel_params\"]\n{config}");
    let cases = [
        ("kcfg.set_target(\"tpu\")", config, 0),
        // Set to what it already was: the same Triton params, now read as
        // the value set (JAX raises as without the call).
        ("kcfg.set_target(\"gpu\")", config, 1),
        ("pass", config, 1),
        ("kcfg.set_target(\"tpu\")", exported.as_str(), 0),
        ("pass", exported.as_str(), 1),
    ];
    for (setup, config, expected) in cases {
        let text = main(setup);
        let items = check_json(&[("kcfg.py", config), ("main.py", &text)]);
        assert_eq!(
            items.as_array().map(Vec::len),
            Some(expected),
            "{setup}: {items}"
        );
        if expected == 1 {
            assert_eq!(items[0]["code"], "JP002");
        }
    }
}

#[test]
fn state_another_module_sets_on_entering_its_context_manager_holds_in_the_with() {
    // Verified under jax 0.12.0.1: with `debug=True` the tap's
    // `inspect_array_sharding` under the AbstractMesh raises "AbstractMesh
    // cannot be used when jaxpr contains primitives that require devices
    // ..."; with `debug=False`, or outside the `with`, it runs clean.
    let pmgr = r#"import threading

import jax

_STATE = threading.local()


class Manager:
    def __init__(self, debug=False):
        self.debug = debug

    def __enter__(self):
        _STATE.manager = self
        return self

    def __exit__(self, *exc):
        _STATE.manager = None


def tap(x):
    pm = getattr(_STATE, "manager", None)
    if pm is not None and pm.debug:
        jax.debug.inspect_array_sharding(x, callback=print)
    return x
"#;
    let main = |enter: &str| {
        format!(
            r#"import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P

import pmgr

MESH = AbstractMesh((2,), ("x",))


def f(x):
    return pmgr.tap(x * 2)


if __name__ == "__main__":
    with {enter}:
        jitted = jax.jit(f, in_shardings=NamedSharding(MESH, P("x")))
        jitted.trace(jax.ShapeDtypeStruct((8,), jnp.float32)).lower(lowering_platforms=("tpu",))
"#
        )
    };
    for (enter, expected) in [
        ("pmgr.Manager(debug=True)", 1),
        ("pmgr.Manager(debug=False)", 0),
        ("pmgr.Manager()", 0),
        ("open(__file__)", 0),
    ] {
        let text = main(enter);
        let items = check_json(&[("pmgr.py", pmgr), ("main.py", &text)]);
        assert_findings(&items, expected, "JP004", enter);
    }
}

#[test]
fn an_object_a_classmethod_of_another_module_makes_keeps_its_class() {
    // Verified under jax 0.12.0.1: the sharding the placement's method
    // builds over its AbstractMesh, lowered without platforms, raises
    // "Passing lowering_platforms ... is required when only AbstractMesh
    // exists in a jitted computation"; with `lowering_platforms=("tpu",)` it
    // runs clean.
    let place = r#"from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P


class Placement:
    def __init__(self, n, axis_name):
        self.mesh = AbstractMesh((n,), (axis_name,))
        self.axis_name = axis_name

    @classmethod
    def planned(cls, n, axis_name="v"):
        return cls(n, axis_name)

    def shard_structure(self):
        return NamedSharding(self.mesh, P(self.axis_name))
"#;
    let main = |lower: &str| {
        format!(
            r#"import jax
import jax.numpy as jnp

from place import Placement

p = Placement.planned(4, axis_name="v")


def f(x):
    return x * 2


if __name__ == "__main__":
    jitted = jax.jit(f, in_shardings=(p.shard_structure(),))
    jitted.trace(jax.ShapeDtypeStruct((8,), jnp.float32)).{lower}
"#
        )
    };
    for (lower, expected) in [("lower()", 1), ("lower(lowering_platforms=(\"tpu\",))", 0)] {
        let text = main(lower);
        let items = check_json(&[("place.py", place), ("main.py", &text)]);
        assert_findings(&items, expected, "JP003", lower);
    }
}

#[test]
fn a_partial_of_a_def_another_modules_decorator_factory_wraps_takes_the_factorys_flag() {
    // Verified under jax 0.12.0.1: with `instrument(True)` the wrapper's
    // `jax.debug.print` lowered for tpu on this CPU host raises "the
    // platform for the specified backend cpu is different from the lowering
    // platform tpu"; with `instrument(False)` the def runs unwrapped, clean.
    let tools = r#"import functools

import jax


def instrument(enabled):
    def wrap(fn):
        if not enabled:
            return fn

        @functools.wraps(fn)
        def logged(*args, **kwargs):
            jax.debug.print("call")
            return fn(*args, **kwargs)

        return logged

    return wrap
"#;
    let main = |flag: &str| {
        format!(
            r#"import functools

import jax

import tools


@tools.instrument({flag})
def scale(x, k=1):
    return x * k


def apply(fn, x):
    return fn(x)


scaled = functools.partial(scale, k=2)
jax.jit({{lowered}}).trace(jax.ShapeDtypeStruct((4,), "float32")).lower(lowering_platforms=("tpu",))
"#
        )
    };
    // Lowered directly, and called inside the jitted function through a
    // parameter (the call names `fn`, not the factory).
    for lowered in ["scaled", "lambda x: apply(scaled, x)"] {
        for (flag, expected) in [("True", 1), ("False", 0)] {
            let text = main(flag).replace("{lowered}", lowered);
            let items = check_json(&[("tools.py", tools), ("main.py", &text)]);
            assert_findings(&items, expected, "JP001", &format!("{lowered} {flag}"));
        }
    }
}

#[test]
fn a_lowering_helper_of_another_module_is_checked_where_it_is_called() {
    let aot = r#"import jax

def export_for(fn, spec, platforms):
    return jax.export.export(jax.jit(fn), platforms=platforms)(spec)
"#;
    // No lowering here: the call of the imported helper is what is checked,
    // as `util.export_for(...)` and by name, the platforms where written.
    let main = r#"import jax
import jax.numpy as jnp
import aot
from aot import export_for

def step(x):
    jax.debug.print("x={}", x)
    return x * 2

spec = jax.ShapeDtypeStruct((4,), jnp.float32)
aot.export_for(step, spec, ("tpu",))
export_for(step, spec, platforms="cpu")
export_for(step, spec, ("cpu",))
"#;
    let dir = project(&[("aot.py", aot), ("main.py", main)]);
    // (JP007 also reports the string's three platforms with a callback.)
    let out = jax_lsp(
        dir.path(),
        &[
            "check",
            "--select",
            "JP001,JP005",
            "--output-format",
            "json",
            "main.py",
        ],
    );
    let items: Value = serde_json::from_str(&stdout(&out)).expect("json");
    let found: Vec<(String, i64)> = items
        .as_array()
        .expect("list")
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap_or("").to_owned(),
                f["location"]["row"].as_i64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(
        found,
        vec![("JP001".to_owned(), 11), ("JP005".to_owned(), 12)],
        "{items}"
    );
}

#[test]
fn explain_accepts_codes_ids_and_messages() {
    let dir = project(&[]);
    for query in [
        "JP002",
        "1bdcdc8192178bcd",
        "Compiler params for platform tpu cannot be used for gpu lowering.",
    ] {
        let out = jax_lsp(dir.path(), &["explain", query]);
        assert_eq!(out.status.code(), Some(0), "{query}");
        let text = stdout(&out);
        assert!(text.starts_with("# JP002 pallas-params-platform"), "{text}");
        for section in [
            "## What it means",
            "## When it happens",
            "## How to fix",
            "## Example",
            "## JAX source",
            "## Query",
            "queries/rules/jp002.scm",
            "module's lowering helper (`util.export_for(step, spec, \"cuda\")`",
        ] {
            assert!(text.contains(section), "{section} missing");
        }
    }
    assert_eq!(
        jax_lsp(dir.path(), &["explain", "no such thing"])
            .status
            .code(),
        Some(2)
    );
    let out = jax_lsp(dir.path(), &["rules", "--json"]);
    let rules: Value = serde_json::from_str(&stdout(&out)).expect("json");
    let codes: Vec<&str> = rules
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|r| r["code"].as_str())
        .collect();
    let expected: Vec<String> = (1..=16).map(|n| format!("JP{n:03}")).collect();
    assert_eq!(codes, expected);
}

#[test]
fn committed_rule_docs_are_fresh() {
    let dir = project(&[]);
    let out = jax_lsp(dir.path(), &["rules", "--format", "markdown"]);
    assert_eq!(out.status.code(), Some(0));
    let committed =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md"))
            .expect("docs/rules.md");
    assert!(
        committed == stdout(&out),
        "docs/rules.md is stale: run `cargo run -- rules --format markdown > docs/rules.md`"
    );
}

/// absl's flags API by its shape: `<module>.DEFINE_<kind>` and `<module>.FLAGS`
/// from absl, `tf.compat.v1.flags` or a project's own wrapper module. A string
/// flag read as `platforms=` is JP005 whatever the command line says; an
/// integer flag is not a platform and says nothing.
#[test]
fn flag_modules_with_absls_api_are_read_like_absl() {
    let main = r#"import jax
import jax.numpy as jnp
from myproject import flags_lib

flags_lib.DEFINE_string("platforms", "tpu", "Platforms to export for.")
flags_lib.DEFINE_integer("width", 8, "Width.")
FLAGS = flags_lib.FLAGS


def f(x):
    return jnp.sin(x)


def main(argv):
    spec = jax.ShapeDtypeStruct((FLAGS.width,), jnp.float32)
    return jax.export.export(jax.jit(f), platforms=FLAGS.platforms)(spec)
"#;
    let dir = project(&[("main.py", main)]);
    let out = jax_lsp(dir.path(), &["check", "--output-format", "json", "main.py"]);
    let findings: Value = serde_json::from_slice(&out.stdout).expect("json");
    let codes: Vec<&str> = findings
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|f| f["code"].as_str())
        .collect();
    assert_eq!(codes, vec!["JP005"], "{}", stdout(&out));
    let widths = main.replace("platforms=FLAGS.platforms", "platforms=(\"cpu\",)");
    let dir = project(&[("main.py", &widths)]);
    let out = jax_lsp(dir.path(), &["check", "main.py"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

/// Shapes a review found to crash or stall the analysis (stack overflow,
/// exponential walks): each file is checked to completion with an ordinary
/// exit code. Several files at once, so rayon's worker threads (smaller
/// stacks than the main thread) analyse them.
#[test]
fn recursive_and_deep_shapes_finish() {
    let header = "import contextlib\nimport jax\nimport jax.numpy as jnp\nfrom jax.sharding import AbstractMesh, AxisType\n\n";
    let self_entering = format!(
        "{header}@contextlib.contextmanager\ndef cm():\n    with cm():\n        yield\n\n\
         def g():\n    am = AbstractMesh((2,), (\"x\",), axis_types=(AxisType.Explicit,))\n    \
         with jax.sharding.use_abstract_mesh(am), cm():\n        return jnp.ones(3)\n"
    );
    let mutual = format!(
        "{header}@contextlib.contextmanager\ndef a():\n    with b():\n        yield\n\n\
         @contextlib.contextmanager\ndef b():\n    with a():\n        yield\n\n\
         def g():\n    with a():\n        return jnp.ones(3)\n"
    );
    // Each function's branch condition calls the one before it.
    let mut chain = format!(
        "{header}def f0(x):\n    y = 1\n    if x:\n        y = 2\n    if y:\n        jax.debug.print('a')\n    return y\n\n"
    );
    for k in 1..600 {
        chain.push_str(&format!(
            "def f{k}(x):\n    y = 1\n    if x:\n        y = 2\n    if f{}(y):\n        pass\n    return y\n\n",
            k - 1
        ));
    }
    chain.push_str("lowered = jax.jit(f599).trace(jax.ShapeDtypeStruct((4,), jnp.float32)).lower(lowering_platforms=('tpu',))\n");
    // An eager op under an abstract mesh, four levels of 80 call sites each
    // (the deepest the context is followed).
    let mut fan = format!("{header}def f1():\n    return jnp.zeros(3)\n\n");
    for k in 2..=4 {
        fan.push_str(&format!("def f{k}():\n"));
        for _ in 0..80 {
            fan.push_str(&format!("    f{}()\n", k - 1));
        }
        fan.push('\n');
    }
    fan.push_str("am = AbstractMesh((2,), (\"x\",), axis_types=(AxisType.Explicit,))\nwith jax.sharding.use_abstract_mesh(am):\n    f4()\n");
    let dir = project(&[
        ("self_entering.py", &self_entering),
        ("mutual.py", &mutual),
        ("chain.py", &chain),
        ("fan.py", &fan),
    ]);
    let out = jax_lsp(dir.path(), &["check", "--output-format", "json", "."]);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "status {:?}: {}",
        out.status,
        stderr(&out)
    );
    let findings: Value = serde_json::from_slice(&out.stdout).expect("json");
    let files: Vec<&str> = findings
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|f| f["filename"].as_str())
        .collect();
    // The eager zeros under the mesh is found through the four levels.
    assert!(files.iter().any(|f| f.ends_with("fan.py")), "{files:?}");
}

/// A branch that runs because of a flag's default (`--quiet` off unless
/// given, so `self.debug` is True in a plain run): what it reaches fails in a
/// plain run, and the finding is a warning naming that default.
#[test]
fn a_branch_taken_by_a_flag_default_gives_a_warning_naming_it() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/JP001/pos_debug_flag_default_on.py");
    let text = std::fs::read_to_string(&fixture).expect("fixture");
    let dir = project(&[("main.py", &text)]);
    let out = jax_lsp(dir.path(), &["check", "--output-format", "json", "main.py"]);
    let findings: Value = serde_json::from_slice(&out.stdout).expect("json");
    let findings = findings.as_array().expect("array");
    assert_eq!(findings.len(), 1, "{}", stdout(&out));
    assert_eq!(findings[0]["code"], "JP001");
    assert_eq!(findings[0]["severity"], "warning", "{}", findings[0]);
    let message = findings[0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("with the default --quiet"), "{message}");
}

/// The contract fixture package (`tests/fixtures/contracts`, whose
/// pyproject.toml is the README's "Writing a contract" example), copied.
fn contract_package() -> tempfile::TempDir {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/contracts");
    let dir = tempfile::tempdir().expect("tempdir");
    let mut stack = vec![src.clone()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("fixture dir").flatten() {
            let path = entry.path();
            let rel = path.strip_prefix(&src).expect("under src");
            if path.is_dir() {
                std::fs::create_dir_all(dir.path().join(rel)).expect("mkdir");
                stack.push(path);
            } else {
                std::fs::copy(&path, dir.path().join(rel)).expect("copy");
            }
        }
    }
    dir
}

#[test]
fn a_contract_catches_the_cross_module_mistake_and_not_the_near_misses() {
    let dir = contract_package();
    let out = jax_lsp(dir.path(), &["check", "."]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(
        text.contains("lower_for_cuda.py:17:12: TPU001 mylib.kernels.tpu.roll_rows only lowers for tpu; this computation is lowered for cuda"),
        "{text}"
    );
    assert!(text.contains("export_multi.py:13:16: TPU001"), "{text}");
    assert!(!text.contains("near_misses.py"), "{text}");
    assert!(text.contains("Found 2 errors."), "{text}");
    // Selected and ignored like a built-in code; `# noqa: TPU001` silences a line.
    let out = jax_lsp(dir.path(), &["check", ".", "--ignore", "TPU001"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let out = jax_lsp(dir.path(), &["check", ".", "--select", "TPU001"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let out = jax_lsp(dir.path(), &["check", ".", "--select", "JP"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let path = dir.path().join("lower_for_cuda.py");
    let source = std::fs::read_to_string(&path).expect("read");
    let quiet = source.replace(
        "traced.lower(lowering_platforms=(\"cuda\",))",
        "traced.lower(lowering_platforms=(\"cuda\",))  # noqa: TPU001",
    );
    std::fs::write(&path, quiet).expect("write");
    let out = jax_lsp(dir.path(), &["check", "lower_for_cuda.py"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let out = jax_lsp(
        dir.path(),
        &["check", "export_multi.py", "--output-format", "json"],
    );
    let items: Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(items[0]["code"], "TPU001");
}

const CONTRACT_HEAD: &str = "[tool.jax-lsp]\n\n[[tool.jax-lsp.contract]]\ncode = \"TPU001\"\n";

const LOWERS_FOR_CUDA: &str = r#"import jax
from kernels.tpu import roll_rows

lowered = jax.jit(roll_rows).trace(1).lower(lowering_platforms=("cuda",))
other = jax.jit(roll_rows).trace(1).lower(lowering_platforms="cpu")
"#;

#[test]
fn bad_contracts_exit_2_at_file_line_and_column_and_the_rest_runs() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "calls = [\"kernels.tpu.*\"]\nplatforms = [\"tpu\"]\nsevere = \"error\"\n",
            "pyproject.toml:7:1: unknown contract key `severe`",
            "pyproject.toml",
        ),
        (
            "calls = [\"kernels.tpu.*\"]\nplatforms = [\"tpu\", \"nvidia\"]\n",
            "pyproject.toml:6:21: `platforms`: unknown platform `nvidia`",
            "pyproject.toml",
        ),
        (
            "calls = [\"kernels.tpuu.*\"]\nplatforms = [\"tpu\"]\n",
            "pyproject.toml:5:10: contract `TPU001`: `calls` pattern `kernels.tpuu.*` matches no module",
            "pyproject.toml",
        ),
        (
            "query = \"q.scm\"\nplatforms = [\"tpu\"]\n",
            "q.scm:2:4: the query of contract `TPU001` does not compile",
            "q.scm",
        ),
    ];
    for (body, expected, _) in cases {
        let dir = project(&[
            ("pyproject.toml", &format!("{CONTRACT_HEAD}{body}")),
            ("q.scm", "(call\n  (nonsense_kind)) @site\n"),
            ("kernels/tpu.py", "def roll_rows(x):\n    return x\n"),
            ("main.py", LOWERS_FOR_CUDA),
        ]);
        let out = jax_lsp(dir.path(), &["check", "."]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(expected), "expected `{expected}` in:\n{err}");
        // The built-in rules still ran.
        assert!(stdout(&out).contains("JP005"), "{}", stdout(&out));
    }
    // A code that clashes with a built-in one.
    let dir = project(&[
        (
            "pyproject.toml",
            "[tool.jax-lsp]\n[[tool.jax-lsp.contract]]\ncode = \"JP002\"\ncalls = [\"kernels.tpu.*\"]\nplatforms = [\"tpu\"]\n",
        ),
        ("kernels/tpu.py", "def roll_rows(x):\n    return x\n"),
        ("main.py", LOWERS_FOR_CUDA),
    ]);
    let out = jax_lsp(dir.path(), &["check", "."]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "pyproject.toml:3:8: contract code `JP002` clashes with the built-in rule JP002"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_query_file_finds_sites_too() {
    let dir = project(&[
        (
            "pyproject.toml",
            "[tool.jax-lsp]\n[[tool.jax-lsp.contract]]\ncode = \"FFI001\"\nname = \"cuda-only-ffi\"\nquery = \"tools/ffi.scm\"\nplatforms = [\"cuda\"]\nseverity = \"warning\"\n",
        ),
        (
            "tools/ffi.scm",
            "; jax.ffi.ffi_call(\"cuda_kernel\", ...): a target registered for cuda only\n(call\n  function: (attribute attribute: (identifier) @f (#eq? @f \"ffi_call\"))\n  arguments: (argument_list . (string) @target (#match? @target \"cuda_\"))) @site\n",
        ),
        (
            "main.py",
            r#"import jax

def f(x):
    return jax.ffi.ffi_call("cuda_scale", jax.ShapeDtypeStruct(x.shape, x.dtype))(x)

def g(x):
    return jax.ffi.ffi_call("cpu_scale", jax.ShapeDtypeStruct(x.shape, x.dtype))(x)

a = jax.jit(f).trace(1.0).lower(lowering_platforms=("tpu",))
b = jax.jit(f).trace(1.0).lower(lowering_platforms=("cuda",))
c = jax.jit(g).trace(1.0).lower(lowering_platforms=("tpu",))
"#,
        ),
    ]);
    let out = jax_lsp(dir.path(), &["check", "."]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(
        text.contains("main.py:9:27: FFI001 jax.ffi.ffi_call only lowers for cuda; this computation is lowered for tpu"),
        "{text}"
    );
    assert!(text.contains("FFI001 (warning)"), "{text}");
    // Lowered for cuda (allowed), and a cpu-only target: nothing else.
    assert!(text.contains("Found 1 error."), "{text}");
}

#[test]
fn a_panic_while_analysing_one_file_is_its_error_and_the_others_are_reported() {
    let marked = format!("# PLEASE_PANIC\n{BAD_STRING}");
    let dir = project(&[("bad.py", BAD_STRING), ("marked.py", &marked)]);
    let out = Command::new(env!("CARGO_BIN_EXE_jax-lsp"))
        .args(["check", "--output-format", "json", "."])
        .env("JAX_LSP_TEST_PANIC_MARKER", "PLEASE_PANIC")
        .current_dir(dir.path())
        .output()
        .expect("binary runs");
    // An error ends the run with 2, after every other file's findings.
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let findings: Value = serde_json::from_str(&stdout(&out)).expect("json");
    let files: Vec<&str> = findings
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|f| f["filename"].as_str())
        .collect();
    assert!(
        !files.is_empty() && files.iter().all(|f| f.ends_with("bad.py")),
        "{files:?}"
    );
    let err = stderr(&out);
    assert!(
        err.contains("marked.py: internal error while analysing it"),
        "{err}"
    );
}

/// Classes whose bases name each other (code mid-edit) are looked at once each:
/// the walk up a `dict` subclass's bases looped forever on them.
#[test]
fn class_bases_that_name_each_other_end() {
    let dir = project(&[(
        "cyclic.py",
        "import jax\n\n\nclass A(B):\n    pass\n\n\nclass B(A):\n    pass\n\n\n\
         x = A(platforms=\"tpu\")\n\
         jax.export.export(jax.jit(lambda v: v), platforms=x[\"platforms\"])\n",
    )]);
    let out = jax_lsp(
        dir.path(),
        &["check", "--output-format", "json", "cyclic.py"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "[]");
}

#[test]
fn a_store_into_an_imported_config_object_holds_in_a_function_nothing_calls() {
    // A library function nothing in its module calls (an entry point for
    // its importers) is read as it runs: its own store into the object it
    // made is what its lowering reads, not the class default. Verified
    // under jax 0.12.0.1 (calling `export_main()`): the bare string "tpu"
    // lowers for ('t', 'p', 'u'); `("tpu",)` over a bare-string default
    // lowers for ('tpu',).
    let config = "class ExportConfig:\n    lowering_platforms = PLATFORMS\n    batch = 8\n";
    let main = |stored: &str| {
        format!(
            r#"import jax
import jax.numpy as jnp

from export_config import ExportConfig


def double(x):
    return x * 2


def export_main():
    cfg = ExportConfig()
    cfg.lowering_platforms = {stored}
    spec = jax.ShapeDtypeStruct((cfg.batch,), jnp.float32)
    return jax.jit(double).trace(spec).lower(lowering_platforms=cfg.lowering_platforms)
"#
        )
    };
    for (default, stored, expected) in [("(\"cpu\",)", "\"tpu\"", 1), ("\"cpu\"", "(\"tpu\",)", 0)]
    {
        let config = config.replace("PLATFORMS", default);
        let text = main(stored);
        let items = check_json(&[("export_config.py", &config), ("main.py", &text)]);
        assert_findings(&items, expected, "JP005", stored);
    }
}

/// A loop over platforms handing another module a closure made for the
/// element and that element's platforms: through a lowering helper, a
/// runner object whose method calls the closure, and a dict display the
/// other module picks the platforms from. Each element's lowering reaches
/// only what its own closure runs. Verified under jax 0.12.0.1: with the
/// TPU kernel on for the "tpu" element all three export; on for "cuda",
/// each raises (a bare `AssertionError`: no TPU lowering ran before it).
/// The build before flagged the clean ones: the element was lost crossing
/// the module (the helper's platforms came back on no choice, the closure's
/// token dropped the choice it was made on, a display's entries were not
/// split by element).
#[test]
fn what_another_module_is_given_per_loop_element_stays_that_elements() {
    let helpers = r#"import jax


def export_for(fn, spec, platforms):
    return jax.export.export(fn, platforms=platforms)(spec)


def pick(options, key):
    return options.get(key)


class Runner:
    def __init__(self, fn):
        self.fn = fn

    def run(self, *args):
        return self.fn(*args)
"#;
    let main = |kernel_on: &str, lowering: &str| {
        format!(
            r#"import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

import helpers

KERNEL_ON = "{kernel_on}"


def _double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0


def build(platform):
    def step(x):
        if platform == KERNEL_ON:
            return pl.pallas_call(
                _double,
                out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                compiler_params=pltpu.CompilerParams(),
            )(x)
        return x * 2.0

    return step


spec = jax.ShapeDtypeStruct((8, 128), jnp.float32)
for platform in ("tpu", "cuda"):
    {lowering}
"#
        )
    };
    for lowering in [
        "helpers.export_for(jax.jit(build(platform)), spec, (platform,))",
        "jax.export.export(jax.jit(helpers.Runner(build(platform)).run), platforms=(platform,))(spec)",
        r#"jax.export.export(jax.jit(build(platform)), platforms=helpers.pick({"chosen": (platform,)}, "chosen"))(spec)"#,
    ] {
        for (kernel_on, expected) in [("tpu", 0), ("cuda", 1)] {
            let text = main(kernel_on, lowering);
            let items = check_json(&[("helpers.py", helpers), ("main.py", &text)]);
            assert_findings(&items, expected, "JP002", &format!("{kernel_on}: {lowering}"));
        }
    }
}

/// An object made by one module's factory, handed to another module's
/// solver that calls its method inside a loop body: the method runs on
/// that object, so the host callback its hook field turns on is lowered
/// for cuda. Verified under jax 0.12.0.1: with `log=True` the lowering
/// raises "the platform for the specified backend cpu is different from
/// the lowering platform cuda"; with `log=False` (the plain controller) it
/// lowers. The build before followed the solver's summary only, where the
/// method's object is a parameter, and found nothing.
#[test]
fn a_method_another_module_calls_on_the_object_it_was_given_runs_on_that_object() {
    let controllers = r#"import dataclasses
from typing import Callable

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Plain:
    scale: float = 0.5

    def adapt(self, x):
        return x * self.scale


@dataclasses.dataclass(frozen=True)
class Logged:
    inner: Plain
    on_step: Callable | None = None

    def adapt(self, x):
        x = self.inner.adapt(x)
        if self.on_step is not None:
            x = jax.pure_callback(self.on_step, jax.ShapeDtypeStruct(x.shape, x.dtype), x)
        return x


def _log(x):
    print("step", x)
    return x


def make(log=False):
    plain = Plain()
    return Logged(plain, on_step=_log) if log else plain
"#;
    let solver = r#"import jax


def solve(controller, x):
    def body(i, x):
        return controller.adapt(x)

    return jax.lax.fori_loop(0, 3, body, x)
"#;
    for (log, expected) in [("True", 1), ("False", 0)] {
        let main = format!(
            r#"import jax
import jax.numpy as jnp

from controllers import make
from solver import solve

controller = make(log={log})


@jax.jit
def run(x):
    return solve(controller, x)


x = jnp.ones((4,), jnp.float32)
print(run.trace(x).lower(lowering_platforms=("cuda",)).as_text()[:40])
"#
        );
        let items = check_json(&[
            ("controllers.py", controllers),
            ("solver.py", solver),
            ("main.py", &main),
        ]);
        assert_findings(&items, expected, "JP001", log);
    }
}

/// A method of a helper module's config class calling another method on
/// `self` (`fresh()` returning `self.copy()`), asked for an object the
/// importer made: the method runs on that object, which keeps its class and
/// fields. Verified under jax 0.12.0.1 on a CPU host: exported for
/// `("cuda",)` the Mosaic TPU kernel raises a bare `AssertionError` (JP002's
/// case on a fresh process); for `("tpu",)` it exports. The build before
/// took `self.copy` for a class kept in a field and made an object of class
/// `cfgs.ExportConfig.copy`, with no fields.
#[test]
fn a_method_called_on_self_in_another_module_returns_that_object() {
    for (platforms, expected) in [("cuda", 1), ("tpu", 0)] {
        let cfgs = format!(
            r#"import copy
import dataclasses


@dataclasses.dataclass
class ExportConfig:
    platforms: tuple = ("{platforms}",)

    def copy(self):
        return copy.deepcopy(self)

    def fresh(self):
        return self.copy()
"#
        );
        let main = r#"import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

from cfgs import ExportConfig


def _kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0


def head(x):
    return pl.pallas_call(
        _kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params=pltpu.CompilerParams(),
    )(x)


if __name__ == "__main__":
    cfg = ExportConfig().fresh()
    x = jax.ShapeDtypeStruct((8, 128), jnp.float32)
    exported = jax.export.export(jax.jit(head), platforms=cfg.platforms)(x)
"#;
        let items = check_json(&[("cfgs.py", &cfgs), ("main.py", main)]);
        assert_findings(&items, expected, "JP002", platforms);
    }
}

/// A config object of a helper module, cloned and then given a keyword by
/// the setter its class inherits (`cfg.set(platforms=...)`, a base class's
/// `setattr` loop), then handed to an object that exports with
/// `self.config.platforms`: the object the name holds after the call has
/// the keyword stored. Verified under jax 0.12.0.1 on a CPU host: set to
/// `("cuda",)` (default `("tpu",)`) the Mosaic TPU kernel raises a bare
/// `AssertionError`; set to `("tpu",)` (default `("cuda",)`) it exports.
/// The build before read the default (the setter was listed under the base
/// class only, and a name read whole did not see the call).
#[test]
fn an_inherited_keyword_setter_called_on_a_name_stores_into_what_it_holds() {
    for (default, set, expected) in [("tpu", "cuda", 1), ("cuda", "tpu", 0)] {
        let launch = format!(
            r#"import copy
import dataclasses


@dataclasses.dataclass
class ConfigBase:
    def set(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)
        return self

    def clone(self, **kwargs):
        return copy.deepcopy(self).set(**kwargs)


@dataclasses.dataclass
class ExportConfig(ConfigBase):
    name: str = "export"
    platforms: tuple = ("{default}",)
"#
        );
        let main = format!(
            r#"import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

from launch import ExportConfig


def _kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0


def head(x):
    return pl.pallas_call(
        _kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params=pltpu.CompilerParams(),
    )(x)


class Exporter:
    def __init__(self, cfg):
        self.config = cfg

    def run(self, x):
        return jax.export.export(jax.jit(head), platforms=self.config.platforms)(x)


if __name__ == "__main__":
    cfg = ExportConfig().clone(name="serving")
    cfg.set(platforms=("{set}",))
    Exporter(cfg).run(jax.ShapeDtypeStruct((8, 128), jnp.float32))
"#
        );
        let items = check_json(&[("launch.py", &launch), ("main.py", &main)]);
        assert_findings(&items, expected, "JP002", set);
    }
}

/// Objects of a helper module's classes handed back to that module: its
/// function calls a method on the one it is given, its callable class
/// calls the one it holds. Each runs that object's method, found by the
/// module's own path (`layers.Progress.tick`, asked with the object).
/// Verified under jax 0.12.0.1, each lowered for tpu on a CPU host: the
/// `Progress` and `Report` ones raise "the platform for the specified
/// backend cpu is different from the lowering platform tpu", the `Quiet`
/// and `Silent` ones lower. The build before found none (the class came
/// back by a bare name nothing resolved).
#[test]
fn an_object_of_a_helper_modules_class_runs_its_method_in_that_module() {
    let layers = r#"import jax
from jax.experimental import io_callback


class Progress:
    def tick(self, x):
        io_callback(print, None, x, ordered=True)
        return x


class Quiet:
    def tick(self, x):
        return x


def step_with(meter, x):
    return meter.tick(x) * 2


class Chain:
    def __init__(self, layer):
        self.layer = layer

    def __call__(self, x):
        return self.layer(x)


class Report:
    def __call__(self, x):
        jax.debug.print("x={}", x)
        return x


class Silent:
    def __call__(self, x):
        return x
"#;
    for (lowered, expected) in [
        ("jax.jit(lambda x: step_with(Progress(), x))", 1),
        ("jax.jit(lambda x: step_with(Quiet(), x))", 0),
        ("jax.jit(Chain(Report()))", 1),
        ("jax.jit(Chain(Silent()))", 0),
    ] {
        let main = format!(
            r#"import jax
import jax.numpy as jnp

from layers import Chain, Progress, Quiet, Report, Silent, step_with

x = jnp.ones((4,), jnp.float32)
{lowered}.trace(x).lower(lowering_platforms=("tpu",))
"#
        );
        let items = check_json(&[("layers.py", layers), ("main.py", &main)]);
        assert_findings(&items, expected, "JP001", lowered);
    }
}

/// Dicts another module's function builds and returns cross the import
/// whole: a display changed by item stores before the return (the later
/// store of a key wins), and a dict comprehension over known items.
/// Verified under jax 0.12.0.1 on a CPU host: exporting the Mosaic kernel
/// for the "cuda" the store put raises a bare `AssertionError`, for "tpu"
/// it exports; lowering over the comprehension's AbstractMesh shardings
/// without platforms raises "Passing lowering_platforms via jax.export
/// ...", with `("tpu",)` it lowers. The build before read both dicts as
/// unknown and found nothing.
#[test]
fn a_dict_another_module_stores_into_or_builds_by_comprehension_is_read_whole() {
    let settings = r#"import jax
from jax.sharding import NamedSharding, PartitionSpec


def load_settings(platform):
    raw = {"platforms": ["tpu"], "block": 8}
    raw["platforms"] = [platform]
    return raw


def abstract_inputs(shapes, mesh):
    return {
        name: jax.ShapeDtypeStruct(shape, "float32", sharding=NamedSharding(mesh, PartitionSpec()))
        for name, shape in shapes.items()
    }
"#;
    for (platform, expected) in [("cuda", 1), ("tpu", 0)] {
        let main = format!(
            r#"import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

from settings import load_settings


def _copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def step(x):
    return pl.pallas_call(
        _copy,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params=pltpu.CompilerParams(),
    )(x)


raw = load_settings("{platform}")
spec = jax.ShapeDtypeStruct((8, 128), jnp.float32)
exported = jax.export.export(jax.jit(step), platforms=raw["platforms"])(spec)
print(exported.platforms)
"#
        );
        let items = check_json(&[("settings.py", settings), ("main.py", &main)]);
        assert_findings(&items, expected, "JP002", platform);
    }
    for (platforms, expected) in [("None", 1), ("(\"tpu\",)", 0)] {
        let main = format!(
            r#"import jax
from jax.sharding import AbstractMesh

from settings import abstract_inputs

mesh = AbstractMesh((4, 2), ("data", "model"))
inputs = abstract_inputs({{"embed": (1024, 64), "head": (64, 8)}}, mesh)
lowered = jax.jit(lambda p: p["embed"] @ p["head"]).trace(inputs).lower(lowering_platforms={platforms})
print(lowered.as_text()[:20])
"#
        );
        let items = check_json(&[("settings.py", settings), ("main.py", &main)]);
        assert_findings(&items, expected, "JP003", platforms);
    }
}

/// Class-body values a class of another module inherits from its base
/// there: read on an object it makes (`Serving().PLATFORMS`) and on the
/// class itself (`Serving.PLATFORMS`). Verified under jax 0.12.0.1 on a
/// CPU host: both exports of the Mosaic kernel raise a bare
/// `AssertionError` when the base says "cuda" (each alone too), and export
/// when it says "tpu". The build before read both as unknown.
#[test]
fn a_class_of_another_module_has_what_its_base_writes_in_its_body() {
    let main = r#"import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

from experiments import Serving


def _copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def step(x):
    return pl.pallas_call(
        _copy,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params=pltpu.CompilerParams(),
    )(x)


spec = jax.ShapeDtypeStruct((8, Serving.BLOCK), jnp.float32)
by_object = jax.export.export(jax.jit(step), platforms=Serving().PLATFORMS)(spec)
by_class = jax.export.export(jax.jit(step), platforms=Serving.PLATFORMS)(spec)
"#;
    for (platform, expected) in [("cuda", 2), ("tpu", 0)] {
        let experiments = format!(
            r#"class Experiment:
    PLATFORMS = ("{platform}",)
    BLOCK = 128


class Serving(Experiment):
    BLOCK = 256
"#
        );
        let items = check_json(&[("experiments.py", &experiments), ("main.py", main)]);
        assert_findings(&items, expected, "JP002", platform);
    }
}

/// A property of this module's class read inside this module on an object
/// another module made and passed back (`layout(DeviceMesh(...))` reading
/// `device_mesh.backend_mesh`): the property, its `self` that object.
/// Verified under jax 0.12.0.1: lowering over the AbstractMesh sharding
/// without platforms raises "Passing lowering_platforms via jax.export
/// ...", with `("tpu",)` it lowers. The build before read the property as
/// unknown.
#[test]
fn a_property_of_an_object_another_module_made_is_read_on_that_object() {
    let layouts = r#"from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec


class DeviceMesh:
    def __init__(self, shape, names):
        self.shape, self.names = shape, names

    @property
    def backend_mesh(self):
        return AbstractMesh(self.shape, self.names)


def layout(device_mesh):
    return NamedSharding(device_mesh.backend_mesh, PartitionSpec("batch"))
"#;
    for (platforms, expected) in [("None", 1), ("(\"tpu\",)", 0)] {
        let main = format!(
            r#"import jax
import jax.numpy as jnp

from layouts import DeviceMesh, layout

sharding = layout(DeviceMesh((2,), ("batch",)))
step = jax.jit(lambda x: x * 2, in_shardings=sharding)
lowered = step.trace(jax.ShapeDtypeStruct((8, 4), jnp.float32)).lower(lowering_platforms={platforms})
print(lowered.as_text()[:10])
"#
        );
        let items = check_json(&[("layouts.py", layouts), ("main.py", &main)]);
        assert_findings(&items, expected, "JP003", platforms);
    }
}

/// An instance of this module's class whose base is another module's
/// class: a method or property it inherits runs there on this object, its
/// class-body override included (`Local().platforms()` reading
/// `self.PLATFORMS`), and a class attribute it inherits is the base's.
/// Verified under jax 0.12.0.1 (each lowering in its own `try`): a
/// lowering for ("tpu",) of the callback raises "the platform for the
/// specified backend cpu is different from the lowering platform tpu",
/// one for ("cpu",) lowers. The build before read all three as unknown.
#[test]
fn an_instance_reads_what_it_inherits_from_another_modules_class() {
    let main_for = |platform: &str| {
        format!(
            r#"import jax
import jax.numpy as jnp

from experiments import Experiment


class Local(Experiment):
    PLATFORMS = ("{platform}",)


def step(x):
    return jax.pure_callback(lambda v: v, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


spec = jax.ShapeDtypeStruct((4,), jnp.float32)
jax.jit(step).trace(spec).lower(lowering_platforms=Local().platforms())
jax.jit(step).trace(spec).lower(lowering_platforms=Local().serving)
jax.jit(step).trace(spec).lower(lowering_platforms=Local().EXTRA)
"#
        )
    };
    for (platform, extra, expected) in [
        ("tpu", "cpu", vec![16, 17]),
        ("cpu", "tpu", vec![18]),
        ("cpu", "cpu", vec![]),
    ] {
        let experiments = format!(
            r#"class Experiment:
    PLATFORMS = ("cpu",)
    EXTRA = ("{extra}",)

    def platforms(self):
        return tuple(self.PLATFORMS)

    @property
    def serving(self):
        return self.PLATFORMS
"#
        );
        let main = main_for(platform);
        let items = check_json(&[("experiments.py", &experiments), ("main.py", &main)]);
        let case = format!("{platform}/{extra}");
        assert_findings(&items, expected.len(), "JP001", &case);
        let lines: Vec<u64> = items
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|i| i["location"]["row"].as_u64())
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(lines, expected, "{case}: {items}");
    }
}

/// A class of this module handed to a function of another module that
/// constructs it (`make(Props)` calling `cls(dim=4)`, `cls()`,
/// `cls(**kwargs)`): the object that comes back is of that class, its
/// property read on it. Verified under jax 0.12.0.1 (each lowering in its
/// own `try`): the ("tpu",) property raises "the platform for the
/// specified backend cpu is different from the lowering platform tpu" for
/// all three, ("cpu",) lowers. The build before read the object as unknown.
#[test]
fn an_object_another_module_constructs_from_a_class_given_to_it_is_of_that_class() {
    let registry = r#"def make(cls):
    return cls(dim=4)


def make_plain(cls):
    return cls()


def make_kw(cls, **kwargs):
    return cls(**kwargs)
"#;
    for (platform, expected) in [("tpu", 3), ("cpu", 0)] {
        let main = format!(
            r#"import jax
import jax.numpy as jnp

from _reg import make, make_kw, make_plain


class Props:
    def __init__(self, dim=2):
        self.dim = dim

    @property
    def platforms(self):
        return ("{platform}",)


def f(x):
    return jax.pure_callback(lambda v: v, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


spec = jax.ShapeDtypeStruct((4,), jnp.float32)
jax.jit(f).trace(spec).lower(lowering_platforms=make(Props).platforms)
jax.jit(f).trace(spec).lower(lowering_platforms=make_plain(Props).platforms)
jax.jit(f).trace(spec).lower(lowering_platforms=make_kw(Props, dim=3).platforms)
"#
        );
        let items = check_json(&[("_reg.py", registry), ("main.py", &main)]);
        assert_findings(&items, expected, "JP001", platform);
    }
}

/// Praxis-shaped registries: this module's classes registered into another
/// module's dicts (`EXPERIMENTS[cls.__name__] = cls`, `NORMS[name] = cls`),
/// an experiment looked up and constructed there by name, its inherited
/// `norm()` constructing the norm its class attribute names, and that
/// norm's `__call__` jitted and lowered for what `platforms()` (inherited
/// too) returns. Verified under jax 0.12.0.1: the "host" norm lowered for
/// ("tpu",) raises "the platform for the specified backend cpu is
/// different from the lowering platform tpu"; the other three lower. The
/// build before found none.
#[test]
fn a_registered_class_constructed_by_another_module_runs_its_own_methods() {
    let experiments = r#"NORMS = {}
EXPERIMENTS = {}


def register_norm(name):
    def deco(cls):
        NORMS[name] = cls
        return cls
    return deco


def register_experiment(cls):
    EXPERIMENTS[cls.__name__] = cls
    return cls


class Experiment:
    NORM = "plain"
    PLATFORMS = ("cpu",)

    def norm(self):
        return NORMS[self.NORM]()

    def platforms(self):
        return tuple(self.PLATFORMS)


def get_experiment(name):
    return EXPERIMENTS[name]()
"#;
    for (norm, platform, expected) in [
        ("host", "tpu", 1),
        ("host", "cpu", 0),
        ("plain", "tpu", 0),
        ("plain", "cpu", 0),
    ] {
        let main = format!(
            r#"import jax
import jax.numpy as jnp

from _exp import Experiment, get_experiment, register_experiment, register_norm


@register_norm("host")
class HostNorm:
    def __call__(self, x):
        return jax.pure_callback(lambda v: v, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


@register_norm("plain")
class PlainNorm:
    def __call__(self, x):
        return x * 2


@register_experiment
class Serving(Experiment):
    NORM = "{norm}"
    PLATFORMS = ("{platform}",)


exp = get_experiment("Serving")
norm = exp.norm()
spec = jax.ShapeDtypeStruct((4,), jnp.float32)
jax.jit(norm.__call__).trace(spec).lower(lowering_platforms=exp.platforms())
"#
        );
        let items = check_json(&[("_exp.py", experiments), ("main.py", &main)]);
        assert_findings(&items, expected, "JP001", &format!("{norm}/{platform}"));
    }
}

#[test]
fn records_another_module_s_factory_made_hold_their_own_call_s_values() {
    // `_cfgs.py` makes two records per factory (a dict display, a
    // dataclass), one for cpu and one for cuda; each importer lowers with
    // one. Under jax 0.12.0.1 `main.py` lowers both (no error) and
    // `main_remote.py` raises "the platform for the specified backend cpu
    // is different from the lowering platform cuda" at line 13, and at
    // line 14 with line 13 removed. The build before gave the importer
    // both calls' platforms for each record: two false JP001 in `main.py`.
    let cfgs = r#"import dataclasses


@dataclasses.dataclass
class RunConfig:
    platforms: tuple
    name: str


def make_cfg(platforms):
    return {"platforms": platforms, "name": "run"}


def make_run(platforms):
    return RunConfig(platforms, "run")


host_cfg = make_cfg(("cpu",))
remote_cfg = make_cfg(("cuda",))
host_run = make_run(("cpu",))
remote_run = make_run(("cuda",))
"#;
    let main = r#"import jax
import jax.numpy as jnp

from _cfgs import host_cfg, host_run, remote_cfg, remote_run


def step(x):
    jax.debug.print("x {}", x)
    return x * 2


spec = jax.ShapeDtypeStruct((4,), jnp.float32)
a = jax.jit(step).trace(spec).lower(lowering_platforms=host_cfg["platforms"])
b = jax.jit(step).trace(spec).lower(lowering_platforms=host_run.platforms)
print(a.as_text()[:10], b.as_text()[:10])
"#;
    let remote = r#"import jax
import jax.numpy as jnp

from _cfgs import host_cfg, host_run, remote_cfg, remote_run


def step(x):
    jax.debug.print("x {}", x)
    return x * 2


spec = jax.ShapeDtypeStruct((4,), jnp.float32)
a = jax.jit(step).trace(spec).lower(lowering_platforms=remote_cfg["platforms"])
b = jax.jit(step).trace(spec).lower(lowering_platforms=remote_run.platforms)
print(a.as_text()[:10], b.as_text()[:10])
"#;
    let items = check_json(&[
        ("_cfgs.py", cfgs),
        ("main.py", main),
        ("main_remote.py", remote),
    ]);
    let found: Vec<(String, u64)> = items
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|i| {
            let file = i["filename"].as_str().unwrap_or_default();
            let name = file.rsplit('/').next().unwrap_or(file).to_owned();
            (name, i["location"]["row"].as_u64().unwrap_or(0))
        })
        .collect();
    assert_eq!(
        found,
        vec![
            ("main_remote.py".to_owned(), 13),
            ("main_remote.py".to_owned(), 14)
        ],
        "{items}"
    );
    assert_findings(&items, 2, "JP001", "factory records across modules");
}

/// `_base.py` holds a class and a helper, `_mid.py` subclasses the class
/// (inheriting its `__init__`) and forwards the helper: values a lowering
/// reads cross two modules.
const TWO_DEEP_BASE: &str = r#"class Holder:
    kind = "base"

    def __init__(self, platforms):
        self.platforms = platforms

    def resolved(self):
        return self.platforms


def passthrough(value):
    return value
"#;

const TWO_DEEP_MID: &str = r#"import _base


class Leaf(_base.Holder):
    kind = "leaf"


HOLDERS = {"leaf": Leaf}


def holder_class(name):
    return HOLDERS[name]


def forward(value):
    return _base.passthrough(value)
"#;

#[test]
fn values_cross_two_modules_and_inherited_inits() {
    // Each program lowers `step` (a `jax.debug.print`) with platforms that
    // come back through `_mid.py` from `_base.py`: a function returning the
    // third module's function's result, a class a table returns (its
    // `__init__` and method the third module's), and a class here
    // inheriting that `__init__` over a class-body `None`. Under jax
    // 0.12.0.1 on a CPU host each raises "the platform for the specified
    // backend cpu is different from the lowering platform cuda" (line 17)
    // with ("cuda",), and runs clean with ("cpu",). The build before found
    // none of the three (the second module's imports were not followed,
    // nor an `__init__` inherited across modules).
    for expr in [
        "_mid.forward((P,))",
        "_mid.holder_class(\"leaf\")((P,)).resolved()",
        "Mine((P,)).platforms",
    ] {
        for (platform, expected) in [("cpu", 0), ("cuda", 1)] {
            let lowered = expr.replace('P', &format!("\"{platform}\""));
            let main = format!(
                r#"import jax
import jax.numpy as jnp

import _mid


class Mine(_mid.Leaf):
    platforms = None


def step(x):
    jax.debug.print("x {{}}", x)
    return x * 2


spec = jax.ShapeDtypeStruct((4,), jnp.float32)
lowered = jax.jit(step).trace(spec).lower(lowering_platforms={lowered})
"#
            );
            let items = check_json(&[
                ("_base.py", TWO_DEEP_BASE),
                ("_mid.py", TWO_DEEP_MID),
                ("main.py", &main),
            ]);
            assert_findings(&items, expected, "JP001", &lowered);
            if expected == 1 {
                assert_eq!(items[0]["location"]["row"], 17, "{lowered}: {items}");
            }
        }
    }
}

#[test]
fn a_store_into_another_module_s_object_is_read_by_whoever_is_given_it() {
    // `_cfg.make_config()` makes an object whose section holds `None`; the
    // loop stores each platform into it and lowers `build(platform)` with
    // `platforms_of(cfg)`. Under jax 0.12.0.1 on a CPU host the program
    // whose callback is on for "cuda" raises the JP001 error at line 24 (the
    // cuda element); the one whose callback is on for "cpu" runs clean. The
    // build before read the section's `None` (no finding for either); the
    // stored value must stay paired with its loop element, or the cpu
    // program's callback would meet the cuda lowering.
    let cfg = r#"class Section:
    def __init__(self):
        self.platforms = None


class Config:
    def __init__(self):
        self.export = Section()


def make_config():
    return Config()
"#;
    for (guard, expected) in [("cpu", 0), ("cuda", 1)] {
        let main = format!(
            r#"import jax
import jax.numpy as jnp

import _cfg


def platforms_of(cfg):
    return cfg.export.platforms


def build(platform):
    def step(x):
        if platform == "{guard}":
            jax.debug.print("x {{}}", x)
        return x * 2

    return step


spec = jax.ShapeDtypeStruct((4,), jnp.float32)
for platform in ("cpu", "cuda"):
    cfg = _cfg.make_config()
    cfg.export.platforms = (platform,)
    jax.jit(build(platform)).trace(spec).lower(lowering_platforms=platforms_of(cfg))
"#
        );
        let items = check_json(&[("_cfg.py", cfg), ("main.py", &main)]);
        assert_findings(&items, expected, "JP001", guard);
        if expected == 1 {
            assert_eq!(items[0]["location"]["row"], 24, "{guard}: {items}");
        }
    }
}

#[test]
fn a_name_holding_the_host_s_backend_makes_its_test_a_host_test() {
    // `backend = jax.default_backend()`, then `if backend == ...:` around a
    // callback lowered for cuda. Under jax 0.12.0.1 on a CPU host the
    // "cpu" program raises "the platform for the specified backend cpu is
    // different from the lowering platform cuda" (line 17) and the "gpu"
    // one runs clean (on a GPU host its callback runs on a GPU backend:
    // no error there either). The build before read `backend == "gpu"` as
    // an unknown condition, its branch reached: a false JP001 under
    // `--target-platforms cpu`.
    for (tested, expected) in [("cpu", 1), ("gpu", 0)] {
        let main = format!(
            r#"import jax
import jax.numpy as jnp


def host_solve(x):
    return jax.pure_callback(lambda v: v, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


def step(x):
    backend = jax.default_backend()
    if backend == "{tested}":
        return host_solve(x)
    return x * 2


spec = jax.ShapeDtypeStruct((4,), jnp.float32)
lowered = jax.jit(step).trace(spec).lower(lowering_platforms=("cuda",))
"#
        );
        let dir = project(&[("main.py", &main)]);
        let out = jax_lsp(
            dir.path(),
            &[
                "check",
                "--output-format",
                "json",
                "--target-platforms",
                "cpu",
                ".",
            ],
        );
        let items: Value = serde_json::from_str(&stdout(&out)).expect("json");
        assert_findings(&items, expected, "JP001", tested);
        if expected == 1 {
            assert_eq!(items[0]["location"]["row"], 17, "{tested}: {items}");
        }
    }
}

#[test]
fn a_closure_or_partial_of_a_method_runs_on_the_object_it_was_read_off() {
    // The lowered function is a closure `runner.step_fn()` returned (brainpy's
    // `predict_fn`) or `functools.partial(runner.apply, ...)` (jax_fdm's
    // `jit(partial(model.equilibrium, ...))`); the callback behind
    // `self.debug` runs for the lowered object only. Under jax 0.12.0.1 on a
    // CPU host, `Runner(debug=True)` lowered for tpu raises "the platform for
    // the specified backend cpu is different from the lowering platform
    // tpu"; `Runner(debug=False)` runs clean (the other object, never
    // lowered, holds the other flag). The build before walked the closure
    // and the partial without their object: `self.debug` was every
    // object's, and nothing was reported.
    for lowered in [
        "runner.step_fn()",
        "functools.partial(runner.apply, scale=2)",
    ] {
        for (lowered_flag, other_flag, expected) in [("True", "False", 1), ("False", "True", 0)] {
            let main = format!(
                r#"import functools

import jax
import jax.numpy as jnp


class Runner:
    def __init__(self, debug):
        self.debug = debug

    def apply(self, x, scale=1):
        if self.debug:
            jax.debug.print("x {{}}", x)
        return x * scale

    def step_fn(self):
        def step(x):
            return self.apply(x)

        return step


other = Runner({other_flag})
runner = Runner({lowered_flag})
spec = jax.ShapeDtypeStruct((3,), jnp.float32)
jax.jit({lowered}).trace(spec).lower(lowering_platforms=("tpu",))
"#
            );
            let items = check_json(&[("main.py", &main)]);
            let case = format!("{lowered} {lowered_flag}");
            assert_findings(&items, expected, "JP001", &case);
            if expected == 1 {
                assert_eq!(items[0]["location"]["row"], 26, "{case}: {items}");
            }
        }
    }
}

#[test]
fn a_function_the_host_picks_from_a_table_is_checked_on_that_host() {
    // `solve = SOLVERS.get(jax.default_backend())` in another module
    // (jax_fdm's solver registry): on a CPU host it is the pure_callback
    // solver. Under jax 0.12.0.1 on this CPU host the cuda lowering raises
    // "the platform for the specified backend cpu is different from the
    // lowering platform cuda"; the cpu lowering runs clean (the callback is
    // the host's own backend), and on GPU/TPU hosts the device solver has
    // no callback. The build before read `jax.default_backend()` as any
    // string: the table's entry was unknown and nothing was reported.
    let solvers = r#"import jax
import jax.numpy as jnp


def solve_host(a, b):
    return jax.pure_callback(lambda a, b: b, jax.ShapeDtypeStruct(b.shape, b.dtype), a, b)


def solve_device(a, b):
    return jnp.linalg.solve(a, b)


SOLVERS = {"cpu": solve_host, "gpu": solve_device, "tpu": solve_device}
solve = SOLVERS.get(jax.default_backend())
"#;
    for (platform, expected) in [("cuda", 1), ("cpu", 0)] {
        let main = format!(
            r#"import jax
import jax.numpy as jnp

from _solvers import solve


def step(a, b):
    return solve(a, b)


spec = jax.ShapeDtypeStruct((3, 3), jnp.float32)
jax.jit(step).trace(spec, spec).lower(lowering_platforms=("{platform}",))
"#
        );
        let items = check_json(&[("_solvers.py", solvers), ("main.py", &main)]);
        assert_findings(&items, expected, "JP001", platform);
        if expected == 1 {
            assert_eq!(items[0]["severity"], "warning", "{items}");
            let message = items[0]["message"].as_str().unwrap_or_default();
            assert!(
                message.contains("on a host whose backend is cpu"),
                "{items}"
            );
        }
    }
}

#[test]
fn a_keyword_setter_of_another_modules_class_stores_what_it_is_given() {
    // `cfg.set(lowering_platforms=...)` on an object of another module's
    // class whose `set(**kw)` stores each keyword with `setattr` (axlearn's
    // and praxis's config objects). Under jax 0.12.0.1 the AbstractMesh
    // computation lowered with `("tpu",)` runs clean, and with the bare
    // string `"tpu"` lowers for ('t', 'p', 'u') (JP005). The build before
    // read the class's `None`: a false JP003 on the first, JP003 instead
    // of JP005 on the second.
    let cfg = r#"class Config:
    lowering_platforms = None

    def set(self, **kwargs):
        for key, value in kwargs.items():
            setattr(self, key, value)
        return self
"#;
    for (value, expected) in [(r#"("tpu",)"#, None), (r#""tpu""#, Some("JP005"))] {
        let main = format!(
            r#"import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P

from _cfg import Config


def f(x):
    return x * 2


cfg = Config()
cfg.set(lowering_platforms={value})
mesh = AbstractMesh((8,), ("data",))
spec = jax.ShapeDtypeStruct((64, 32), jnp.float32)
traced = jax.jit(f, in_shardings=NamedSharding(mesh, P("data"))).trace(spec)
lowered = traced.lower(lowering_platforms=cfg.lowering_platforms)
"#
        );
        let items = check_json(&[("_cfg.py", cfg), ("main.py", &main)]);
        match expected {
            Some(code) => assert_findings(&items, 1, code, value),
            None => assert_findings(&items, 0, "", value),
        }
    }
}

#[test]
fn a_copy_made_through_self_class_holds_the_settings_it_was_given() {
    // `self.__class__(**self.settings)` (brainpy's `environment.clone()`):
    // a construction of the object's own class. Under jax 0.12.0.1 the
    // `("tpu",)` copy lowers for tpu on this CPU host and its callback
    // raises "the platform for the specified backend cpu is different from
    // the lowering platform tpu"; the `("cpu",)` copy runs clean. The build
    // before read the copy as unknown: nothing was reported.
    for (platforms, expected) in [(r#"("tpu",)"#, 1), (r#"("cpu",)"#, 0)] {
        let main = format!(
            r#"import jax
import jax.numpy as jnp


class Settings:
    def __init__(self, **settings):
        self.settings = settings
        self.platforms = settings.get("platforms", ("cpu",))

    def clone(self):
        return self.__class__(**self.settings)


def f(x):
    jax.debug.print("x {{}}", x)
    return x * 2


copy = Settings(platforms={platforms}).clone()
spec = jax.ShapeDtypeStruct((3,), jnp.float32)
jax.jit(f).trace(spec).lower(lowering_platforms=copy.platforms)
"#
        );
        let items = check_json(&[("main.py", &main)]);
        assert_findings(&items, expected, "JP001", platforms);
    }
}

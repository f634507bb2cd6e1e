//! What the value flow gives module-level names, read from
//! `jax-lsp debug-lowerings` (`analysis::debug_lowerings`): small programs
//! whose values Python itself decides.

use std::path::Path;

fn name_values(text: &str, name: &str) -> String {
    let dump = jax_lsp::analysis::debug_lowerings(text, Path::new("/nonexistent/flow_case.py"));
    let prefix = format!("name {name} = ");
    dump.lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .map(str::to_owned)
        .unwrap_or_else(|| panic!("no `{name}` in:\n{dump}"))
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

//! Platform context from tests and guards: code that only runs on some hosts
//! (test decorators, `default_backend()` branches, early skips) is checked for
//! those hosts where JAX takes the platform from the host. These need a TPU or
//! GPU host to fail, so they are checked here rather than by the oracle (the
//! CPU-runnable cases are fixtures: JP010/pos_default_backend_cpu_branch.py,
//! JP010/pos_early_return_not_cpu.py).

use jax_lsp::analysis;
use jax_lsp::config::Settings;
use std::path::Path;

const KERNELS: &str = r#"import jax
import jax.numpy as jnp
import pytest
from absl.testing import absltest
from jax._src import test_util as jtu
import jax.experimental.pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as pltriton

def body(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def triton_copy(x):
    return pl.pallas_call(body, out_shape=x, compiler_params=pltriton.CompilerParams(num_warps=4))(x)

def tpu_copy(x):
    return pl.pallas_call(body, out_shape=x, compiler_params=pltpu.CompilerParams())(x)

SPEC = jax.ShapeDtypeStruct((8, 128), jnp.float32)
"#;

fn codes(test: &str) -> Vec<(usize, String, String)> {
    let text = format!("{KERNELS}\n{test}");
    let offset = KERNELS.lines().count() + 1;
    analysis::analyze(&text, Path::new("t.py"), &Settings::default(), None)
        .into_iter()
        .map(|f| {
            (
                text[..f.span.start].matches('\n').count() + 1 - offset,
                f.code.to_owned(),
                f.message,
            )
        })
        .collect()
}

#[test]
fn run_on_devices_pins_the_host() {
    let found = codes(
        r#"class T(jtu.JaxTestCase):
  @jtu.run_on_devices("tpu")
  def test_triton_on_tpu(self):
    jax.jit(triton_copy).trace(SPEC).lower()
"#,
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].1, "JP002");
    assert_eq!(found[0].0, 4);
    assert!(
        found[0]
            .2
            .starts_with("Compiler params for platform gpu cannot be used for tpu lowering."),
        "{}",
        found[0].2
    );
}

#[test]
fn gpu_hosts_reject_tpu_params_and_accept_triton() {
    let found = codes(
        r#"class T(jtu.JaxTestCase):
  @jtu.run_on_devices("gpu")
  def test_tpu_on_gpu(self):
    jax.jit(tpu_copy).trace(SPEC).lower()

  @jtu.run_on_devices("gpu")
  def test_triton_on_gpu(self):
    jax.jit(triton_copy).trace(SPEC).lower()
"#,
    );
    let lines: Vec<usize> = found
        .iter()
        .filter(|f| f.1 == "JP002")
        .map(|f| f.0)
        .collect();
    assert_eq!(lines, vec![4], "{found:?}");
}

#[test]
fn skipif_and_early_skips_pin_the_host() {
    let found = codes(
        r#"@pytest.mark.skipif(jax.default_backend() != "tpu", reason="TPU only")
def test_a():
    jax.jit(triton_copy).trace(SPEC).lower()

class T(jtu.JaxTestCase):
  def test_b(self):
    if not jtu.test_device_matches(["tpu"]):
      self.skipTest("TPU only")
    jax.jit(triton_copy).trace(SPEC).lower()

  @jtu.skip_on_devices("cpu", "tpu")
  def test_c(self):
    jax.jit(triton_copy).trace(SPEC).lower()
"#,
    );
    let lines: Vec<usize> = found
        .iter()
        .filter(|f| f.1 == "JP002")
        .map(|f| f.0)
        .collect();
    assert_eq!(
        lines,
        vec![3, 9],
        "test_c runs on cuda/rocm only, where Triton params are right: {found:?}"
    );
}

#[test]
fn no_context_means_no_finding() {
    let found = codes(
        r#"def test_any_host():
    jax.jit(triton_copy).trace(SPEC).lower()
"#,
    );
    assert!(found.is_empty(), "{found:?}");
}

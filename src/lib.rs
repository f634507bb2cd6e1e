//! jax-lsp: finds JAX/Pallas platform-consistency mistakes before JAX does.
//!
//! Layers, each depending only on those above it: `syntax` (parsing, queries,
//! line index) -> `semantic` (facts) -> `rules` -> front ends (`check`,
//! `explain`, `server`). See ARCHITECTURE.md.

pub mod alloc;
pub mod analysis;
pub mod check;
pub mod config;
pub mod contracts;
pub mod diagnostic;
pub mod explain;
pub mod fix;
pub mod incremental;
pub mod resolver;
pub mod rules;
pub mod semantic;
pub mod server;
pub mod syntax;

/// Stack of every thread that analyses a file (rayon's workers, the
/// server's blocking threads). The evaluation recurses through the program's
/// own nesting (calls into calls, attribute chains); its budgets bound the
/// work, not the depth in frames, and a worker's default 2 MiB was found too
/// small on a real library module (maxtext's `layers/moe.py`) where the main
/// thread's 8 MiB was not. Address space only: untouched pages cost nothing.
pub const ANALYSIS_STACK_BYTES: usize = 64 << 20;

/// Makes rayon's global pool with `ANALYSIS_STACK_BYTES` stacks. Called once
/// at start-up, before any parallel work; a second call (tests) is harmless.
pub fn init_thread_pool() {
    let _ = rayon::ThreadPoolBuilder::new()
        .stack_size(ANALYSIS_STACK_BYTES)
        .build_global();
}

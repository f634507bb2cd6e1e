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

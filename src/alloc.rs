//! One allocator for Rust and for tree-sitter's C code: mimalloc.
//!
//! Why: with glibc's malloc, freeing a large document's tree (hundreds of
//! thousands of small nodes) leaves them in fast bins, and the next large
//! allocation consolidates them all at once. The server bench measured that
//! landing in the next keystroke: 10-20 ms after closing a 10,000-line file.

/// Routes tree-sitter's allocations to mimalloc. Call first thing in `main`,
/// before anything is parsed: memory from one allocator must not be freed by
/// the other. Binaries pair it with
/// `#[global_allocator] static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;`.
pub fn install_for_tree_sitter() {
    use libmimalloc_sys::{mi_calloc, mi_free, mi_malloc, mi_realloc};
    // SAFETY: called before any tree-sitter object exists (the contract
    // above), so nothing allocated by libc malloc is later freed by mi_free.
    unsafe {
        tree_sitter::set_allocator(
            Some(mi_malloc),
            Some(mi_calloc),
            Some(mi_realloc),
            Some(mi_free),
        );
    }
}

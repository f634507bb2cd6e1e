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

/// Turns transparent huge pages off for this process (Linux; elsewhere
/// nothing). Call first thing in `main`.
///
/// Why: mimalloc asks for huge pages on its arenas (`MADV_HUGEPAGE`), so each
/// first touch of fresh memory made the kernel zero a whole 2 MiB page. With
/// the 10,000-line bench module, the server held 125 MB after seven opens
/// and closes instead of 45 MB without them, and zeroing those pages was up
/// to a sixth of an open's CPU time; no phase got slower without them (the
/// bench: opens, keystrokes, `check`). The flag is read at every page
/// fault, so memory mapped before this call is covered too.
pub fn no_transparent_huge_pages() {
    #[cfg(target_os = "linux")]
    {
        use std::ffi::{c_int, c_ulong};
        extern "C" {
            fn prctl(option: c_int, ...) -> c_int;
        }
        // From <linux/prctl.h>.
        const PR_SET_THP_DISABLE: c_int = 41;
        // SAFETY: prctl with PR_SET_THP_DISABLE takes one unsigned long flag
        // (the rest must be zero) and touches no memory of ours. A kernel
        // without it returns -1 (EINVAL): nothing to do then.
        unsafe {
            prctl(
                PR_SET_THP_DISABLE,
                1 as c_ulong,
                0 as c_ulong,
                0 as c_ulong,
                0 as c_ulong,
            );
        }
    }
}

//! Fuzzing with proptest, one module per input: scenario text, the CLI's inputs, share
//! links, and command sequences on a running simulation. A short pass runs with
//! `cargo test`; at volume: `FUZZ_CASES=1000000 cargo test --profile fuzz --test fuzz --
//! --nocapture` (see README). A failure prints the `FUZZ_SEED` that draws it again.
//!
//! Every case is also held to a memory bound: the allocator below counts, per thread, the
//! bytes live during the case, and a case whose peak passes `FUZZ_MAX_CASE_MB` (default
//! 512) fails, so input that makes the code allocate without limit is found and shrunk
//! like a panic.
// Spec literals end in `..Spec::default()` even when they name every field today, so a
// field added to the format later changes no test that does not use it.
#![allow(clippy::needless_update)]
#![allow(clippy::unwrap_used, clippy::expect_used)]
// The counting allocator needs `unsafe impl GlobalAlloc`; it only forwards to `System`.
#![allow(unsafe_code)]

mod cli;
mod commands;
mod lesson;
mod scenario;
mod share;
mod support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    /// Bytes allocated and not yet freed by this thread (frees on another thread make it
    /// an estimate, which is all a bound needs).
    static LIVE: Cell<isize> = const { Cell::new(0) };
    /// The highest `LIVE` since the last [`peak_reset`].
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn grew(by: isize) {
    // `try_with`: during thread teardown the counters may be gone; then nothing is counted.
    let _ = LIVE.try_with(|live| {
        let now = live.get() + by;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

/// Starts measuring a case: the peak becomes what is live now.
pub fn peak_reset() {
    let live = LIVE.try_with(Cell::get).unwrap_or(0);
    let _ = PEAK.try_with(|p| p.set(live));
}

/// Bytes allocated by this thread, at most, since [`peak_reset`], beyond what was live then.
pub fn peak_since(start: isize) -> isize {
    PEAK.try_with(Cell::get).unwrap_or(0) - start
}

pub fn live_now() -> isize {
    LIVE.try_with(Cell::get).unwrap_or(0)
}

struct Metered;

// SAFETY: every call is forwarded unchanged to `System`; only per-thread counters (const
// thread-locals, which never allocate) are updated.
unsafe impl GlobalAlloc for Metered {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        grew(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            grew(new_size as isize - layout.size() as isize);
        }
        p
    }
}

#[global_allocator]
static METERED: Metered = Metered;

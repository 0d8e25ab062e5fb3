//! The allocator and how soon it gives memory back.
//!
//! mimalloc keeps the many small JSON values of a run cheap (the live fuzz target's
//! throughput in fuzz/README.md is measured with it), but by default (mimalloc 3) it keeps
//! freed pages for a second, its arenas ten times that, and commits an arena whole: a
//! run that parses a large listing, drops it and builds argument strategies then held the
//! freed pages too, 143 MB at the peak of the heavy-schemas row for a heap of 78 MB
//! (reports/hostile.md, "Session 23"). Purging after 10 ms and committing on demand took
//! that row to 108 MB and the bundled reference run from 55 to 31 MB, with no change in
//! time or in the fuzzer's cases per second beyond their scatter. A `MIMALLOC_PURGE_DELAY` or
//! `MIMALLOC_ARENA_EAGER_COMMIT` the user sets to other than mimalloc's default still wins
//! (reading the variables here would allocate).

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc 3's option numbers (`mi_option_t` in its `mimalloc.h`); `libmimalloc-sys`
/// names only some of them. The test below checks their defaults.
const ARENA_EAGER_COMMIT: Option = 4;
const PURGE_DELAY: Option = 15;

type Option = libmimalloc_sys::mi_option_t;
type Value = std::ffi::c_long;

/// Each option, mimalloc's default for it, and the value set here.
const SETTINGS: [(Option, Value, Value); 2] = [(ARENA_EAGER_COMMIT, 2, 0), (PURGE_DELAY, 1000, 10)];

// Before `main`: the Rust runtime allocates before it, and mimalloc reserves (and, by
// default, commits) its first arena at the first allocation; it is the only arena a run
// needs. Nothing here allocates.
#[ctor::ctor(unsafe)]
fn return_memory_soon() {
    for (option, default, value) in SETTINGS {
        // SAFETY: mi_option_get and mi_option_set read and store a number in mimalloc's
        // option table (initialized by its own constructor, which runs first); the option
        // exists in the linked mimalloc (see the test).
        #[allow(unsafe_code)]
        unsafe {
            // The default still in place: no MIMALLOC_* variable set it.
            if libmimalloc_sys::mi_option_get(option) == default {
                libmimalloc_sys::mi_option_set(option, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_option_had_its_default_before_main_and_has_its_value_now() {
        // The constructor sets an option only where it read mimalloc's default, so an
        // option number naming another option (a default other than 2 or 1000) fails here.
        for (option, _, value) in SETTINGS {
            #[allow(unsafe_code)]
            // SAFETY: as in `return_memory_soon`.
            let now = unsafe { libmimalloc_sys::mi_option_get(option) };
            assert_eq!(now, value, "option {option}");
        }
    }
}

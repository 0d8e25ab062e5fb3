//! Heeding an interrupt inside a long build.
//!
//! Building a tool's strategies is synchronous and bounded by the size budget, but a
//! hostile schema (five thousand properties, each probed) can still take seconds on the
//! runtime's one thread, where a signal's task cannot run: Ctrl-C or SIGTERM went unheard
//! until the build ended. An [`Interrupt`] is a flag a signal handler may raise (one atomic
//! store); the builders ask [`interrupted`] at each schema node and probe, and give up with
//! an [`Unsupported`](super::Unsupported) at once, so the runtime gets its turn.
//!
//! The flag reaches the builders through [`within`]: set for the current thread while one
//! build runs, not a process-wide value, so two runs in one process (tests, `--jobs` of a
//! library user) each heed their own.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A run's interrupt: raised by a signal handler (or a library user), read by the builders.
#[derive(Debug, Clone, Default)]
pub struct Interrupt(Arc<AtomicBool>);

impl Interrupt {
    /// Raises it. Safe in a signal handler: one atomic store, no allocation, no lock.
    pub fn raise(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether it was raised.
    pub fn raised(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Interrupt>> = const { RefCell::new(None) };
}

/// Runs `build` with `interrupt` as the one the builders ask on this thread.
pub fn within<R>(interrupt: &Interrupt, build: impl FnOnce() -> R) -> R {
    /// Puts back what was there before, on every path (a panic included).
    struct Restore(Option<Interrupt>);
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.with(|c| *c.borrow_mut() = self.0.take());
        }
    }
    let _restore = Restore(CURRENT.with(|c| c.borrow_mut().replace(interrupt.clone())));
    build()
}

/// Whether the build running on this thread was interrupted (never, outside [`within`]).
pub(crate) fn interrupted() -> bool {
    CURRENT.with(|c| c.borrow().as_ref().is_some_and(Interrupt::raised))
}

/// The reason a build that gave up for an interrupt reports.
pub const INTERRUPTED: &str = "interrupted";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interrupt_is_heard_only_within_its_build_and_is_put_back_after() {
        let outer = Interrupt::default();
        let inner = Interrupt::default();
        inner.raise();
        assert!(!interrupted());
        within(&outer, || {
            assert!(!interrupted());
            within(&inner, || assert!(interrupted()));
            assert!(!interrupted());
            outer.raise();
            assert!(interrupted());
        });
        assert!(!interrupted());
    }

    #[test]
    fn a_build_interrupted_before_it_starts_gives_up_at_once() {
        let schema = serde_json::json!({"type": "object", "properties": {"a": {"type": "string"}}});
        let interrupt = Interrupt::default();
        interrupt.raise();
        let built = within(&interrupt, || super::super::valid(&schema, &schema));
        assert_eq!(built.err().map(|e| e.0), Some(INTERRUPTED.to_string()));
        assert!(super::super::valid(&schema, &schema).is_ok());
    }
}

//! The signals that end a run early: SIGINT (Ctrl-C), SIGTERM (what `timeout` and a
//! cancelled CI job send) and SIGHUP (a closed terminal). Each ends the servers first (the
//! run is dropped, which kills every server's process group and marked descendants) and
//! then the process, with 128 + the signal number as its exit code.
//!
//! The handlers are registered before any server starts, so a signal that arrives while
//! the first server is starting is caught too, not left to the default action (which
//! would end us with the servers still running).

use tokio::signal::unix::{signal, Signal, SignalKind};

use mcp_conformance::generate::Interrupt;
use mcp_conformance::{Error, Result};

/// The three signals, registered.
pub(crate) struct Signals {
    int: Signal,
    term: Signal,
    hup: Signal,
}

impl Signals {
    /// Registers the handlers; call inside the runtime, before starting any server.
    pub(crate) fn register() -> Result<Self> {
        let on = |kind| signal(kind).map_err(Error::Runtime);
        Ok(Self {
            int: on(SignalKind::interrupt())?,
            term: on(SignalKind::terminate())?,
            hup: on(SignalKind::hangup())?,
        })
    }

    /// Also raises `interrupt` from inside the signal handler, for a strategy build that
    /// holds the runtime's one thread (where the task waiting in [`Signals::recv`] cannot
    /// run until it ends): the build gives up at once, and the run is cut as for any
    /// signal.
    pub(crate) fn raise(&self, interrupt: &Interrupt) -> Result<()> {
        for kind in [
            SignalKind::interrupt(),
            SignalKind::terminate(),
            SignalKind::hangup(),
        ] {
            let raised = interrupt.clone();
            // SAFETY: the action is one atomic store (`Interrupt::raise`): no allocation,
            // no lock, so it is async-signal-safe. The registry chains it with tokio's.
            #[allow(unsafe_code)]
            let registered = unsafe {
                signal_hook_registry::register(kind.as_raw_value(), move || raised.raise())
            };
            registered.map_err(Error::Runtime)?;
        }
        Ok(())
    }

    /// Waits for one of them and returns its number.
    pub(crate) async fn recv(&mut self) -> i32 {
        tokio::select! {
            _ = self.int.recv() => libc_number(SignalKind::interrupt()),
            _ = self.term.recv() => libc_number(SignalKind::terminate()),
            _ = self.hup.recv() => libc_number(SignalKind::hangup()),
        }
    }
}

fn libc_number(kind: SignalKind) -> i32 {
    kind.as_raw_value()
}

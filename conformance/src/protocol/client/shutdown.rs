//! Ending a session: the graceful way (close stdin, wait the grace, then terminate) that
//! the shutdown checks judge, and a plain kill for short probe sessions.
//!
//! Apart from the requests because it is the one step that watches the process rather
//! than a response.

use std::time::{Duration, Instant};

use tokio::time::Instant as TokioInstant;

use super::io::Target;
use super::Session;
use crate::transport::{ExitInfo, TransportEvent};

/// A shutdown whose server was still running, quietly, when its first stage ended: the
/// rest of the grace can be waited beside other work ([`Session::finish_shutdown`]).
#[derive(Debug, Clone, Copy)]
pub struct PendingShutdown {
    started: Instant,
    deadline: TokioInstant,
    grace: Duration,
}

/// Lines a server may write in the first stage of a shutdown and still have the rest of
/// its grace waited beside other work: server-everything's `toggle-*` timers write a few
/// notifications a second, a flood writes thousands (the reference server's
/// `flood-on-stdin-eof` 12,000, cut at [`super::flood_bound`]'s 10,000).
pub const CHATTER_LINES: usize = 100;

/// How a shutdown ended: the exit, whether the server exited by itself within the grace,
/// and how long it took.
pub type ShutdownOutcome = (ExitInfo, bool, Duration);

impl Session {
    /// Closes stdin and waits up to the shutdown grace for the server to exit by itself,
    /// then terminates its process group. Returns the exit and whether it was voluntary.
    pub async fn shutdown(&mut self) -> ShutdownOutcome {
        let started = Instant::now();
        if self.is_http() {
            // No process of ours to watch: read what is still arriving, then DELETE the
            // HTTP session (the runner stops a server it started, at the end of the run).
            if self.ended.is_none() {
                let _ = self.pump(TokioInstant::now(), &Target::none()).await;
            }
            let exit = self.transport.terminate(Duration::ZERO).await;
            self.drain_notes();
            return (exit, true, started.elapsed());
        }
        self.transport.close();
        let grace = self.config.shutdown_grace;
        let deadline = TokioInstant::now() + grace;
        self.finish_shutdown(PendingShutdown {
            started,
            deadline,
            grace,
        })
        .await
    }

    /// Closes stdin and waits up to `first` (at most `grace`, which replaces the
    /// configured grace when longer: a caller may scale it to how slowly the server
    /// started on this machine now). Ends the shutdown as
    /// [`Session::shutdown`] does when the server exited in that time, or when it wrote
    /// more than [`CHATTER_LINES`] lines meanwhile (a server that floods as stdin closes is
    /// read in its own turn: how much of it is read must not depend on work beside it).
    /// A server still running and quiet, or only chatting (a timer's notification now and
    /// then), is handed back: its rest of the grace mostly watches the process.
    pub async fn begin_shutdown(
        &mut self,
        first: Duration,
        grace: Duration,
    ) -> Result<ShutdownOutcome, PendingShutdown> {
        let started = Instant::now();
        self.transport.close();
        let grace = grace.max(self.config.shutdown_grace);
        let deadline = TokioInstant::now() + grace;
        let pending = PendingShutdown {
            started,
            deadline,
            grace,
        };
        let seen = self.transcript().entries().len();
        if let Some(exit) = self
            .wait_exit_until(deadline.min(TokioInstant::now() + first))
            .await
        {
            return Ok(self.exited_by_itself(exit, started));
        }
        if self.transcript().entries().len() > seen + CHATTER_LINES {
            return Ok(self.finish_shutdown(pending).await);
        }
        Err(pending)
    }

    /// Waits out the rest of a shutdown's grace, then terminates a server still running.
    pub async fn finish_shutdown(&mut self, pending: PendingShutdown) -> ShutdownOutcome {
        let PendingShutdown {
            started,
            deadline,
            grace,
        } = pending;
        if let Some(exit) = self.wait_exit_until(deadline).await {
            return self.exited_by_itself(exit, started);
        }
        let exit = self.transport.terminate(Duration::from_millis(500)).await;
        self.note(&format!(
            "server still running {:.1} s after stdin closed; terminated ({})",
            grace.as_secs_f64(),
            exit.describe()
        ));
        (exit, false, started.elapsed())
    }

    fn exited_by_itself(&mut self, exit: ExitInfo, started: Instant) -> ShutdownOutcome {
        self.note(&format!(
            "server exited after stdin closed ({})",
            exit.describe()
        ));
        (exit, true, started.elapsed())
    }

    /// Drains output (so a chatty server is not blocked on a full pipe) until the process
    /// exits or `until` passes. The process is looked at once more at the end: when this
    /// thread was busy past `until` (other conversations share it), a server that exited
    /// in time still counts as having exited by itself.
    async fn wait_exit_until(&mut self, until: TokioInstant) -> Option<ExitInfo> {
        loop {
            if let Some(exit) = self.transport.try_exit() {
                return Some(exit);
            }
            let step = (TokioInstant::now() + Duration::from_millis(20)).min(until);
            if self.ended.is_none() {
                let _ = self.pump(step, &Target::none()).await;
            } else {
                self.drain(step).await;
            }
            if TokioInstant::now() >= until {
                return self.transport.try_exit();
            }
        }
    }

    /// Reads and discards output until `until` once the session has ended (its stderr
    /// is still recorded), so a server blocked on a full pipe can notice its closed
    /// stdin; waits out the time when nothing more can come.
    async fn drain(&mut self, until: TokioInstant) {
        loop {
            match tokio::time::timeout_at(until, self.transport.next_event()).await {
                Ok(Some(TransportEvent::Stderr(line))) => self.record_stderr(line),
                Ok(Some(TransportEvent::Note(text))) => self.note(&text),
                Ok(Some(_)) => {}
                Ok(None) => {
                    tokio::time::sleep_until(until).await;
                    return;
                }
                Err(_) => return,
            }
        }
    }

    /// Records the HTTP notes already waiting (the DELETE's), without waiting.
    fn drain_notes(&mut self) {
        while let Some(event) = self.transport.try_next_event() {
            if let TransportEvent::Note(text) = event {
                self.note(&text);
            }
        }
    }

    /// Kills the server without the graceful steps (for short probe sessions).
    pub async fn kill(&mut self) {
        let _ = self.transport.terminate(Duration::from_millis(200)).await;
    }
}

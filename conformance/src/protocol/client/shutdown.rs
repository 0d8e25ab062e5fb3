//! Ending a session: the graceful way (close stdin, wait the grace, then terminate) that
//! the shutdown checks judge, and a plain kill for short probe sessions.
//!
//! Apart from the requests because it is the one step that watches the process rather
//! than a response.

use std::time::{Duration, Instant};

use tokio::time::Instant as TokioInstant;

use super::io::{Target, EXIT_GRACE};
use super::lag::STRETCH_CAP;
use super::Session;
use crate::transport::{ExitInfo, TransportEvent};

/// A shutdown whose server was still running, quietly, when its first stage ended: the
/// rest of the grace can be waited beside other work ([`Session::finish_shutdown`]).
#[derive(Debug, Clone, Copy)]
pub struct PendingShutdown {
    started: Instant,
    /// When the grace ends, pushed back by each time the harness was away.
    deadline: TokioInstant,
    grace: Duration,
    /// How much the deadline was pushed back so far, at most [`STRETCH_CAP`] graces.
    added: Duration,
}

impl PendingShutdown {
    fn new(started: Instant, grace: Duration) -> Self {
        Self {
            started,
            deadline: TokioInstant::now() + grace,
            grace,
            added: Duration::ZERO,
        }
    }

    /// The harness came back `away` late from a step of reading: that time does not
    /// count against the grace (within the cap). Returns how much the deadline moved.
    fn excuse(&mut self, away: Duration) -> Duration {
        let more = away.min((self.grace * STRETCH_CAP).saturating_sub(self.added));
        if !more.is_zero() {
            super::usage::count_stretch(self.added.is_zero(), more);
            self.added += more;
            self.deadline += more;
        }
        more
    }
}

/// How long one step of reading during a shutdown waits before the process is looked at
/// again.
const STEP: Duration = Duration::from_millis(20);

/// Coming back from a step later than this is ordinary timer slack, not time away.
const AWAY_SLACK: Duration = Duration::from_millis(10);

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
        let pending = PendingShutdown::new(started, self.config.shutdown_grace);
        self.finish_shutdown(pending).await
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
        let mut pending = PendingShutdown::new(started, grace.max(self.config.shutdown_grace));
        let seen = self.transcript().entries().len();
        if let Some(exit) = self.wait_exit_for(Some(first), &mut pending).await {
            return Ok(self.exited_by_itself(exit, started));
        }
        if self.transcript().entries().len() > seen + CHATTER_LINES {
            return Ok(self.finish_shutdown(pending).await);
        }
        Err(pending)
    }

    /// Waits out the rest of a shutdown's grace, then terminates a server still running.
    pub async fn finish_shutdown(&mut self, mut pending: PendingShutdown) -> ShutdownOutcome {
        let started = pending.started;
        if let Some(exit) = self.wait_exit_for(None, &mut pending).await {
            return self.exited_by_itself(exit, started);
        }
        let exit = self.transport.terminate(Duration::from_millis(500)).await;
        self.note(&format!(
            "server still running {:.1} s after stdin closed; terminated ({})",
            pending.grace.as_secs_f64(),
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
    /// exits or the grace is over: all of it, or its first `first`.
    ///
    /// The grace counts the time the harness was reading: when it comes back from a step
    /// late (the thread ran other work of the run, or the machine did not run it), the
    /// server may have sat blocked on a full pipe meanwhile, unable to exit, so the time
    /// away moves the deadline back (at most [`STRETCH_CAP`] graces, and the part's usage
    /// counts it). With seventy runs on two cores a flooding server's 12,000 lines took
    /// over 30 s to be read and it was judged as not exiting; idle, it exits in 0.1 s.
    /// The process is looked at once more at the end: a server that exited in time counts
    /// as having exited by itself.
    async fn wait_exit_for(
        &mut self,
        first: Option<Duration>,
        pending: &mut PendingShutdown,
    ) -> Option<ExitInfo> {
        let mut until = first.map_or(pending.deadline, |first| {
            (TokioInstant::now() + first).min(pending.deadline)
        });
        loop {
            if let Some(exit) = self.transport.try_exit() {
                self.read_left().await;
                return Some(exit);
            }
            let step = (TokioInstant::now() + STEP).min(until);
            if self.ended.is_none() {
                let _ = self.pump(step, &Target::none()).await;
            } else {
                self.drain(step).await;
            }
            let away = TokioInstant::now().saturating_duration_since(step + AWAY_SLACK);
            until += pending.excuse(away);
            if TokioInstant::now() >= until {
                return self.transport.try_exit();
            }
        }
    }

    /// Reads what an exited server wrote before it exited and is not read yet (a pipe's
    /// worth, or an in-process server's buffered lines; a flood is still cut at its
    /// bound), for at most [`EXIT_GRACE`]: how much of its last output the transcript
    /// holds, and so whether a flood passed its bound, must not depend on when the
    /// exit was seen (under load, an in-process server's flood was once judged by its
    /// first 10,649 lines of 12,000).
    async fn read_left(&mut self) {
        if self.ended.is_none() {
            let until = TokioInstant::now() + EXIT_GRACE;
            let _ = self.pump(until, &Target::none()).await;
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

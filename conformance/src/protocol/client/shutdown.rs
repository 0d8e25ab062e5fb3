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

impl Session {
    /// Closes stdin and waits up to the shutdown grace for the server to exit by itself,
    /// then terminates its process group. Returns the exit and whether it was voluntary.
    pub async fn shutdown(&mut self) -> (ExitInfo, bool, Duration) {
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
        self.transport.close_stdin();
        let deadline = TokioInstant::now() + self.config.shutdown_grace;
        // Keep draining output so a chatty server is not blocked on a full pipe.
        loop {
            if let Some(exit) = self.transport.try_exit() {
                self.note(&format!(
                    "server exited after stdin closed ({})",
                    exit.describe()
                ));
                return (exit, true, started.elapsed());
            }
            let step = TokioInstant::now() + Duration::from_millis(20);
            let until = step.min(deadline);
            if self.ended.is_none() {
                let _ = self.pump(until, &Target::none()).await;
            } else {
                self.drain(until).await;
            }
            if TokioInstant::now() >= deadline {
                break;
            }
        }
        let exit = self.transport.terminate(Duration::from_millis(500)).await;
        self.note(&format!(
            "server still running {:.1} s after stdin closed; terminated ({})",
            self.config.shutdown_grace.as_secs_f64(),
            exit.describe()
        ));
        (exit, false, started.elapsed())
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

//! What a revision's conversation is doing right now: its phase and, in the property
//! phase, how many generated cases of how many have run.
//!
//! A run of a slow server spends tens of seconds in the property phase; a front end
//! (the CLI's status line on a terminal) shows where it stands. The conversation reports
//! through a task-local cell the runner installs per revision ([`tracked`]), so the
//! scenarios need no handle threaded through every call, and nothing is reported when no
//! one installed one (replay, the fuzz targets). Progress never changes what is sent or
//! judged.

use std::future::Future;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;

tokio::task_local! {
    static CURRENT: Arc<Progress>;
}

/// The phase a revision's conversation is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Starting the server and the handshake.
    Starting,
    /// The scripted scenarios and probes.
    Scripted,
    /// Generated cases (arguments, ids, cursors, methods).
    Property,
    /// The pipelining and cancellation sequences.
    Sequences,
}

impl Phase {
    const ALL: [Phase; 4] = [
        Phase::Starting,
        Phase::Scripted,
        Phase::Property,
        Phase::Sequences,
    ];

    /// A word for a status line.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Starting => "starting",
            Phase::Scripted => "scripted",
            Phase::Property => "property",
            Phase::Sequences => "sequences",
        }
    }
}

/// One revision's progress, shared between its conversation and the runner.
#[derive(Debug, Default)]
pub struct Progress {
    phase: AtomicU8,
    done: AtomicU64,
    total: AtomicU64,
}

/// A reading of a [`Progress`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Snapshot {
    /// The phase.
    pub phase: Phase,
    /// Generated cases run (or dropped: a slow tool's rest) so far, in the property phase.
    pub done: u64,
    /// Generated cases planned, in the property phase (0 before it).
    pub total: u64,
}

impl Progress {
    /// What it says now.
    pub fn snapshot(&self) -> Snapshot {
        let phase = Phase::ALL
            .get(usize::from(self.phase.load(Ordering::Relaxed)))
            .copied()
            .unwrap_or(Phase::Starting);
        Snapshot {
            phase,
            done: self.done.load(Ordering::Relaxed),
            total: self.total.load(Ordering::Relaxed),
        }
    }
}

/// Runs `part` reporting to `progress`.
pub async fn tracked<F: Future>(progress: Arc<Progress>, part: F) -> F::Output {
    CURRENT.scope(progress, part).await
}

/// The conversation enters `phase`.
pub(crate) fn enter(phase: Phase) {
    let _ = CURRENT.try_with(|p| {
        let at = Phase::ALL.iter().position(|&x| x == phase).unwrap_or(0);
        p.phase
            .store(u8::try_from(at).unwrap_or(0), Ordering::Relaxed);
    });
}

/// `done` of `total` generated cases have run.
pub(crate) fn cases(done: u64, total: u64) {
    let _ = CURRENT.try_with(|p| {
        p.done.store(done, Ordering::Relaxed);
        p.total.store(total, Ordering::Relaxed);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_tracked_part_reports_and_an_untracked_one_is_silent() {
        let progress = Arc::new(Progress::default());
        tracked(Arc::clone(&progress), async {
            enter(Phase::Property);
            cases(3, 40);
        })
        .await;
        let seen = progress.snapshot();
        assert_eq!(
            (seen.phase, seen.done, seen.total),
            (Phase::Property, 3, 40)
        );
        // Outside a tracked part nothing is recorded and nothing panics.
        enter(Phase::Sequences);
        assert_eq!(progress.snapshot().phase, Phase::Property);
    }
}

//! What a part of a run cost the server: processes started and requests sent, so that a
//! report can say where the time went (slowness seen and attributed, not guessed).
//!
//! The counters ride a task-local that the runner sets around each part it measures (a
//! revision, the negotiation probes): every session started inside that part counts
//! itself, without a counter threaded through each constructor of every phase. Outside
//! such a scope nothing is counted.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use serde::Serialize;

tokio::task_local! {
    static COUNTERS: Arc<Counters>;
}

#[derive(Debug, Default)]
struct Counters {
    processes: AtomicU64,
    requests: AtomicU64,
    stretched: AtomicU64,
    stretch_micros: AtomicU64,
}

/// Counts of one measured part of a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    /// Server processes started.
    pub processes: u64,
    /// Requests sent (our automatic answers to the server's requests not included).
    pub requests: u64,
    /// Waits whose deadline passed while the machine kept the harness from running, and
    /// which were pushed back by the lag measured (`lag.rs`): 0 on an idle machine.
    pub stretched: u64,
    /// How much time those waits were given beyond their timeouts, in all (microseconds).
    pub stretch_micros: u64,
}

impl Usage {
    /// The sum of two counts.
    pub fn plus(self, other: Usage) -> Usage {
        Usage {
            processes: self.processes + other.processes,
            requests: self.requests + other.requests,
            stretched: self.stretched + other.stretched,
            stretch_micros: self.stretch_micros + other.stretch_micros,
        }
    }
}

/// Runs `part`, counting the processes and requests of every session it starts.
pub async fn measured<F: Future>(part: F) -> (F::Output, Usage) {
    let counters = Arc::new(Counters::default());
    let output = COUNTERS.scope(Arc::clone(&counters), part).await;
    let usage = Usage {
        processes: counters.processes.load(Ordering::Relaxed),
        requests: counters.requests.load(Ordering::Relaxed),
        stretched: counters.stretched.load(Ordering::Relaxed),
        stretch_micros: counters.stretch_micros.load(Ordering::Relaxed),
    };
    (output, usage)
}

pub(super) fn count_process() {
    let _ = COUNTERS.try_with(|c| c.processes.fetch_add(1, Ordering::Relaxed));
}

pub(super) fn count_request() {
    let _ = COUNTERS.try_with(|c| c.requests.fetch_add(1, Ordering::Relaxed));
}

/// A wait was given `more` time for the lag it saw; `first`: the first grant of that wait.
pub(super) fn count_stretch(first: bool, more: std::time::Duration) {
    let micros = u64::try_from(more.as_micros()).unwrap_or(u64::MAX);
    let _ = COUNTERS.try_with(|c| {
        c.stretched.fetch_add(u64::from(first), Ordering::Relaxed);
        c.stretch_micros.fetch_add(micros, Ordering::Relaxed);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn counts_only_inside_the_measured_part() {
        count_process();
        let ((), usage) = measured(async {
            count_process();
            count_request();
            count_request();
        })
        .await;
        assert_eq!(
            usage,
            Usage {
                processes: 1,
                requests: 2,
                ..Usage::default()
            }
        );
    }

    #[tokio::test]
    async fn nested_parts_count_apart() {
        let (inner, outer) = measured(async {
            count_request();
            measured(async { count_request() }).await.1
        })
        .await;
        assert_eq!((outer.requests, inner.requests), (1, 1));
    }
}

//! How much the machine kept the harness from running: a thread that asks to wake every
//! [`TICK`] and adds up how late it woke.
//!
//! A wait for a server counts the time the harness was given, not only the time that
//! passed. With the project's own tests beside a run (load average 43 on two cores), a
//! Python server's `initialize` took over 30 s to come back and the run failed it; idle,
//! the run takes 5 s. So when a wait's deadline passes, it is pushed back by the lag seen
//! since the wait began (at most [`STRETCH_CAP`] times the wait), the part's usage counts it
//! and the report says so: slow is not broken, and a starved harness is not a slow server.
//! On an idle machine the thread wakes on time and nothing is stretched.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How often the monitor asks to wake.
pub(super) const TICK: Duration = Duration::from_millis(5);

/// Lateness under this is ordinary timer slack, not load.
const SLACK: Duration = Duration::from_millis(2);

/// A wait is stretched by at most this many times its own length: every wait stays
/// bounded however loaded the machine.
pub const STRETCH_CAP: u32 = 3;

/// Microseconds of lateness seen so far in this process.
static LOST_MICROS: AtomicU64 = AtomicU64::new(0);

static MONITOR: OnceLock<()> = OnceLock::new();

/// The scheduling lag seen in this process so far (it only grows). The first call starts
/// the monitor thread, which lives as long as the process and costs a wake-up every tick.
pub(super) fn lost() -> Duration {
    MONITOR.get_or_init(|| {
        // Without the thread nothing is measured and no wait is stretched: the waits
        // then behave as they did before.
        let _ = std::thread::Builder::new()
            .name("mcp-conformance-lag".into())
            .spawn(monitor);
    });
    Duration::from_micros(LOST_MICROS.load(Ordering::Relaxed))
}

fn monitor() {
    let mut before = Instant::now();
    loop {
        std::thread::sleep(TICK);
        let now = Instant::now();
        let late = now.saturating_duration_since(before).saturating_sub(TICK);
        if late > SLACK {
            let micros = u64::try_from(late.as_micros()).unwrap_or(u64::MAX);
            LOST_MICROS.fetch_add(micros, Ordering::Relaxed);
        }
        before = now;
    }
}

/// How far past its deadline a wait of length `window` may go, given the `lag` seen
/// since it began: the lag itself, within [`STRETCH_CAP`] windows.
pub(super) fn stretch(window: Duration, lag: Duration) -> Duration {
    lag.min(window * STRETCH_CAP)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stretch_is_the_lag_within_the_cap() {
        let second = Duration::from_secs(1);
        assert_eq!(stretch(second, Duration::ZERO), Duration::ZERO);
        assert_eq!(stretch(second, second / 2), second / 2);
        assert_eq!(stretch(second, second * 10), second * STRETCH_CAP);
    }
}

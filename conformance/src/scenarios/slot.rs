//! Job slots: `--jobs` bounds the revisions being *driven* at once, not the ones only
//! waiting on a server that sleeps.
//!
//! A revision of a server whose own tool sleeps ten seconds (server-everything's
//! `trigger-long-running-operation`), or whose timers keep it alive after stdin closes,
//! spends most of its wall time waiting on a process that does nothing. Holding a slot
//! for that wait makes `--jobs 2` run such revisions two at a time for no reason. So a
//! conversation waiting on its server lends its slot once the wait has lasted
//! [`LEND_AFTER`] and every process of the server has been seen asleep
//! ([`crate::transport::group_asleep`]) [`ASLEEP_SAMPLES`] times in a row: the runner
//! starts the next revision meanwhile. When the answer comes, the conversation takes a
//! slot back before it sends anything more, so at most `jobs` conversations ever do
//! anything but wait on a sleeping server.
//!
//! Lending changes when a revision runs, never what it sends or how long it waits for an
//! answer (deadlines count from the request, as before), so the report is the same for
//! any `--jobs`. A server that computes is never asleep: it keeps its slot, and no
//! revision is started beside it to slow it down (a verdict that would depend on load).
//! The slot lives in a task-local cell the runner installs per revision ([`holding`]);
//! without one (replay, fuzzing, tests) nothing is lent.

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

tokio::task_local! {
    static CURRENT: Arc<Slot>;
}

/// How long a wait lasts before the server is looked at: far longer than any answer a
/// server computes at once, far shorter than the waits worth lending for.
pub const LEND_AFTER: Duration = Duration::from_millis(500);
/// How often the server is looked at once [`LEND_AFTER`] has passed.
pub const SAMPLE_EVERY: Duration = Duration::from_millis(50);
/// Looks in a row that must find every process asleep: a process that computes in bursts
/// is caught in one of them.
pub const ASLEEP_SAMPLES: u32 = 4;

/// One revision's slot: a permit of the run's semaphore of `jobs` permits, or none while
/// it is lent.
#[derive(Debug)]
pub struct Slot {
    semaphore: Arc<Semaphore>,
    permit: Mutex<Option<OwnedSemaphorePermit>>,
}

impl Slot {
    /// A slot holding `permit`, taken from `semaphore`.
    pub fn new(semaphore: Arc<Semaphore>, permit: OwnedSemaphorePermit) -> Arc<Self> {
        Arc::new(Self {
            semaphore,
            permit: Mutex::new(Some(permit)),
        })
    }

    /// Gives the permit back for good (the revision is over).
    pub fn release(&self) {
        drop(self.take());
    }

    fn take(&self) -> Option<OwnedSemaphorePermit> {
        self.permit.lock().map_or(None, |mut p| p.take())
    }

    async fn take_back(&self) {
        if let Ok(permit) = Arc::clone(&self.semaphore).acquire_owned().await {
            if let Ok(mut held) = self.permit.lock() {
                *held = Some(permit);
            }
        }
    }
}

/// Runs `part` (a revision's conversation) holding `slot`.
pub async fn holding<F: Future>(slot: Arc<Slot>, part: F) -> F::Output {
    CURRENT.scope(slot, part).await
}

/// Waits on `wait` (a request to the server), lending this revision's slot while the
/// server sleeps on it (`asleep`: [`crate::transport::group_asleep`] of its group), and
/// taking a slot back before returning when it was lent.
pub async fn lend_while<F: Future>(asleep: impl Fn() -> Option<bool>, wait: F) -> F::Output {
    lend_while_timed(asleep, wait).await.0
}

/// [`lend_while`], also returning how long taking a slot back took after `wait` ended:
/// time that is no part of the server's latency, for a caller that measures it.
pub async fn lend_while_timed<F: Future>(
    asleep: impl Fn() -> Option<bool>,
    wait: F,
) -> (F::Output, Duration) {
    let Ok(slot) = CURRENT.try_with(Arc::clone) else {
        return (wait.await, Duration::ZERO);
    };
    tokio::pin!(wait);
    let lent = tokio::select! {
        out = &mut wait => return (out, Duration::ZERO),
        lent = lend_once_asleep(&slot, &asleep) => lent,
    };
    let out = wait.await;
    let ended = std::time::Instant::now();
    if lent.is_some() {
        slot.take_back().await;
    }
    (out, ended.elapsed())
}

/// Waits on `wait` (the rest of the revision: its server's exit), giving the slot up
/// for good once the server sleeps on it.
pub async fn lend_rest<F: Future>(asleep: impl Fn() -> Option<bool>, wait: F) -> F::Output {
    let Ok(slot) = CURRENT.try_with(Arc::clone) else {
        return wait.await;
    };
    tokio::pin!(wait);
    tokio::select! {
        out = &mut wait => out,
        _ = lend_once_asleep(&slot, &asleep) => wait.await,
    }
}

/// Returns (with the permit, now dropped) once the server has been asleep for
/// [`ASLEEP_SAMPLES`] looks after [`LEND_AFTER`]; never when that cannot be told, or
/// when the slot holds no permit (already lent).
async fn lend_once_asleep(slot: &Slot, asleep: &impl Fn() -> Option<bool>) -> Option<()> {
    tokio::time::sleep(LEND_AFTER).await;
    let mut streak = 0;
    loop {
        match asleep() {
            None => std::future::pending::<()>().await,
            Some(true) => streak += 1,
            Some(false) => streak = 0,
        }
        if streak >= ASLEEP_SAMPLES {
            return match slot.take() {
                Some(permit) => {
                    drop(permit);
                    Some(())
                }
                None => std::future::pending().await,
            };
        }
        tokio::time::sleep(SAMPLE_EVERY).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Longer than any lending takes ([`LEND_AFTER`] and the looks): a guard against a
    /// hang, not a measure.
    const HANG_GUARD: Duration = Duration::from_secs(60);

    fn one_slot() -> (Arc<Semaphore>, Arc<Slot>) {
        let semaphore = Arc::new(Semaphore::new(1));
        let permit = Arc::clone(&semaphore).try_acquire_owned().unwrap();
        (Arc::clone(&semaphore), Slot::new(semaphore, permit))
    }

    /// With one slot, a conversation waiting on a sleeping server lends it: a second one
    /// gets the slot and only then answers the first's wait; the first takes the slot
    /// back before going on.
    #[tokio::test]
    async fn a_wait_on_a_sleeping_server_lends_the_slot_and_takes_it_back() {
        let (semaphore, slot) = one_slot();
        let (answer, answered) = tokio::sync::oneshot::channel::<u32>();
        let waiting = holding(Arc::clone(&slot), async {
            let out = lend_while(|| Some(true), answered).await;
            assert_eq!(semaphore.available_permits(), 0, "the slot is held again");
            out
        });
        let other = async {
            let permit = Arc::clone(&semaphore).acquire_owned().await.unwrap();
            let _ = answer.send(7);
            drop(permit);
        };
        let (out, ()) = tokio::time::timeout(HANG_GUARD, async { tokio::join!(waiting, other) })
            .await
            .expect("the slot was lent");
        assert_eq!(out, Ok(7));
        slot.release();
        assert_eq!(semaphore.available_permits(), 1);
    }

    #[tokio::test]
    async fn a_busy_or_unknown_server_keeps_its_slot() {
        for asleep in [Some(false), None] {
            let (semaphore, slot) = one_slot();
            let wait = tokio::time::sleep(LEND_AFTER + SAMPLE_EVERY * (ASLEEP_SAMPLES + 2));
            holding(Arc::clone(&slot), lend_while(|| asleep, wait)).await;
            assert_eq!(semaphore.available_permits(), 0, "never lent ({asleep:?})");
        }
    }

    #[tokio::test]
    async fn the_rest_of_a_revision_gives_its_slot_up_and_no_slot_means_no_lending() {
        let (semaphore, slot) = one_slot();
        let given_up = async {
            let _permit = Arc::clone(&semaphore).acquire_owned().await.unwrap();
        };
        let rest = holding(slot, lend_rest(|| Some(true), given_up));
        tokio::time::timeout(HANG_GUARD, rest)
            .await
            .expect("the slot was given up");
        assert_eq!(semaphore.available_permits(), 1);
        // Outside a revision (replay, fuzzing): just the wait.
        assert_eq!(lend_while(|| Some(true), async { 7 }).await, 7);
    }
}

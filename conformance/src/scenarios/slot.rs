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
//! anything but wait on a sleeping server. An HTTP endpoint's processes cannot be seen:
//! there a tool call lends the slot once it has lasted `slow_answer` (it is a slow call
//! then, whatever the server does). Work beside a revision (its property phase, started
//! while its scripted conversation waits on a slow call) takes a slot of its own
//! ([`beside`]), once every revision of the run has started.
//!
//! A revision waiting to go on after a lent wait goes first: between two generated
//! cases, a property phase that has driven for [`TURN`] hands its slot to it and waits for
//! a slot again ([`take_turn`]). Without that, a revision whose sleeping server has just
//! answered waits for whole property phases of others before it can send its next line,
//! and the one step left before its own shutdown grace (seconds of a server's timers)
//! starts seconds late. Turns go only to revisions already under way: a new one still
//! starts only on a slot released or lent, so no more revisions (processes, records) are
//! in flight than before.
//!
//! Lending and turns change when a revision runs, never what it sends or how long it
//! waits for an answer (deadlines count from the request, as before), so the report is
//! the same for any `--jobs`. A server that computes is never asleep: it keeps its slot,
//! and no revision is started beside it to slow it down (a verdict that would depend on
//! load).
//! The slot lives in a task-local cell the runner installs per revision ([`holding`]);
//! without one (replay, fuzzing, tests) nothing is lent.

use std::collections::VecDeque;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::{oneshot, OwnedSemaphorePermit, Semaphore};

tokio::task_local! {
    static CURRENT: Arc<Slot>;
}

/// How long a wait lasts before the server is looked at: far longer than any answer a
/// server computes at once, far shorter than the waits worth lending for. Each revision
/// after the first `--jobs` starts this much (and the looks) after a slot is lent:
/// server-everything over stdio took 15.3 s at 500 ms, 14.6-14.8 s at 250 ms.
pub const LEND_AFTER: Duration = Duration::from_millis(250);
/// How often the server is looked at once [`LEND_AFTER`] has passed.
pub const SAMPLE_EVERY: Duration = Duration::from_millis(50);
/// Looks in a row that must find every process asleep: a process that computes in bursts
/// is caught in one of them.
pub const ASLEEP_SAMPLES: u32 = 4;

/// How long a property phase drives with its slot before a revision waiting to go on
/// gets a turn: far longer than a case of a fast server (milliseconds), short next to
/// the waits a turn saves.
pub const TURN: Duration = Duration::from_millis(250);

/// The run's `jobs` slots: a fair semaphore of permits, and the revisions waiting to go on
/// after a lent wait, to whom a revision taking its turn hands its permit directly. A revision not yet started gets a permit only from the semaphore
/// (one released or lent), so turns never start more revisions than lending would.
#[derive(Debug)]
pub struct Pool {
    semaphore: Arc<Semaphore>,
    resuming: Mutex<VecDeque<oneshot::Sender<OwnedSemaphorePermit>>>,
    /// Revisions of the run not started yet: work [`beside`] a revision waits for them,
    /// whose scripted conversations may hold long waits of their own to start.
    unstarted: Mutex<usize>,
    started: tokio::sync::Notify,
}

impl Pool {
    /// `jobs` slots (at least one).
    pub fn new(jobs: usize) -> Arc<Self> {
        Arc::new(Self {
            semaphore: Arc::new(Semaphore::new(jobs.max(1))),
            resuming: Mutex::new(VecDeque::new()),
            unstarted: Mutex::new(0),
            started: tokio::sync::Notify::new(),
        })
    }

    /// `n` revisions of the run are still to start (the runner says so, then
    /// [`Pool::one_started`] as each starts).
    pub fn to_start(&self, n: usize) {
        if let Ok(mut left) = self.unstarted.lock() {
            *left = n;
        }
        self.started.notify_waiters();
    }

    /// One more revision of the run has started.
    pub fn one_started(&self) {
        if let Ok(mut left) = self.unstarted.lock() {
            *left = left.saturating_sub(1);
        }
        self.started.notify_waiters();
    }

    /// Waits until every revision of the run has started.
    async fn all_started(&self) {
        loop {
            let notified = self.started.notified();
            if self.unstarted.lock().map_or(true, |left| *left == 0) {
                return;
            }
            notified.await;
        }
    }

    /// A free slot for a revision to start with, if there is one now.
    pub fn try_slot(self: &Arc<Self>) -> Option<Arc<Slot>> {
        let permit = Arc::clone(&self.semaphore).try_acquire_owned().ok()?;
        Some(Slot::holding_permit(self, permit))
    }

    /// Waits for a free slot for a revision to start with (cancel-safe: a wait dropped
    /// takes nothing).
    pub async fn slot(self: &Arc<Self>) -> Option<Arc<Slot>> {
        let permit = Arc::clone(&self.semaphore).acquire_owned().await.ok()?;
        Some(Slot::holding_permit(self, permit))
    }

    /// Hands `permit` to the revision that has waited longest to go on, if one waits;
    /// otherwise gives it back.
    fn hand_over(&self, mut permit: OwnedSemaphorePermit) -> Result<(), OwnedSemaphorePermit> {
        loop {
            let next = self.resuming.lock().ok().and_then(|mut q| q.pop_front());
            let Some(waiting) = next else {
                return Err(permit);
            };
            // A waiter that got a permit from the semaphore meanwhile is gone.
            match waiting.send(permit) {
                Ok(()) => return Ok(()),
                Err(back) => permit = back,
            }
        }
    }

    fn anyone_resuming(&self) -> bool {
        self.resuming
            .lock()
            .is_ok_and(|q| q.iter().any(|w| !w.is_closed()))
    }
}

/// One revision's slot: a permit of its [`Pool`], with when it was taken, or none while
/// it is lent.
#[derive(Debug)]
pub struct Slot {
    pool: Arc<Pool>,
    permit: Mutex<Option<(OwnedSemaphorePermit, Instant)>>,
}

impl Slot {
    fn holding_permit(pool: &Arc<Pool>, permit: OwnedSemaphorePermit) -> Arc<Self> {
        Arc::new(Self {
            pool: Arc::clone(pool),
            permit: Mutex::new(Some((permit, Instant::now()))),
        })
    }

    /// Gives the permit back for good (the revision is over).
    pub fn release(&self) {
        drop(self.take());
    }

    fn take(&self) -> Option<OwnedSemaphorePermit> {
        self.permit
            .lock()
            .map_or(None, |mut p| p.take())
            .map(|(permit, _)| permit)
    }

    fn hold(&self, permit: OwnedSemaphorePermit) {
        if let Ok(mut held) = self.permit.lock() {
            *held = Some((permit, Instant::now()));
        }
    }

    /// How long the permit has been held; `None` while it is lent.
    fn held_for(&self) -> Option<Duration> {
        self.permit
            .lock()
            .ok()
            .and_then(|p| p.as_ref().map(|(_, since)| since.elapsed()))
    }

    /// Waits for a permit to go on with after a lent wait: one handed over by a revision
    /// taking its turn, or one from the (fair) semaphore, whichever comes first.
    async fn take_back(&self) {
        let (handed, received) = oneshot::channel();
        if let Ok(mut q) = self.pool.resuming.lock() {
            // Waiters served by the semaphore are gone: the queue holds only live ones.
            q.retain(|w| !w.is_closed());
            q.push_back(handed);
        }
        let semaphore = Arc::clone(&self.pool.semaphore);
        let permit = tokio::select! {
            biased;
            Ok(permit) = received => Some(permit),
            permit = semaphore.acquire_owned() => permit.ok(),
        };
        if let Some(permit) = permit {
            self.hold(permit);
        }
    }

    /// Waits for a permit from the semaphore only, behind every revision already waiting
    /// (after giving a turn away: turns go to revisions resuming from a lent wait, so
    /// property phases do not take turns among themselves).
    async fn wait_turn(&self) {
        if let Ok(permit) = Arc::clone(&self.pool.semaphore).acquire_owned().await {
            self.hold(permit);
        }
    }
}

/// Runs `part` (a revision's conversation) holding `slot`.
pub async fn holding<F: Future>(slot: Arc<Slot>, part: F) -> F::Output {
    CURRENT.scope(slot, part).await
}

/// Between two steps of work that may interleave with other revisions (generated cases):
/// once this revision has held its slot for [`TURN`] and another waits to go on after a
/// lent wait (its sleeping server answered), the slot is handed to the one that has
/// waited longest, and this revision waits for a slot like any other (not as one resuming:
/// property phases do not take turns among themselves, each runs mostly on its own as
/// before). Outside a revision (replay, fuzzing, tests), or with no one waiting, nothing.
pub async fn take_turn() {
    let Ok(slot) = CURRENT.try_with(Arc::clone) else {
        return;
    };
    if slot.held_for().is_none_or(|held| held < TURN) || !slot.pool.anyone_resuming() {
        return;
    }
    let Some(permit) = slot.take() else { return };
    match slot.pool.hand_over(permit) {
        Ok(()) => slot.wait_turn().await,
        Err(permit) => slot.hold(permit),
    }
}

/// Whether this revision's slot is lent now: its conversation waits on a server seen
/// asleep ([`lend_while`]). `false` where no slot is installed.
pub fn lent() -> bool {
    CURRENT
        .try_with(|slot| slot.held_for().is_none())
        .unwrap_or(false)
}

/// Runs `part` on a slot of its own (a pool of one), so that none of its waits lends the
/// revision's slot or takes one back: work beside the revision's own wait (a shrink run
/// ahead of a call's verdict), which must neither take the slot from that wait nor
/// tell it the server slept when it did not.
pub async fn apart<F: Future>(part: F) -> F::Output {
    match Pool::new(1).try_slot() {
        Some(own) => CURRENT.scope(own, part).await,
        None => part.await,
    }
}

/// Runs `part` beside the revision's own conversation on a slot of its own from the same
/// pool (the property phase started while the scripted conversation waits on a sleeping
/// server: `early.rs`): it waits for a permit like a revision resuming from a lent wait,
/// so no more than `jobs` conversations ever drive at once, and gives it back when `part`
/// ends (or is dropped). Outside a revision, just `part`.
///
/// It starts after every revision of the run has started: a revision's scripted
/// conversation may hold a long wait (a slow tool, a shutdown grace) best begun early,
/// and work beside one fills the time those waits leave.
pub async fn beside<F: Future>(part: F) -> F::Output {
    let Ok(slot) = CURRENT.try_with(Arc::clone) else {
        return part.await;
    };
    slot.pool.all_started().await;
    let own = Arc::new(Slot {
        pool: Arc::clone(&slot.pool),
        permit: Mutex::new(None),
    });
    own.take_back().await;
    CURRENT.scope(own, part).await
}

/// Gives this revision's slot up for good (its own conversation is over, and work
/// [`beside`] it, on a slot of its own, may still run). Outside a revision, nothing.
pub fn give_up() {
    if let Ok(slot) = CURRENT.try_with(Arc::clone) {
        slot.release();
    }
}

/// Waits on `wait` (a request to the server), lending this revision's slot while the
/// server sleeps on it (`asleep`: [`crate::transport::group_asleep`] of its group), and
/// taking a slot back before returning when it was lent.
pub async fn lend_while<F: Future>(asleep: impl Fn() -> Option<bool>, wait: F) -> F::Output {
    lend_while_timed(asleep, wait).await.0
}

/// [`lend_while`], also telling whether the slot was lent, which means the server was
/// seen asleep on the wait, every process of it, [`ASLEEP_SAMPLES`] looks in a row: a wait
/// on its own timer or I/O, not on a busy machine's scheduler. `Some` then holds how long
/// taking a slot back took after `wait` ended: time that is no part of the server's
/// latency, for a caller that measures it.
pub async fn lend_while_timed<F: Future>(
    asleep: impl Fn() -> Option<bool>,
    wait: F,
) -> (F::Output, Option<Duration>) {
    let Ok(slot) = CURRENT.try_with(Arc::clone) else {
        return (wait.await, None);
    };
    tokio::pin!(wait);
    tokio::select! {
        out = &mut wait => return (out, None),
        _ = lend_once_asleep(&slot, &asleep) => {}
    };
    let out = wait.await;
    let ended = std::time::Instant::now();
    slot.take_back().await;
    (out, Some(ended.elapsed()))
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
pub(crate) mod tests {
    use super::*;

    /// Longer than any lending takes ([`LEND_AFTER`] and the looks): a guard against a
    /// hang, not a measure.
    const HANG_GUARD: Duration = Duration::from_secs(60);

    /// A pool of one slot, and that slot (holding the permit).
    fn one_slot() -> (Arc<Pool>, Arc<Slot>) {
        let pool = Pool::new(1);
        let slot = pool.try_slot().expect("a free slot");
        (pool, slot)
    }

    fn free(pool: &Pool) -> usize {
        pool.semaphore.available_permits()
    }

    /// With one slot, a conversation waiting on a sleeping server lends it: a second one
    /// gets the slot and only then answers the first's wait; the first takes the slot
    /// back before going on.
    #[tokio::test]
    async fn a_wait_on_a_sleeping_server_lends_the_slot_and_takes_it_back() {
        let (pool, slot) = one_slot();
        let (answer, answered) = tokio::sync::oneshot::channel::<u32>();
        let waiting = holding(Arc::clone(&slot), async {
            let out = lend_while(|| Some(true), answered).await;
            assert_eq!(free(&pool), 0, "the slot is held again");
            out
        });
        let other = async {
            let started = pool.slot().await.expect("a slot");
            let _ = answer.send(7);
            started.release();
        };
        let (out, ()) = tokio::time::timeout(HANG_GUARD, async { tokio::join!(waiting, other) })
            .await
            .expect("the slot was lent");
        assert_eq!(out, Ok(7));
        slot.release();
        assert_eq!(free(&pool), 1);
    }

    /// A revision that has driven for a turn hands its slot to one waiting to go on, and
    /// goes on once that one is done with it; before its turn is up it keeps going.
    #[tokio::test]
    async fn a_revision_that_drove_a_turn_hands_its_slot_to_one_waiting_to_go_on() {
        let pool = Pool::new(1);
        // A revision whose wait lent the slot (it holds none now)...
        let resuming = pool.try_slot().expect("a free slot");
        resuming.release();
        // ...and one driving with it.
        let driving = pool.try_slot().expect("the lent slot");
        let order = Arc::new(Mutex::new(Vec::new()));
        let (queued, is_queued) = oneshot::channel::<()>();
        let drive = holding(Arc::clone(&driving), {
            let order = Arc::clone(&order);
            let pool_of_driver = Arc::clone(&pool);
            async move {
                let _ = is_queued.await;
                take_turn().await;
                order.lock().unwrap().push("kept: turn not up");
                tokio::time::sleep(TURN).await;
                take_turn().await;
                order.lock().unwrap().push("driving again");
                assert!(!pool_of_driver.anyone_resuming(), "it waited as any other");
            }
        });
        let resume = {
            let order = Arc::clone(&order);
            let resuming = Arc::clone(&resuming);
            async move {
                let back = resuming.take_back();
                tokio::pin!(back);
                // Polled once, so it waits before the driver looks.
                assert!(poll_once(back.as_mut()).await.is_none());
                let _ = queued.send(());
                back.await;
                order.lock().unwrap().push("went on");
                resuming.release();
            }
        };
        tokio::time::timeout(HANG_GUARD, async { tokio::join!(drive, resume) })
            .await
            .expect("turns taken");
        assert_eq!(
            *order.lock().unwrap(),
            ["kept: turn not up", "went on", "driving again"]
        );
        assert_eq!(free(&pool), 0, "the driver holds the slot again");
        driving.release();
        assert_eq!(free(&pool), 1);
    }

    /// A revision not yet started gets no turn: it starts only on a slot released or lent,
    /// so turns never put more revisions in flight.
    #[tokio::test]
    async fn a_revision_not_yet_started_gets_no_turn() {
        let (pool, slot) = one_slot();
        let start = pool.slot();
        tokio::pin!(start);
        assert!(poll_once(start.as_mut()).await.is_none(), "no free slot");
        tokio::time::sleep(TURN).await;
        holding(Arc::clone(&slot), take_turn()).await;
        assert!(slot.held_for().is_some(), "the driver kept its slot");
        assert!(poll_once(start.as_mut()).await.is_none(), "still waiting");
        slot.release();
        let started = tokio::time::timeout(HANG_GUARD, start)
            .await
            .expect("the released slot");
        assert!(started.is_some());
    }

    /// Work beside a revision starts once every revision of the run has started, on a
    /// permit of its own: with one slot, only once the revision gave its own up.
    #[tokio::test]
    async fn work_beside_a_revision_waits_for_the_starts_and_a_slot_of_its_own() {
        let (pool, slot) = one_slot();
        pool.to_start(1);
        let ran = Arc::new(Mutex::new(false));
        let beside_work = holding(Arc::clone(&slot), {
            let ran = Arc::clone(&ran);
            beside(async move { *ran.lock().unwrap() = true })
        });
        tokio::pin!(beside_work);
        assert!(poll_once(beside_work.as_mut()).await.is_none());
        pool.one_started();
        assert!(
            poll_once(beside_work.as_mut()).await.is_none(),
            "no free slot"
        );
        assert!(!*ran.lock().unwrap());
        holding(Arc::clone(&slot), async { give_up() }).await;
        tokio::time::timeout(HANG_GUARD, beside_work)
            .await
            .expect("the slot given up");
        assert!(*ran.lock().unwrap());
        assert_eq!(free(&pool), 1, "its permit is back when it ends");
    }

    /// Polls `f` once: its output if it was ready.
    pub(crate) async fn poll_once<F: Future + Unpin>(mut f: F) -> Option<F::Output> {
        std::future::poll_fn(|cx| {
            std::task::Poll::Ready(match std::pin::Pin::new(&mut f).poll(cx) {
                std::task::Poll::Ready(out) => Some(out),
                std::task::Poll::Pending => None,
            })
        })
        .await
    }

    #[tokio::test]
    async fn a_busy_or_unknown_server_keeps_its_slot() {
        for asleep in [Some(false), None] {
            let (pool, slot) = one_slot();
            let wait = tokio::time::sleep(LEND_AFTER + SAMPLE_EVERY * (ASLEEP_SAMPLES + 2));
            holding(Arc::clone(&slot), lend_while(|| asleep, wait)).await;
            assert_eq!(free(&pool), 0, "never lent ({asleep:?})");
        }
    }

    #[tokio::test]
    async fn the_rest_of_a_revision_gives_its_slot_up_and_no_slot_means_no_lending() {
        let (pool, slot) = one_slot();
        let given_up = async {
            let _next = pool.slot().await.expect("a slot");
        };
        let rest = holding(slot, lend_rest(|| Some(true), given_up));
        tokio::time::timeout(HANG_GUARD, rest)
            .await
            .expect("the slot was given up");
        assert_eq!(free(&pool), 1);
        // Outside a revision (replay, fuzzing): just the wait.
        assert_eq!(lend_while(|| Some(true), async { 7 }).await, 7);
    }
}

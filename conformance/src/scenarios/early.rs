//! The property phase started while the scripted conversation still runs: what the
//! scripted conversation tells it, the moment it knows.
//!
//! A tool slow by design (server-everything's `trigger-long-running-operation` sleeps
//! ten seconds) gets one timed call per revision, in the scripted conversation, and no
//! generated cases. The property phase used to start once the scripted conversation
//! was over, so that one wait was the revision's own wait, then the property phase's.
//! Now the scripted conversation tells the property phase the tool listing as soon as
//! it has walked it ([`Early::listed`]) and each tool's pace as soon as its call shows it
//! ([`Early::tell`]): answered in time, still unanswered after `slow_answer` while its
//! server sleeps on it (or cannot be seen), or out of time. Once a call is slow, the
//! scripted conversation only waits: the property phase starts then, in processes of its
//! own and on a job slot of its own (`slot::beside`), and before a tool's first generated
//! case waits only until that tool's pace is told ([`Early::pace`]). A revision with no
//! slow call runs its property phase after the conversation, as before, on the healthy
//! session the conversation leaves (no process start).
//!
//! What a tool is told depends on how its server answers, never on when the property
//! phase asks (it waits for the answer it needs), so the cases and the report are those
//! of running one after the other.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use tokio::sync::Notify;

use crate::protocol::{Exchange, Revision};

/// How a tool's scripted call went, for the property phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pace {
    /// Answered in time, or not called, or ended some other way: its cases run.
    Prompt,
    /// Still unanswered after a tenth of the timeout (at least 1 s, `slow_answer`) while
    /// its server slept on it (a timer or I/O of its own), or could not be seen: each case
    /// would cost as much.
    Slow,
    /// Outlasted the timeout, its server busy.
    TimedOut,
}

/// What the property phase starts from: the revision's listing as the scripted
/// conversation walked it (shared with the Tools conversation, not copied).
#[derive(Debug)]
pub struct Listing {
    /// The revision the server negotiated (or the one asked for).
    pub revision: &'static Revision,
    /// The tools/list pages, when the server declares tools and every page answered.
    pub pages: Vec<Exchange>,
    /// Whether the server declares tools and its listing worked.
    pub tools: bool,
}

/// One revision's news from its scripted conversation to its property phase.
#[derive(Debug, Default)]
pub struct Early {
    state: RefCell<State>,
    changed: Notify,
}

#[derive(Debug, Default)]
struct State {
    listing: Option<Rc<Listing>>,
    paces: HashMap<String, Pace>,
    /// A tool was told [`Pace::Slow`]: the scripted conversation waits on a sleeping
    /// server, the property phase starts beside it.
    slow: bool,
    /// The scripted conversation is over: nothing more will be told.
    closed: bool,
}

impl State {
    /// The listing, once the property phase is to start early.
    fn early(&self) -> Option<&Rc<Listing>> {
        self.listing.as_ref().filter(|_| self.slow)
    }
}

impl Early {
    /// The scripted conversation has walked the listing: the property phase may start.
    pub fn listed(&self, listing: Rc<Listing>) {
        self.state.borrow_mut().listing = Some(listing);
        self.changed.notify_waiters();
    }

    /// `tool`'s scripted call told its pace; the first told stands.
    pub fn tell(&self, tool: &str, pace: Pace) {
        let mut state = self.state.borrow_mut();
        let told = *state.paces.entry(tool.to_string()).or_insert(pace);
        state.slow |= told == Pace::Slow;
        drop(state);
        self.changed.notify_waiters();
    }

    /// The scripted conversation is over: a tool not told is [`Pace::Prompt`] (never
    /// called), and a listing not told will not come.
    pub fn close(&self) {
        self.state.borrow_mut().closed = true;
        self.changed.notify_waiters();
    }

    /// Whether the property phase starts early: the listing was told and a tool's call
    /// was then slow. Once the scripted conversation is over this is settled, and the
    /// property phase runs after it only when it is `false` (on a healthy session the
    /// conversation leaves, where no process start is needed).
    pub fn started(&self) -> bool {
        self.state.borrow().early().is_some()
    }

    /// Waits until the property phase is to start early, with the listing; `None` when
    /// the scripted conversation ended without a slow call after its listing.
    pub async fn listing(&self) -> Option<Rc<Listing>> {
        loop {
            let notified = self.changed.notified();
            {
                let state = self.state.borrow();
                if state.early().is_some() || state.closed {
                    return state.early().cloned();
                }
            }
            notified.await;
        }
    }

    /// The listing told so far, early or not.
    pub fn told(&self) -> Option<Rc<Listing>> {
        self.state.borrow().listing.clone()
    }

    /// Waits until `tool`'s pace is told (or the scripted conversation is over).
    pub async fn pace(&self, tool: &str) -> Pace {
        loop {
            let notified = self.changed.notified();
            {
                let state = self.state.borrow();
                if let Some(pace) = state.paces.get(tool) {
                    return *pace;
                }
                if state.closed {
                    return Pace::Prompt;
                }
            }
            notified.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios::slot::tests::poll_once;

    #[tokio::test]
    async fn a_pace_is_waited_for_the_first_told_stands_and_closing_ends_every_wait() {
        let early = Early::default();
        let asked = early.pace("slow");
        tokio::pin!(asked);
        assert!(poll_once(asked.as_mut()).await.is_none(), "not told yet");
        early.tell("slow", Pace::Slow);
        early.tell("slow", Pace::TimedOut);
        assert_eq!(asked.await, Pace::Slow);
        assert_eq!(early.pace("slow").await, Pace::Slow);
        assert!(!early.started(), "no listing yet");
        early.close();
        assert!(early.listing().await.is_none(), "closed without a listing");
        assert_eq!(early.pace("never called").await, Pace::Prompt);
    }

    #[tokio::test]
    async fn the_property_phase_starts_early_only_on_a_listing_and_a_slow_call() {
        let listing = || {
            Rc::new(Listing {
                revision: &crate::protocol::REVISIONS[0],
                pages: Vec::new(),
                tools: true,
            })
        };
        // Listed, every call prompt: it runs after the conversation, as before.
        let prompt = Early::default();
        prompt.listed(listing());
        prompt.tell("echo", Pace::Prompt);
        prompt.tell("late", Pace::TimedOut);
        let waiting = prompt.listing();
        tokio::pin!(waiting);
        assert!(poll_once(waiting.as_mut()).await.is_none());
        prompt.close();
        assert!(waiting.await.is_none());
        assert!(!prompt.started());
        // Listed, then a slow call: it starts then.
        let slow = Early::default();
        slow.listed(listing());
        slow.tell("sleeper", Pace::Slow);
        assert!(slow.started());
        assert!(slow.listing().await.is_some_and(|l| l.tools));
    }
}

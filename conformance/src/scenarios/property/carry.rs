//! Once per run: a failure found and shrunk in one revision is tried first in the next.
//!
//! A server that stalls on any long string stalls in every revision, and each revision
//! used to find and shrink the same stall on its own: a minute per revision. Now a
//! revision, before it generates anything for a property (a tool's valid arguments, the
//! ids, ...), tries the minimal case an earlier revision of the run found for it: one call
//! (for a stall, waiting the tool's adaptive wait, not the timeout, as the earlier
//! revision's confirmation already waited the full timeout). When it fails the same way,
//! that is the finding ("same minimal case as REVISION") and the property is done; else
//! the revision searches and shrinks on its own.
//!
//! Determinism: before a revision searches a property on its own, it waits until the
//! revision before it in the run's order is done with that property (each waited for the
//! one before it, so all earlier ones are), lending its job slot meanwhile. While it
//! waits, it tries each case an earlier revision keeps as soon as it is kept: cases are
//! tried in the order found, and the list only grows, so what it tries, and what it
//! finds, is what it would find after the wait, never dependent on `--jobs` or timing
//! (a server that stalls on long strings costs each revision one call at the same time,
//! not one after the other). A revision that ends (or is dropped) marks every property
//! done.

use std::cell::RefCell;
use std::collections::HashSet;

use serde_json::Value;
use tokio::sync::Notify;

use crate::rules::FailureKind;

/// A minimal case an earlier revision found.
#[derive(Debug, Clone)]
pub struct Carried {
    /// The property's label ("valid echo").
    pub label: String,
    /// How it failed.
    pub kind: FailureKind,
    /// The minimal input.
    pub input: Value,
    /// The revision that found it.
    pub revision: &'static str,
    /// That revision's place in the run's order.
    pub order: usize,
    /// The tool's slowest prompt answer there, if it is a tool's: a stall is told from a
    /// slow answer by it (the tool answered other inputs in time, in that revision), and
    /// the one call here waits a multiple of it.
    pub latency: Option<std::time::Duration>,
}

/// The run's carried cases and which revisions are done with which properties.
#[derive(Debug, Default)]
pub struct Carry {
    state: RefCell<State>,
    changed: Notify,
}

#[derive(Debug, Default)]
struct State {
    cases: Vec<Carried>,
    /// (revision's place in the run, property label) pairs done.
    done: HashSet<(usize, String)>,
    /// Revisions done with everything.
    ended: HashSet<usize>,
    /// (revision's place, property label) pairs confirming a failure to keep.
    confirming: HashSet<(usize, String)>,
}

impl Carry {
    /// Whether the revision before `order` is done with `label` (always, for the first
    /// revision): then every case earlier revisions will keep for it is kept.
    pub fn settled(&self, order: usize, label: &str) -> bool {
        let Some(before) = order.checked_sub(1) else {
            return true;
        };
        let state = self.state.borrow();
        state.ended.contains(&before) || state.done.contains(&(before, label.to_string()))
    }

    /// Waits until `label` is [`Carry::settled`] for `order`, earlier revisions keep
    /// more than `known` cases for it, or whether one is [`Carry::coming`] is no longer
    /// `coming`.
    pub async fn news(&self, order: usize, label: &str, known: usize, coming: bool) {
        loop {
            let notified = self.changed.notified();
            if self.settled(order, label)
                || self.cases_for(order, label).len() > known
                || self.coming(order, label) != coming
            {
                return;
            }
            notified.await;
        }
    }

    /// Revision `order` is confirming a failure of `label` it will keep unless the
    /// confirmation says otherwise: a revision after it may open the process to try it
    /// in meanwhile (a confirmation of a stall waits out the timeout, the machine idle).
    /// Timing only: what is tried, and found, is the same.
    pub fn confirming(&self, order: usize, label: &str) {
        self.state
            .borrow_mut()
            .confirming
            .insert((order, label.to_string()));
        self.changed.notify_waiters();
    }

    /// Whether a revision before `order` is [`Carry::confirming`] a failure of `label`.
    pub fn coming(&self, order: usize, label: &str) -> bool {
        self.state
            .borrow()
            .confirming
            .iter()
            .any(|(o, l)| *o < order && l == label)
    }

    /// Revision `order` is done with `label`.
    pub fn done(&self, order: usize, label: &str) {
        let mut state = self.state.borrow_mut();
        state.done.insert((order, label.to_string()));
        state.confirming.remove(&(order, label.to_string()));
        drop(state);
        self.changed.notify_waiters();
    }

    /// Revision `order` is done with every property.
    pub fn ended(&self, order: usize) {
        let mut state = self.state.borrow_mut();
        state.ended.insert(order);
        state.confirming.retain(|(o, _)| *o != order);
        drop(state);
        self.changed.notify_waiters();
    }

    /// Keeps a minimal case for the revisions after (the first found for a label and
    /// kind stays: later revisions found it by trying it).
    pub fn keep(&self, case: Carried) {
        let mut state = self.state.borrow_mut();
        state.confirming.remove(&(case.order, case.label.clone()));
        if !state
            .cases
            .iter()
            .any(|c| c.label == case.label && c.kind == case.kind)
        {
            state.cases.push(case);
        }
        drop(state);
        self.changed.notify_waiters();
    }

    /// The minimal cases revisions before `order` kept for `label`, in the order found.
    pub fn cases_for(&self, order: usize, label: &str) -> Vec<Carried> {
        let state = self.state.borrow();
        state
            .cases
            .iter()
            .filter(|c| c.label == label && c.order < order)
            .cloned()
            .collect()
    }
}

/// Marks a revision done with every property when dropped: on every path, so no later
/// revision waits on one that ended early or was cut.
#[derive(Debug)]
pub struct EndGuard<'a> {
    carry: &'a Carry,
    order: usize,
}

impl<'a> EndGuard<'a> {
    /// The guard of revision `order`.
    pub fn new(carry: &'a Carry, order: usize) -> Self {
        Self { carry, order }
    }
}

impl Drop for EndGuard<'_> {
    fn drop(&mut self) {
        self.carry.ended(self.order);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    #[test]
    fn a_revision_hears_of_each_case_kept_before_it_and_when_the_one_before_is_done() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let local = tokio::task::LocalSet::new();
        let case = |order: usize, kind| Carried {
            label: "valid echo".into(),
            kind,
            input: serde_json::json!({"text": "0"}),
            revision: "2024-11-05",
            order,
            latency: None,
        };
        local.block_on(&runtime, async {
            let carry = Rc::new(Carry::default());
            let c = Rc::clone(&carry);
            let waiter = tokio::task::spawn_local(async move {
                c.news(2, "valid echo", 0, false).await;
                let first = c.cases_for(2, "valid echo").len();
                c.news(2, "valid echo", first, false).await;
                (first, c.settled(2, "valid echo"))
            });
            tokio::task::yield_now().await;
            assert!(!waiter.is_finished());
            // A case of the revision itself or a later one is not news to it.
            carry.keep(case(2, FailureKind::Crash));
            tokio::task::yield_now().await;
            assert!(!waiter.is_finished());
            assert!(carry.cases_for(2, "valid echo").is_empty());
            // One an earlier revision keeps is, before that revision is done.
            carry.keep(case(0, FailureKind::Stall));
            tokio::task::yield_now().await;
            assert!(!waiter.is_finished());
            assert_eq!(carry.cases_for(2, "valid echo").len(), 1);
            carry.done(1, "valid echo");
            assert_eq!(waiter.await.unwrap(), (1, true));
            // The first revision is always settled; an ended revision settles every
            // property of the one after it.
            assert!(carry.settled(0, "anything"));
            assert!(!carry.settled(3, "anything"));
            drop(EndGuard::new(&carry, 2));
            assert!(carry.settled(3, "anything"));
        });
    }

    #[test]
    fn a_confirmation_under_way_is_news_to_the_revisions_after_it_until_it_is_kept() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        let carry = Carry::default();
        let label = "valid echo";
        assert!(!carry.coming(2, label));
        carry.confirming(1, label);
        // The revisions after the confirming one hear of it; it and those before do not.
        assert!(carry.coming(2, label));
        assert!(!carry.coming(1, label));
        assert!(!carry.coming(2, "ids"));
        // A wait that knew nothing of it returns at once.
        runtime.block_on(async {
            tokio::time::timeout(
                std::time::Duration::from_secs(5),
                carry.news(2, label, 0, false),
            )
            .await
            .expect("news of the confirmation");
        });
        carry.keep(Carried {
            label: label.into(),
            kind: FailureKind::Stall,
            input: serde_json::json!({"text": "0"}),
            revision: "2025-03-26",
            order: 1,
            latency: None,
        });
        assert!(!carry.coming(2, label));
        // Done with a property, or with everything, ends a confirmation too.
        carry.confirming(0, label);
        carry.done(0, label);
        assert!(!carry.coming(2, label));
        carry.confirming(0, "ids");
        carry.ended(0);
        assert!(!carry.coming(2, "ids"));
    }
}

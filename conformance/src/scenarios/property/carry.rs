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
//! Determinism: a revision waits, property by property, until the revision before it in
//! the run's order is done with that property (each waited for the one before it, so all
//! earlier ones are), lending its job slot meanwhile. What it tries therefore depends on
//! the revisions before it only, never on `--jobs` or timing. A revision that ends (or is
//! dropped) marks every property done.

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
}

impl Carry {
    /// Waits until the revision before `order` is done with `label` (at once for the
    /// first revision).
    pub async fn wait_for(&self, order: usize, label: &str) {
        let Some(before) = order.checked_sub(1) else {
            return;
        };
        loop {
            let notified = self.changed.notified();
            {
                let state = self.state.borrow();
                if state.ended.contains(&before)
                    || state.done.contains(&(before, label.to_string()))
                {
                    return;
                }
            }
            notified.await;
        }
    }

    /// Revision `order` is done with `label`.
    pub fn done(&self, order: usize, label: &str) {
        self.state
            .borrow_mut()
            .done
            .insert((order, label.to_string()));
        self.changed.notify_waiters();
    }

    /// Revision `order` is done with every property.
    pub fn ended(&self, order: usize) {
        self.state.borrow_mut().ended.insert(order);
        self.changed.notify_waiters();
    }

    /// Keeps a minimal case for the revisions after (the first found for a label and
    /// kind stays: later revisions found it by trying it).
    pub fn keep(&self, case: Carried) {
        let mut state = self.state.borrow_mut();
        if !state
            .cases
            .iter()
            .any(|c| c.label == case.label && c.kind == case.kind)
        {
            state.cases.push(case);
        }
    }

    /// The minimal cases kept for `label`, in the order found.
    pub fn cases_for(&self, label: &str) -> Vec<Carried> {
        let state = self.state.borrow();
        state
            .cases
            .iter()
            .filter(|c| c.label == label)
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
    fn a_revision_waits_for_the_one_before_it_property_by_property() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let local = tokio::task::LocalSet::new();
        local.block_on(&runtime, async {
            let carry = Rc::new(Carry::default());
            let c = Rc::clone(&carry);
            let waiter = tokio::task::spawn_local(async move {
                c.wait_for(1, "valid echo").await;
                c.cases_for("valid echo").len()
            });
            tokio::task::yield_now().await;
            assert!(!waiter.is_finished());
            carry.keep(Carried {
                label: "valid echo".into(),
                kind: FailureKind::Stall,
                input: serde_json::json!({"text": "0"}),
                revision: "2024-11-05",
                latency: None,
            });
            carry.done(0, "valid echo");
            assert_eq!(waiter.await.unwrap(), 1);
            // The first revision never waits; an ended revision releases every property.
            carry.wait_for(0, "anything").await;
            drop(EndGuard::new(&carry, 1));
            carry.wait_for(2, "anything").await;
        });
    }
}

//! Filters that say when they cannot work.
//!
//! Construction gets most values right; a filter drops the rest (a `oneOf` value that
//! matches two branches, a `not` that excludes it, a pattern the translation misread). A
//! filter that rejects most values would make proptest spin, so each is probed first with a
//! fixed seed, and one that keeps too few becomes an [`Unsupported`] the caller skips.

use std::fmt;
use std::sync::Arc;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::Value;

use super::types::Unsupported;

/// Samples drawn to decide whether a filter keeps enough values.
pub(super) const PROBES: u32 = 64;

/// `base` filtered by `keep`, or `Unsupported` when a deterministic probe finds that `keep`
/// rejects most values (the filter would spin and the caller should skip instead).
pub(super) fn guard(
    base: BoxedStrategy<Value>,
    what: &str,
    keep: impl Fn(&Value) -> bool + 'static,
) -> Result<BoxedStrategy<Value>, Unsupported> {
    guard_map(base, what, move |v| keep(&v).then_some(v))
}

/// [`guard`] over a strategy of any `T`, which `keep` turns into the value or rejects.
pub(super) fn guard_map<T: fmt::Debug + Clone + 'static>(
    base: BoxedStrategy<T>,
    what: &str,
    keep: impl Fn(T) -> Option<Value> + 'static,
) -> Result<BoxedStrategy<Value>, Unsupported> {
    guard_probed(base, what, keep, PROBES)
}

/// [`guard`] probed with `probes` draws (a multiple of 8): fewer than [`PROBES`] for a
/// check that a guarded strategy already meets almost always, where the probe only has
/// to catch one that never does.
pub(super) fn guard_few(
    base: BoxedStrategy<Value>,
    what: &str,
    keep: impl Fn(&Value) -> bool + 'static,
    probes: u32,
) -> Result<BoxedStrategy<Value>, Unsupported> {
    guard_probed(base, what, move |v| keep(&v).then_some(v), probes)
}

fn guard_probed<T: fmt::Debug + Clone + 'static>(
    base: BoxedStrategy<T>,
    what: &str,
    keep: impl Fn(T) -> Option<Value> + 'static,
    probes: u32,
) -> Result<BoxedStrategy<Value>, Unsupported> {
    let keep = Arc::new(keep);
    let mut runner = probe_runner();
    let mut kept = 0;
    for _ in 0..probes {
        if super::interrupt::interrupted() {
            return Err(Unsupported::new(super::interrupt::INTERRUPTED));
        }
        let tree = base
            .new_tree(&mut runner)
            .map_err(|e| Unsupported::new(format!("{what}: {e}")))?;
        if keep(tree.current()).is_some() {
            kept += 1;
        }
    }
    if kept * 8 < probes {
        return Err(Unsupported::new(format!(
            "{what} (only {kept} of {probes} generated values qualify)"
        )));
    }
    Ok(base
        .prop_filter_map(what.to_owned(), move |v| keep(v))
        .boxed())
}

pub(super) fn probe_runner() -> TestRunner {
    TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[0x5c; 32]),
    )
}

//! A weighted choice among strategies that builds only the tree it picks.
//!
//! proptest's `Union` keeps, for each option before the one it picks, a lazy tree that
//! holds a copy of the test runner (its configuration and an RNG, most of a kilobyte), so
//! that shrinking can move to an earlier option: a 5,000-property object, an integer
//! choice per property, drew a 20 MB tree, built again for each case and each probe. The
//! suite shrinks values itself (`shrink.rs`) and walks a tree only for a schema its
//! validator cannot compile, so [`Pick`] keeps the picked option's tree alone. It draws from
//! the runner's RNG as `Union` does (the pick, then one RNG split off per option before
//! it), so a seed draws the values `Union` drew.

use proptest::strategy::{NewTree, Strategy, ValueTree};
use proptest::test_runner::TestRunner;

/// One of `options`, chosen by weight; its tree is the chosen option's.
#[derive(Debug, Clone)]
pub(crate) struct Pick<T> {
    options: Vec<(u32, T)>,
}

impl<T: Strategy> Pick<T> {
    /// A choice by weight. Panics when `options` is empty (as `Union` does).
    pub(crate) fn new_weighted(options: Vec<(u32, T)>) -> Self {
        assert!(!options.is_empty(), "a choice among no options");
        Self { options }
    }

    /// A choice with equal weights.
    pub(crate) fn new(options: impl IntoIterator<Item = T>) -> Self {
        Self::new_weighted(options.into_iter().map(|o| (1, o)).collect())
    }
}

impl<T: Strategy> Strategy for Pick<T> {
    type Tree = T::Tree;
    type Value = T::Value;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        let sum: u64 = self.options.iter().map(|(w, _)| u64::from(*w)).sum();
        // As `Union`: a uniform draw below the sum of the weights ...
        let drawn = (0..sum).new_tree(runner)?.current();
        let pick = self
            .options
            .iter()
            .scan(0u64, |total, (w, _)| {
                *total += u64::from(*w);
                Some(*total)
            })
            .filter(|&total| total <= drawn)
            .count();
        // ... and an RNG split off for each option before the pick (its lazy tree's).
        for _ in 0..pick {
            let _ = runner.new_rng();
        }
        self.options[pick].1.new_tree(runner)
    }
}

#[cfg(test)]
mod tests {
    use proptest::strategy::{Strategy, Union, ValueTree};
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

    use super::Pick;

    fn runner(seed: u8) -> TestRunner {
        let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]);
        TestRunner::new_with_rng(Config::default(), rng)
    }

    /// A seed draws with `Pick` the values it draws with `Union`, value after value.
    #[test]
    fn draws_what_union_draws() {
        let options = || {
            vec![
                (2, (0..1000_i64).boxed()),
                (1, (5000..5004_i64).boxed()),
                (5, (-100..=100_i64).boxed()),
                (3, proptest::sample::select(vec![0_i64, 1, -1]).boxed()),
            ]
        };
        let (union, pick) = (
            Union::new_weighted(options()),
            Pick::new_weighted(options()),
        );
        for seed in 0..8 {
            let (mut a, mut b) = (runner(seed), runner(seed));
            for _ in 0..200 {
                let from_union = union.new_tree(&mut a).unwrap().current();
                let from_pick = pick.new_tree(&mut b).unwrap().current();
                assert_eq!(from_union, from_pick);
            }
        }
    }
}

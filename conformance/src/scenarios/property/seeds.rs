//! Where the property phase's values come from: a test runner whose RNG depends only on
//! the run's seed and the property's label, and the strategies for ids, method names and
//! cursors (the argument strategies are JSON Schema's, in [`crate::generate`]).
//!
//! The hash and the RNG are fixed algorithms, written out here, so the same seed draws
//! the same cases on every Rust release.

use proptest::strategy::{BoxedStrategy, Strategy};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{json, Value};

/// A stable 64-bit FNV-1a hash (std's hasher may change between Rust releases, which
/// would change every seed).
fn fnv1a(seed: u64, label: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in seed.to_le_bytes().iter().chain(label.as_bytes()) {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The next value of splitmix64 from `state` (a fixed algorithm: seeds stay meaningful
/// across Rust releases).
pub(crate) fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A test runner whose RNG depends only on the seed and the label.
pub fn runner_for(seed: u64, label: &str, cases: u32) -> TestRunner {
    let mut state = fnv1a(seed, label);
    let mut bytes = [0u8; 32];
    for chunk in bytes.chunks_mut(8) {
        chunk.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
    }
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// Ids that must round-trip: integers within ±(2^53-1), zero, negatives, and strings
/// with any Unicode, the empty string included.
pub(super) fn id_strategy() -> BoxedStrategy<Value> {
    const MAX_SAFE: i64 = (1 << 53) - 1;
    proptest::prop_oneof![
        (-MAX_SAFE..=MAX_SAFE).prop_map(|n| json!(n)),
        proptest::strategy::Just(json!(0)),
        (-1000i64..0).prop_map(|n| json!(n)),
        proptest::string::string_regex("(?s).{0,24}")
            .expect("regex")
            .prop_map(Value::String),
    ]
    .boxed()
}

/// Method names no server implements: a fixed prefix, then random characters.
pub(super) fn method_strategy() -> BoxedStrategy<Value> {
    proptest::string::string_regex("[A-Za-z0-9_./-]{1,40}")
        .expect("regex")
        .prop_map(|s| Value::String(format!("conformance/unknown/{s}")))
        .boxed()
}

/// Cursors no server issued: any Unicode text, short or long.
pub(super) fn cursor_strategy() -> BoxedStrategy<Value> {
    proptest::prop_oneof![
        proptest::string::string_regex("(?s).{0,16}").expect("regex"),
        proptest::string::string_regex("[A-Za-z0-9+/=]{17,200}").expect("regex"),
    ]
    .prop_map(Value::String)
    .boxed()
}

#[cfg(test)]
mod tests {
    use proptest::strategy::ValueTree;

    use super::*;

    #[test]
    fn the_same_seed_and_label_give_the_same_values() {
        let draw = |seed, label: &str| {
            let mut runner = runner_for(seed, label, 8);
            let s = id_strategy();
            (0..8)
                .map(|_| s.new_tree(&mut runner).unwrap().current())
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(7, "ids"), draw(7, "ids"));
        assert_ne!(draw(7, "ids"), draw(8, "ids"));
        assert_ne!(draw(7, "ids"), draw(7, "cursors"));
    }

    #[test]
    fn generated_methods_are_never_real_ones() {
        let mut runner = runner_for(0, "methods", 64);
        let s = method_strategy();
        for _ in 0..64 {
            let m = s.new_tree(&mut runner).unwrap().current();
            assert!(m.as_str().unwrap().starts_with("conformance/unknown/"));
        }
    }
}

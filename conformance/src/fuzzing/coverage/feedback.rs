//! What counts as new coverage: AFL's rule. Each edge counter of a case is put in one of
//! eight buckets (1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+ hits), and a case is kept when
//! it sets a bucket bit no case before it set: an edge never run, or a loop run a number
//! of times never seen. Coarse buckets keep a loop's every extra turn from counting.

use super::agent::EDGES;

/// The bucket bit of a counter (0: not run).
fn bucket(count: u8) -> u8 {
    match count {
        0 => 0,
        1 => 1,
        2 => 2,
        3 => 4,
        4..=7 => 8,
        8..=15 => 16,
        16..=31 => 32,
        32..=127 => 64,
        _ => 128,
    }
}

/// The bucket bits seen so far over a run.
#[derive(Debug, Clone)]
pub struct Feedback {
    seen: Vec<u8>,
    edges: usize,
}

impl Default for Feedback {
    fn default() -> Self {
        Self {
            seen: vec![0; EDGES],
            edges: 0,
        }
    }
}

/// What one case added.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Novelty {
    /// Edges never run before.
    pub edges: usize,
    /// Bucket bits never set before (edges included).
    pub bits: usize,
}

impl Novelty {
    /// Whether the case reached anything new.
    pub fn is_new(self) -> bool {
        self.bits > 0
    }
}

impl Feedback {
    /// Adds a case's counters; what was new.
    pub fn add(&mut self, counters: &[u8]) -> Novelty {
        let mut novelty = Novelty::default();
        for (seen, &count) in self.seen.iter_mut().zip(counters) {
            let bit = bucket(count);
            if bit & !*seen != 0 {
                if *seen == 0 {
                    novelty.edges += 1;
                }
                novelty.bits += 1;
                *seen |= bit;
            }
        }
        self.edges += novelty.edges;
        novelty
    }

    /// Edges run at least once over the run.
    pub fn edges(&self) -> usize {
        self.edges
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_edge_or_a_new_bucket_is_new_and_a_repeat_is_not() {
        let mut feedback = Feedback::default();
        let mut counters = vec![0u8; EDGES];
        counters[7] = 1;
        assert_eq!(feedback.add(&counters), Novelty { edges: 1, bits: 1 });
        assert!(!feedback.add(&counters).is_new());
        // Five hits: bucket 4-7, new; six: the same bucket.
        counters[7] = 5;
        assert_eq!(feedback.add(&counters), Novelty { edges: 0, bits: 1 });
        counters[7] = 6;
        assert!(!feedback.add(&counters).is_new());
        counters[9] = 200;
        assert_eq!(feedback.add(&counters).edges, 1);
        assert_eq!(feedback.edges(), 2);
    }
}

//! Numbers: the bounds of all parts tightened into one range, and values drawn as
//! multiples of an exact decimal step (`multipleOf`, or 1, 0.1, 0.01, 0.001 for free
//! numbers), so a fractional `multipleOf` holds in decimal and in binary arithmetic alike.
//!
//! Values stay within 2^53 (integers) and 15 significant digits (fractions), where every
//! JSON parser reads them back exactly; they are mostly small, sometimes anywhere in range,
//! and often at an edge: 0, 1, -1 and the bounds the schema sets.

use std::sync::Arc;

use proptest::prelude::*;
use serde_json::Value;

use super::decimal::{multiple_of, number_value, Step, SAFE_DECIMAL, SAFE_INTEGER};
use super::flat::Flat;
use super::pick::Pick;
use super::types::Unsupported;
use super::valid::Cx;

impl<'a> Cx<'a> {
    pub(super) fn number(
        &self,
        flat: &Flat<'a>,
        integer: bool,
    ) -> Result<BoxedStrategy<Value>, Unsupported> {
        // (bound, exclusive), the tightest of all parts.
        let mut low: Option<(f64, bool)> = None;
        let mut high: Option<(f64, bool)> = None;
        let tighten = |slot: &mut Option<(f64, bool)>, b: f64, exclusive: bool, upper: bool| {
            let tighter = match *slot {
                None => true,
                Some((c, e)) => {
                    if upper {
                        b < c || (b == c && exclusive && !e)
                    } else {
                        b > c || (b == c && exclusive && !e)
                    }
                }
            };
            if tighter {
                *slot = Some((b, exclusive));
            }
        };
        for b in flat.numbers("minimum")? {
            tighten(&mut low, b, false, false);
        }
        for b in flat.numbers("maximum")? {
            tighten(&mut high, b, false, true);
        }
        for (word, upper) in [("exclusiveMinimum", false), ("exclusiveMaximum", true)] {
            for v in flat.words(word) {
                match v {
                    Value::Bool(_) => {
                        return Err(Unsupported::new(format!(
                            "a boolean `{word}` (draft-04) is not supported"
                        )))
                    }
                    v => {
                        let b = v
                            .as_f64()
                            .ok_or_else(|| Unsupported::new(format!("`{word}` is not a number")))?;
                        if upper {
                            tighten(&mut high, b, true, true);
                        } else {
                            tighten(&mut low, b, true, false);
                        }
                    }
                }
            }
        }
        if integer && flat.words("format").any(|f| f.as_str() == Some("int32")) {
            tighten(&mut low, f64::from(i32::MIN), false, false);
            tighten(&mut high, f64::from(i32::MAX), false, true);
        }
        let multiples = flat.numbers("multipleOf")?;
        let steps = if multiples.is_empty() {
            if integer {
                vec![Step::ONE]
            } else {
                [1, 10, 100, 1000]
                    .into_iter()
                    .map(|q| Step { p: 1, q })
                    .collect()
            }
        } else {
            let mut step = if integer { Some(Step::ONE) } else { None };
            for m in &multiples {
                let s = Step::of(*m).ok_or_else(|| {
                    Unsupported::new(format!("`multipleOf` {m} is not a usable positive number"))
                })?;
                step = Some(match step {
                    None => s,
                    Some(t) => t.lcm(s).ok_or_else(|| {
                        Unsupported::new("the `multipleOf`s have no common multiple in range")
                    })?,
                });
            }
            step.into_iter().collect()
        };
        let spec = Arc::new(NumberSpec {
            low,
            high,
            multiples,
        });
        let mut options = Vec::new();
        let mut first_error = None;
        for step in steps {
            match spec.strategy(step) {
                Ok(s) => options.push(s),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        if options.is_empty() {
            return Err(first_error.unwrap_or_else(|| Unsupported::new("no number fits")));
        }
        Ok(Pick::new(options).boxed())
    }
}

/// The range a number must fall in, and the `multipleOf`s it must satisfy.
struct NumberSpec {
    low: Option<(f64, bool)>,
    high: Option<(f64, bool)>,
    multiples: Vec<f64>,
}

impl NumberSpec {
    fn in_bounds(&self, x: f64) -> bool {
        self.low
            .is_none_or(|(b, exclusive)| if exclusive { x > b } else { x >= b })
            && self
                .high
                .is_none_or(|(b, exclusive)| if exclusive { x < b } else { x <= b })
    }

    /// The multiples of `step` inside the bounds, as a strategy.
    fn strategy(self: &Arc<Self>, step: Step) -> Result<BoxedStrategy<Value>, Unsupported> {
        let scale = step.scale();
        let unit = step
            .p
            .checked_mul(10_i128.pow(scale) / step.q)
            .ok_or_else(|| Unsupported::new("`multipleOf` is too large"))?;
        let cap = if scale == 0 {
            SAFE_INTEGER
        } else {
            SAFE_DECIMAL
        } / unit;
        if cap == 0 {
            return Err(Unsupported::new(
                "`multipleOf` is too large for a safe JSON number",
            ));
        }
        let value = move |k: i128| number_value(k * unit, scale);
        let x = |k: i128| value(k).as_f64().unwrap_or(f64::NAN);
        let unit_f = unit as f64 / 10f64.powi(scale as i32);
        let estimate = |b: f64| (b / unit_f).clamp(-(cap as f64) - 4.0, cap as f64 + 4.0) as i128;
        let above = |k: i128| {
            self.low
                .is_none_or(|(b, e)| if e { x(k) > b } else { x(k) >= b })
        };
        let below = |k: i128| {
            self.high
                .is_none_or(|(b, e)| if e { x(k) < b } else { x(k) <= b })
        };
        let mut low = self.low.map_or(-cap, |(b, _)| (estimate(b) - 2).max(-cap));
        for _ in 0..16 {
            if low > cap || above(low) {
                break;
            }
            low += 1;
        }
        let mut high = self.high.map_or(cap, |(b, _)| (estimate(b) + 2).min(cap));
        for _ in 0..16 {
            if high < -cap || below(high) {
                break;
            }
            high -= 1;
        }
        if low > high || !above(low) || !below(high) {
            return Err(Unsupported::new(
                "no number satisfies the bounds (and `multipleOf`)",
            ));
        }
        let spec = self.clone();
        let ok = move |k: i128| {
            let v = value(k);
            spec.in_bounds(v.as_f64().unwrap_or(f64::NAN))
                && spec.multiples.iter().all(|m| match &v {
                    Value::Number(n) => multiple_of(n, *m) == Some(true),
                    _ => false,
                })
        };
        let start = 0_i128.clamp(low, high);
        let fallback = (0..4096_i128)
            .flat_map(|j| [start + j, start - j])
            .filter(|k| (low..=high).contains(k))
            .find(|k| ok(*k))
            .ok_or_else(|| {
                Unsupported::new(
                    "no value is a multiple of `multipleOf` in both decimal and binary arithmetic",
                )
            })?;
        // Mostly small values, some anywhere in range, some at the bounds the schema sets.
        let mut ranges: Vec<(u32, BoxedStrategy<i128>)> = vec![(2, (low..=high).boxed())];
        if self.low.is_some() {
            ranges.push((1, (low..=(low + 3).min(high)).boxed()));
        }
        if self.high.is_some() {
            ranges.push((1, ((high - 3).max(low)..=high).boxed()));
        }
        if low <= 100 && high >= -100 {
            ranges.push((5, (low.max(-100)..=high.min(100)).boxed()));
        }
        // The edges, early and often (Hypothesis draws them so): 0, 1 and -1, and each
        // bound the schema sets with its neighbour inside. A tool that fails only on
        // `b = 0` is otherwise reached once in hundreds of cases.
        let one = (1.0 / unit_f).round() as i128;
        let mut edges: Vec<i128> = vec![0, one, -one];
        if self.low.is_some() {
            edges.extend([low, low + 1]);
        }
        if self.high.is_some() {
            edges.extend([high, high - 1]);
        }
        edges.retain(|k| (low..=high).contains(k));
        edges.sort_unstable();
        edges.dedup();
        if !edges.is_empty() {
            ranges.push((3, proptest::sample::select(edges).boxed()));
        }
        Ok(Pick::new_weighted(ranges)
            .prop_map(move |k| {
                let k = (0..32_i128)
                    .flat_map(|j| [k + j, k - j])
                    .filter(|k| (low..=high).contains(k))
                    .find(|k| ok(*k))
                    .unwrap_or(fallback);
                value(k)
            })
            .boxed())
    }
}

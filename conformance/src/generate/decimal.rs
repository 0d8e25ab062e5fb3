//! Exact decimal arithmetic for `multipleOf`, as the validator reads numbers (the shortest
//! decimal that round-trips an f64).
//!
//! `0.07` is a multiple of `0.01` in decimal but not in binary floating point, and
//! validators differ in which they use; the judge asks both and trusts only an agreement,
//! and the number builder walks multiples of an exact decimal [`Step`].

use serde_json::{json, Number, Value};

use super::types::Tri;

/// Largest integer magnitude generated: JSON integers round-trip everywhere below 2^53.
pub(super) const SAFE_INTEGER: i128 = (1 << 53) - 1;
/// Largest numerator of a fractional value: at most 15 significant digits survive f64.
pub(super) const SAFE_DECIMAL: i128 = 999_999_999_999_999;

/// `x` as `mantissa / 10^scale`, the trailing zeros of the fraction dropped.
fn decimal_of(x: f64) -> Option<(i128, u32)> {
    if !x.is_finite() {
        return None;
    }
    let text = format!("{}", x.abs());
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let fraction = fraction.trim_end_matches('0');
    let scale = u32::try_from(fraction.len()).ok().filter(|s| *s <= 30)?;
    let mut mantissa: i128 = 0;
    for c in whole.chars().chain(fraction.chars()) {
        let digit = i128::from(c.to_digit(10)? as u8);
        mantissa = mantissa.checked_mul(10)?.checked_add(digit)?;
    }
    Some((if x < 0.0 { -mantissa } else { mantissa }, scale))
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Whether `x / m` is an integer in decimal reading; `None` past `i128`.
fn divides_exactly(x: f64, m: f64) -> Option<bool> {
    let (xm, xs) = decimal_of(x)?;
    let (mm, ms) = decimal_of(m)?;
    if mm == 0 {
        return None;
    }
    let shared = xs.min(ms);
    let a = xm.checked_mul(10_i128.checked_pow(ms - shared)?)?;
    let b = mm.checked_mul(10_i128.checked_pow(xs - shared)?)?;
    Some(a % b == 0)
}

/// `multipleOf` as validators check it: exactly for integers; for fractions both in decimal
/// (jsonschema) and in binary floating point (ajv, Python), and only an agreement is sure.
pub(super) fn multiple_of(n: &Number, m: f64) -> Tri {
    if m.is_nan() || m <= 0.0 {
        return None;
    }
    if m.fract() == 0.0 && m <= SAFE_INTEGER as f64 {
        if let Some(i) = n.as_i64() {
            return Some(i % (m as i64) == 0);
        }
        if let Some(u) = n.as_u64() {
            return Some(u % (m as u64) == 0);
        }
    }
    let x = n.as_f64()?;
    if x == 0.0 {
        return Some(true);
    }
    let quotient = x / m;
    let binary = quotient.is_finite() && quotient.fract() == 0.0;
    let decimal = divides_exactly(x, m)?;
    (decimal == binary).then_some(decimal)
}

/// A step `p / q` (reduced) whose multiples are written with `scale` decimals.
#[derive(Clone, Copy, Debug)]
pub(super) struct Step {
    pub(super) p: i128,
    pub(super) q: i128,
}

impl Step {
    pub(super) const ONE: Step = Step { p: 1, q: 1 };

    pub(super) fn of(m: f64) -> Option<Step> {
        let (mantissa, scale) = decimal_of(m)?;
        let denominator = 10_i128.checked_pow(scale)?;
        let g = gcd(mantissa, denominator);
        (mantissa > 0).then_some(Step {
            p: mantissa / g,
            q: denominator / g,
        })
    }

    /// The smallest step both `self` and `other` divide: lcm(p) / gcd(q).
    pub(super) fn lcm(self, other: Step) -> Option<Step> {
        let p = (self.p / gcd(self.p, other.p)).checked_mul(other.p)?;
        let q = gcd(self.q, other.q);
        let g = gcd(p, q);
        Some(Step { p: p / g, q: q / g })
    }

    /// Decimals needed to write every multiple (q only has the factors 2 and 5).
    pub(super) fn scale(self) -> u32 {
        (0..=30)
            .find(|s| 10_i128.pow(*s) % self.q == 0)
            .unwrap_or(30)
    }
}

/// `numerator / 10^scale` as JSON: an integer when it is one, else the nearest double.
pub(super) fn number_value(numerator: i128, scale: u32) -> Value {
    let denominator = 10_i128.pow(scale);
    if numerator % denominator == 0 {
        return json!((numerator / denominator) as i64);
    }
    let digits = numerator.unsigned_abs().to_string();
    let width = scale as usize + 1;
    let padded = format!("{digits:0>width$}");
    let (whole, fraction) = padded.split_at(padded.len() - scale as usize);
    let sign = if numerator < 0 { "-" } else { "" };
    let x: f64 = format!("{sign}{whole}.{fraction}").parse().unwrap_or(0.0);
    Number::from_f64(x).map_or(Value::Null, Value::Number)
}

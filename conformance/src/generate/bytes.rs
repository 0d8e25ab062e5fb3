//! The fuzzer's byte-driven value builder: bytes in, a JSON value for a compiled
//! [`Shape`] out.
//!
//! Decoding goes through [`arbitrary::Unstructured`], so every byte string is some value and
//! a small change to the bytes is a small change to the value: libFuzzer's mutations stay
//! meaningful. Values mostly follow the shape, with the odd node mutated (wrong type, out of
//! range, a property dropped or added); strings mix ASCII, the rest of the BMP, characters
//! above U+FFFF, escapes and troublesome tokens, now and then past 1000 characters. The
//! same [`Choices`] also serves the fuzzer's case builder (`fuzzing/cases.rs`), so the
//! bytes are read as one stream.

use arbitrary::Unstructured;
use serde_json::{json, Map, Value};

use super::shape::{Format, Shape};

/// Most values generated per case (nested `minItems` could otherwise ask for millions).
const NODE_BUDGET: u32 = 4096;

/// Longest run of a string drawn from the input's bytes as they are (`raw_run`).
const RAW_RUN: usize = 16;

/// Longest string generated, in characters (past 1000: some servers cap inputs there).
const LONG_STRING: usize = 1200;
/// The plan byte of a value: from this value on, a node is bent ...
const BENT_FROM: u8 = 160;
/// ... the node at the byte's remainder by this, counted in the order built (a value with
/// fewer nodes is left whole).
const BENT_NODES: u8 = 16;
/// From this choice byte on, an integer whose schema leaves a bound out is drawn from the
/// whole range it allows (one in eight).
pub(crate) const WIDE_FROM: u8 = 224;
/// How deep generated values nest.
const MAX_DEPTH: u32 = 6;

/// Text that tends to break string handling.
const TOKENS: &[&str] = &[
    "../../etc/passwd",
    "%s%n%x",
    "' OR 1=1 --",
    "${jndi:x}",
    "\u{202e}",
    "\u{feff}",
    "\u{2028}",
    "\\u0000",
    "{{7*7}}",
    "<script>",
    "NaN",
    "-0",
    "1e309",
    "null",
];

/// The fuzzer's bytes, read as choices.
pub(crate) struct Choices<'a> {
    u: Unstructured<'a>,
    /// Values generated so far (bounded by `NODE_BUDGET`).
    nodes: u32,
    /// Which node of the value being built is bent (`None`: none), counted in the order
    /// built ([`Choices::value`] reads it before the value).
    bend_at: Option<u32>,
    /// Nodes of the value being built so far.
    tree_nodes: u32,
}

impl<'a> Choices<'a> {
    /// Choices read from `data`; once it runs out, every choice is the first one.
    pub(crate) fn new(data: &'a [u8]) -> Self {
        Choices {
            u: Unstructured::new(data),
            nodes: 0,
            bend_at: None,
            tree_nodes: 0,
        }
    }
}

impl Choices<'_> {
    /// One byte (0 once the bytes run out).
    pub(crate) fn byte(&mut self) -> u8 {
        self.u.arbitrary::<u8>().unwrap_or(0)
    }

    /// True with probability `per256 / 256` (false once the bytes run out).
    pub(crate) fn chance(&mut self, per256: u8) -> bool {
        !self.u.is_empty() && self.byte() < per256
    }

    /// A number in `0..n` (0 once the bytes run out).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        self.u.int_in_range(0..=n - 1).unwrap_or(0)
    }

    /// One of `items` (the first once the bytes run out).
    pub(crate) fn pick<'v, T>(&mut self, items: &'v [T]) -> &'v T {
        &items[self.below(items.len())]
    }

    /// An integer of a schema that leaves a bound out: a choice byte first, then mostly
    /// one in `lo..=hi`, and from a byte of [`WIDE_FROM`] on one in the `wide` range the
    /// schema allows (the fuzz dictionary writes a constant as that byte and its offset).
    pub(crate) fn integer(&mut self, lo: i64, hi: i64, wide: (i64, i64)) -> i64 {
        if wide == (lo, hi) {
            return self.int_in(lo, hi);
        }
        if self.byte() >= WIDE_FROM {
            return self.int_in(wide.0, wide.1);
        }
        self.int_in(lo, hi)
    }

    /// An integer in `lo..=hi` (`lo` once the bytes run out).
    pub(crate) fn int_in(&mut self, lo: i64, hi: i64) -> i64 {
        if lo >= hi {
            return lo;
        }
        self.u.int_in_range(lo..=hi).unwrap_or(lo)
    }

    /// A value for `shape` (its `$ref`s in `defs`), mostly valid, now and then with one
    /// node bent: out of range, of the wrong type, a required property dropped, a key
    /// added, an integer at its bound.
    ///
    /// Which node is bent is read from one byte before the value (`depth` 0), not from a
    /// byte at each node: the bytes of a value's leaves follow one another, so a word the
    /// fuzzer writes after an integer's bytes is the next string (a server's compared
    /// prefix lands where the server reads it), and an input that got one comparison of
    /// the server further keeps its place when the next one is worked on.
    pub(crate) fn value(&mut self, shape: &Shape, defs: &[Shape], depth: u32) -> Value {
        if depth == 0 {
            let plan = self.byte();
            self.bend_at = (plan >= BENT_FROM).then_some(u32::from(plan % BENT_NODES));
            self.tree_nodes = 0;
        }
        self.nodes += 1;
        let index = self.tree_nodes;
        self.tree_nodes += 1;
        if depth > MAX_DEPTH || self.nodes > NODE_BUDGET {
            return Value::Null;
        }
        if self.bend_at == Some(index) {
            return self.bent(shape, defs, depth);
        }
        self.plain(shape, defs, depth)
    }

    /// A value for `shape` as it says (its children may still be bent).
    fn plain(&mut self, shape: &Shape, defs: &[Shape], depth: u32) -> Value {
        match shape {
            Shape::Any => self.any(depth),
            Shape::Const(c) => c.clone(),
            Shape::Enum(options) => self.pick(options).clone(),
            Shape::OneOf(shapes) => {
                let i = self.below(shapes.len());
                self.value(&shapes[i], defs, depth + 1)
            }
            Shape::Ref(i) => match defs.get(*i) {
                Some(target) => self.value(target, defs, depth + 1),
                None => self.any(depth),
            },
            Shape::Object { properties } => self.object(properties, defs, depth, None),
            Shape::Array { items, min, max } => {
                let n = min + self.below(max.saturating_sub(*min) + 1);
                Value::Array((0..n).map(|_| self.value(items, defs, depth + 1)).collect())
            }
            Shape::String { min, max, format } => {
                Value::String(self.string_for(*min, *max, *format))
            }
            Shape::Integer { lo, hi, wide } => json!(self.integer(*lo, *hi, *wide)),
            Shape::Number { lo, hi } => json!(self.int_in(*lo, *hi)),
            Shape::Boolean => Value::Bool(self.byte() & 1 == 1),
            Shape::Null => Value::Null,
        }
    }

    /// An object with its required properties but `skip` (an index among them), an
    /// optional one half the time.
    fn object(
        &mut self,
        properties: &[(String, Shape, bool)],
        defs: &[Shape],
        depth: u32,
        skip: Option<usize>,
    ) -> Value {
        let mut out = Map::with_capacity(properties.len() + 1);
        let mut required = 0;
        for (name, shape, needed) in properties {
            let include = if *needed {
                required += 1;
                skip != Some(required - 1)
            } else {
                self.byte() & 1 == 1
            };
            if include {
                let v = self.value(shape, defs, depth + 1);
                out.insert(name.clone(), v);
            }
        }
        Value::Object(out)
    }

    /// The bent node: valid but rare (a bound, a fraction, an added key) or invalid in one
    /// way (a required property dropped, or [`Choices::mutant`]).
    fn bent(&mut self, shape: &Shape, defs: &[Shape], depth: u32) -> Value {
        match (self.below(4), shape) {
            (0, Shape::Object { properties }) if properties.iter().any(|p| p.2) => {
                let required = properties.iter().filter(|p| p.2).count();
                let skip = self.below(required);
                self.object(properties, defs, depth, Some(skip))
            }
            (1, Shape::Object { properties }) => {
                let mut out = self.object(properties, defs, depth, None);
                let key = self.string(1, 12);
                let v = self.any(depth + 1);
                if let Value::Object(map) = &mut out {
                    map.insert(key, v);
                }
                out
            }
            (0, Shape::Integer { lo, hi, .. } | Shape::Number { lo, hi }) => {
                json!(if self.byte() & 1 == 0 { *lo } else { *hi })
            }
            (1, Shape::Number { lo, hi }) => {
                let whole = self.int_in(*lo, *hi) as f64;
                json!(whole + f64::from(self.byte()) / 256.0)
            }
            _ => self.mutant(shape, depth),
        }
    }

    /// A value that breaks `shape` in one way, or at random.
    fn mutant(&mut self, shape: &Shape, depth: u32) -> Value {
        match self.below(6) {
            0 => Value::Null,
            1 => {
                // The wrong type.
                match shape {
                    Shape::String { .. } => json!(self.int_in(-3, 3)),
                    Shape::Object { .. } | Shape::Array { .. } => Value::String(self.string(0, 8)),
                    _ => json!({}),
                }
            }
            2 => {
                // Past the range.
                let edge = [
                    i64::MIN,
                    i64::MAX,
                    -1,
                    0,
                    (1 << 53) + 1,
                    -(1 << 31) - 1,
                    (1 << 32) + 7,
                ];
                json!(*self.pick(&edge))
            }
            3 => json!([1e300, -0.0, 0.1]),
            4 => Value::String(self.string(LONG_STRING - 200, LONG_STRING)),
            _ => self.any(depth),
        }
    }

    /// Any JSON value, small.
    pub(crate) fn any(&mut self, depth: u32) -> Value {
        let leaf = depth >= 3;
        match self.below(if leaf { 5 } else { 7 }) {
            0 => Value::Null,
            1 => json!(self.byte() & 1 == 1),
            2 => json!(self.int_in(-1_000_000, 1_000_000)),
            3 => json!(f64::from(self.byte()) / 7.0),
            4 => Value::String(self.string(0, 16)),
            5 => Value::Array((0..self.below(4)).map(|_| self.any(depth + 1)).collect()),
            _ => {
                let mut map = Map::new();
                for _ in 0..self.below(4) {
                    let key = self.string(0, 8);
                    map.insert(key, self.any(depth + 1));
                }
                Value::Object(map)
            }
        }
    }

    fn string_for(&mut self, min: usize, max: usize, format: Format) -> String {
        match format {
            Format::Date => {
                return format!(
                    "{:04}-{:02}-{:02}",
                    self.int_in(1970, 2100),
                    self.int_in(1, 12),
                    self.int_in(1, 28)
                )
            }
            Format::DateTime => {
                return format!(
                    "2025-{:02}-{:02}T{:02}:{:02}:00Z",
                    self.int_in(1, 12),
                    self.int_in(1, 28),
                    self.int_in(0, 23),
                    self.int_in(0, 59)
                )
            }
            Format::Uri => return format!("https://example.com/{}", self.word()),
            Format::Email => return format!("{}@example.com", self.word()),
            Format::None => {}
        }
        let hi = max.min(min + 24);
        let s = self.string(min, hi.max(min));
        if s.chars().count() > max {
            s.chars().take(max).collect()
        } else {
            s
        }
    }

    fn word(&mut self) -> String {
        let n = 1 + self.below(8);
        (0..n)
            .map(|_| char::from(b'a' + self.byte() % 26))
            .collect()
    }

    /// A string of `min..=max` characters (now and then longer than 1000 characters,
    /// when `max` allows), mixing ASCII, the rest of the BMP, characters above U+FFFF,
    /// escapes and troublesome tokens.
    ///
    /// A string ends at an end byte (one in sixteen), once the bytes run out, or at its
    /// most characters; never before `min`. Its length is not read up front: a word the
    /// fuzzer writes into a string (a compared prefix, `MCP!`) leaves the values after
    /// the string where they were, so coverage already earned by them is kept.
    pub(crate) fn string(&mut self, min: usize, max: usize) -> String {
        let long = max > 1000 || (max == usize::MAX && self.chance(3));
        let most = if long {
            1000 + self.below(LONG_STRING - 999)
        } else {
            min + max.saturating_sub(min).min(255)
        };
        let mut out = String::with_capacity(most.min(64));
        let mut chars = 0;
        // Long strings repeat a short generated stem, so they cost few input bytes.
        let (stem_len, floor) = if long {
            (1 + self.below(8), 1)
        } else {
            (most, min)
        };
        while chars < stem_len {
            match self.piece(&mut out) {
                Some(n) => chars += n,
                None if chars >= floor => break,
                None => {
                    out.push(' ');
                    chars += 1;
                }
            }
        }
        if long && !out.is_empty() {
            let stem = out.clone();
            let stem_chars = stem.chars().count();
            while chars < most {
                out.push_str(&stem);
                chars += stem_chars;
            }
        }
        if chars > most.max(min) {
            out = out.chars().take(most.max(min)).collect();
        }
        out
    }

    /// A run of the input's bytes as they are (printable ASCII kept, any other byte
    /// folded into it), so that a run of bytes libFuzzer writes arrives whole even where
    /// some of them are not printable.
    fn raw_run(&mut self, out: &mut String) -> usize {
        let n = 1 + self.below(RAW_RUN);
        for _ in 0..n {
            out.push(match self.byte() {
                b @ 0x20..=0x7e => char::from(b),
                b => char::from(0x20 + b % 95),
            });
        }
        n
    }

    /// Appends a character or a token to `out`; returns how many characters, or `None` for
    /// an end byte (and once the bytes run out).
    ///
    /// A printable ASCII byte is that character: the four bytes libFuzzer's comparison
    /// tracing learns from a server's `tag.starts_with("MCP!")` can be written over a
    /// string's bytes in one mutation and arrive in the string unchanged, which is how a
    /// coverage-guided fuzzer gets through a string comparison in the server's code
    /// (`reports/planted-bug.md`). Bytes 0x00 to 0x0F end the string; every other byte
    /// chooses a class: ASCII from the next byte, the last character repeated, the rest of the BMP, characters above
    /// U+FFFF, control characters and escapes, troublesome tokens, or a run of raw bytes.
    fn piece(&mut self, out: &mut String) -> Option<usize> {
        let c = match self.byte() {
            0x00..=0x0f => return None,
            b @ 0x20..=0x7e => char::from(b),
            0x7f..=0xab => char::from(0x20 + self.byte() % 95),
            0xac..=0xaf => {
                // The last character again, 1 to 256 times: a long string from few bytes
                // (a string ends where the input does).
                let c = out.chars().last().unwrap_or('a');
                let n = 1 + usize::from(self.byte());
                out.extend(std::iter::repeat_n(c, n));
                return Some(n);
            }
            b @ 0xb0..=0xb7 => {
                ['\0', '\n', '\t', '"', '\\', '\u{7f}', '\r', '\u{1b}'][usize::from(b - 0xb0)]
            }
            0xc0..=0xef => {
                let c = 0xA0 + u32::from(self.byte()) * 251 + u32::from(self.byte());
                char::from_u32(c % 0xD7FF).unwrap_or('\u{e9}')
            }
            0x10..=0x1f => {
                let c = 0x10000 + (u32::from(self.byte()) << 8 | u32::from(self.byte())) * 16;
                char::from_u32(c).unwrap_or('\u{1F600}')
            }
            0xf0..=0xff => return Some(self.raw_run(out)),
            0xb8..=0xbf => {
                let token = *self.pick(TOKENS);
                out.push_str(token);
                return Some(token.chars().count());
            }
        };
        out.push(c);
        Some(1)
    }
}

//! Strings: free text, the common `format`s, and `pattern`s translated from ECMA-262 to the
//! syntax proptest's regex generator reads.
//!
//! Free strings are not only tidy words: they sometimes carry control characters,
//! astral-plane characters (U+1F600) and a few KB of text, where the schema allows it,
//! because a server must survive them. Lengths are kept within `maxLength` counted in
//! UTF-16 units too, as a JavaScript server counts them.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::string::string_regex;
use serde_json::Value;

use super::filter::guard;
use super::flat::Flat;
use super::judge::pattern_matches;
use super::pattern::translate_pattern;
use super::pick::Pick;
use super::types::Unsupported;
use super::valid::Cx;

/// Free strings longer than this are "long" (a few KB at most).
const LONG_MIN: usize = 512;
const LONG_MAX: usize = 4096;

impl<'a> Cx<'a> {
    pub(super) fn string(&self, flat: &Flat<'a>) -> Result<BoxedStrategy<Value>, Unsupported> {
        let min = flat.counts("minLength")?.into_iter().max().unwrap_or(0);
        let max = flat.counts("maxLength")?.into_iter().min();
        if max.is_some_and(|m| m < min) {
            return Err(Unsupported::new("`minLength` exceeds `maxLength`"));
        }
        let mut patterns: Vec<String> = Vec::new();
        for p in flat.words("pattern") {
            let p = p
                .as_str()
                .ok_or_else(|| Unsupported::new("`pattern` is not a string"))?;
            if !patterns.iter().any(|q| q == p) {
                patterns.push(p.to_owned());
            }
        }
        let mut formats: Vec<&str> = Vec::new();
        for f in flat.words("format").filter_map(Value::as_str) {
            if format_strategy(f).is_some() && !formats.contains(&f) {
                formats.push(f);
            }
        }
        if formats.len() > 1 {
            return Err(Unsupported::new(format!(
                "two different formats ({}) are required at once",
                formats.join(", ")
            )));
        }
        let fits = move |s: &str| {
            let (chars, units) = lengths(s);
            chars >= min && max.is_none_or(|m| units <= m)
        };
        if let Some(first) = patterns.first() {
            if let Some(f) = formats.first() {
                return Err(Unsupported::new(format!(
                    "both a `pattern` and the format {f:?} constrain the string"
                )));
            }
            let translated = translate_pattern(first)
                .map_err(|e| Unsupported::new(format!("pattern {first:?}: {e}")))?;
            let base = string_regex(&translated)
                .map_err(|e| Unsupported::new(format!("pattern {first:?}: {e}")))?
                .prop_map(Value::String)
                .boxed();
            return guard(
                base,
                &format!(
                    "strings generated for pattern {first:?} do not match it or its length bounds"
                ),
                move |v| {
                    let s = v.as_str().unwrap_or_default();
                    fits(s) && patterns.iter().all(|p| pattern_matches(p, s) == Some(true))
                },
            );
        }
        if let Some(f) = formats.first() {
            let base = format_strategy(f)
                .unwrap_or_else(|| Just(String::new()).boxed())
                .prop_map(Value::String)
                .boxed();
            if min == 0 && max.is_none() {
                return Ok(base);
            }
            return guard(
                base,
                &format!("format {f:?} with the length bounds"),
                move |v| fits(v.as_str().unwrap_or_default()),
            );
        }
        Ok(free_string(min, max).prop_map(Value::String).boxed())
    }
}

// ---------------------------------------------------------------------------------------
// Strings.

/// A string's length in code points and in UTF-16 units; at once for ASCII (a
/// `minLength: 1000000` string is judged on every probe of every filter).
pub(super) fn lengths(s: &str) -> (usize, usize) {
    if s.is_ascii() {
        (s.len(), s.len())
    } else {
        (s.chars().count(), s.encode_utf16().count())
    }
}

/// Strings of `min..=max` code points (at most `max` UTF-16 units too): mostly words, some
/// with control and astral-plane characters, now and then a few KB long.
///
/// The characters are expanded from one random seed rather than drawn one by one: a few KB
/// of per-character draws would make every sample slow.
fn free_string(min: usize, max: Option<usize>) -> BoxedStrategy<String> {
    let short = max.map_or(min + 24, |m| m.min(min + 24));
    let mut options: Vec<(u32, BoxedStrategy<(usize, bool)>)> = vec![
        // The shortest string allowed (the empty one, mostly), early and often.
        (1, Just((min, false)).boxed()),
        (6, (min..=short).prop_map(|n| (n, false)).boxed()),
        (3, (min..=short).prop_map(|n| (n, true)).boxed()),
    ];
    let long_low = min.max(LONG_MIN);
    let long_high = max.map_or(LONG_MAX, |m| m.min(LONG_MAX));
    if long_low <= long_high {
        options.push((1, (long_low..=long_high).prop_map(|n| (n, true)).boxed()));
    }
    (Pick::new_weighted(options), any::<u64>())
        .prop_map(move |((n, mixed), seed)| {
            // Past LONG_MAX characters (only a `minLength` asks for that many) the rest is
            // one repeated ASCII letter: a `minLength: 1000000` string costs a copy, not a
            // million draws, and every probe of every filter draws it again.
            let random = n.min(LONG_MAX);
            let pad = n - random;
            let mut chars = expand_chars(random, mixed, seed);
            if let Some(max) = max {
                // JSON Schema counts code points; keep UTF-16 units within `max` as well.
                let mut units: usize = chars.iter().map(|c| c.len_utf16()).sum::<usize>() + pad;
                for c in chars.iter_mut().rev() {
                    if units <= max {
                        break;
                    }
                    if c.len_utf16() == 2 {
                        *c = 'x';
                        units -= 1;
                    }
                }
            }
            let mut out: String = chars.into_iter().collect();
            out.push_str(&"x".repeat(pad));
            out
        })
        .boxed()
}

/// `n` characters from `seed`: word characters, or (when `mixed`) also printable ASCII,
/// C0 controls, BMP letters and astral-plane characters (emoji and beyond).
fn expand_chars(n: usize, mixed: bool, seed: u64) -> Vec<char> {
    const WORD: &[u8] =
        b"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_- ";
    let mut state = seed | 1;
    let mut next = move || {
        // xorshift64*: cheap, and deterministic for a seed.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let pick = |r: u64, low: u32, high: u32| {
        char::from_u32(low + (r % u64::from(high - low + 1)) as u32).unwrap_or('?')
    };
    (0..n)
        .map(|_| {
            let r = next();
            let word = char::from(WORD[(r >> 8) as usize % WORD.len()]);
            if !mixed {
                return word;
            }
            match r % 100 {
                0..=39 => pick(r >> 8, 0x20, 0x7e),
                40..=49 => pick(r >> 8, 0x00, 0x1f),
                50..=64 => pick(r >> 8, 0xa0, 0xd7ff),
                65..=74 => pick(r >> 8, 0x1f600, 0x1f64f),
                75..=79 => pick(r >> 8, 0x10000, 0x10ffff),
                _ => word,
            }
        })
        .collect()
}

/// Valid values of the formats real tool schemas use; `None` for the others, which stay
/// annotations.
fn format_strategy(format: &str) -> Option<BoxedStrategy<String>> {
    fn hex(n: usize) -> BoxedStrategy<String> {
        vec(select(b"0123456789abcdef".to_vec()), n)
            .prop_map(|b| String::from_utf8(b).unwrap_or_default())
            .boxed()
    }
    fn regex(r: &str) -> BoxedStrategy<String> {
        string_regex(r)
            .map(|s| s.boxed())
            .unwrap_or_else(|_| Just(String::new()).boxed())
    }
    let date = (1970u32..=2099, 1u32..=12, 1u32..=28)
        .prop_map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}"))
        .boxed();
    // Always UTC: RFC 3339 allows "+02:00", but common server-side validators (zod's
    // `datetime()` by default) accept only "Z", and a valid value must be valid there too.
    let offset = Just("Z".to_owned());
    let fraction = Pick::new_weighted(vec![
        (2, Just(String::new()).boxed()),
        (1, regex("\\.[0-9]{1,6}")),
    ]);
    let time = (0u32..=23, 0u32..=59, 0u32..=59, fraction, offset)
        .prop_map(|(h, m, s, f, o)| format!("{h:02}:{m:02}:{s:02}{f}{o}"))
        .boxed();
    // Only names reserved for examples and tests (RFC 2606, RFC 6761): a server's fetch or
    // mail tool called with a generated URL or address must never reach a real third
    // party's host.
    let host = (
        // No "--" (labels like "xn--" are reserved for IDNA).
        vec(regex("[a-z][a-z0-9]{0,4}(-[a-z0-9]{1,4})?"), 1..=2),
        select(vec![
            "example.com",
            "example.org",
            "example.net",
            "example",
            "test",
            "invalid",
        ]),
    )
        .prop_map(|(labels, tld)| format!("{}.{tld}", labels.join(".")))
        .boxed();
    let uri = (
        select(vec!["https", "http", "ftp"]),
        host.clone(),
        regex("(/[a-z0-9_-]{1,8}){0,3}"),
        select(vec!["", "?q=1", "?page=2&sort=asc", "#top"]),
    )
        .prop_map(|(scheme, host, path, tail)| format!("{scheme}://{host}{path}{tail}"))
        .boxed();
    Some(match format {
        "date-time" => (date, time).prop_map(|(d, t)| format!("{d}T{t}")).boxed(),
        "date" => date,
        "time" => time,
        "email" | "idn-email" => (regex("[a-z0-9]{1,10}(\\.[a-z0-9]{1,6})?"), host)
            .prop_map(|(local, host)| format!("{local}@{host}"))
            .boxed(),
        "uri" | "url" | "iri" => uri,
        "uri-reference" | "iri-reference" => {
            Pick::new(vec![uri, regex("(/[a-z0-9_-]{1,8}){1,3}")]).boxed()
        }
        "uri-template" => uri.prop_map(|u| format!("{u}/{{id}}")).boxed(),
        "uuid" => (
            hex(8),
            hex(4),
            hex(3),
            select(b"89ab".to_vec()),
            hex(3),
            hex(12),
        )
            .prop_map(|(a, b, c, v, d, e)| format!("{a}-{b}-4{c}-{}{d}-{e}", v as char))
            .boxed(),
        "ipv4" => (any::<u8>(), any::<u8>(), any::<u8>(), any::<u8>())
            .prop_map(|(a, b, c, d)| format!("{a}.{b}.{c}.{d}"))
            .boxed(),
        "ipv6" => Pick::new(vec![
            vec(any::<u16>(), 8)
                .prop_map(|g| {
                    g.iter()
                        .map(|x| format!("{x:x}"))
                        .collect::<Vec<_>>()
                        .join(":")
                })
                .boxed(),
            select(vec!["::1", "::", "fe80::1", "2001:db8::8a2e:370:7334"])
                .prop_map(str::to_owned)
                .boxed(),
        ])
        .boxed(),
        "hostname" | "idn-hostname" => host,
        "json-pointer" => regex("(/[a-z0-9]{0,6}){0,3}"),
        "relative-json-pointer" => regex("[0-9](/[a-z]{1,4}){0,2}"),
        "duration" => select(vec!["P1D", "PT5M", "P1Y2M3DT4H5M6S", "P2W", "PT36H"])
            .prop_map(str::to_owned)
            .boxed(),
        "regex" => select(vec!["^[a-z]+$", "[0-9]{2,4}", "a|b", ".*"])
            .prop_map(str::to_owned)
            .boxed(),
        _ => return None,
    })
}

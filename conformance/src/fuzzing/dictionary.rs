//! A libFuzzer dictionary from a server's Rust source: the constants its code may compare
//! an input against, written as the fuzz input's decoder reads them.
//!
//! Why: libFuzzer learns a compared constant from its table of recent comparisons, which
//! holds 32 entries and which the work after a tool's comparison (the server formatting
//! its answer, the harness judging it) overwrites within the same run; and Rust expands a
//! short `starts_with` into an inline compare whose traced operands are a boolean. So an
//! in-process target does not learn `code == 0x5EEDC0DE` or `tag.starts_with("MCP!")`
//! from the server's code by itself (`reports/planted-bug.md` measures both). A dictionary
//! of the source's literals gives the mutator those words; coverage then keeps each input
//! that gets one condition further, which a spawned server's fuzzer cannot see.
//!
//! The words match the decoder (`generate/bytes.rs`): a printable ASCII string is its own
//! bytes (a printable byte is that character), and an integer is the big-endian offset
//! from its range's start, so a literal is written in the widths and offsets of the ranges
//! a server's schema most often gives (`integer_words`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::generate::{SAFE_INTEGER, UNBOUNDED, WIDE_FROM};

/// Most words written: past a few thousand, libFuzzer spends its dictionary mutations on
/// words that matter less.
pub const MAX_WORDS: usize = 2048;
/// Shortest and longest string literal kept, in bytes.
const STRING_LEN: std::ops::RangeInclusive<usize> = 2..=64;
/// Smallest integer literal kept: 0 and 1 are everywhere in a source, and libFuzzer's own
/// byte mutations write them.
const MIN_INTEGER: u64 = 2;

/// The words of `source` (Rust text), in the order first seen, without repeats.
pub fn words(source: &str) -> Vec<Vec<u8>> {
    words_of(literals(source))
}

/// The words of `literals`, in order, without repeats.
fn words_of(literals: Vec<Literal>) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for token in literals {
        for word in encode(&token) {
            if seen.insert(word.clone()) {
                out.push(word);
            }
        }
    }
    out
}

/// The words of a Python or JavaScript source (`.py`, `.js`, `.mjs`, `.cjs`, `.ts`): its
/// quoted strings and integers, as [`words`] gives a Rust source's. What `fuzz
/// --coverage` inserts, read from the server's own files as its agent finds them.
pub fn script_words(source: &str, python: bool) -> Vec<Vec<u8>> {
    words_of(script_literals(source, python))
}

/// A dictionary file (libFuzzer's `-dict` format) of the words of `sources`, each named
/// `(label, text)`; at most [`MAX_WORDS`] words, the earliest first.
pub fn dictionary<'a>(sources: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut seen = BTreeSet::new();
    let mut out = String::from(
        "# A libFuzzer dictionary from a server's source (mcp-conformance fuzz-dict).\n",
    );
    let mut count = 0;
    for (label, text) in sources {
        let fresh: Vec<Vec<u8>> = words(text)
            .into_iter()
            .filter(|w| seen.insert(w.clone()))
            .collect();
        if fresh.is_empty() {
            continue;
        }
        out.push_str(&format!("# {}\n", label.replace('\n', " ")));
        for word in fresh {
            if count == MAX_WORDS {
                return out;
            }
            out.push_str(&format!("\"{}\"\n", escape(&word)));
            count += 1;
        }
    }
    out
}

/// [`dictionary`] of the Rust files at `paths`: a file as given, a folder's `.rs` files
/// below it (but `target/` and hidden folders), in path order.
pub fn from_paths(paths: &[PathBuf]) -> crate::Result<String> {
    let mut files = Vec::new();
    for path in paths {
        collect(path, true, &mut files)?;
    }
    let mut texts = Vec::with_capacity(files.len());
    for file in &files {
        let text = std::fs::read(file).map_err(|source| crate::Error::ReadSource {
            path: file.clone(),
            source,
        })?;
        texts.push((
            file.display().to_string(),
            String::from_utf8_lossy(&text).into_owned(),
        ));
    }
    Ok(dictionary(
        texts.iter().map(|(l, t)| (l.as_str(), t.as_str())),
    ))
}

fn collect(path: &Path, given: bool, files: &mut Vec<PathBuf>) -> crate::Result<()> {
    let error = |source| crate::Error::ReadSource {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(error)?;
    if !meta.is_dir() {
        if given || path.extension().is_some_and(|e| e == "rs") {
            files.push(path.to_path_buf());
        }
        return Ok(());
    }
    let skipped = |name: &str| name == "target" || name.starts_with('.');
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    if !given && name.as_deref().is_some_and(skipped) {
        return Ok(());
    }
    let mut entries = std::fs::read_dir(path)
        .map_err(error)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(error)?;
    entries.sort();
    for entry in entries {
        collect(&entry, false, files)?;
    }
    Ok(())
}

/// A literal found in the source.
#[derive(Debug, Clone, PartialEq)]
enum Literal {
    Text(Vec<u8>),
    Integer(u64),
}

/// The dictionary words of one literal.
fn encode(literal: &Literal) -> Vec<Vec<u8>> {
    match literal {
        Literal::Text(bytes)
            if STRING_LEN.contains(&bytes.len())
                && bytes.iter().all(|b| (0x20..=0x7e).contains(b))
                && !is_format(bytes) =>
        {
            vec![bytes.clone()]
        }
        Literal::Integer(n) if *n >= MIN_INTEGER => integer_words(*n),
        _ => Vec::new(),
    }
}

/// The words of an integer literal, in the bytes the decoder reads for the ranges a
/// server's schema most often gives it (`arbitrary` reads as many big-endian bytes as the
/// range needs, and the value is their offset from the range's start): two bytes for an
/// unsigned integer without a maximum (`0..=1000`, [`UNBOUNDED`]) and, offset by 1000, for
/// one without any bound (`-1000..=1000`, what `schemars` writes for an `i64`); four and
/// eight bytes for a 32- or 64-bit range from 0 (`"minimum": 0` and a `u32`'s maximum).
fn integer_words(n: u64) -> Vec<Vec<u8>> {
    let unbounded = UNBOUNDED.unsigned_abs();
    let mut out = Vec::new();
    if let Ok(two) = u16::try_from(n) {
        out.push(two.to_be_bytes().to_vec());
    }
    if n <= unbounded {
        let offset = u16::try_from(n + unbounded).expect("at most 2,000");
        out.push(offset.to_be_bytes().to_vec());
    }
    if n >= 256 {
        if let Ok(four) = u32::try_from(n) {
            out.push(four.to_be_bytes().to_vec());
        }
        out.push(n.to_be_bytes().to_vec());
    }
    out.extend(wide_words(n));
    out
}

/// The words of an integer past [`UNBOUNDED`] for a schema that leaves a bound out (what
/// Python's `int` and zod's `z.number().int()` write): the choice byte that draws from
/// the whole range, then the 7-byte offset from its start, for a range without bounds
/// (from `-(2^53-1)`) and for one from 0 (`"minimum": 0`).
fn wide_words(n: u64) -> Vec<Vec<u8>> {
    let safe = SAFE_INTEGER.unsigned_abs();
    if n <= UNBOUNDED.unsigned_abs() || n > safe {
        return Vec::new();
    }
    [n + safe, n]
        .into_iter()
        .map(|offset| {
            let mut word = vec![WIDE_FROM];
            word.extend_from_slice(&offset.to_be_bytes()[1..]);
            word
        })
        .collect()
}

/// Whether `text` looks like a format string (`"code {:#x}"`, `"{what}"`): what a server
/// writes, not what it compares an input against, so a word that would only dilute.
fn is_format(text: &[u8]) -> bool {
    text.iter()
        .position(|&b| b == b'{')
        .is_some_and(|open| text[open..].contains(&b'}'))
}

/// `word` as a dictionary entry's quoted text: printable ASCII as is (but `"` and `\`),
/// other bytes as `\xNN`.
fn escape(word: &[u8]) -> String {
    word.iter()
        .map(|&b| match b {
            b'"' | b'\\' => format!("\\{}", char::from(b)),
            0x20..=0x7e => char::from(b).to_string(),
            _ => format!("\\x{b:02X}"),
        })
        .collect()
}

/// The string and integer literals of Rust text, skipping comments, character literals
/// and lifetimes. A lexer good enough for constants, not a Rust parser: text it cannot
/// read gives fewer words, never an error.
fn literals(source: &str) -> Vec<Literal> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let ident_before = i > 0 && is_ident(bytes[i - 1]);
        i = match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => skip_to(bytes, i, b"\n"),
            b'/' if bytes.get(i + 1) == Some(&b'*') => skip_to(bytes, i + 2, b"*/"),
            b'\'' => skip_char_literal(bytes, i),
            b'"' => {
                let (text, next) = string_literal(bytes, i + 1);
                out.push(Literal::Text(text));
                next
            }
            b'r' if !ident_before && raw_start(bytes, i + 1).is_some() => {
                let (hashes, open) = raw_start(bytes, i + 1).unwrap_or((0, i + 1));
                let (text, next) = raw_literal(bytes, open + 1, hashes);
                out.push(Literal::Text(text));
                next
            }
            b'0'..=b'9' if !ident_before => {
                let (value, next) = integer_literal(bytes, i);
                out.extend(value.map(Literal::Integer));
                next
            }
            _ => i + 1,
        };
    }
    out
}

/// The string and integer literals of Python (`python`) or JavaScript text, skipping
/// comments and triple-quoted strings (docstrings). A string in `'` or `"` ends at its
/// line's end; escapes keep the escaped character. Text it cannot read gives fewer words.
fn script_literals(source: &str, python: bool) -> Vec<Literal> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let ident_before = i > 0 && is_ident(bytes[i - 1]);
        i = match bytes[i] {
            b'#' if python => skip_to(bytes, i, b"\n"),
            b'/' if !python && bytes.get(i + 1) == Some(&b'/') => skip_to(bytes, i, b"\n"),
            b'/' if !python && bytes.get(i + 1) == Some(&b'*') => skip_to(bytes, i + 2, b"*/"),
            q @ (b'"' | b'\'') if bytes.get(i + 1..i + 3) == Some(&[q, q]) => {
                skip_to(bytes, i + 3, &[q, q, q])
            }
            q @ (b'"' | b'\'' | b'`') if q != b'`' || !python => {
                let (text, next) = quoted(bytes, i + 1, q);
                out.extend(text.map(Literal::Text));
                next
            }
            b'0'..=b'9' if !ident_before => {
                let (value, next) = integer_literal(bytes, i);
                out.extend(value.map(Literal::Integer));
                next
            }
            _ => i + 1,
        };
    }
    out
}

/// A script string's bytes from `from` to its closing `quote` (an escape keeps the
/// character after the backslash), and the index past it; none when a `'` or `"` string
/// meets its line's end first.
fn quoted(bytes: &[u8], from: usize, quote: u8) -> (Option<Vec<u8>>, usize) {
    let mut text = Vec::new();
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b if b == quote => return (Some(text), i + 1),
            b'\n' if quote != b'`' => return (None, i + 1),
            b'\\' => {
                text.extend(bytes.get(i + 1));
                i += 2;
            }
            b => {
                text.push(b);
                i += 1;
            }
        }
    }
    (None, i)
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The index just past the next `end` at or after `from` (the end of the text if none).
fn skip_to(bytes: &[u8], from: usize, end: &[u8]) -> usize {
    bytes[from.min(bytes.len())..]
        .windows(end.len())
        .position(|w| w == end)
        .map_or(bytes.len(), |p| from + p + end.len())
}

/// Past a character literal (`'a'`, `'\''`, `'\u{1F600}'`) at `at`, or past the quote of
/// a lifetime (`'a`).
fn skip_char_literal(bytes: &[u8], at: usize) -> usize {
    match bytes.get(at + 1) {
        Some(b'\\') => skip_to(bytes, at + 3, b"'"),
        Some(_) => {
            // One character of up to four UTF-8 bytes, then the closing quote.
            let close = (at + 2..(at + 6).min(bytes.len())).find(|&j| bytes[j] == b'\'');
            close.map_or(at + 1, |j| j + 1)
        }
        None => at + 1,
    }
}

/// The bytes of a string literal whose text starts at `from` (after the quote), with its
/// escapes read, and the index past its closing quote.
fn string_literal(bytes: &[u8], from: usize) -> (Vec<u8>, usize) {
    let mut text = Vec::new();
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return (text, i + 1),
            b'\\' => {
                let (escaped, next) = escape_at(bytes, i + 1);
                text.extend(escaped);
                i = next;
            }
            b => {
                text.push(b);
                i += 1;
            }
        }
    }
    (text, i)
}

/// One escape after a backslash at `at - 1`: its bytes and the index past it.
fn escape_at(bytes: &[u8], at: usize) -> (Vec<u8>, usize) {
    let simple = |b: u8| (vec![b], at + 1);
    match bytes.get(at) {
        Some(b'n') => simple(b'\n'),
        Some(b't') => simple(b'\t'),
        Some(b'r') => simple(b'\r'),
        Some(b'0') => simple(0),
        Some(b'x') => {
            let hex = bytes.get(at + 1..at + 3).unwrap_or_default();
            let value = std::str::from_utf8(hex)
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            (value.into_iter().collect(), at + 3)
        }
        Some(b'u') => {
            let end = skip_to(bytes, at, b"}");
            let digits = bytes.get(at + 2..end.saturating_sub(1)).unwrap_or_default();
            let c = std::str::from_utf8(digits)
                .ok()
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .and_then(char::from_u32);
            let mut buf = [0; 4];
            (
                c.map(|c| c.encode_utf8(&mut buf).as_bytes().to_vec())
                    .unwrap_or_default(),
                end,
            )
        }
        Some(b'\n') => {
            // A line continuation: the newline and the next line's leading whitespace.
            let mut next = at + 1;
            while bytes.get(next).is_some_and(u8::is_ascii_whitespace) {
                next += 1;
            }
            (Vec::new(), next)
        }
        Some(&b) => simple(b),
        None => (Vec::new(), at),
    }
}

/// After an `r` at `at - 1`: the number of `#`s and the index of the opening quote, when
/// a raw string starts there.
fn raw_start(bytes: &[u8], at: usize) -> Option<(usize, usize)> {
    let hashes = bytes[at.min(bytes.len())..]
        .iter()
        .take_while(|&&b| b == b'#')
        .count();
    (bytes.get(at + hashes) == Some(&b'"')).then_some((hashes, at + hashes))
}

/// A raw string's bytes from `from` to its closing quote and `hashes` `#`s, and the index
/// past them.
fn raw_literal(bytes: &[u8], from: usize, hashes: usize) -> (Vec<u8>, usize) {
    let mut end = vec![b'"'];
    end.extend(std::iter::repeat_n(b'#', hashes));
    let next = skip_to(bytes, from, &end);
    let text_end = if next == bytes.len() && !bytes.ends_with(&end) {
        bytes.len()
    } else {
        next - end.len()
    };
    (bytes[from.min(text_end)..text_end].to_vec(), next)
}

/// An integer literal at `at` (`4_294_967_295`, `0x5EED_C0DE`, `0o17`, `0b1010`, with any
/// type suffix): its value when it is one and fits in 64 bits, and the index past it.
/// A float (`1.5`, `1e9`) gives none.
fn integer_literal(bytes: &[u8], at: usize) -> (Option<u64>, usize) {
    let end = (at..bytes.len())
        .find(|&j| !is_ident(bytes[j]))
        .unwrap_or(bytes.len());
    let token: String = std::str::from_utf8(&bytes[at..end])
        .unwrap_or_default()
        .chars()
        .filter(|&c| c != '_')
        .collect();
    let is_float =
        bytes.get(end) == Some(&b'.') && bytes.get(end + 1).is_some_and(u8::is_ascii_digit);
    let (radix, digits) = match token.get(..2) {
        Some("0x") => (16, &token[2..]),
        Some("0o") => (8, &token[2..]),
        Some("0b") => (2, &token[2..]),
        _ => (10, token.as_str()),
    };
    let digits = strip_suffix(digits, radix);
    if is_float {
        return (None, float_end(bytes, end + 1));
    }
    (u64::from_str_radix(digits, radix).ok(), end)
}

/// The index past a float's fraction and exponent (`5e9`, `25e-3`, `5f32`), from its first
/// fractional digit: none of it is an integer of its own.
fn float_end(bytes: &[u8], from: usize) -> usize {
    let run = |from: usize| {
        (from..bytes.len())
            .find(|&j| !is_ident(bytes[j]))
            .unwrap_or(bytes.len())
    };
    let end = run(from);
    let signed_exponent = matches!(bytes.get(end.wrapping_sub(1)), Some(b'e' | b'E'))
        && matches!(bytes.get(end), Some(b'+' | b'-'));
    if signed_exponent {
        run(end + 1)
    } else {
        end
    }
}

/// `digits` without a type suffix (`u32`, `i64`, `usize`, ...); in hex, `u`/`i` cannot be
/// digits, so the first one starts the suffix there too.
fn strip_suffix(digits: &str, radix: u32) -> &str {
    let cut = digits
        .find(|c: char| c == 'u' || c == 'i' || (radix != 16 && c.is_ascii_alphabetic()))
        .unwrap_or(digits.len());
    &digits[..cut]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(source: &str) -> Vec<String> {
        words(source).into_iter().map(|w| escape(&w)).collect()
    }

    #[test]
    fn python_and_javascript_constants_become_the_same_words() {
        let python = r#"
            PLANTED = 0x5EED_C0DE  # code: "ignored in a comment"
            def inspect(tag: str):
                """A docstring with "quotes" is not a word."""
                if tag.startswith('MCP!') and x == "it's":
                    pass
        "#;
        let js = r#"
            const PLANTED = 0x5EEDC0DE; // "ignored"
            /* 'ignored' */ if (tag.startsWith("MCP!") && y === `it's`) {}
        "#;
        let show = |ws: Vec<Vec<u8>>| ws.iter().map(|w| escape(w)).collect::<Vec<_>>();
        let expected = [
            "^\\xED\\xC0\\xDE",
            "\\x00\\x00\\x00\\x00^\\xED\\xC0\\xDE",
            // For a schema without bounds (Python's `int`), and one from 0.
            "\\xE0 \\x00\\x00^\\xED\\xC0\\xDD",
            "\\xE0\\x00\\x00\\x00^\\xED\\xC0\\xDE",
            "MCP!",
            "it's",
        ];
        assert_eq!(show(script_words(python, true)), expected);
        assert_eq!(show(script_words(js, false)), expected);
    }

    #[test]
    fn the_planted_constants_become_words_the_decoder_reads() {
        let source = r#"
            pub const PLANTED_CODE: u32 = 0x5EED_C0DE;
            pub const PLANTED_PREFIX: &str = "MCP!";
            #[schemars(range(min = 0, max = 4_294_967_295u32))]
        "#;
        assert_eq!(
            texts(source),
            [
                "^\\xED\\xC0\\xDE",
                "\\x00\\x00\\x00\\x00^\\xED\\xC0\\xDE",
                "\\xE0 \\x00\\x00^\\xED\\xC0\\xDD",
                "\\xE0\\x00\\x00\\x00^\\xED\\xC0\\xDE",
                "MCP!",
                "\\xFF\\xFF\\xFF\\xFF",
                "\\x00\\x00\\x00\\x00\\xFF\\xFF\\xFF\\xFF",
                "\\xE0 \\x00\\x00\\xFF\\xFF\\xFF\\xFE",
                "\\xE0\\x00\\x00\\x00\\xFF\\xFF\\xFF\\xFF",
            ]
        );
    }

    #[test]
    fn comments_chars_lifetimes_floats_zero_one_and_format_strings_give_nothing() {
        let source = "// \"in a comment\" 0xDEADBEEF\n/* \"block\" 99999 */\n\
                      fn f<'a>(x: &'a str) -> char { let _ = 1.5e9 + 2.25e-7; let _ = 0; '\"' }\n\
                      let _ = format!(\"code {:#x}\", 1); let _ = \"{what}\";";
        assert!(words(source).is_empty(), "{:?}", texts(source));
    }

    #[test]
    fn a_small_integer_is_written_as_the_unbounded_ranges_read_it() {
        // `count == 7` on an i64 (-1000..=1000: the two bytes of 1007) or on a u32
        // without a maximum (0..=1000: the two bytes of 7); 1000 also as a u32 and u64.
        assert_eq!(
            texts("if args.count == 7 { } let m = 1000;"),
            [
                "\\x00\\x07",
                "\\x03\\xEF",
                "\\x03\\xE8",
                "\\x07\\xD0",
                "\\x00\\x00\\x03\\xE8",
                "\\x00\\x00\\x00\\x00\\x00\\x00\\x03\\xE8",
            ]
        );
        let mut choices = crate::generate::Choices::new(&[0x03, 0xEF]);
        assert_eq!(choices.int_in(-1000, 1000), 7);
        let mut choices = crate::generate::Choices::new(&[0x00, 0x07]);
        assert_eq!(choices.int_in(0, 1000), 7);
        // A constant past the default range, for a schema that leaves the bounds out (or
        // gives only "minimum": 0): the word draws it from the whole range.
        let safe = SAFE_INTEGER;
        for (word, wide) in wide_words(0x5EED_C0DE)
            .iter()
            .zip([(-safe, safe), (0, safe)])
        {
            let (lo, hi) = (wide.0.max(-UNBOUNDED), wide.0.max(0) + UNBOUNDED);
            let mut choices = crate::generate::Choices::new(word);
            assert_eq!(choices.integer(lo, hi, wide), 0x5EED_C0DE);
        }
    }

    #[test]
    fn escapes_raw_strings_and_suffixes_are_read() {
        let source =
            r##"let a = "tab\there"; let b = r#"raw "quoted""#; let c = 70000u64; let d = b"by";"##;
        assert_eq!(
            texts(source),
            [
                "raw \\\"quoted\\\"",
                "\\x00\\x01\\x11p",
                "\\x00\\x00\\x00\\x00\\x00\\x01\\x11p",
                "\\xE0 \\x00\\x00\\x00\\x01\\x11o",
                "\\xE0\\x00\\x00\\x00\\x00\\x01\\x11p",
                "by"
            ]
        );
    }

    #[test]
    fn the_dictionary_names_its_sources_and_has_no_repeats() {
        let dict = dictionary([
            ("src/a.rs", "\"alpha\" \"beta\""),
            ("src/b.rs", "\"alpha\""),
        ]);
        assert_eq!(
            dict.lines().skip(1).collect::<Vec<_>>(),
            ["# src/a.rs", "\"alpha\"", "\"beta\""]
        );
    }

    #[test]
    fn unterminated_text_ends_without_panicking() {
        for source in ["\"open", "r#\"open", "'", "0x", "\"\\u{", "\"\\x4"] {
            let _ = words(source);
        }
    }
}

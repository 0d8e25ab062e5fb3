//! String keywords: `minLength` / `maxLength`, `pattern` (and its translation from
//! ECMA-262), `format`, and the hostile text free strings carry.

use serde_json::json;

use super::{sample, unsupported_rows, valid_rows, ValidRow, BOTH, DRAFT2020, DRAFT7, VALID};
use crate::generate::pattern::translate_pattern;
use crate::generate::valid;

/// The formats whose generated values the validator asserts, in both drafts.
const FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "email",
    "uri",
    "uuid",
    "ipv4",
    "ipv6",
    "hostname",
    "uri-reference",
    "json-pointer",
    "duration",
    "regex",
    "idn-hostname",
];

#[test]
fn strings_patterns_and_formats() {
    let mut rows: Vec<ValidRow> = vec![
        (
            json!({"type": "string", "pattern": "^[a-z]{3}-[0-9]{2}$"}),
            DRAFT2020,
            |values| values.iter().all(|v| v.as_str().unwrap().len() == 6),
        ),
        (json!({"type": "string", "pattern": "abc"}), DRAFT7, VALID),
        (
            json!({"type": "string", "pattern": "^\\w+@\\d{2,3}\\.?\\s?x$"}),
            DRAFT2020,
            VALID,
        ),
        (
            json!({"type": "string", "pattern": "^[A-Z][a-z]*$", "minLength": 3, "maxLength": 12}),
            DRAFT2020,
            VALID,
        ),
        (
            json!({"type": "string", "minLength": 2, "maxLength": 5}),
            DRAFT2020,
            VALID,
        ),
    ];
    rows.extend(
        FORMATS
            .iter()
            .map(|f| -> ValidRow { (json!({"type": "string", "format": f}), BOTH, VALID) }),
    );
    rows.extend([
        (
            json!({"type": "string", "format": "email", "maxLength": 30}),
            DRAFT2020,
            VALID,
        ),
        // Unknown formats are annotations: plain strings.
        (
            json!({"type": "string", "format": "color"}),
            DRAFT2020,
            VALID,
        ),
    ]);
    valid_rows("strings", rows);
}

/// A generated URL, address or host name only ever names a host reserved for examples
/// and tests (RFC 2606, RFC 6761): a server's fetch or mail tool must not reach a real
/// third party because the suite called it.
#[test]
fn generated_hosts_are_reserved_names() {
    let reserved = [
        ".example.com",
        ".example.org",
        ".example.net",
        ".example",
        ".test",
        ".invalid",
    ];
    for format in ["uri", "url", "iri", "uri-template", "email", "hostname"] {
        let schema = json!({"type": "string", "format": format});
        for v in sample(&valid(&schema, &schema).unwrap(), 300, 5) {
            let text = v.as_str().unwrap();
            let after_scheme = text.split_once("://").map_or(text, |(_, rest)| rest);
            let after_at = after_scheme
                .rsplit_once('@')
                .map_or(after_scheme, |(_, h)| h);
            let host = after_at.split(['/', '?', '#']).next().unwrap_or_default();
            assert!(
                reserved.iter().any(|r| host.ends_with(r)),
                "{format}: {text:?} names host {host:?}"
            );
        }
    }
}

#[test]
fn strings_carry_hostile_text_when_the_schema_allows() {
    let values = sample(
        &valid(&json!({"type": "string"}), &json!({})).unwrap(),
        500,
        3,
    );
    let texts: Vec<&str> = values.iter().map(|v| v.as_str().unwrap()).collect();
    assert!(
        texts.iter().any(|s| s.chars().any(|c| c as u32 > 0xFFFF)),
        "no astral"
    );
    assert!(
        texts.iter().any(|s| s.chars().any(|c| (c as u32) < 0x20)),
        "no control"
    );
    assert!(
        texts.iter().any(|s| s.chars().count() > 1000),
        "no long text"
    );
    assert!(texts
        .iter()
        .any(|s| s.chars().all(|c| c.is_ascii_alphanumeric())));
    // A JavaScript server counts UTF-16 units: stay within maxLength there too.
    let short = json!({"type": "string", "maxLength": 5});
    for v in sample(&valid(&short, &short).unwrap(), 500, 3) {
        assert!(v.as_str().unwrap().encode_utf16().count() <= 5, "{v}");
    }
}

#[test]
fn ecma_patterns_translate_to_generator_syntax() {
    // (ECMA-262 pattern, what proptest is given; `None`: refused)
    let rows: &[(&str, Option<&str>)] = &[
        ("^[a-z]{3}-\\d{2}$", Some("[a-z]{3}-[0-9]{2}")),
        ("[\\w.-]+", Some("[A-Za-z0-9_.-]+")),
        ("a\\/b\\u00e9", Some("a\\/b\\x{E9}")),
        // Backreferences and word boundaries have no generator.
        ("(a)\\1", None),
        ("\\bword", None),
    ];
    for (pattern, expected) in rows {
        let translated = translate_pattern(pattern);
        match expected {
            Some(e) => assert_eq!(translated.as_deref(), Ok(*e), "{pattern}"),
            None => assert!(translated.is_err(), "{pattern}: {translated:?}"),
        }
    }
}

#[test]
fn string_schemas_that_cannot_be_generated_say_why() {
    unsupported_rows(vec![
        (
            json!({"type": "string", "pattern": "^(?=a)\\w+$"}),
            "lookarounds",
        ),
        (
            json!({"type": "string", "minLength": 5, "maxLength": 2}),
            "minLength",
        ),
        (
            json!({"type": "string", "format": "date", "pattern": "^2"}),
            "pattern",
        ),
    ]);
}

//! A notification too wide to hold as a tree is recorded by its method alone.
//!
//! A line under the line cap can still become a tree many times its size: a
//! `notifications/message` whose `data` is 7.5 million zeros is 15 MB of text and, parsed
//! into `serde_json::Value`, over 600 MB (two revisions at once held more than a GB). A
//! notification is only checked for its shape, so one with more than [`VALUE_BUDGET`]
//! values is read for `method` with the rest skipped (serde skips without building
//! anything), recorded and counted as unprompted traffic as any other, and the record's
//! summary (rpc-traffic-bounded's message) says how many were. A wide tools/list page is
//! cut instead (`listing.rs`); other responses and the server's requests are parsed whole:
//! the checks need them.

use serde::de::IgnoredAny;
use serde::Deserialize;

/// JSON values a notification may hold and still be parsed into a tree: about 20 MB at
/// most, whatever the line cap.
pub(super) const VALUE_BUDGET: usize = 1 << 18;

/// At least as many as the JSON values in `text`: one per `,`, `[` and `{` outside
/// strings, plus one. One pass over the bytes, nothing allocated.
pub(in crate::protocol) fn values_at_most(text: &str) -> usize {
    let (mut count, mut in_string, mut escaped) = (1usize, false, false);
    for &byte in text.as_bytes() {
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b',' | b'[' | b'{' => count += 1,
            _ => {}
        }
    }
    count
}

/// Whether `text` is past [`VALUE_BUDGET`] values, so not to be parsed whole: a wide
/// notification is skimmed (below), a wide tools/list page cut (`listing.rs`); anything
/// else is parsed as before.
pub(super) fn is_wide(text: &str) -> bool {
    // Each value counted takes a byte of its own: a shorter line is not looked through.
    text.len() >= VALUE_BUDGET && values_at_most(text) > VALUE_BUDGET
}

/// Whether `text` reads as a notification: an object with a string `method` and no `id`
/// (a request, a response, not JSON, nested past the depth bound: no).
pub(super) fn is_notification(text: &str) -> bool {
    #[derive(Deserialize)]
    struct Head {
        method: Option<String>,
        id: Option<IgnoredAny>,
    }
    serde_json::from_str::<Head>(text).is_ok_and(|head| head.method.is_some() && head.id.is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_values_outside_strings_only() {
        assert_eq!(values_at_most("0"), 1);
        assert_eq!(values_at_most("[0,1,2]"), 4);
        assert_eq!(values_at_most(r#"{"a":[1,{"b":2}]}"#), 5);
        assert_eq!(values_at_most(r#"{"a":"[,{\",]"}"#), 2);
    }

    fn is_wide_notification(text: &str) -> bool {
        is_wide(text) && is_notification(text)
    }

    #[test]
    fn only_a_wide_notification_is_skimmed() {
        let zeros = vec!["0"; VALUE_BUDGET + 1].join(",");
        let wide = format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"debug","data":[{zeros}]}}}}"#
        );
        assert!(is_wide_notification(&wide));
        let narrow = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"data":[0]}}"#;
        assert!(!is_wide_notification(narrow));
        let response = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"x":[{zeros}]}}}}"#);
        assert!(!is_wide_notification(&response));
        let request = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"m","params":[{zeros}]}}"#);
        assert!(!is_wide_notification(&request));
    }
}

//! RFC 6901 pointer tokens, written one way: the generators' rule evidence, the tool
//! surface's changes and the schema walks all name places in JSON by pointer. And the one
//! reading of a JSON array of names (`required`, a list of versions) the layers share.

use serde_json::Value;

/// A name as one JSON pointer token (`~` as `~0`, `/` as `~1`).
pub fn pointer_token(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// A pointer token read back as the name it stands for.
pub fn pointer_name(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// The strings of a JSON array, in order (anything else in it, or no array: none).
pub fn string_items(value: Option<&Value>) -> impl Iterator<Item = &str> {
    value
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_through_both_escapes() {
        for name in ["plain", "a/b", "a~b", "~1", "/~0/"] {
            assert_eq!(pointer_name(&pointer_token(name)), name);
        }
        assert_eq!(pointer_token("a/b~c"), "a~1b~0c");
    }
}

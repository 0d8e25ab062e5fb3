//! A large response identical to one already held is held once.
//!
//! A run keeps every revision's record until it judges them, and each record keeps the
//! trees of its responses. A server whose one tool has an `enum` of 100,000 strings
//! answers tools/list with 1.5 MB of text, about 10 MB as a tree, and every walk of it
//! (the first and second in each revision, the `params` forms, the property phase's
//! sessions) is the same line: held once per walk, such a server took the harness to
//! 231 MB. Here a response line of [`SHARED_AT_LEAST`] bytes or more whose text is that of
//! a response already held (same id too: each session numbers its requests from 1, so the
//! same script reaches the same listing at the same id) shares that response's tree. The
//! same [`Held`] table keeps a cut listing's tail once (`listing.rs`).

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, Weak};

use serde_json::Value;

/// Lines shorter than this are held as they come: sharing them would save little and cost
/// a hash of every response.
pub(super) const SHARED_AT_LEAST: usize = 64 * 1024;

/// Values alive in this process, each under a key (a hash of its text): an equal value
/// is shared instead of held again. It holds none of them alive.
pub(super) struct Held<T>(Mutex<Vec<(u64, Weak<T>)>>);

impl<T: PartialEq> Held<T> {
    pub(super) const fn new() -> Self {
        Self(Mutex::new(Vec::new()))
    }

    /// The value held under `key` that equals `value` (compared whole, not only by key),
    /// else `value`, held from now on.
    pub(super) fn share(&self, key: u64, value: T) -> Arc<T> {
        let mut held = self.0.lock().unwrap_or_else(|e| e.into_inner());
        held.retain(|(_, v)| v.strong_count() > 0);
        let same = held
            .iter()
            .filter(|(k, _)| *k == key)
            .filter_map(|(_, v)| v.upgrade())
            .find(|v| **v == value);
        if let Some(same) = same {
            return same;
        }
        let value = Arc::new(value);
        held.push((key, Arc::downgrade(&value)));
        value
    }
}

/// The key a value parsed from `text` is held under.
pub(super) fn key_of(text: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

/// The large responses alive in this process.
static RESPONSES: Held<Value> = Held::new();

/// `value`, parsed from `text`, as a shared tree: the one already held for the same text
/// when there is one, else a new one that later identical lines will share.
pub(super) fn share(text: &str, value: Value) -> Arc<Value> {
    if text.len() < SHARED_AT_LEAST {
        return Arc::new(value);
    }
    RESPONSES.share(key_of(text), value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(id: u64, size: usize) -> String {
        let values: Vec<String> = (0..size).map(|i| format!("\"v{i}\"")).collect();
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[{{"name":"echo","enum":[{}]}}]}}}}"#,
            values.join(",")
        )
    }

    fn shared(text: &str) -> Arc<Value> {
        share(text, serde_json::from_str(text).unwrap())
    }

    #[test]
    fn an_identical_large_response_shares_the_tree_held() {
        let text = listing(3, 20_000);
        let (first, second) = (shared(&text), shared(&text));
        assert!(Arc::ptr_eq(&first, &second));
        assert_eq!(second["id"], 3);
    }

    #[test]
    fn another_id_small_lines_and_freed_trees_are_not_shared() {
        let (a, b) = (shared(&listing(4, 20_000)), shared(&listing(5, 20_000)));
        assert!(!Arc::ptr_eq(&a, &b));
        assert_eq!((a["id"].as_u64(), b["id"].as_u64()), (Some(4), Some(5)));
        let small = listing(6, 10);
        assert!(!Arc::ptr_eq(&shared(&small), &shared(&small)));
        let text = listing(7, 20_000);
        let first = shared(&text);
        let weak = Arc::downgrade(&first);
        drop(first);
        assert!(weak.upgrade().is_none(), "the table holds no tree alive");
        assert_eq!(shared(&text)["id"], 7);
    }
}

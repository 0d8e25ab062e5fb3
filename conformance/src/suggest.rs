//! "Did you mean ...?" for names a user types: revisions, check ids, check globs.
//!
//! A misspelt name must never quietly select nothing (a typo'd revision used to run zero
//! tests and pass): every place that looks a user's name up rejects an unknown one, and
//! this module supplies the nearest known name (by edit distance) for the message.

use crate::protocol::REVISIONS;

/// The candidate nearest to `input` by edit distance, when it is near enough to be a
/// plausible typo (at most a third of the input's length, and at least 1 edit allowed).
pub fn nearest<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (input.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (distance(input, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// `; did you mean `X`?` for the nearest candidate, or nothing.
pub fn did_you_mean<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    nearest(input, candidates).map_or_else(String::new, |c| format!("; did you mean `{c}`?"))
}

/// Why a revision name is unknown: the nearest known one and the whole list.
pub fn unknown_revision(name: &str) -> String {
    // The names a user may type: each id, then its aliases (`draft`).
    let known: Vec<&str> = REVISIONS
        .iter()
        .flat_map(|r| std::iter::once(r.id).chain(r.aliases.iter().copied()))
        .collect();
    format!(
        "unknown revision `{name}`{} (known: {})",
        did_you_mean(name, known.iter().copied()),
        known.join(", ")
    )
}

/// Why a check id (or a glob over check ids) selects nothing: the nearest id of the
/// catalog.
pub fn unknown_check(id: &str) -> String {
    let ids = crate::checks::CATALOG.iter().map(|c| c.id.as_str());
    let hint = match id.find(['*', '?', '[']) {
        // A glob: its literal prefix against the ids' prefixes ("tol-*": "tool-*").
        Some(at) if at > 0 => {
            let prefix = &id[..at];
            // Prefixes one shorter, as long, and one longer: a letter dropped or added.
            let mut prefixes: Vec<&str> = ids
                .flat_map(|c| (at.saturating_sub(1)..=at + 1).filter_map(move |n| c.get(..n)))
                .collect();
            prefixes.sort_unstable();
            prefixes.dedup();
            nearest(prefix, prefixes)
                .filter(|p| *p != prefix)
                .map_or_else(String::new, |p| {
                    format!("; did you mean `{p}{}`?", &id[at..])
                })
        }
        Some(_) => String::new(),
        None => did_you_mean(id, ids),
    };
    let what = if id.contains(['*', '?', '[']) {
        format!("no check id matches `{id}`")
    } else {
        format!("unknown check `{id}`")
    };
    format!("{what}{hint} (`mcp-conformance list` prints them all)")
}

/// Levenshtein distance over chars.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_near_name_is_suggested_and_a_far_one_is_not() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
        let revs = ["2025-03-26", "2025-06-18", "2025-11-25"];
        assert_eq!(nearest("2025-06-19", revs), Some("2025-06-18"));
        assert_eq!(nearest("latest", revs), None);
        assert!(unknown_revision("2025-06-19").contains("did you mean `2025-06-18`?"));
        assert!(unknown_check("lc-inti-result").contains("did you mean `lc-init-result`?"));
        assert!(!unknown_check("zzzzzzzzzzzz").contains("did you mean"));
        assert!(unknown_check("tool-nmae-*").contains("did you mean `tool-name-*`?"));
        assert!(!unknown_check("*zz").contains("did you mean"));
    }
}

//! The ordered table of every check, in the order of the spec's chapters.
//!
//! A row is everything about a check: its stable id (which becomes a [`CheckId`] variant, so
//! no other file names a check by string), title, level per revision, the revisions it
//! applies to, the REQUIREMENTS.md id, the spec source, the judge, the failure kinds of
//! the generated phases it reports, whether it restates other rows and whether the live
//! oracle reports it, and its explanation (`explain/<id>.md`, pulled in at compile time).
//! Ids are stable and never reused. The rows are in `rules/rows.rs`, beneath the checks,
//! because the rule book's ids come from them too; this file gives each row its judge.

use super::model::{Applies, Check, Cite, Grade, Level};
use super::{
    edges, http, http_modern, http_sse, jsonrpc, lifecycle, modern, progress, property, schema,
    tools,
};
use crate::protocol::Rev::*;
use crate::rules::CheckId;
use crate::rules::FailureKind::*;

const MUST: Grade = Grade::Fixed(Level::Must);
const SHOULD: Grade = Grade::Fixed(Level::Should);
const SCHEMA: Grade = Grade::Fixed(Level::Schema);
const JSONRPC: Grade = Grade::Fixed(Level::JsonRpc);
const POLICY: Grade = Grade::Fixed(Level::Policy);

/// Declares [`CATALOG`] from the rows (`rules/rows.rs`, which `rules/ids.rs` expands into
/// [`CheckId`] too, so the two cannot drift: a row's index is its id's discriminant).
macro_rules! catalog {
    ($( $variant:ident = $id:literal {
        title: $title:expr,
        level: $level:expr,
        requirement: $requirement:expr,
        applies: $applies:expr,
        source: $source:expr,
        judge: $judge:expr,
        kinds: $kinds:expr,
        $(restates: $restates:expr,)?
        $(live: $live:expr,)?
        $(process: $process:expr,)?
    } )*) => {
        /// Every check, in report order.
        pub static CATALOG: &[Check] = &[
            $( Check {
                id: CheckId::$variant,
                // The rows are `include!`d from `rules/`: the path is the crate's own.
                text: include_str!(concat!(
                    env!("CARGO_MANIFEST_DIR"), "/src/checks/explain/", $id, ".md"
                )),
                title: $title,
                level: $level,
                requirement: $requirement,
                applies: $applies,
                source: $source,
                judge: $judge,
                kinds: $kinds,
            }, )*
        ];
    };
}

include!("../rules/rows.rs");

impl CheckId {
    /// The catalog row of this id.
    pub fn check(self) -> &'static Check {
        &CATALOG[self as usize]
    }
}

/// A check by id.
pub fn find(id: &str) -> Option<&'static Check> {
    CheckId::parse(id).map(CheckId::check)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_kebab_case_and_in_table_order() {
        let mut ids: Vec<&str> = CATALOG.iter().map(|c| c.id.as_str()).collect();
        for (i, check) in CATALOG.iter().enumerate() {
            assert_eq!(check.id as usize, i, "{}", check.id);
        }
        for id in &ids {
            assert!(
                id.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{id}"
            );
        }
        ids.sort_unstable();
        let n = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), n, "duplicate check id");
    }

    #[test]
    fn every_failure_kind_is_reported_by_exactly_one_check() {
        for kind in crate::rules::FailureKind::ALL {
            let n = CATALOG.iter().filter(|c| c.kinds.contains(kind)).count();
            assert_eq!(n, 1, "{kind:?}");
        }
    }
}

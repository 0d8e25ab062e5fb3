//! The coverage table (`reports/spec-coverage.md`) stays honest against the requirements
//! catalog (`spec/REQUIREMENTS.md`) and the check catalog.
//!
//! Every requirement id of the sections the suite covers (2, 3.1-3.4, 4, 5, 6.1-6.4, 7, 8) has
//! a row in the table; a row names at least one check or says why none judges the rule; a
//! row names only checks the catalog has; and an id a catalog row cites (in any revision)
//! names that check in its row. Nothing here is a hard-coded result: an id added to
//! REQUIREMENTS.md without a row, a check renamed, or a citation added without updating
//! the table fails.

use std::collections::{BTreeMap, BTreeSet};

use mcp_conformance::checks::{find, Cite, CATALOG};

const REQUIREMENTS: &str = include_str!("../../spec/REQUIREMENTS.md");
const TABLE: &str = include_str!("../../reports/spec-coverage.md");

/// Whether a section (`2`, or `3.4`) is one the table must cover.
fn covered_section(section: u32, sub: Option<u32>) -> bool {
    match section {
        2 | 4 | 5 | 7 | 8 => true,
        3 => sub.is_some_and(|s| (1..=4).contains(&s)),
        6 => sub.is_some_and(|s| (1..=4).contains(&s)),
        _ => false,
    }
}

/// The ids of the covered sections: the backticked ids that open an item line
/// ("- `ID` — ..." or "- `ID-A` / `ID-B` — ...").
fn requirement_ids() -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    let (mut section, mut sub) = (0, None);
    for line in REQUIREMENTS.lines() {
        if let Some(rest) = line.strip_prefix("## ") {
            section = leading_number(rest).unwrap_or(0);
            sub = None;
            continue;
        }
        if let Some(rest) = line.strip_prefix("### ") {
            let mut parts = rest.split(['.', ' ']);
            section = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
            sub = parts.next().and_then(|p| p.parse().ok());
            continue;
        }
        let Some(item) = line.strip_prefix("- `") else {
            continue;
        };
        let Some((head, _)) = item.split_once(" — ") else {
            continue;
        };
        if !covered_section(section, sub) {
            continue;
        }
        ids.extend(
            backticked(&format!("`{head}"))
                .into_iter()
                .filter(|t| is_id(t)),
        );
    }
    ids
}

fn leading_number(text: &str) -> Option<u32> {
    let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// The backticked spans of a text.
fn backticked(text: &str) -> Vec<String> {
    text.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s.to_string())
        .collect()
}

/// A requirement id: upper-case letters, digits, dots and dashes.
fn is_id(token: &str) -> bool {
    !token.is_empty()
        && token.starts_with(|c: char| c.is_ascii_uppercase())
        && token
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-' || c == '.')
}

/// One row of the table's first section.
struct Row {
    checks: Vec<String>,
    reason: String,
}

/// The rows of the "Requirement ids" table, by id: `| `ID` | revisions | level | checks | why |`.
fn table_rows() -> BTreeMap<String, Row> {
    let section = TABLE
        .split("\n## ")
        .find(|s| s.starts_with("Requirement ids"))
        .expect("reports/spec-coverage.md has a \"Requirement ids\" section");
    let mut rows = BTreeMap::new();
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        assert_eq!(cells.len(), 5, "a row has 5 cells: {line}");
        let id = cells[0].trim_matches('`').to_string();
        let row = Row {
            checks: backticked(cells[3]),
            reason: cells[4].to_string(),
        };
        assert!(rows.insert(id.clone(), row).is_none(), "{id} has two rows");
    }
    rows
}

/// The ids each catalog check cites, in any revision.
fn cited() -> BTreeMap<&'static str, BTreeSet<&'static str>> {
    let mut out: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for check in CATALOG {
        let ids = match check.requirement {
            Cite::One(id) => vec![id],
            Cite::Changes { before, id, .. } => vec![before, id],
        };
        for id in ids {
            out.entry(id).or_default().insert(check.id.as_str());
        }
    }
    out
}

#[test]
fn the_requirements_parse_into_the_expected_sections() {
    let ids = requirement_ids();
    // One id from each covered section, and none from the sections left out.
    for id in [
        "RPC-ID-ECHO",
        "LC-PING",
        "TL-PARAMS-OPTIONAL",
        "TC-TASK-CREATE",
        "LCN-SHAPE",
    ] {
        assert!(ids.contains(id), "{id} not parsed");
    }
    for id in [
        "TC-CONTENT-IMAGE",
        "TC-CONTENT-AUDIO",
        "PROG-STOP",
        "CANCEL-RACE",
    ] {
        assert!(ids.contains(id), "{id} not parsed");
    }
    for id in ["M-DISCOVER", "TC-MRTR-STATE", "M-HTTP-404"] {
        assert!(ids.contains(id), "{id} not parsed");
    }
    assert!(
        !ids.contains("LC-HTTP-SESSION"),
        "LC-HTTP-SESSION is outside the covered sections"
    );
}

#[test]
fn every_requirement_id_has_a_row_with_checks_or_a_reason() {
    let rows = table_rows();
    let missing: Vec<String> = requirement_ids()
        .into_iter()
        .filter(|id| !rows.contains_key(id))
        .collect();
    assert!(
        missing.is_empty(),
        "ids without a row in reports/spec-coverage.md: {missing:?}"
    );
    let empty: Vec<&String> = rows
        .iter()
        .filter(|(_, row)| row.checks.is_empty() && row.reason.is_empty())
        .map(|(id, _)| id)
        .collect();
    assert!(
        empty.is_empty(),
        "rows with neither a check nor a reason: {empty:?}"
    );
}

#[test]
fn the_table_names_only_real_checks_and_ids() {
    let ids = requirement_ids();
    for (id, row) in table_rows() {
        assert!(
            ids.contains(&id),
            "row {id} is not an id of the covered sections"
        );
        for check in &row.checks {
            assert!(
                find(check).is_some(),
                "row {id} names {check}, no such check"
            );
        }
    }
    // The other sections name checks too: they must exist as well.
    for check in backticked(TABLE)
        .iter()
        .filter(|t| t.contains('-') && t.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
    {
        assert!(
            find(check).is_some(),
            "the table names {check}, no such check"
        );
    }
}

#[test]
fn an_id_a_check_cites_names_that_check_in_its_row() {
    let rows = table_rows();
    let ids = requirement_ids();
    for (id, checks) in cited() {
        if !ids.contains(id) {
            continue;
        }
        let row = &rows[id];
        for check in checks {
            assert!(
                row.checks.iter().any(|c| c == check),
                "{check} cites {id}, but the row of {id} does not name it"
            );
        }
    }
}

//! The coverage table (`reports/spec-coverage.md`) stays honest against the requirements
//! catalog (`spec/REQUIREMENTS.md`) and the check catalog.
//!
//! Every requirement id of the sections the suite covers (2, 3.1-3.4, 4, 5, 6.1-6.4, 7, 8) has
//! a row in the table; a row names at least one check or says why none judges the rule; a
//! row names only checks the catalog has; and an id a catalog row cites (in any revision)
//! names that check in its row. Nothing here is a hard-coded result: an id added to
//! REQUIREMENTS.md without a row, a check renamed, or a citation added without updating
//! the table fails. The Streamable HTTP pages are swept sentence by sentence too: every
//! MUST, SHOULD and REQUIRED sentence of the copies in `spec/pages/` is quoted in the
//! report's sweep section.

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

/// The Streamable HTTP pages the sentence sweep covers (issue 29), as shipped in
/// `spec/pages/`, and the part of each that is swept: from the heading that starts with
/// `from` to the next heading of the same or a higher level (the whole page for `None`).
const HTTP_PAGES: &[(&str, &str, Option<&str>)] = &[
    (
        "2025-03-26/transports.mdx",
        include_str!("../../spec/pages/2025-03-26/transports.mdx"),
        Some("## Streamable HTTP"),
    ),
    (
        "2025-06-18/transports.mdx",
        include_str!("../../spec/pages/2025-06-18/transports.mdx"),
        Some("## Streamable HTTP"),
    ),
    (
        "2025-11-25/transports.mdx",
        include_str!("../../spec/pages/2025-11-25/transports.mdx"),
        Some("## Streamable HTTP"),
    ),
    (
        "2026-07-28/streamable-http.mdx",
        include_str!("../../spec/pages/2026-07-28/streamable-http.mdx"),
        None,
    ),
    (
        "2026-07-28/tools.mdx",
        include_str!("../../spec/pages/2026-07-28/tools.mdx"),
        Some("#### x-mcp-header"),
    ),
];

/// Words quoted from the start of each sentence that the sweep's tables must hold.
const QUOTED_WORDS: usize = 12;

/// The swept part of a page: its lines from the heading `from` to the next heading of
/// that level or higher, code blocks and tables left out (a table row is not a sentence).
fn swept_lines<'a>(page: &'a str, from: Option<&str>) -> Vec<&'a str> {
    let mut lines = page.lines();
    let level = match from {
        // The whole page: no heading ends it.
        None => 0,
        Some(heading) => {
            lines
                .by_ref()
                .find(|l| l.trim_end() == heading)
                .unwrap_or_else(|| panic!("no heading {heading:?}"));
            heading.chars().take_while(|c| *c == '#').count()
        }
    };
    let mut out = Vec::new();
    let mut code = false;
    for line in lines {
        let hashes = line.chars().take_while(|c| *c == '#').count();
        if hashes > 0 && hashes <= level && line[hashes..].starts_with(' ') {
            // A heading of the swept part's level or higher ends it.
            break;
        }
        if line.trim_start().starts_with("```") {
            code = !code;
            continue;
        }
        if !code && !line.trim_start().starts_with('|') {
            out.push(line);
        }
    }
    out
}

/// The sentences of `lines` that hold an upper-case MUST, SHOULD or REQUIRED: a block
/// starts at a blank line, a heading or a list item, and splits after `.`, `?` or `!`
/// when an upper-case letter, a backtick or emphasis follows.
fn keyword_sentences(lines: &[&str]) -> Vec<String> {
    let mut blocks: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in lines {
        let text = line.trim();
        let item = text.starts_with("- ")
            || text.starts_with("* ")
            || text
                .split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok());
        if text.is_empty() || text.starts_with('#') || item {
            blocks.push(std::mem::take(&mut current));
        }
        let text = text.trim_start_matches(['-', '*', ' ']);
        let text = match text.split_once(". ") {
            Some((n, rest)) if n.parse::<u32>().is_ok() => rest,
            _ => text,
        };
        current.push(' ');
        current.push_str(text);
    }
    blocks.push(current);
    let mut sentences = Vec::new();
    for block in blocks {
        let plain = block.replace("**", "");
        let mut start = 0;
        let bytes = plain.as_bytes();
        for i in 0..bytes.len() {
            let ends = matches!(bytes[i], b'.' | b'?' | b'!')
                && bytes.get(i + 1) == Some(&b' ')
                && bytes
                    .get(i + 2)
                    .is_some_and(|c| c.is_ascii_uppercase() || *c == b'`' || *c == b'_');
            if ends {
                sentences.push(plain[start..=i].trim().to_string());
                start = i + 1;
            }
        }
        sentences.push(plain[start..].trim().to_string());
    }
    let keyword = |s: &String| {
        s.split(|c: char| !c.is_ascii_alphabetic())
            .any(|w| matches!(w, "MUST" | "SHOULD" | "REQUIRED"))
    };
    sentences.into_iter().filter(keyword).collect()
}

/// Lower-case words, markdown links reduced to their text, everything else a separator.
fn words(text: &str) -> Vec<String> {
    let mut plain = String::new();
    let mut rest = text;
    while let Some(open) = rest.find("](") {
        let Some(close) = rest[open..].find(')') else {
            break;
        };
        plain.push_str(&rest[..open]);
        rest = &rest[open + close + 1..];
    }
    plain.push_str(rest);
    plain
        .to_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Every MUST, SHOULD and REQUIRED sentence of the swept Streamable HTTP pages is quoted
/// (its first words) in the sweep's section of the coverage report, in the table of the
/// server's sentences or of the client's: a sentence the spec adds, or one dropped from
/// the report, fails.
#[test]
fn every_streamable_http_sentence_has_a_row() {
    let section = TABLE
        .split("\n## ")
        .find(|s| s.starts_with("Streamable HTTP, sentence by sentence"))
        .expect("reports/spec-coverage.md has the Streamable HTTP sweep");
    let quoted = format!(" {} ", words(section).join(" "));
    let mut missing = Vec::new();
    let mut swept = 0;
    for (page, text, from) in HTTP_PAGES {
        let sentences = keyword_sentences(&swept_lines(text, *from));
        // Every page has more than a handful: fewer means the sweep stopped early.
        assert!(sentences.len() >= 8, "{page}: only {sentences:?}");
        for sentence in sentences {
            swept += 1;
            let head: Vec<String> = words(&sentence).into_iter().take(QUOTED_WORDS).collect();
            if !quoted.contains(&format!(" {} ", head.join(" "))) {
                missing.push(format!("{page}: {sentence}"));
            }
        }
    }
    assert!(
        swept > 60,
        "only {swept} sentences found: the parsing broke"
    );
    assert!(
        missing.is_empty(),
        "{} of {swept} sentences have no row:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

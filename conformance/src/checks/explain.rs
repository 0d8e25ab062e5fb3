//! What each check requires, why it matters, and how to fix a server that fails it.
//!
//! A finding names a check id and a spec section, but a server author in a hurry still has
//! to find the sentence, work out what a client loses, and guess what to change.
//! `mcp-conformance explain ID` prints the check's explanation: the normative text,
//! quoted from `shared/spec/<revision>/` with its MUST or SHOULD (and, where the spec is
//! open, the REQUIREMENTS.md section 10 policy), how the suite grades it, what breaks for
//! clients, and a fix naming the SDK pitfalls seen in `reports/`.
//!
//! The texts live beside the catalog, one file per check (`explain/<id>.md`, with the
//! sections Requirement, Grading, Why and Fix), and are compiled into the catalog row.
//! The level part of the grading is generated from the row's data; the Grading section
//! holds only what the data cannot say (which outcomes a policy downgrades, when a check
//! skips).

use super::catalog::find;
use super::model::Check;

/// The explanation of one check, for a server author.
#[derive(Debug)]
pub struct Explanation {
    /// What the spec requires: the normative sentence quoted with its spec file and section,
    /// the suite's policy where the spec leaves the question open, and the grading.
    pub requirement: String,
    /// What breaks for clients and users when a server gets it wrong.
    pub why: &'static str,
    /// What to change in the server, with typical SDK pitfalls and a correct message.
    pub fix: &'static str,
}

/// The sections of an explanation file, in order.
const SECTIONS: [&str; 4] = ["## Requirement\n", "## Grading\n", "## Why\n", "## Fix\n"];

/// The four sections of a check's text; `None` when the file is not laid out as expected.
fn sections(text: &'static str) -> Option<[&'static str; 4]> {
    let mut out = [""; 4];
    let mut rest = text.strip_prefix(SECTIONS[0])?;
    for (i, next) in SECTIONS.iter().enumerate().skip(1) {
        let at = rest.find(&format!("\n{next}"))?;
        out[i - 1] = rest[..at].trim();
        rest = &rest[at + 1 + next.len()..];
    }
    out[3] = rest.trim();
    Some(out)
}

/// The explanation of `check`.
pub fn explanation(check: &Check) -> Explanation {
    let [requirement, grading, why, fix] =
        sections(check.text).expect("explain files are checked by a test");
    let graded = check.level.graded(check.applies);
    let requirement = if grading.is_empty() {
        format!("{requirement}\nGraded: {graded}.")
    } else {
        format!("{requirement}\nGraded: {graded}. {grading}")
    };
    Explanation {
        requirement,
        why,
        fix,
    }
}

/// The explanation of the check `id`, or `None` for an id the catalog does not have.
pub fn explain(id: &str) -> Option<Explanation> {
    find(id).map(explanation)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::CATALOG;

    #[test]
    fn every_check_has_all_four_sections_and_a_text_to_show() {
        for check in CATALOG {
            let [requirement, _, why, fix] = sections(check.text)
                .unwrap_or_else(|| panic!("explain/{}.md: sections out of order", check.id));
            for (name, text) in [("Requirement", requirement), ("Why", why), ("Fix", fix)] {
                assert!(!text.is_empty(), "{}: empty {name}", check.id);
            }
        }
    }

    #[test]
    fn grading_sections_do_not_restate_the_level() {
        // The level per revision is the row's data; a text that says "fail in every
        // revision" by hand would drift from it.
        for check in CATALOG {
            let [_, grading, ..] = sections(check.text).unwrap();
            for stated in [
                "fail in every",
                "warning in every",
                "fail from",
                "warning from",
            ] {
                assert!(
                    !grading.starts_with(stated),
                    "{}: the Grading section restates the level",
                    check.id
                );
            }
        }
    }

    #[test]
    fn graded_lines_follow_the_level_data() {
        let dialect = find("tool-schema-dialect").unwrap();
        assert!(explanation(dialect)
            .requirement
            .contains("Graded: warning (POLICY) before 2025-11-25, fail (MUST) from it."));
        let ping = find("lc-ping").unwrap();
        assert!(explanation(ping)
            .requirement
            .contains("Graded: fail in every handshake revision (MUST)."));
    }
}
